// The Dispute page's moves, by tapping: what the player to play can do now (the legal moves as
// buttons; a tap checks one), and a move the player wants to make, legal or not, built from the
// game's own components (the cards in the hand, the city's spaces, the players) rather than typed
// as JSON. A kind whose moves come in runs (Mamma's movement, space by space) is built as a path;
// a dance (Mammut Mambo) as what each dancer did.
//
// Nothing here knows a game: the kinds, their fields and where each field's choices come from in
// the state are GET /v1/games's adjudicator.moves (registry.move_shapes); the verdicts are the
// server's. app.js imports this module and hands it its helpers (``ctx``): the arrow points one way.

const LEGAL_SHOWN = 12; // legal moves listed before "Show all"
const MANY = 12; // choices beyond which one is picked from a drop-down

// ---------------------------------------------------------------- a state's components

// The value at a dotted path of the state; "{path}" in a segment is the value at another path.
function at(state, path) {
  let node = state;
  for (const raw of path.split(".")) {
    const key = raw.replace(/\{([^}]+)\}/g, (_, inner) => String(at(state, inner)));
    if (node === null || node === undefined) return undefined;
    node = node[key];
  }
  return node;
}

// The ids a path names: a list's items, an object's keys, one value; "*" any key or item.
function idsAt(state, path) {
  let nodes = [state];
  for (const raw of path.split(".")) {
    const key = raw.replace(/\{([^}]+)\}/g, (_, inner) => String(at(state, inner)));
    nodes = nodes.flatMap((node) => {
      if (node === null || typeof node !== "object") return [];
      return key === "*" ? Object.values(node) : [node[key]];
    });
  }
  return nodes.flatMap((node) => {
    if (node === null || node === undefined) return [];
    if (Array.isArray(node)) return node.filter((v) => typeof v !== "object");
    return typeof node === "object" ? Object.keys(node) : [node];
  });
}

// Where a field's values come from (adjudicator.moves[].fields[].choices), read in a state:
// a value as it is, "@path" (its ids; "?kind=x" only the cards of that kind), "#path" (the
// indices of the list there: the players).
export function choicesOf(field, state) {
  const out = [];
  for (const source of field.choices) {
    if (source.startsWith("#")) {
      const list = at(state, source.slice(1));
      if (Array.isArray(list)) out.push(...list.map((_, i) => i));
    } else if (source.startsWith("@")) {
      const [path, filter] = source.slice(1).split("?");
      let ids = idsAt(state, path);
      if (filter) {
        const [key, want] = filter.split("=");
        ids = ids.filter((id) => state.cards?.[id]?.[key] === want);
      }
      out.push(...ids);
    } else {
      out.push(source);
    }
  }
  return [...new Set(out)];
}

// A board to draw, when a field's choices come from one: an object whose entries have a column and a row.
function boardOf(field, state) {
  for (const source of field.choices) {
    if (!source.startsWith("@") || source.includes("*")) continue;
    const spaces = at(state, source.slice(1).split("?")[0]);
    const first = spaces && typeof spaces === "object" && !Array.isArray(spaces) ? Object.values(spaces)[0] : null;
    if (first && Number.isInteger(first.column) && Number.isInteger(first.row)) return spaces;
  }
  return null;
}

// ---------------------------------------------------------------- the panel

