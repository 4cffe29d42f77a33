// The table, drawn: a game's state (the JSON of POST /v1/games/{game}/setup or adjudicate) as it
// lies on the table, in the game's own words and the interface's language.
//
// What the shared screen may show is what every player at the table sees: face-up cards, piles
// by their count, pieces where they stand. A deck's order, a face-down pile's cards, the oven under
// its top card are never drawn; a player's hand (and Mamma's secret character) is folded behind
// that player's own "show" control, and open once the game is over.

import { h, s } from "./dom.js";

// drawTable(game, state, words) -> the drawing, or null for a game it cannot draw.
// ``words``: { t (an interface string), say (the game's word for a state's key), named (a card by
// what is printed on it, or null), lang (the interface's language) }.
export function drawTable(game, state, words) {
  const draw = DRAWINGS[game];
  if (!draw || !state || typeof state !== "object") return null;
  const w = { ...words, over: state.phase === "over" };
  return h("div", { class: `table table-${game}` }, draw(state, w));
}

// ---------------------------------------------------------------- shared pieces

// "{n} cards" in the interface's plural.
function cards(w, n) {
  const form = new Intl.PluralRules(w.lang).select(n);
  return w.t(form === "one" ? "table.cards.one" : "table.cards.other", { n });
}

const cardOf = (w, id) => w.named(id) ?? w.say(id);

// A pile of cards drawn as a stack, with its name and count (and the card on top when it lies face up).
function pile(w, name, n, { top = null, faceDown = true } = {}) {
  const label = [name, cards(w, n), faceDown && n > 0 ? w.t("table.faceDown") : null, top && w.t("table.onTop", { card: top })]
    .filter(Boolean).join(" · ");
  const layers = Math.min(n, 3);
  const stack = s("svg", { viewBox: "0 0 44 56", width: "44", height: "56", "aria-hidden": "true", class: "stack" },
    n === 0 ? s("rect", { x: "4", y: "8", width: "34", height: "44", rx: "5", class: "empty" })
      : Array.from({ length: layers }, (_, i) => s("rect", {
        x: String(4 + (layers - 1 - i) * 3), y: String(2 + i * 3), width: "34", height: "44", rx: "5",
        class: faceDown ? "back" : "face" })));
  return h("div", { class: "pile", role: "img", "aria-label": label }, stack,
    h("div", { class: "pile-text" }, h("span", { class: "pile-name" }, name), h("span", { class: "count" }, cards(w, n)),
      top && h("span", { class: "top" }, w.t("table.onTop", { card: top }))));
}

// A face-up card: its words, tinted by its colour or kind.
function card(text, tint) {
  return h("li", { class: `card-face ${tint || ""}` }, text);
}

// One player's place at the table: their name, what everyone sees, and what only they may look at,
// folded behind their own "show" control (open at the game's end).
function seat(w, n, { turn, colour, marks = [], open = [], secret = null, folded = "table.hand" }) {
  const name = w.t("player", { n: n + 1 }) + (colour ? ` (${w.t(`colour.${colour}`)})` : "");
  const id = `table-player-${n}`;
  const shown = marks.filter(Boolean);
  return h("section", { class: `seat${turn ? " to-play" : ""}${colour ? ` tint-${colour}` : ""}`, "aria-labelledby": id },
    h("h3", { id }, name, turn && h("span", { class: "badge" }, w.t("table.toPlay"))),
    shown.length > 0 && h("p", { class: "marks" }, shown.map((m) => h("span", {}, m))),
    open,
    secret && (w.over ? secret : h("details", { class: "secret" },
      h("summary", {}, h("span", { class: "when-shut" }, w.t(`${folded}.show`)), h("span", { class: "when-open" }, w.t(`${folded}.hide`)),
        h("span", { class: "meta" }, w.t("revealSecret"))),
      secret)));
}

function hand(w, n, items) {
  return h("div", { class: "hand" }, h("h4", {}, w.t("hand")),
    items.length ? h("ul", { class: "cards", "aria-label": w.t("table.handOf", { n: n + 1 }) }, items)
      : h("p", { class: "meta" }, w.t("noCards")));
}

