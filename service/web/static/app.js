// Referee's web app: the games, a Chat and a Rulebook tab per game, and a dispute page.
// Plain modules, no build step. Everything is drawn from the public API (/v1) with textContent,
// never innerHTML, so no rulebook text or answer can inject markup.

import { h } from "./dom.js";

const UI_LANGS = [["en", "English"], ["fr", "Français"], ["de", "Deutsch"], ["zh-Hans", "简体中文"], ["zh-Hant", "繁體中文"]];
const API_LANG = { en: "en", fr: "fr", de: "de", "zh-Hans": "zh", "zh-Hant": "zh" };
const CHAT_KEEP = 50; // turns of a conversation kept in the browser

let STRINGS = {};
let ui = "en";
let games = null; // GET /v1/games, once
const cache = new Map(); // GET answers by path

// ---------------------------------------------------------------- helpers

export function pickLanguage(saved, preferred) {
  if (saved && API_LANG[saved]) return saved;
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    if (lower.startsWith("zh")) return /hant|tw|hk|mo/.test(lower) ? "zh-Hant" : "zh-Hans";
    const base = lower.split("-")[0];
    if (API_LANG[base]) return base;
  }
  return "en";
}

function t(key, vars = {}) {
  const text = (STRINGS[ui] && STRINGS[ui][key]) ?? STRINGS.en?.[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
}

class Problem extends Error {
  constructor(problem) {
    super(problem.detail || problem.title || "error");
    this.problem = problem;
  }
}

async function api(path, body, { fresh = false } = {}) {
  if (!body && !fresh && cache.has(path)) return cache.get(path);
  let response;
  try {
    const form = body instanceof FormData; // a file's upload: the browser writes its multipart type
    response = await fetch(path, {
      method: body ? "POST" : "GET",
      cache: fresh ? "no-cache" : "default",
      headers: { "Accept-Language": ui, ...(body && !form ? { "Content-Type": "application/json" } : {}) },
      body: body && !form ? JSON.stringify(body) : body,
    });
  } catch {
    throw new Problem({ headline: t("offline"), detail: path });
  }
  const data = await response.json().catch(() => ({ detail: response.statusText }));
  if (!response.ok) throw new Problem(data);
  if (!body) cache.set(path, data);
  return data;
}

const langName = (code) => t(`lang.${code}`);
const gameName = (game) => STRINGS[ui]?.[`game.${game.id}`] || game.names[API_LANG[ui]] || game.names.en || game.id;

// A passage's place in its own game's rulebook (a passage id starts with its game's: an answer on one
// game's page may come from another game the question named).
function rulebookHref(game, lang, passageId, quote) {
  const mark = quote ? `?mark=${encodeURIComponent(quote)}` : "";
  return `/games/${passageId.split(".")[0] || game.id}/rulebook/${lang}${mark}#${encodeURIComponent(passageId)}`;
}

// Text with every occurrence of a needle marked (case- and accent-insensitive).
const fold = (s) => s.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase();

function marked(text, needles) {
  const spans = [];
  const folded = fold(text);
  const sameLength = folded.length === text.length; // folding kept offsets: match case-insensitively
  for (const needle of needles.filter(Boolean)) {
    const [hay, pin] = sameLength ? [folded, fold(needle)] : [text, needle];
    for (let at = hay.indexOf(pin); pin && at >= 0; at = hay.indexOf(pin, at + pin.length)) {
      spans.push([at, at + pin.length]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  const out = [];
  let pos = 0;
  for (const [start, end] of spans) {
    if (start < pos) continue;
    out.push(text.slice(pos, start), h("mark", {}, text.slice(start, end)));
    pos = end;
  }
  out.push(text.slice(pos));
  return out;
}

function load(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
}
function save(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* storage full or off: keep going */ }
}

// A headline in the interface language; the API's own words (English) folded away beneath it.
const HEADLINES = { 400: "error.400", 403: "error.403", 404: "error.404", 409: "error.409", 413: "error.413",
  415: "error.415", 422: "error.422" };

function errorBox(error, headlines = HEADLINES) {
  const problem = error.problem || {};
  const key = headlines[problem.status] || HEADLINES[problem.status];
  const headline = problem.headline || (key ? t(key) : null);
  if (!headline) return h("p", { class: "error", role: "alert" }, error.message);
  const fields = problem.errors ? Object.entries(problem.errors).map(([field, messages]) =>
    h("li", {}, h("code", {}, field), " ", [].concat(messages).map(String).filter((m, i, all) => all.indexOf(m) === i).join(" "))) : [];
  return h("div", { class: "error", role: "alert" }, h("p", {}, h("strong", {}, headline)),
    h("details", {}, h("summary", {}, t("details")), h("p", { lang: "en" }, error.message),
      fields.length > 0 && h("ul", { lang: "en" }, fields.slice(0, 12))));
}

// ---------------------------------------------------------------- pages

const main = () => document.getElementById("main");

function show(title, ...content) {
  document.title = title ? `${title} · Referee` : "Referee";
  main().replaceChildren(...content);
}

async function home() {
  const cards = games.map((game) => {
    const offers = [
      h("a", { class: "button", href: `/games/${game.id}/chat` }, t("chat")),
      h("a", { class: "button quiet", href: `/games/${game.id}/rulebook` }, t("rulebook")),
      game.adjudicator && h("a", { class: "button", href: `/games/${game.id}/dispute` }, t("dispute")),
    ];
    return h("li", { class: "card" },
      h("h2", {}, gameName(game)),
      h("p", { class: "meta" }, t("rulebooksIn", { langs: new Intl.ListFormat(ui).format(game.rulebooks.map(langName)) })),
      game.players?.min && h("p", { class: "meta", title: game.players.stated ? null : game.players.note },
        t(game.players.stated ? "players" : "playersInferred", game.players)),
      h("nav", { class: "actions", "aria-label": `${gameName(game)}: ${t("offers")}` }, offers));
  });
  const phone = h("section", { class: "phone", hidden: true });
  show(null, h("h1", {}, t("games")), h("p", { class: "muted" }, t("tagline")), h("ul", { class: "cards" }, cards),
    h("p", {}, h("a", { class: "button quiet", href: "/add" }, t("addGame"))), phone);
  // Where phones at the table open Referee, when the server listens on the network (GET /app/phone).
  const where = await fetch("/app/phone").then((r) => (r.ok ? r.json() : null)).catch(() => null);
  if (where && location.href !== where.url) {
    phone.replaceChildren(h("h2", {}, t("onAPhone")), h("p", {}, t("scanOrOpen"), " ", h("a", { href: where.url }, where.url)),
      h("img", { src: where.qr, alt: `${t("qrOf")} ${where.url}`, width: "164", height: "164" }));
    phone.hidden = false;
  }
}

// ---------------------------------------------------------------- adding a game

// A game id from its name: ASCII words joined by hyphens, as the API asks ("Café Chaos!" -> "cafe-chaos").
export function gameId(name) {
  const words = name.normalize("NFKD").replace(/ß/g, "ss").replace(/\p{M}/gu, "").toLowerCase().match(/[a-z0-9]+/g);
  return (words || []).join("-").slice(0, 40).replace(/-+$/, "");
}

async function addPage() {
  const file = h("input", { type: "file", name: "file", required: true, accept: ".pdf,.md,.markdown,.txt,.html,.htm" });
  const name = h("input", { type: "text", name: "name", required: true, maxlength: 80, autocomplete: "off" });
  const id = h("input", { type: "text", name: "game", required: true, maxlength: 40, pattern: "[a-z0-9]+(-[a-z0-9]+)*",
    autocomplete: "off", spellcheck: "false" });
  const lang = h("select", { name: "lang" }, h("option", { value: "" }, t("add.detect")),
    ["en", "fr", "de", "zh"].map((code) => h("option", { value: code }, langName(code))));
  let idTouched = false;
  id.addEventListener("input", () => { idTouched = true; });
  name.addEventListener("input", () => { if (!idTouched) id.value = gameId(name.value); });
  file.addEventListener("change", () => {
    if (!name.value && file.files[0]) {
      name.value = file.files[0].name.replace(/\.[^.]+$/, "").replace(/[._-]+/g, " ").trim();
      if (!idTouched) id.value = gameId(name.value);
    }
  });
  const status = h("div", { "aria-live": "polite" });
  const submit = h("button", { type: "submit" }, t("add.submit"));
  const form = h("form", { class: "add", onsubmit: async (event) => {
    event.preventDefault();
    submit.disabled = true;
    status.replaceChildren(h("p", { class: "loading" }, t("add.reading")));
    const body = new FormData();
    body.append("file", file.files[0]);
    body.append("name", name.value.trim());
    if (lang.value) body.append("lang", lang.value);
    try {
      let job = await api(`/v1/games/${encodeURIComponent(id.value)}/rulebooks`, body);
      status.replaceChildren(foundView(job), h("p", { class: "loading" }, t("add.building")));
      while (job.status === "building") {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        job = await api(job.links.upload, undefined, { fresh: true });
      }
      if (job.status !== "ready") throw new Problem({ status: 422, detail: job.error });
      await new Promise((resolve) => setTimeout(resolve, 2500)); // every worker moves to the new index
      cache.clear();
      games = (await api("/v1/games", undefined, { fresh: true })).games;
      status.replaceChildren(foundView(job), h("p", {}, h("strong", {}, t("add.ready"))),
        h("nav", { class: "actions" }, h("a", { class: "button", href: `/games/${job.game}/chat` }, t("chat")),
          h("a", { class: "button quiet", href: `/games/${job.game}/rulebook` }, t("rulebook"))));
    } catch (error) {
      status.replaceChildren(errorBox(error, { 422: "add.unreadable" }));
    } finally {
      submit.disabled = false;
    }
  } },
  h("label", {}, h("span", {}, t("add.file")), file),
  h("p", { class: "meta" }, t("add.fileHint")),
  h("label", {}, h("span", {}, t("add.name")), name),
  h("label", {}, h("span", {}, t("add.id")), id),
  h("label", {}, h("span", {}, t("add.lang")), lang),
  submit);
  show(t("addGame"), h("h1", {}, t("addGame")), h("p", { class: "muted" }, t("add.intro")), form, status);
}

function foundView(job) {
  return h("p", { class: "meta" }, t(job.pages ? "add.foundPages" : "add.found", {
    sections: job.sections, passages: job.passages, pages: job.pages, lang: langName(job.lang) }));
}

function notFound() {
  show(t("noGame"), h("h1", {}, t("noGame")), h("p", {}, h("a", { href: "/" }, t("backHome"))));
}

async function gamePage(game, tab, rest) {
  const tabs = ["chat", "rulebook", ...(game.adjudicator ? ["dispute"] : [])].map((name) =>
    h("a", { href: `/games/${game.id}/${name}`, "aria-current": name === tab ? "page" : null }, t(name)));
  const body = h("div", {}, h("p", { class: "loading" }, t("loading")));
  show(`${t(tab)} · ${gameName(game)}`, h("h1", {}, gameName(game)),
    h("nav", { class: "tabs", "aria-label": t("gameSections") }, tabs), body);
  try {
    body.replaceChildren(...await { chat, rulebook, dispute }[tab](game, rest));
  } catch (error) {
    body.replaceChildren(errorBox(error));
  }
}

// ---------------------------------------------------------------- chat

function citationLink(game, citation, label) {
  return h("a", { href: rulebookHref(game, citation.lang, citation.passage_id, citation.quote) }, label);
}

function answerView(game, reply, ask) {
  const parts = [h("p", { class: "msg", lang: reply.lang }, reply.message)];
  if (reply.did_you_mean) {
    parts.push(h("p", {}, h("button", { class: "link", type: "button", onclick: () => ask(reply.did_you_mean.text) },
      t("didYouMean", { q: reply.did_you_mean.text }))));
  }
  const answer = reply.answer;
  if (answer) {
    const p = answer.passage_text;
    if (!answer.sure) parts.push(h("p", {}, h("span", { class: "badge" }, t("notSure"))));
    parts.push(
      h("blockquote", { lang: answer.lang }, p.slice(0, answer.start), h("mark", {}, p.slice(answer.start, answer.end)), p.slice(answer.end)),
      h("p", { class: "meta" }, t("fromRulebook", { section: answer.section, lang: langName(answer.lang) }), " · ",
        h("a", { href: rulebookHref(game, answer.lang, answer.passage_id, answer.text) }, t("openInRulebook"))));
    // what the passage says in the asker's language: Referee's words, labelled so, never a quote
    if (answer.gist) parts.push(h("p", { class: "note gist", lang: answer.gist.lang },
      h("strong", {}, t(answer.gist.source === "written" ? "gistWritten" : "gistGlossary")), " ", answer.gist.text));
  } else {
    if (reply.citations.length > 0) parts.push(h("p", {}, h("span", { class: "badge" }, t("notInRulebooks"))), h("p", { class: "meta" }, t("closest")));
    for (const c of reply.citations) {
      parts.push(h("blockquote", { lang: c.lang }, c.quote),
        h("p", { class: "meta" }, citationLink(game, c, t("fromRulebook", { section: c.section, lang: langName(c.lang) }))));
    }
  }
  const d = reply.disagreement;
  if (d) {
    parts.push(h("div", { class: "note" },
      h("p", {}, h("span", { class: "badge" }, t("disagree")), " ", h("strong", { lang: reply.lang }, d.topic)),
      h("p", { lang: reply.lang }, d.summary),
      h("div", { class: "sides" }, d.sides.map((side) => h("div", {},
        h("blockquote", { lang: side.lang }, side.quote),
        h("p", { class: "meta" }, h("a", { href: rulebookHref(game, side.lang, side.passage_id, side.quote) }, langName(side.lang))))))));
  }
  const others = answer ? reply.citations.filter((c) => c.passage_id !== answer.passage_id) : [];
  if (others.length && !answer.sure) {  // not sure: the other passages whole, to compare
    parts.push(h("p", { class: "meta" }, t("checkAlso")));
    for (const c of others) {
      parts.push(h("blockquote", { lang: c.lang }, c.quote),
        h("p", { class: "meta" }, citationLink(game, c, t("fromRulebook", { section: c.section, lang: langName(c.lang) }))));
    }
  } else if (others.length) {
    parts.push(h("p", { class: "meta" }, t("sources")),
      h("ul", { class: "sources" }, others.map((c) => h("li", {},
        citationLink(game, c, `${c.section} (${langName(c.lang)})`), ": ", h("span", { lang: c.lang }, c.quote.length > 140 ? c.quote.slice(0, 140) + "…" : c.quote)))));
  }
  if (!answer?.sure && reply.citations.length) parts.push(pickView(game, reply));
  parts.push(shareView(game, reply));
  return h("div", { class: "a" }, parts);
}

// A link that asks the same question on this game's page (another phone at the table, a message),
// and the phone's own share sheet where it has one.
function shareView(game, reply) {
  const url = new URL(`/games/${game.id}/chat?q=${encodeURIComponent(reply.question)}`, location.origin).href;
  const share = navigator.share && h("button", { type: "button", class: "link", onclick: () =>
    navigator.share({ title: `${gameName(game)}: ${reply.question}`, url }).catch(() => {}) }, t("share"));
  return h("p", { class: "meta share" }, h("a", { href: url, target: "_blank", rel: "noopener" }, t("linkToAnswer")), share && " · ", share);
}

// Not sure, or refused: the player says which of the closest passages answered (POST /v1/feedback).
function pickView(game, reply) {
  const said = h("p", { class: "meta", "aria-live": "polite" });
  const pick = async (citation) => {
    try {
      await api("/v1/feedback", { question: reply.question, passage_id: citation.passage_id, game: game.id, helpful: true });
      said.textContent = t("pick.thanks");
    } catch (error) {
      said.replaceChildren(errorBox(error));
    }
  };
  return h("details", { class: "pick" }, h("summary", {}, t("pick.ask")),
    h("ul", {}, reply.citations.map((c) => h("li", {},
      h("button", { type: "button", class: "link", onclick: () => pick(c) }, t("pick.this", { section: c.section })),
      " ", h("span", { class: "meta", lang: c.lang }, c.quote.length > 80 ? c.quote.slice(0, 80) + "…" : c.quote)))), said);
}

function turnView(game, turn, ask) {
  return h("li", {}, h("p", { class: "q" }, turn.question),
    turn.error ? errorBox(new Error(turn.error)) : answerView(game, turn.reply, ask));
}

async function chat(game) {
  const key = `referee.chat.${game.id}`;
  let turns = load(key, []);
  const log = h("ol", { class: "chat-log", "aria-label": t("conversation"), "aria-live": "polite" });
  const input = h("input", { type: "text", id: "question", name: "question", maxlength: "500", autocomplete: "off",
    enterkeyhint: "send", placeholder: t("askPlaceholder"), "aria-label": t("yourQuestion") });
  const button = h("button", { type: "submit" }, t("ask"));
  const status = h("p", { class: "sr", role: "status" });

  async function ask(question) {
    question = question.trim();
    if (!question) return;
    performance.clearMarks("ask");
    performance.mark("ask");
    button.disabled = true;
    status.textContent = t("asking");
    const turn = { question };
    try {
      turn.reply = await api("/v1/ask", { question, game: game.id });
    } catch (error) {
      turn.error = error.message;
    }
    turns = [...turns, turn].slice(-CHAT_KEEP);
    save(key, turns);
    empty.remove();
    log.append(turnView(game, turn, ask));
    performance.measure("answer", "ask");
    button.disabled = false;
    status.textContent = "";
    input.value = "";
    log.lastElementChild.scrollIntoView({ block: "start" });  // the question, then its answer from the top
    input.focus();
  }

  for (const turn of turns) log.append(turnView(game, turn, ask));
  const suggestions = (t(`suggest.${game.id}`) || "").split("\n").filter((q) => q && !q.startsWith("suggest."));
  const empty = h("div", {}, h("p", { class: "muted" }, t("emptyChat")),
    suggestions.length > 0 && h("h2", {}, t("suggested")),
    h("ul", { class: "suggestions" }, suggestions.map((q) => h("li", {}, h("button", { type: "button", onclick: () => ask(q) }, q)))));
  const form = h("form", { class: "ask-form", onsubmit: (event) => { event.preventDefault(); ask(input.value); } }, input, button);
  const clear = h("button", { type: "button", class: "quiet", onclick: () => {
    turns = []; save(key, turns); log.replaceChildren(); log.before(empty); clear.classList.add("hidden");
  } }, t("clear"));
  if (turns.length) { empty.remove(); } else { clear.classList.add("hidden"); }
  const shared = new URLSearchParams(location.search).get("q");  // a shared answer's link: ask it here
  if (shared) {
    history.replaceState(null, "", location.pathname);
    setTimeout(() => ask(shared));
  }
  const top = h("div", { class: "row" }, h("span"), clear);
  return [top, turns.length ? "" : empty, log, status, form];
}

// ---------------------------------------------------------------- rulebook

function passageView(passage, disputes) {
  const dispute = disputes.get(passage.passage_id);
  return h("div", { class: `passage${dispute ? " disputed" : ""}`, id: passage.passage_id, tabindex: "-1", "data-text": passage.text },
    h("span", { class: "kind" }, t(`kind.${passage.kind}`), passage.page && ` · ${t("page", { page: passage.page })}`,
      dispute && " · ",
      dispute && h("a", { href: dispute.href }, `${t("disagreement")}${t("colon")}${dispute.topic[API_LANG[ui]] || dispute.topic.en}`)),
    h("span", { class: "text", lang: passage.lang }, passage.text));
}

function sectionView(book, section, disputes) {
  const level = Math.min(section.level + 1, 4);
  return h("section", { class: "section", id: `${book.lang}:${section.anchor}` },
    h(`h${level}`, { lang: book.lang }, section.title),
    section.passages.map((p) => passageView({ ...p, lang: book.lang }, disputes)));
}

// "French", "Chinese (1)", "Chinese (2)": a side's language, numbered when a text has several sides.
function sideLabel(disagreement, index) {
  const lang = disagreement.sides[index].lang;
  const same = disagreement.sides.filter((side) => side.lang === lang);
  if (same.length === 1) return langName(lang);
  return `${langName(lang)} (${disagreement.sides.slice(0, index + 1).filter((side) => side.lang === lang).length})`;
}

// Each disputed passage, with a link to the disagreement in the side-by-side view.
function disputesOf(detail, pairHref) {
  const byPassage = new Map();
  for (const d of detail.disagreements || []) {
    for (const side of d.sides) byPassage.set(side.passage_id, { ...d, href: `${pairHref}#d-${d.id}` });
  }
  return byPassage;
}

async function rulebook(game, rest) {
  const langs = game.rulebooks;
  const pair = langs.length > 1 ? langs.join("-") : null;
  let choice = rest || (langs.includes(API_LANG[ui]) ? API_LANG[ui] : langs[0]);
  if (!rest) history.replaceState(null, "", `/games/${game.id}/rulebook/${choice}${location.search}${location.hash}`);
  const shown = choice === pair ? langs : [choice];
  if (!shown.every((lang) => langs.includes(lang))) return [h("p", {}, t("noRulebook"))];
  const [detail, ...books] = await Promise.all([api(`/v1/games/${game.id}`), ...shown.map((lang) => api(`/v1/rulebooks/${game.id}/${lang}`))]);
  const disputes = disputesOf(detail, pair ? `/games/${game.id}/rulebook/${pair}` : "");

  const switcher = h("nav", { class: "langs", "aria-label": t("rulebookLanguage") },
    [...langs, ...(pair ? [pair] : [])].map((code) => h("a", { href: `/games/${game.id}/rulebook/${code}`, "aria-current": code === choice ? "page" : null },
      code === pair ? `${t("sideBySide")} (${langs.map((l) => l).join(" | ")})` : langName(code))));
  const search = h("input", { type: "search", id: "rulebook-search", "aria-label": t("searchRulebook"), placeholder: t("searchRulebook") });
  const count = h("p", { class: "meta", role: "status" });

  const notes = books.flatMap((book) => [
    book.provenance && h("details", { class: "note" }, h("summary", {}, `${t("provenance")} (${langName(book.lang)})`), h("p", { lang: "en" }, book.provenance),
      book.missing && h("p", {}, h("strong", {}, t("missing")), ": ", h("span", { lang: "en" }, book.missing))),
  ]);
  const toc = h("details", { class: "toc", open: window.innerWidth > 700 },
    h("summary", {}, t("contents")),
    h("ol", {}, books[0].sections.filter((s) => s.level === 1).map((s) =>
      h("li", {}, h("a", { href: `#${books[0].lang}:${s.anchor}` }, s.title)))));

  let body;
  if (books.length === 1) {
    body = h("div", { class: "book" }, books[0].sections.map((s) => sectionView(books[0], s, disputes)));
  } else {
    const anchors = [...new Set(books.flatMap((b) => b.sections.map((s) => s.anchor)))];
    body = h("div", { class: "book" }, anchors.map((anchor) => h("div", { class: "pair" }, books.map((book) => {
      const section = book.sections.find((s) => s.anchor === anchor);
      return h("div", {}, section ? sectionView(book, section, disputes) : "");
    }))));
  }
  const recorded = (detail.disagreements || []).length && books.length > 1
    ? h("section", { class: "note" }, h("h2", {}, t("recordedDisagreements")),
      h("ul", {}, detail.disagreements.map((d) => h("li", { id: `d-${d.id}` },
        h("strong", {}, d.topic[API_LANG[ui]] || d.topic.en), t("colon"), d.summary[API_LANG[ui]] || d.summary.en, " ",
        d.sides.map((side, i) => [h("a", { href: `#${side.passage_id}` }, sideLabel(d, i)), " "])))))
    : "";

  // Literal matches at once (accents and case folded); then Referee's own search, which also finds
  // other scripts, other word forms and other languages' words ("oven" in the French text).
  function show(needle, found) {
    let hits = 0;
    for (const el of body.querySelectorAll(".passage")) {
      const text = el.dataset.text;
      const literal = Boolean(needle) && fold(text).includes(fold(needle));
      const hit = !needle || literal || found.has(el.id);
      el.classList.toggle("hidden", !hit);
      el.querySelector(".text").replaceChildren(...(literal ? marked(text, [needle]) : [text]));
      hits += hit ? 1 : 0;
    }
    for (const section of body.querySelectorAll(".section")) {
      section.classList.toggle("hidden", Boolean(needle) && !section.querySelector(".passage:not(.hidden)"));
    }
    count.textContent = needle ? (hits ? t("matches", { n: hits }) : t("noMatch")) : "";
  }
  let pending = null;
  function filter() {
    const needle = search.value.trim();
    show(needle, new Set());
    clearTimeout(pending);
    if (!needle) return;
    pending = setTimeout(async () => {
      try {
        const found = await api(`/v1/search?${new URLSearchParams({ q: needle, game: game.id, limit: "10" })}`);
        if (search.value.trim() === needle) show(needle, new Set(found.hits.map((hit) => hit.passage_id)));
      } catch { /* a question the search refuses: the literal matches stand */ }
    }, 250);
  }
  search.addEventListener("input", filter);
  return [h("div", { class: "rb-tools" }, switcher, search), count, ...notes, recorded, toc, body];
}

function openCited() {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  if (!target) return;
  const quote = new URLSearchParams(location.search).get("mark");
  if (target.classList.contains("passage")) {
    target.classList.add("cited");
    if (quote) target.querySelector(".text").replaceChildren(...marked(target.dataset.text, [quote]));
  }
  target.scrollIntoView({ block: "start" });
  target.focus({ preventScroll: true });
}

// ---------------------------------------------------------------- dispute

function parseJson(text) {
  try { return JSON.parse(text); } catch (error) { throw new Problem({ headline: t("badJson"), detail: error.message }); }
}

function verdictView(game, verdict, onApply) {
  const parts = [h("p", {}, h("span", { class: `badge ${verdict.legal ? "ok" : "bad"}` }, verdict.legal ? `✓ ${t("legal")}` : `✗ ${t("illegal")}`))];
  const violation = (v) => h("div", { class: "violation" },
    h("p", {}, h("strong", {}, v.message)),
    h("p", { class: "meta" }, `${t("code")}${t("colon")}`, h("code", {}, v.code)),
    v.interpretation && h("p", { class: "meta" }, `${t("interpretation")}${t("colon")}`, v.interpretation),
    v.citations.map((c) => [h("blockquote", { lang: c.lang }, c.quote),
      h("p", { class: "meta" }, h("a", { href: rulebookHref(game, c.lang, c.passage_id, c.quote) }, `${t("openInRulebook")} (${langName(c.lang)})`))]));
  parts.push(...verdict.violations.map(violation));
  const mistakes = verdict.outcome?.mistakes || [];
  if (mistakes.length) parts.push(h("h3", {}, t("mistakes")), ...mistakes.map((m) => violation({ ...m, message: `${t("player", { n: m.player + 1 })}: ${m.message}` })));
  // a legal move that the other reading of the rulebook's words would refuse: the table sees that it rests on a reading
  if (verdict.notes?.length) parts.push(h("h3", {}, t("otherReading")), ...verdict.notes.map(violation));
  if (verdict.legal && onApply) parts.push(h("button", { type: "button", onclick: onApply }, t("apply")));
  return h("div", {}, parts);
}

// A move or a hand as words: its kind first, then each field that says something, nested
// objects as "name count" pairs. ``say`` gives the game's own word for a key in the interface's
// language (GET /v1/games: adjudicator.words); what has none (card ids, spaces) stays as written.
function describe(value, say = (key) => key, named = () => null) {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map((v) => describe(v, say, named)).filter(Boolean).join(", ");
  if (typeof value !== "object") return typeof value === "string" ? named(value) ?? say(value) : String(value);
  const parts = [];
  for (const [key, inner] of Object.entries(value)) {
    if (key === "kind") continue;
    const text = describe(inner, say, named);
    if (text === "" || text === "0" || text === "false") continue;
    if (inner === true) { parts.push(say(key)); continue; }
    parts.push(typeof inner === "object" ? `${say(key)}: ${text}` : `${say(key)} ${text}`);
  }
  return [value.kind && say(value.kind), parts.join(" · ")].filter(Boolean).join(" — ");
}

// A card or an order of ``state`` by what is printed on it: "Bewegungskarte 3", "rot +2", "Tim le
// tondeur", "vert 1 (Salami 4 · Ananas 1)"; null for what is no card (a space, a pile).
function cardName(id, state, say) {
  const card = state?.cards?.[id];
  if (card?.kind === "movement" || card?.kind === "money") return `${say(`${card.kind}-card`)} ${card.value}`;
  if (card?.kind === "plus" || card?.kind === "minus") return `${t(`colour.${card.colour}`)} ${card.value > 0 ? "+" : ""}${card.value}`;
  if (card?.kind === "tim" || card?.kind === "benny") return say(card.kind);
  if (card?.kind === "ingredient") return `${say("ingredient")} ${id.split("-").pop()}`;
  const order = state?.orders?.[id];
  if (order) {
    const what = order.kind === "classic" ? describe(order.recipe, say) : say(order.kind);
    return `${t(`colour.${order.colour}`)} ${id.split("-").pop()} (${what})`;
  }
  return null;
}

// POST /score: each player's standing with one cited line per scoring rule, best first.
function standingsView(game, standings) {
  const names = new Intl.ListFormat(ui).format(standings.winners.map((i) => t("player", { n: i + 1 })));
  const cite = (line) => line.citations.map((c) =>
    [" ", h("a", { href: rulebookHref(game, c.lang, c.passage_id, c.quote), title: c.quote }, `(${langName(c.lang)})`)]);
  return h("section", { class: "standings" },
    h("h2", {}, t("standings")),
    h("p", {}, standings.final ? [h("strong", {}, t("gameOver")), " ", t("winners", { names })] : t("leading", { names })),
    h("ol", {}, standings.players.map((p) => {
      const name = h("strong", {}, `${t("player", { n: p.player + 1 })}${p.colour ? ` (${t(`colour.${p.colour}`)})` : ""}`);
      const lines = h("ul", {}, p.lines.map((line) => h("li", {}, line.message, cite(line))));
      // A secret character's points (Mamma) stay folded on the shared screen until the game is over.
      return h("li", {}, p.character && !standings.final
        ? h("details", {}, h("summary", {}, name, " ", t("revealSecret")), lines)
        : [name, lines]);
    })),
    standings.tie_break && h("p", { class: "meta" }, standings.tie_break.message, cite(standings.tie_break)));
}

async function dispute(game) {
  if (!game.adjudicator) return [h("p", {}, t("noAdjudicator"))];
  // the Dispute page's alone: other pages load less
  const [{ drawTable }, { movesPanel }] = await Promise.all([import("./table.js"), import("./moves.js")]);
  const key = `referee.dispute.${game.id}`;
  const route = (action) => `/v1/games/${game.id}/${action}`;
  const adj = game.adjudicator;
  const words = adj.words?.[ui] || adj.words?.[API_LANG[ui]] || {};
  const say = (word) => words[word] ?? word;
  let saved = load(key, {});
  let start = saved.start || null; // the state the log replays from

  const field = (label, control) => h("label", {}, label, control);
  const players = h("select", { id: "players" });
  for (let n = adj.players[0]; n <= adj.players[1]; n++) players.append(h("option", { value: n, selected: n === 3 }, n));
  const seed = h("input", { type: "number", id: "seed", value: saved.seed ?? Math.floor(Math.random() * 10000), min: "0" });
  const ruleset = adj.rulesets.length ? h("select", { id: "ruleset" }, adj.rulesets.map((r) => h("option", { value: r }, STRINGS.en[`ruleset.${r}`] ? t(`ruleset.${r}`) : r))) : null;
  const stateBox = h("textarea", { id: "state", rows: "6", spellcheck: "false" });
  const moveBox = h("textarea", { id: "move", rows: "4", spellcheck: "false" });
  const logBox = h("textarea", { id: "log", rows: "4", spellcheck: "false" });
  const status = h("div", { role: "status" });
  const board = h("div"); // the table, drawn (table.js)
  const score = h("div");
  const verdictOut = h("div", { class: "verdict", "aria-live": "polite" });
  const replayOut = h("div", { "aria-live": "polite" });

  const persist = () => save(key, { start, state: stateBox.value, log: logBox.value, seed: seed.value });

  // Moves by tapping (moves.js): the legal moves, and a move built from the game's own components.
  const tap = movesPanel({ h, t, say, api, route, ui, lang: API_LANG[ui], adjudicator: adj, describe, errorBox,
    named: (id, state) => cardName(id, state, say), verdictView: (verdict) => verdictView(game, verdict),
    showMove: (move) => { moveBox.value = JSON.stringify(move, null, 1); },
    play: async (played, after) => {
      logBox.value = JSON.stringify([...parseJson(logBox.value || "[]"), ...played]);
      moveBox.value = "";
      await setState(after);
    } });

  async function refresh() {
    verdictOut.replaceChildren();
    if (!stateBox.value.trim()) { status.replaceChildren(h("p", { class: "muted" }, t("needState"))); tap.clear(); score.replaceChildren(); return; }
    try {
      const state = parseJson(stateBox.value);
      const named = (id) => cardName(id, state, say);
      board.replaceChildren(drawTable(game.id, state, { t, say, named, lang: ui }) ?? "");
      const [listed, standings] = await Promise.all([api(route("legal-moves"), { state }),
        api(route("score"), { state, lang: API_LANG[ui] })]);
      const turn = Number.isInteger(state.turn) ? state.turn : null;
      const player = turn !== null ? state.players?.[turn] : null;
      const colour = player?.colour ? t(`colour.${player.colour}`) : null;
      status.replaceChildren(listed.result ? "" : h("div", {},
        h("p", {}, h("strong", {}, turn === null ? "" : colour ? t("turnOfColour", { n: turn + 1, colour }) : t("turnOf", { n: turn + 1 })))));
      score.replaceChildren(standingsView(game, standings));
      tap.show(state, listed.moves);
      persist();
    } catch (error) {
      status.replaceChildren(errorBox(error));
      board.replaceChildren();
      tap.clear();
      score.replaceChildren();
    }
  }

  function setState(state, { fresh = false } = {}) {
    stateBox.value = JSON.stringify(state, null, 1);
    if (fresh) { start = state; logBox.value = "[]"; }
    return refresh();
  }

  async function startGame() {
    try {
      const body = { players: Number(players.value), seed: Number(seed.value) || 0, ...(ruleset ? { options: { ruleset: ruleset.value } } : {}) };
      const made = await api(route("setup"), body);
      await setState(made.state, { fresh: true });
    } catch (error) { status.replaceChildren(errorBox(error)); }
  }

  async function check() {
    verdictOut.replaceChildren();
    try {
      const state = parseJson(stateBox.value);
      const move = parseJson(moveBox.value);
      const verdict = await api(route("adjudicate"), { state, move, lang: API_LANG[ui] });
      verdictOut.replaceChildren(verdictView(game, verdict, async () => {
        const log = parseJson(logBox.value || "[]");
        logBox.value = JSON.stringify([...log, move]);
        moveBox.value = "";
        await setState(verdict.state);
      }));
    } catch (error) { verdictOut.replaceChildren(errorBox(error)); }
  }

  async function replay() {
    replayOut.replaceChildren();
    try {
      const pasted = parseJson(logBox.value || "[]");
      const body = Array.isArray(pasted) ? { state: start ?? parseJson(stateBox.value), moves: pasted } : pasted;
      const result = await api(route("replay"), { ...body, lang: API_LANG[ui] });
      const bad = result.first_illegal;
      replayOut.replaceChildren(bad
        ? h("div", {}, h("p", {}, h("span", { class: "badge bad" }, t("firstIllegal", { i: bad.index + 1 }))),
          h("p", { class: "move", translate: "no" }, describe(bad.move, say, (id) => cardName(id, bad.state_before, say))), verdictView(game, bad.verdict),
          h("button", { type: "button", onclick: async () => {
            moveBox.value = JSON.stringify(bad.move, null, 1);
            await setState(bad.state_before);
            verdictOut.replaceChildren(verdictView(game, bad.verdict));
            moveBox.focus();
          } }, t("jump")))
        : h("p", {}, h("span", { class: "badge ok" }, t("allLegal", { n: result.checked }))));
    } catch (error) { replayOut.replaceChildren(errorBox(error)); }
  }

  const view = [
    h("section", { class: "panel" }, h("h2", {}, t("startGame")),
      h("div", { class: "fields" }, field(t("playersCount"), players), field(t("seed"), seed), ruleset && field(t("ruleset"), ruleset),
        h("button", { type: "button", onclick: startGame }, t("start")))),
    h("section", { class: "panel" }, h("h2", {}, t("state")), board,
      // the state as JSON, to read or paste, behind a switch: the drawing above is what the table sees
      h("details", { class: "advanced" }, h("summary", {}, t("table.advanced")),
        h("p", { class: "meta" }, h("label", { for: "state" }, t("pasteState"))), stateBox,
        h("p", {}, h("button", { type: "button", class: "quiet", onclick: () => { try { setState(parseJson(stateBox.value), { fresh: true }); } catch (error) { status.replaceChildren(errorBox(error)); } } }, t("loadState")))),
      status),
    tap.element,
    h("section", { class: "panel" }, score),
    h("section", { class: "panel" }, h("h2", {}, h("label", { for: "move" }, t("yourMove"))), moveBox,
      h("p", {}, h("button", { type: "button", onclick: check }, t("check"))), verdictOut),
    h("section", { class: "panel" }, h("h2", {}, h("label", { for: "log" }, t("replayTitle"))),
      h("p", { class: "meta" }, t("replayHint")), logBox,
      h("p", {}, h("button", { type: "button", onclick: replay }, t("replay"))), replayOut),
  ];
  if (saved.state) { stateBox.value = saved.state; logBox.value = saved.log || "[]"; refresh(); } else { await startGame(); }
  return view;
}

// ---------------------------------------------------------------- routing

async function route() {
  const [, section, id, tab, rest] = location.pathname.split("/").map(decodeURIComponent);
  if (!section) return home();
  if (section === "add" && !id) return addPage();
  const game = section === "games" && games.find((g) => g.id === id);
  const known = ["chat", "rulebook", "dispute"];
  if (!game || (tab && !known.includes(tab)) || (rest && tab !== "rulebook")) return notFound();
  await gamePage(game, tab || "chat", rest);
  openCited();
}

function translateShell() {
  document.documentElement.lang = ui;
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
}

async function boot() {
  [STRINGS, games] = await Promise.all([api("/app/strings.json"), api("/v1/games").then((d) => d.games)]);
  ui = pickLanguage(localStorage.getItem("referee.ui"), navigator.languages || [navigator.language]);
  const picker = document.getElementById("ui-lang");
  picker.replaceChildren(...UI_LANGS.map(([code, name]) => h("option", { value: code, lang: code, selected: code === ui }, name)));
  picker.addEventListener("change", () => {
    ui = picker.value;
    localStorage.setItem("referee.ui", ui);
    translateShell();
    route();
  });
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[href]");
    if (!link || link.target || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const url = new URL(link.href);
    if (url.origin !== location.origin || url.pathname.startsWith("/v1") || url.pathname.startsWith("/docs")) return;
    event.preventDefault();
    const samePage = url.pathname === location.pathname;
    history.pushState(null, "", url);
    if (samePage && url.hash) { openCited(); return; }
    route().then(() => { if (!url.hash) { window.scrollTo(0, 0); main().focus({ preventScroll: true }); } });
  });
  window.addEventListener("popstate", route);
  translateShell();
  await route();
}

boot().catch((error) => main().replaceChildren(errorBox(error)));
// Installable, and usable offline once loaded (sw.js); the app works without it too.
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