export function movesPanel(ctx) {
  const { h, t, say, api, route } = ctx;
  const shapes = ctx.adjudicator.moves || [];
  let state = null;
  let legal = [];
  let draft = null; // the move being built: {kind, values, steps}

  const nowList = h("div");
  const builder = h("div", { class: "builder" });
  const out = h("div", { class: "tap-verdict", "aria-live": "polite" });
  const element = h("section", { class: "panel tap" },
    h("h2", {}, t("moves.now")), h("p", { class: "meta" }, t("moves.nowHint")), nowList,
    h("h2", {}, t("moves.build")), h("p", { class: "meta" }, t("moves.buildHint")), builder, out);

  // ---- words

  const player = (i) => t("player", { n: i + 1 });
  // What stands or lies on a space of a board: a landmark, an ingredient, the pieces.
  function onSpace(id) {
    const onIt = Object.entries(state.pieces || {}).filter(([, where]) => where === id).map(([piece]) => say(piece));
    const card = state.city?.[id];
    const kind = card && state.cards?.[card]?.kind;
    const lying = kind === "landmark" ? say(card) : kind === "ingredient" ? ctx.named(card, state) : null;
    return [lying, ...onIt].filter(Boolean);
  }
  // A space by its number and what is on it: "12 (Hospital, Grandma)".
  function spaceName(id) {
    const there = onSpace(id);
    return there.length ? `${id} (${there.join(", ")})` : id;
  }
  function valueName(field, value) {
    if (typeof value === "number" && field.choices.some((c) => c.startsWith("#"))) return player(value);
    if (state.board?.spaces?.[value]) return spaceName(value);
    return ctx.named(value, state) ?? say(String(value));
  }
  // A move as words, field by field as its kind's shape says: its kind, then each value that says
  // something, named (a card by what is printed on it, a player by number); a dance as who did
  // nothing and who danced otherwise than due, rather than every step of every dancer.
  function said(move) {
    const shape = shapes.find((s) => s.kind === move.kind);
    if (!shape) return ctx.describe(move, say, (id) => ctx.named(id, state));
    const parts = [];
    for (const field of shape.fields) {
      const v = move[field.name];
      const names = (list) => list.map((x) => valueName(field, x));
      if (v === undefined || v === null || v === false || v === 0) continue;
      if (field.shape === "one" || field.shape === "number") parts.push(`${say(field.name)} ${valueName(field, v)}`);
      else if (field.shape === "flag") parts.push(say(field.name));
      else if (field.shape === "some" && v.length) parts.push(`${say(field.name)}: ${names(v).join(", ")}`);
      else if (field.shape === "counts") {
        const counted = Object.entries(v).filter(([, n]) => n).map(([k, n]) => `${valueName(field, k)} ${n}`);
        if (counted.length) parts.push(`${say(field.name)}: ${counted.join(", ")}`);
      } else if (field.shape === "steps") {
        const due = dueSteps(shape, field);
        const list = (ps) => new Intl.ListFormat(ctx.ui).format(ps.map(player));
        const idle = v.map((steps, p) => (steps ? null : p)).filter((p) => p !== null);
        const otherwise = v.map((steps, p) => (steps && JSON.stringify(steps) !== JSON.stringify(due[p]) ? p : null)).filter((p) => p !== null);
        if (idle.length) parts.push(t("moves.didNothing", { names: list(idle) }));
        if (otherwise.length) parts.push(t("moves.dancedOtherwise", { names: list(otherwise) }));
        if (!idle.length && !otherwise.length) parts.push(t("moves.allDanced"));
      }
    }
    return [say(move.kind), parts.join(" · ")].filter(Boolean).join(" — ");
  }

  // ---- checking and playing

  function verdictOf(verdict, moves, title) {
    const played = async () => { await ctx.play(moves, verdict.state); };
    return h("div", {}, title && h("p", { class: "move", translate: "no" }, title),
      ctx.verdictView(verdict),
      verdict.legal && h("button", { type: "button", class: "play", onclick: played }, t("moves.play")));
  }

  async function check(move) {
    ctx.showMove(move);
    out.replaceChildren(h("p", { class: "loading" }, t("moves.checking")));
    try {
      const verdict = await api(route("adjudicate"), { state, move, lang: ctx.lang });
      out.replaceChildren(verdictOf(verdict, [move], said(move)));
    } catch (error) { out.replaceChildren(ctx.errorBox(error)); }
    out.scrollIntoView({ block: "nearest" });
  }

  // A path: each step checked on the state the steps before it led to; the first illegal one
  // shown with its verdict, or the whole path legal, to play at once.
  async function checkPath(moves) {
    ctx.showMove(moves[moves.length - 1]);
    out.replaceChildren(h("p", { class: "loading" }, t("moves.checking")));
    let now = state;
    const notes = [];
    try {
      for (const [i, move] of moves.entries()) {
        const verdict = await api(route("adjudicate"), { state: now, move, lang: ctx.lang });
        const title = t("moves.stepOf", { i: i + 1, n: moves.length, step: said(move) });
        if (!verdict.legal) { out.replaceChildren(verdictOf(verdict, [], title)); return; }
        notes.push(...(verdict.notes || []));
        now = verdict.state;
      }
      const whole = { legal: true, violations: [], state: now, ...(notes.length ? { notes } : {}) };
      out.replaceChildren(verdictOf(whole, moves, t("moves.wholePath", { n: moves.length })));
    } catch (error) { out.replaceChildren(ctx.errorBox(error)); }
    out.scrollIntoView({ block: "nearest" });
  }

  // ---- what can I do now

  function showLegal() {
    const item = (move) => {
      const text = said(move);
      return h("li", {}, h("button", { type: "button", class: "move-tap", "aria-label": `${t("moves.checkIt")}: ${text}`,
        onclick: () => check(move) }, h("span", { class: "move", translate: "no" }, text)));
    };
    const list = (n) => h("ul", { class: "moves" }, legal.slice(0, n).map(item));
    const shown = list(LEGAL_SHOWN);
    const more = legal.length > LEGAL_SHOWN && h("button", { type: "button", class: "quiet",
      onclick: () => { more.remove(); shown.replaceWith(list(legal.length)); } }, t("showAll", { n: legal.length }));
    nowList.replaceChildren(legal.length ? shown : h("p", {}, t("noLegalMoves")), more || "");
  }

  // ---- a move built by tapping

  function startDraft(kind) {
    const shape = shapes.find((s) => s.kind === kind);
    draft = { kind, values: {}, steps: [] };
    for (const field of shape.fields) {
      if (field.shape === "steps") draft.values[field.name] = dueSteps(shape, field).map(() => "right");
      const only = field.required && field.shape === "one" ? choicesOf(field, state) : [];
      if (only.length === 1) draft.values[field.name] = only[0]; // the order just revealed: nothing to pick
    }
    drawBuilder();
  }

  // The steps a dance is due, as the engine lists them: a legal dance where nobody erred.
  function dueSteps(shape, field) {
    const perfect = legal.find((m) => m.kind === shape.kind && Array.isArray(m[field.name]) && m[field.name].every(Boolean));
    return perfect ? perfect[field.name] : (state.players || []).map(() => []);
  }

  function chip(label, pressed, onclick, extra = {}) {
    return h("button", { type: "button", class: "chip", "aria-pressed": pressed ? "true" : "false", onclick, ...extra }, label);
  }

  function oneField(field, value, set, marked = [], { grid = true } = {}) {
    const choices = choicesOf(field, state);
    const board = grid && boardOf(field, state);
    const pick = (v) => set(value === v && !field.required ? undefined : v);
    if (board) {
      const grid = h("div", { class: "board" });
      for (const v of choices) {
        const space = board[v];
        const label = [h("strong", {}, v), onSpace(v).map((thing) => [h("br"), thing])];
        const button = chip(label, value === v || marked.includes(v), () => pick(v), { "data-space": v, "aria-label": spaceName(v) });
        if (!space) continue;
        button.style.gridColumn = String(space.column); // CSSOM, which the page's style-src policy allows
        button.style.gridRow = String(space.row);
        grid.append(button);
      }
      const off = choices.filter((v) => !board[v]);
      return [grid, off.length > 0 && h("div", { class: "chips" }, off.map((v) => chip(valueName(field, v), value === v, () => pick(v))))];
    }
    if (!choices.length) return h("p", { class: "meta" }, t("moves.noChoice"));
    if (choices.length > MANY) {  // a long list (every space of a city): a drop-down rather than a wall of chips
      return h("select", { "aria-label": say(field.name), onchange: (e) => set(e.target.value === "" ? undefined : choices[Number(e.target.value)]) },
        h("option", { value: "" }, "—"), choices.map((v, i) => h("option", { value: i, selected: value === v }, valueName(field, v))));
    }
    return h("div", { class: "chips" }, choices.map((v) => chip(valueName(field, v), value === v, () => pick(v))));
  }

  function someField(field, value = [], set) {
    const choices = choicesOf(field, state);
    if (!choices.length) return h("p", { class: "meta" }, t("moves.noChoice"));
    return h("div", { class: "chips" }, choices.map((v) => {
      const at = value.indexOf(v);
      return chip([at >= 0 && h("span", { class: "order" }, `${at + 1}`), valueName(field, v)], at >= 0,
        () => set(at >= 0 ? value.filter((x) => x !== v) : [...value, v]));
    }));
  }

  function stepper(label, n, set, held) {
    return h("div", { class: "stepper" }, h("span", {}, label, held !== undefined && h("span", { class: "meta" }, ` (${t("moves.held", { n: held })})`)),
      h("button", { type: "button", class: "quiet", "aria-label": `${t("moves.less")}: ${label}`, disabled: n <= 0 || null, onclick: () => set(n - 1) }, "−"),
      h("output", {}, String(n)),
      h("button", { type: "button", class: "quiet", "aria-label": `${t("moves.more")}: ${label}`, onclick: () => set(n + 1) }, "+"));
  }

  function countsField(field, value = {}, set) {
    const held = field.choices.find((c) => c.startsWith("@"));
    const source = held ? at(state, held.slice(1)) : null;
    return h("div", { class: "counts" }, choicesOf(field, state).map((v) =>
      stepper(valueName(field, v), value[v] || 0, (n) => set({ ...value, [v]: n }),
        source && typeof source[v] === "number" ? source[v] : undefined)));
  }

  // A dance: what each player did, against the steps due (shown first).
  function stepsField(shape, field) {
    const due = dueSteps(shape, field)[0] || [];
    const gestures = choicesOf(field, state);
    const what = draft.values[field.name];
    const stepText = (s) => s.shout ? `${say(s.gesture)} (${t("moves.shouting", { shout: say(s.shout) })})` : `${say(s.gesture)} (${t("moves.noShout")})`;
    const dancers = (state.players || []).map((_, p) => {
      const doing = what[p];
      const set = (v) => { what[p] = v; drawBuilder(); };
      const steps = Array.isArray(doing) ? doing : null;
      const rows = steps && steps.map((s, i) => h("div", { class: "dance-step" },
        h("span", {}, `${i + 1}.`),
        h("select", { "aria-label": `${player(p)}, ${t("moves.step", { i: i + 1 })}: ${say("gesture")}`,
          onchange: (e) => { s.gesture = e.target.value; drawBuilder(); } },
          gestures.map((g) => h("option", { value: g, selected: g === s.gesture }, say(g)))),
        h("select", { "aria-label": `${player(p)}, ${t("moves.step", { i: i + 1 })}: ${say("shout")}`,
          onchange: (e) => { s.shout = e.target.value || null; drawBuilder(); } },
          h("option", { value: "", selected: !s.shout }, t("moves.noShout")),
          gestures.map((g) => h("option", { value: g, selected: g === s.shout }, say(g))))));
      return h("fieldset", { class: "dancer" }, h("legend", {}, player(p)),
        h("div", { class: "chips" },
          chip(t("moves.danced"), doing === "right", () => set("right")),
          chip(t("moves.mistake"), steps !== null, () => set(due.map((s) => ({ ...s })))),
          chip(t("moves.nothing"), doing === null, () => set(null))),
        steps && [h("p", { class: "meta" }, t("moves.whatTheyDid")), rows,
          h("div", { class: "chips" },
            h("button", { type: "button", class: "quiet", onclick: () => set([...steps, { gesture: gestures[0], shout: null }]) }, t("moves.addStep")),
            steps.length > 0 && h("button", { type: "button", class: "quiet", onclick: () => set(steps.slice(0, -1)) }, t("moves.dropStep")))]);
    });
    return [h("p", {}, h("strong", {}, t("moves.due")), " ", h("span", { class: "move" }, due.map(stepText).join(" → ") || "—")), dancers];
  }

  function fieldView(shape, field) {
    const set = (v) => { if (v === undefined) delete draft.values[field.name]; else draft.values[field.name] = v; drawBuilder(); };
    const value = draft.values[field.name];
    const control = {
      one: () => oneField(field, value, set),
      some: () => someField(field, value, set),
      counts: () => countsField(field, value, set),
      number: () => stepper(say(field.name), value || 0, set),
      flag: () => h("div", { class: "chips" }, chip(say(field.name), Boolean(value), () => set(!value || undefined))),
      steps: () => stepsField(shape, field),
    }[field.shape]();
    const label = field.shape === "number" || field.shape === "flag" ? null : h("h3", {}, say(field.name));
    return h("div", { class: "field" }, label, control);
  }

  // The move the draft makes: each value chosen; a dance's "danced it right" as the steps due.
  function moveOf(shape, values) {
    const move = { kind: shape.kind };
    for (const field of shape.fields) {
      let v = values[field.name];
      if (field.shape === "steps") {
        const due = dueSteps(shape, field);
        v = v.map((doing, p) => (doing === "right" ? due[p] : doing));
      }
      if (v === undefined && field.required) v = field.shape === "some" ? [] : field.shape === "counts" ? {} : null;
      if (v !== undefined) move[field.name] = v;
    }
    return move;
  }

  // A path: the run's fixed fields first (the piece), then space after space; the other fields
  // are each step's own (a crossing's ingredient stolen), for the step last tapped.
  function pathView(shape) {
    const along = shape.fields.find((f) => f.name === shape.path);
    const fixed = shape.fields.filter((f) => f.required && f !== along);
    const own = shape.fields.filter((f) => !f.required && f !== along);
    const ready = fixed.every((f) => draft.values[f.name] !== undefined);
    const steps = draft.steps;
    const last = steps[steps.length - 1];
    const stepMove = (values) => moveOf(shape, { ...draft.values, ...values });
    const parts = fixed.map((f) => fieldView(shape, f));
    if (ready) {
      parts.push(h("h3", {}, t("moves.tapPath")),
        h("div", { class: "path-board" }, oneField(along, undefined, (v) => { if (v !== undefined) { steps.push({ [along.name]: v }); drawBuilder(); } },
          steps.map((s) => s[along.name]))),
        h("ol", { class: "path" }, steps.map((s) => h("li", {}, valueName(along, s[along.name])))),
        steps.length > 0 && h("div", { class: "chips" },
          h("button", { type: "button", class: "quiet", onclick: () => { steps.pop(); drawBuilder(); } }, t("moves.undoStep")),
          h("button", { type: "button", class: "quiet", onclick: () => { steps.length = 0; drawBuilder(); } }, t("moves.clearPath"))));
      if (last) {
        const extras = own.filter((f) => f.shape === "flag" || choicesOf(f, state).length).map((f) => {
          const set = (v) => { if (v === undefined) delete last[f.name]; else last[f.name] = v; drawBuilder(); };
          const control = { one: () => oneField(f, last[f.name], set, [], { grid: false }), some: () => someField(f, last[f.name], set),
            flag: () => h("div", { class: "chips" }, chip(say(f.name), Boolean(last[f.name]), () => set(!last[f.name] || undefined))) }[f.shape];
          return control && h("div", { class: "field" }, f.shape !== "flag" && h("h3", {}, say(f.name)), control());
        });
        // open at once where the space has a piece on it: a crossing, where the rules offer more
        const crossing = Object.values(state.pieces || {}).includes(last[along.name]);
        parts.push(h("details", { class: "step-extras", open: crossing }, h("summary", {}, t("moves.stepExtras", { i: steps.length })), extras));
      }
    }
    const moves = steps.map(stepMove);
    return { parts, moves };
  }

  function drawBuilder() {
    const kinds = h("div", { class: "chips kinds", role: "group", "aria-label": t("moves.kind") },
      shapes.map((s) => chip(say(s.kind), draft?.kind === s.kind, () => startDraft(s.kind))));
    if (!draft) { builder.replaceChildren(kinds); return; }
    const shape = shapes.find((s) => s.kind === draft.kind);
    let moves, parts;
    if (shape.path) ({ parts, moves } = pathView(shape));
    else { parts = shape.fields.map((f) => fieldView(shape, f)); moves = [moveOf(shape, draft.values)]; }
    const missing = shape.fields.filter((f) => f.required && f.shape === "one" && f.name !== shape.path && draft.values[f.name] === undefined);
    const ready = moves.length > 0 && missing.length === 0;
    const preview = ready && h("p", { class: "preview" }, h("span", { class: "meta" }, `${t("moves.yourMove")}${t("colon")}`),
      h("span", { class: "move", translate: "no" }, moves.map(said).join(" → ")));
    const go = h("button", { type: "button", disabled: !ready || null,
      onclick: () => (shape.path ? checkPath(moves) : check(moves[0])) }, shape.path ? t("moves.checkPath") : t("moves.check"));
    builder.replaceChildren(kinds, ...parts, preview || (!ready && h("p", { class: "meta" }, shape.path ? t("moves.pickPath") : t("moves.pickAll"))), h("p", {}, go));
  }

  // ---- a new state drawn

  function show(newState, moves) {
    const kindBefore = draft?.kind;
    state = newState;
    legal = moves || [];
    out.replaceChildren();
    showLegal();
    const kindsNow = [...new Set(legal.map((m) => m.kind))];
    draft = null;
    if (kindsNow.length === 1 && shapes.some((s) => s.kind === kindsNow[0])) startDraft(kindsNow[0]);
    else if (kindBefore && kindsNow.includes(kindBefore)) startDraft(kindBefore);
    else drawBuilder();
  }

  function clear() {
    state = null;
    nowList.replaceChildren();
    builder.replaceChildren();
    out.replaceChildren();
  }

  return { element, show, clear };
}