const turnOf = (state, n) => state.turn === n && state.phase !== "over";

// ---------------------------------------------------------------- Mamma

const CHARACTERS = ["grandpa", "grandma", "mamma", "wife", "husband", "son"];
const WC_TURNS = 6; // wc.2: "out of play for the next 6 turns"

function ingredientText(w, state, id) {
  const c = state.cards?.[id];
  if (!c || c.kind !== "ingredient") return cardOf(w, id);
  const drawn = (c.drawings || []).map((d) => w.say(d)).join(", ");
  return [drawn, w.t("table.mamma.cost", { n: c.cost }), c.mother_in_law ? w.t("table.mamma.motherInLaw", { n: c.mother_in_law }) : null]
    .filter(Boolean).join(" · ");
}

const pieceName = (w, state, piece) =>
  piece === "grandpa" && state.grandpa?.child ? `${w.say("grandpa")} ${w.t("table.mamma.child")}` : w.say(piece);

// A piece on the city: a character, the schoolbus or a traffic card, by its short name in its own
// colour (a phone's city is too narrow for whole names; the legend beneath gives them).
function token(w, state, piece) {
  return h("span", { class: `token ${piece}`, title: pieceName(w, state, piece) }, w.t(`table.mamma.short.${piece}`));
}

// The landmarks' pictures (24 x 24), so that a city space fits a phone without a word in it.
const LANDMARKS = {
  bank: [["path", { d: "M12 2 22 8H2Z" }], ["rect", { x: "4", y: "9", width: "3", height: "9" }],
    ["rect", { x: "10.5", y: "9", width: "3", height: "9" }], ["rect", { x: "17", y: "9", width: "3", height: "9" }],
    ["rect", { x: "2", y: "19", width: "20", height: "3" }]],
  bench: [["rect", { x: "3", y: "5", width: "18", height: "4", rx: "1" }], ["rect", { x: "2", y: "12", width: "20", height: "3", rx: "1" }],
    ["rect", { x: "4", y: "15", width: "2.5", height: "6" }], ["rect", { x: "17.5", y: "15", width: "2.5", height: "6" }]],
  hospital: [["rect", { x: "2", y: "2", width: "20", height: "20", rx: "4", class: "plate" }],
    ["path", { d: "M10 5h4v5h5v4h-5v5h-4v-5H5v-4h5z", class: "cross" }]],
  taxi: [["rect", { x: "9", y: "3", width: "6", height: "3", class: "sign" }], ["path", { d: "M3 13 6.5 7h11l3.5 6v5H3z" }],
    ["circle", { cx: "7", cy: "18.5", r: "2.5", class: "wheel" }], ["circle", { cx: "17", cy: "18.5", r: "2.5", class: "wheel" }]],
  "bus-stop": [["rect", { x: "11", y: "11", width: "2", height: "11" }], ["circle", { cx: "12", cy: "7.5", r: "6" }],
    ["rect", { x: "8.5", y: "5", width: "7", height: "4", rx: "1", class: "plate" }]],
  school: [["path", { d: "M3 11 12 4l9 7v10H3z" }], ["rect", { x: "10", y: "15", width: "4", height: "6", class: "plate" }],
    ["circle", { cx: "12", cy: "10.5", r: "2", class: "plate" }]],
  church: [["path", { d: "M11 0h2v3h2v2h-2v3h-2V5H9V3h2z" }], ["path", { d: "M3 14 12 8l9 6z" }], ["rect", { x: "4", y: "14", width: "16", height: "8" }],
    ["rect", { x: "10.5", y: "17", width: "3", height: "5", class: "plate" }]],
  wc: [["rect", { x: "1", y: "3", width: "22", height: "18", rx: "3", class: "plate" }], ["text", { x: "12", y: "17", textLength: "18", lengthAdjust: "spacingAndGlyphs", class: "wc" }, "WC"]],
};

const landmarkKind = (id) => id.replace(/-\d+$/, ""); // the two bus stops are one kind of place

function landmark(id) {
  const shapes = LANDMARKS[landmarkKind(id)];
  return shapes && s("svg", { viewBox: "0 0 24 24", width: "26", height: "26", class: `landmark-icon ${landmarkKind(id)}`, "aria-hidden": "true" },
    shapes.map(([tag, attrs, ...text]) => s(tag, attrs, ...text)));
}

const landmarkName = (w, id) => (landmarkKind(id) === "bus-stop" ? w.t("table.mamma.busStop") : w.say(id));

function mamma(state, w) {
  const board = state.board || {};
  const spaces = board.spaces || {};
  const pieces = state.pieces || {};
  const at = (place) => Object.keys(pieces).filter((p) => pieces[p] === place);
  const landmarkOn = (space) => state.city?.[space];
  const columns = Math.max(1, ...Object.values(spaces).map((sp) => sp.column));
  const rows = Math.max(1, ...Object.values(spaces).map((sp) => sp.row));

  // Column B: each character's seat at the table, beside a space of the first column.
  const seatRow = Object.fromEntries(Object.entries(board.seats || {}).map(([c, space]) => [c, spaces[space]?.row]));
  const cells = Object.entries(board.seats || {}).map(([character]) => {
    const here = at("seat").filter((p) => p === character);
    const cell = h("li", { class: `seat-cell ${character}`, "aria-label": [`${w.say("seat")}${w.t("colon")}${w.say(character)}`,
      ...here.map((p) => pieceName(w, state, p))].join(" · ") }, here.map((p) => token(w, state, p)));
    cell.style.gridArea = `${seatRow[character]} / 1`;
    return cell;
  });
  for (const [space, where] of Object.entries(spaces)) {
    const cardId = landmarkOn(space);
    const c = state.cards?.[cardId] || {};
    const kind = c.kind === "ingredient" ? "ingredient" : c.kind === "landmark" ? "landmark" : c.kind === "substitute" ? "substitute" : c.face || "street";
    const place = kind === "landmark" ? landmarkName(w, cardId) : null;
    // On a landmark card itself: the bench, the Hospital, the Church (the W.C. has its own track).
    const on = kind === "landmark" && ["bench", "hospital", "church"].includes(cardId) ? at(cardId) : [];
    const here = [...at(space), ...on];
    const what = kind === "ingredient" ? `${w.say("ingredient")}${w.t("colon")}${ingredientText(w, state, cardId)}`
      : place ?? w.say(kind);
    const cell = h("li", { class: `space ${kind}`, "aria-label": [`${w.t("table.mamma.space", { n: space })}${w.t("colon")}${what}`,
      ...here.map((p) => pieceName(w, state, p))].join(" · ") },
    h("span", { class: "no", "aria-hidden": "true" }, space, kind === "club" && " ♣"),
    kind === "landmark" && landmark(cardId),
    kind === "ingredient" && h("span", { class: "coin" }, c.cost),
    here.map((p) => token(w, state, p)));
    cell.style.gridArea = `${where.row} / ${where.column + 1}`;
    cells.push(cell);
  }
  const city = h("ol", { class: "city", "aria-label": w.t("table.mamma.city") }, cells);
  city.style.gridTemplateColumns = `repeat(${columns + 1}, minmax(0, 1fr))`;
  city.style.gridTemplateRows = `repeat(${rows}, auto)`;
  // What the pictures stand for (each space's own name is its accessible name already).
  const kinds = new Map(Object.values(state.city || {}).filter((id) => state.cards?.[id]?.kind === "landmark")
    .map((id) => [landmarkKind(id), id]));
  const legend = h("ul", { class: "legend", "aria-hidden": "true" },
    [...kinds.values()].map((id) => h("li", {}, landmark(id), landmarkName(w, id))), h("li", {}, "♣ ", w.say("club")));

  const inCity = Object.entries(state.city || {}).filter(([, id]) => state.cards?.[id]?.kind === "ingredient");
  const wc = state.wc || {};
  const track = h("ol", { class: "wc-track", "aria-label": wc.occupant
    ? `${w.say("wc")}${w.t("colon")}${w.say(wc.occupant)} · ${w.t("table.mamma.wcTurn", { n: wc.turns, total: WC_TURNS })}`
    : `${w.say("wc")}${w.t("colon")}${w.t("table.empty")}` },
  Array.from({ length: WC_TURNS + 1 }, (_, i) => h("li", { class: i === wc.turns && wc.occupant ? "here" : "" },
    i === wc.turns && wc.occupant ? token(w, state, wc.occupant) : h("span", { class: "step", "aria-hidden": "true" }, i))));
  const wcSaid = h("p", { class: "meta", "aria-hidden": "true" }, wc.occupant
    ? `${pieceName(w, state, wc.occupant)} · ${w.t("table.mamma.wcTurn", { n: wc.turns, total: WC_TURNS })}` : w.t("table.empty"));

  const family = h("ul", { class: "family", "aria-label": w.t("table.mamma.family") }, CHARACTERS.map((c) => {
    const mine = state.characters?.[c] || {};
    const money = (mine.money || []).map((id) => state.cards?.[id]?.value ?? id);
    const guests = mine.guests && state.cards?.[mine.guests]?.value;
    const where = pieces[c];
    return h("li", { class: `member ${c}` },
      h("p", {}, token(w, state, c), " ", pieceName(w, state, c) !== w.t(`table.mamma.short.${c}`) && [h("strong", {}, pieceName(w, state, c)), " "],
        h("span", { class: "meta" }, where in spaces ? w.t("table.mamma.space", { n: where }) : where ? w.say(where) : "")),
      h("p", {}, `${w.say("money")}${w.t("colon")}${money.length ? money.join(" + ") : "0"}`,
        guests ? ` · ${w.say("guests")} ${guests}` : "", wc.last === c ? ` · ${w.say("wc-card")}` : ""),
      (mine.ingredients || []).length > 0 && h("ul", { class: "held" }, mine.ingredients.map((held) =>
        h("li", {}, ingredientText(w, state, held.card), held.horizontal ? ` · ${w.t("table.mamma.safe")}` : ""))));
  }));

  const decks = state.decks || {};
  const topOf = (list) => (list?.length ? cardOf(w, list[0]) : null);
  const piles = h("div", { class: "piles" },
    pile(w, w.say("movement"), decks.movement?.length || 0, { top: topOf(decks.movement), faceDown: false }),
    pile(w, w.t("table.mamma.moneyDeck"), decks.money?.length || 0, { top: topOf(decks.money), faceDown: false }),
    pile(w, w.t("table.mamma.row"), state.ingredient_row?.length || 0,
      { top: state.ingredient_row?.length ? ingredientText(w, state, state.ingredient_row[0]) : null, faceDown: false }),
    pile(w, w.t("table.mamma.busDeck"), state.bus_deck?.length || 0),
    pile(w, w.say("guests"), state.guests?.length || 0,
      { top: state.guests?.length ? String(state.cards?.[state.guests[0]]?.value ?? "") : null, faceDown: false }));

  const seated = state.seated || [];
  return [
    h("h3", {}, w.t("table.mamma.city")), city, legend,
    inCity.length > 0 && h("ul", { class: "meta city-ingredients" }, inCity.map(([space, id]) =>
      h("li", {}, `${w.t("table.mamma.space", { n: space })}${w.t("colon")}${ingredientText(w, state, id)}`))),
    h("h3", {}, w.say("wc")), track, wcSaid,
    seated.length > 0 && h("p", {}, `${w.say("seated")}${w.t("colon")}`, seated.map((c) => [token(w, state, c), " "])),
    h("h3", {}, w.t("table.mamma.family")), family,
    piles,
    h("div", { class: "seats" }, (state.players || []).map((p, n) => seat(w, n, {
      turn: turnOf(state, n),
      folded: "table.mamma.secretAndHand",
      marks: [state.player_a === n ? w.t("table.mamma.playerA") : null, p.guests_assigned ? `${w.say("guests")} ✓` : null],
      secret: h("div", {}, h("p", {}, h("strong", {}, `${w.t("table.mamma.secret")}${w.t("colon")}`),
        w.say(state.cards?.[p.secret]?.character ?? p.secret)),
      hand(w, n, (p.hand || []).map((id) => card(cardOf(w, id), state.cards?.[id]?.kind)))),
    }))),
  ];
}

// ---------------------------------------------------------------- Mamma Mia!

const INGREDIENTS = ["salami", "pineapple", "mushroom", "pepper", "olive"];
const SERVICES = 3; // "La partie s'arrête après le troisième service"

function ovenCards(oven) {
  return oven.reduce((n, entry) => n + (entry.order ? 1 : entry.count || 0), 0);
}

function ingredientChips(w, counts, label) {
  const shown = INGREDIENTS.filter((k) => counts?.[k]).concat(Object.keys(counts || {}).filter((k) => !INGREDIENTS.includes(k) && counts[k]));
  if (!shown.length) return h("p", { class: "meta" }, w.t("table.empty"));
  return h("ul", { class: "cards", "aria-label": label }, shown.map((k) => card(`${w.say(k)} × ${counts[k]}`, `food ${k}`)));
}

function mammaMia(state, w) {
  const oven = state.oven || [];
  const top = oven.at(-1);
  const topCard = top ? (top.order ? cardOf(w, top.order) : w.say(top.ingredient)) : null;
  const revealed = state.opening?.order;
  return [
    h("p", { class: "round" }, w.t("table.mia.service", { n: state.service, total: SERVICES })),
    h("div", { class: "piles" },
      pile(w, w.t("table.mia.oven"), ovenCards(oven), { top: topCard }),
      pile(w, w.say("kitchen"), state.kitchen?.length || 0)),
    revealed && h("p", { class: "note" }, w.t("table.mia.revealed", { card: cardOf(w, revealed) })),
    h("h3", {}, w.t("table.onTable")),
    ingredientChips(w, state.table, w.t("table.onTable")),
    h("div", { class: "seats" }, (state.players || []).map((p, n) => seat(w, n, {
      turn: turnOf(state, n),
      colour: p.colour,
      marks: [state.mamma_mia_holder === n ? w.t("table.mia.card") : null],
      open: [
        h("div", { class: "piles" }, pile(w, w.say("server_pile"), p.server_pile?.length || 0)),
        h("p", {}, `${w.t("table.mia.completed")}${w.t("colon")}${p.completed?.length || 0}`),
        p.completed?.length > 0 && h("ul", { class: "cards" }, p.completed.map((id) => card(cardOf(w, id), `tint-${state.orders?.[id]?.colour}`))),
      ],
      secret: hand(w, n, [
        ...INGREDIENTS.filter((k) => p.hand?.ingredients?.[k]).map((k) => card(`${w.say(k)} × ${p.hand.ingredients[k]}`, `food ${k}`)),
        ...(p.hand?.orders || []).map((id) => card(cardOf(w, id), `tint-${state.orders?.[id]?.colour}`))]),
    }))),
  ];
}

// ---------------------------------------------------------------- Mammut Mambo

const HUNTS = 7; // game-end.1 b: "After the 7th mammoth hunt"

function mammoth(pink) {
  return s("g", { class: pink ? "mammoth pink" : "mammoth" },
    s("ellipse", { cx: "22", cy: "20", rx: "16", ry: "11" }),
    s("circle", { cx: "38", cy: "15", r: "7" }),
    s("path", { d: "M43 17 q5 6 1 13", class: "trunk" }),
    s("rect", { x: "10", y: "26", width: "5", height: "10", rx: "2" }), s("rect", { x: "27", y: "26", width: "5", height: "10", rx: "2" }));
}

function mammutMambo(state, w) {
  const players = state.players || [];
  const herd = Math.max(players.length - 1, 1); // setup.2: one mammoth fewer than there are players, the pink always in
  const mammoths = s("svg", { viewBox: `0 0 ${herd * 52} 40`, width: String(herd * 52), height: "40", class: "herd" },
    Array.from({ length: herd }, (_, i) => { const g = mammoth(i === 0); g.setAttribute("transform", `translate(${i * 52} 0)`); return g; }));
  const hunts = state.hunts || 0;
  const timeline = h("div", { class: "timeline", role: "img", "aria-label": w.t("table.mambo.hunts", { n: hunts, total: HUNTS }) },
    Array.from({ length: HUNTS + 1 }, (_, i) => h("span", { class: i === hunts ? "here" : i < hunts ? "past" : "" }, i === hunts ? "●" : "")));
  const faceOf = (id) => {
    const c = state.cards?.[id] || {};
    return c.type === "hunt" ? w.t("table.mambo.huntCard") : `${w.say(c.gesture ?? id)} · ${w.t(`table.mambo.${c.background}`)}`;
  };
  const last = state.last;
  const direction = state.phase === "dance" && last && state.cards?.[last.card]?.background;
  return [
    h("h3", {}, w.t("table.mambo.mammoths")),
    h("div", { role: "img", class: "herd-box", "aria-label": w.t("table.mambo.herd", { n: herd, brown: herd - 1 }) }, mammoths),
    h("p", { class: "meta", "aria-hidden": "true" }, w.t("table.mambo.herd", { n: herd, brown: herd - 1 })),
    h("h3", {}, w.t("table.mambo.timeline")),
    timeline,
    h("p", { class: "meta", "aria-hidden": "true" }, w.t("table.mambo.hunts", { n: hunts, total: HUNTS })),
    direction && h("p", { class: "note" }, w.t(direction === "cave" ? "table.mambo.counterclockwise" : "table.mambo.clockwise")),
    h("div", { class: "seats" }, players.map((p, n) => {
      const played = p.played || [];
      const visible = played.at(-1);
      const justTurned = visible !== undefined && last?.card === visible;
      return seat(w, n, {
        turn: turnOf(state, n),
        marks: [state.tribal_leader === n ? w.t("table.mambo.leader") : null],
        open: [
          h("div", { class: "piles" },
            pile(w, w.t("table.mambo.pile"), p.pile?.length || 0),
            visible && pile(w, w.t("table.mambo.played"), played.length, { faceDown: false })),
          visible && h("ul", { class: "cards big", "aria-label": w.t("table.mambo.played") }, card(faceOf(visible),
            `${state.cards?.[visible]?.type === "hunt" ? "hunt" : state.cards?.[visible]?.background}${justTurned ? " last" : ""}`)),
          justTurned && h("p", { class: "meta" }, w.t(state.phase === "hunt" ? "table.mambo.grab" : "table.mambo.last")),
        ],
      });
    })),
  ];
}

// ---------------------------------------------------------------- Mömmen

function moemmenTint(state, id) {
  const c = state.cards?.[id] || {};
  return c.kind === "plus" || c.kind === "minus" ? `tint-${c.colour} ${c.kind}` : c.kind;
}

function moemmen(state, w) {
  const call = state.mommen;
  const swapped = state.swapped || [];
  return [
    h("p", { class: "round" }, w.t("table.moemmen.round", { n: state.round })),
    call && h("p", { class: "note" }, w.t("table.moemmen.called", { n: call.caller + 1 })),
    h("h3", {}, w.t("table.onTable")),
    (state.table || []).length ? h("ul", { class: "cards big", "aria-label": w.t("table.onTable") },
      state.table.map((id) => card(cardOf(w, id), moemmenTint(state, id)))) : h("p", { class: "meta" }, w.t("table.empty")),
    h("div", { class: "piles" },
      pile(w, w.t("table.deck"), state.deck?.length || 0),
      pile(w, w.t("table.discard"), state.discard?.length || 0, { faceDown: false, top: state.discard?.length ? cardOf(w, state.discard.at(-1)) : null })),
    h("div", { class: "seats" }, (state.players || []).map((p, n) => seat(w, n, {
      turn: state.phase === "mommen" ? call?.pending?.[0] === n : turnOf(state, n),
      marks: [w.t("points", { n: p.score }), swapped.includes(n) ? w.t("table.moemmen.swapped") : null,
        call?.pending?.includes(n) ? w.t("table.moemmen.toAnswer") : null],
      open: [h("p", { class: "meta" }, cards(w, p.hand?.length || 0))],
      secret: hand(w, n, (p.hand || []).map((id) => card(cardOf(w, id), moemmenTint(state, id)))),
    }))),
  ];
}

const DRAWINGS = { mamma, "mamma-mia": mammaMia, "mammut-mambo": mammutMambo, moemmen };
