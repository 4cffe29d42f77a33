"""Mömmen: what the short rules summary states, with every reading Referee had to choose.

The summary gives no card list: the state carries each card's kind (plus, minus, tim, benny),
colour and value, and the default deck is Referee's. Its readings (each rule that rests on one
says so in its verdict):

* a turn is one option: swap, Benny, Tim ("Mömmen") or pass. Benny and exchanging the table
  (3 or more minus cards showing) leave the turn to the same player; the others end it;
* "once per round" for the swap: two readings, chosen with the setup option ``ruleset``.
  "round-of-turns", the default: a swap ends the turn, so a player swaps at most once each time
  around the table. "scoring-round": the summary says "round" for the scoring round everywhere
  else, so a player swaps at most once until the round is scored. The default is the reading
  that keeps the game moving: under the other, hands could hardly change (in 3 seeded games of
  20,000 moves each, no round ever ended); a refusal under it names both readings;
* the plain swap (option 1) takes any table card; the exchange after Tim takes a plus card of the
  given card's colour, unless the card given is a minus card (the SPECIAL CASE, and Tim the
  Shearer), which may be exchanged for any table card;
* a Tim or Benny played goes to the discard pile; an opponent with no plus, Tim or Benny card to
  lay down cannot answer a Mömmen and is passed over;
* when the deck runs out, the discard pile is shuffled (from the seed) into a new deck;
* at the end of a round each player scores with the colour that gives them most points; the next
  round begins with the player after the one who began the last; when several players reach 100
  in the same round, the highest total wins.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

from marshmallow import Schema, fields, validate

from indexer.corpus import player_counts
from service.engines.base import (
    BaseEngine,
    load_scoring,
    rank_rows,
    ranked,
    InvalidMove,
    InvalidState,
    is_player,
    is_whole,
    move_head,
    load_rules,
    load_words,
    rule,
    nothing,
    starting_player,
)
from service.engines.registry import Game, MoveShape, register

GAME = "moemmen"
WORDS = load_words(GAME)  # the game's own words (rules/moemmen.yaml): its colours, Tim and Benny
HAND = 6  # benny.1: "replenish to 6 cards in hand"
TABLE = 5  # benny.1: "5 new cards from the deck are revealed"
SET = 6  # goal.1: "Collect 6 plus cards of one color."
MINUS_TO_EXCHANGE = 3  # table-exchange.1: "If 3 or more minus cards are on the table"
TIM_BENNY_PENALTY = 3  # scoring.1: "cards each subtract 3 points"
OTHER_COLOUR_PENALTY = 1  # scoring.1: "Each plus card of other colors subtracts one point."
TARGET = 100  # game-end.1: "Whoever reaches 100 points first wins the game."
KINDS = ("plus", "minus", "tim", "benny")
PHASES = ("play", "mommen", "over")
RULESETS = ("round-of-turns", "scoring-round")  # swap.1 "once per round": the default first
MOVE_FIELDS = {"swap": ("give", "take"), "benny": ("card",), "tim": ("card",), "respond": ("give", "take"),
               "exchange-table": (), "pass": ()}  # each move kind, and the fields it cannot do without
MOVE_KINDS = tuple(MOVE_FIELDS)
COLOURS = ("red", "yellow", "green", "blue")  # the default deck's; the summary names none


def _interpretation(en, fr, de, zh):
    return {"en": en, "fr": fr, "de": de, "zh": zh}


# ---- reading a state ------------------------------------------------------------------------


def card(state, cid) -> dict:
    return state["cards"][cid]


def named(state, cid):
    """A message value: a card by what is printed on it, in the asker's words ("rouge +7", "Tim le
    tondeur"); one the state does not hold stays as the move wrote it."""
    printed = state["cards"].get(cid) if isinstance(cid, str) else None
    if printed is None:
        return cid
    if printed["kind"] in ("tim", "benny"):
        return printed["kind"]  # one of the game's words
    return lambda lang: f"{WORDS.say(printed['colour'], lang)} {printed['value']:+d}"


def minus_on_table(state) -> list[str]:
    return [c for c in state["table"] if card(state, c)["kind"] == "minus"]


def can_answer(state, player: int) -> bool:
    return any(card(state, c)["kind"] in ("plus", "tim", "benny") for c in state["players"][player]["hand"])


def six_of_a_colour(state, player: int) -> str | None:
    colours = Counter(card(state, c)["colour"] for c in state["players"][player]["hand"] if card(state, c)["kind"] == "plus")
    return next((colour for colour, n in colours.items() if n >= SET), None)


def score(state, player: int) -> tuple[int, str | None]:
    """scoring.1, with the colour that gives the player most points (Referee's reading)."""
    hand = [card(state, c) for c in state["players"][player]["hand"]]
    colours = sorted({c["colour"] for c in hand if c["kind"] == "plus"}) or [None]
    fixed = sum(c["value"] for c in hand if c["kind"] == "minus")
    fixed -= TIM_BENNY_PENALTY * sum(1 for c in hand if c["kind"] in ("tim", "benny"))

    def points(colour):
        return fixed + sum(c["value"] if c["colour"] == colour else -OTHER_COLOUR_PENALTY for c in hand if c["kind"] == "plus")

    best = max(colours, key=lambda colour: (points(colour), colour or ""))
    return points(best), best


# ---- the rules ------------------------------------------------------------------------------



def _playing(state, move, *kinds):
    return state["phase"] == "play" and move["kind"] in kinds


@rule("moemmen/game.over")
def check_game_over(state, move):
    if state["phase"] == "over":
        yield {}


@rule("moemmen/mommen.answer-first")
def check_answer_first(state, move):
    if state["phase"] == "mommen" and move["kind"] != "respond":
        yield {"player": state["mommen"]["pending"][0]}


@rule("moemmen/mommen.none-called")
def check_no_mommen(state, move):
    if state["phase"] == "play" and move["kind"] == "respond":
        yield {}


@rule("moemmen/turn.out-of-turn")
def check_out_of_turn(state, move):
    if move.get("player") is None or state["phase"] == "over":
        return
    due = state["mommen"]["pending"][0] if state["phase"] == "mommen" else state["turn"]
    if move["player"] != due:
        yield {"player": move["player"], "due": due}


@rule("moemmen/swap.once-per-scoring-round")
def check_swap_once_per_scoring_round(state, move):
    """swap.1, read as the scoring round (ruleset scoring-round): one swap per player per round."""
    if _playing(state, move, "swap") and state.get("ruleset") == "scoring-round" and state["turn"] in state.get("swapped", []):
        yield {"player": state["turn"]}


def _mover(state):
    return state["mommen"]["pending"][0] if state["phase"] == "mommen" else state["turn"]


@rule("moemmen/card.in-hand")
def check_in_hand(state, move):
    if state["phase"] == "over":
        return
    hand = state["players"][_mover(state)]["hand"]
    fields = ("card",) if move["kind"] == "tim" else ("give", "card")  # Tim's exchange: tim.exchange
    for field in fields:
        if move.get(field) is not None and move[field] not in hand:
            yield {"card": named(state, move[field])}


@rule("moemmen/card.on-table")
def check_on_table(state, move):
    if state["phase"] != "over" and move.get("take") is not None and move["take"] not in state["table"]:
        yield {"card": named(state, move["take"])}


@rule("moemmen/benny.card")
def check_benny_card(state, move):
    if _playing(state, move, "benny") and move["card"] in state["cards"] and card(state, move["card"])["kind"] != "benny":
        yield {"card": named(state, move["card"])}


@rule("moemmen/tim.card")
def check_tim_card(state, move):
    if _playing(state, move, "tim") and move["card"] in state["cards"] and card(state, move["card"])["kind"] != "tim":
        yield {"card": named(state, move["card"])}


@rule("moemmen/tim.needs-minus")
def check_tim_needs_minus(state, move):
    if _playing(state, move, "tim") and not minus_on_table(state):
        gives_minus = move.get("give") is not None and card(state, move["give"])["kind"] == "minus"
        if not gives_minus:
            yield {}


def hand_after_tim(state, tim: str) -> list[str]:
    """The hand the exchange after Tim is made from: the Tim played, the new card drawn."""
    preview = copy.deepcopy(state)
    hand = preview["players"][preview["turn"]]["hand"]
    if tim in hand:
        hand.remove(tim)
        preview["discard"].append(tim)
        Moemmen._refill(preview, preview["turn"])
    return hand


@rule("moemmen/tim.exchange")
def check_tim_exchange(state, move):
    if not _playing(state, move, "tim"):
        return
    give, take = move.get("give"), move.get("take")
    if give is None and take is None:
        return
    if give is None or take is None or give == move["card"] or give not in hand_after_tim(state, move["card"]):
        yield {"give": named(state, give) if give else nothing, "take": named(state, take) if take else nothing}
        return
    given, taken = card(state, give), card(state, take)
    if given["kind"] == "minus":
        return  # the SPECIAL CASE: any table card
    if taken["kind"] != "plus" or taken.get("colour") != given.get("colour"):
        yield {"give": named(state, give), "take": named(state, take)}


@rule("moemmen/mommen.take-minus")
def check_answer_takes_minus(state, move):
    if state["phase"] == "mommen" and move["kind"] == "respond" and move["take"] in state["table"]:
        if card(state, move["take"])["kind"] != "minus":
            yield {"card": named(state, move["take"])}


@rule("moemmen/mommen.no-minus-down")
def check_answer_gives(state, move):
    if state["phase"] == "mommen" and move["kind"] == "respond" and move["give"] in state["cards"]:
        if card(state, move["give"])["kind"] == "minus":
            yield {"card": named(state, move["give"])}


@rule("moemmen/table-exchange.three-minus")
def check_table_exchange(state, move):
    if _playing(state, move, "exchange-table") and len(minus_on_table(state)) < MINUS_TO_EXCHANGE:
        yield {"minus": len(minus_on_table(state))}


SCORING = load_scoring(GAME)  # who wins: rules/moemmen.yaml, "scoring"
RULES = load_rules(GAME, globals())  # each check's prose: rules/<game>.yaml, bound by @rule


# ---- moves --------------------------------------------------------------------------------------


def parse_move(state: dict, move: dict) -> dict:
    out = move_head(state, move, MOVE_KINDS)
    kind = out["kind"]
    needed = {"swap": ("give", "take"), "benny": ("card",), "tim": ("card",), "respond": ("give", "take")}.get(kind, ())
    optional = ("give", "take") if kind == "tim" else ()
    for field in needed + optional:
        value = move.get(field)
        if value is None and field in optional:
            out[field] = None
            continue
        if value not in state["cards"]:
            raise InvalidMove(field, f"no card {value!r} in this game")
        out[field] = value
    return out


# ---- the engine ---------------------------------------------------------------------------------


def default_cards() -> dict:
    """Referee's deck, NOT the game's (the summary gives no card list): per colour plus cards worth
    1 to 8 and minus cards worth -1 to -3, two Tims and two Bennys."""
    cards = {}
    for colour in COLOURS:
        for value in range(1, 9):
            cards[f"{colour}+{value}"] = {"kind": "plus", "colour": colour, "value": value}
        for value in (1, 2, 3):
            cards[f"{colour}-{value}"] = {"kind": "minus", "colour": colour, "value": -value}
    for i in (1, 2):
        cards[f"tim-{i}"] = {"kind": "tim", "value": -TIM_BENNY_PENALTY}
        cards[f"benny-{i}"] = {"kind": "benny", "value": -TIM_BENNY_PENALTY}
    return cards


DEFAULT_DECK_LABEL = "Referee's default deck: the Mömmen summary gives no card list or values."


class Moemmen(BaseEngine):
    game = GAME
    rules = RULES
    rulesets = RULESETS
    players = player_counts(GAME)  # corpus/games.yaml, with the reasoning where the rulebook is silent
    setup_options = {
        "ruleset": "round-of-turns (the default) or scoring-round: what \"once per round\" limits the swap to.",
        "first_player": "The player index who starts (0 when absent).",
        "cards": "The table's own card list (the summary gives none); Referee's default deck otherwise.",
    }

    def setup(self, players: int, seed: int, options: dict | None = None) -> dict:
        options, ruleset = self.setup_options_read(players, options)
        first = starting_player(options, "first_player", players)
        cards = options.get("cards") or default_cards()
        if len(cards) < players * HAND + TABLE:
            raise InvalidState("options.cards", f"at least {players * HAND + TABLE} cards for {players} players")
        state = {
            "game": GAME, "seed": seed, "round": 1, "phase": "play", "turn": first, "starter": first,
            "cards": cards, "deck": [], "discard": [], "table": [],
            "players": [{"hand": [], "score": 0} for _ in range(players)],
            "passes": 0, "mommen": None, "draws": 0, "history": [], "winners": [],
            "ruleset": ruleset, "swapped": [],
        }
        if not options.get("cards"):
            state["deck_label"] = DEFAULT_DECK_LABEL
        self._deal(state)
        self.validate(state)
        return state

    def _deal(self, state) -> None:
        deck = sorted(state["cards"])
        random.Random(f"{GAME}:{state['seed']}:round-{state['round']}").shuffle(deck)
        for p in state["players"]:
            p["hand"], deck = deck[:HAND], deck[HAND:]
        state["table"], state["deck"], state["discard"] = deck[:TABLE], deck[TABLE:], []

    def validate(self, state: dict) -> None:
        n = self.validate_head(state, PHASES)
        if state.get("ruleset", RULESETS[0]) not in RULESETS:
            raise InvalidState("ruleset", f"one of {', '.join(RULESETS)}")
        for j, p in enumerate(state.get("swapped", [])):
            if not is_player(p, n):
                raise InvalidState(f"swapped[{j}]", f"a player index from 0 to {n - 1}")
        for field in ("turn", "starter"):
            if not is_player(state[field], n):
                raise InvalidState(field, f"a player index from 0 to {n - 1}")
        for cid, c in state["cards"].items():
            if c.get("kind") not in KINDS:
                raise InvalidState(f"cards.{cid}.kind", f"one of {', '.join(KINDS)}")
            if c["kind"] in ("plus", "minus") and not isinstance(c.get("colour"), str):
                raise InvalidState(f"cards.{cid}.colour", "plus and minus cards have a colour")
            value = c.get("value")
            if not is_whole(value):
                raise InvalidState(f"cards.{cid}.value", "a whole number")
            if c["kind"] == "plus" and value < 1 or c["kind"] == "minus" and value > -1:
                raise InvalidState(f"cards.{cid}.value", "plus cards are worth 1 or more, minus cards -1 or less")
        places = {}
        spots = [("deck", state["deck"]), ("discard", state["discard"]), ("table", state["table"])]
        spots += [(f"players[{i}].hand", p["hand"]) for i, p in enumerate(state["players"])]
        for where, cards in spots:
            for j, cid in enumerate(cards):
                if cid not in state["cards"]:
                    raise InvalidState(f"{where}[{j}]", f"no card {cid!r} in cards")
                if cid in places:
                    raise InvalidState(f"{where}[{j}]", f"card {cid} is also at {places[cid]}")
                places[cid] = f"{where}[{j}]"
        if set(state["cards"]) - set(places):
            raise InvalidState("cards", "every card is in the deck, the discard pile, on the table or in a hand")
        for i, p in enumerate(state["players"]):
            if len(p["hand"]) > HAND:
                raise InvalidState(f"players[{i}].hand", f"a hand holds {HAND} cards, not {len(p['hand'])}")
        if state["phase"] != "over" and len(state["table"]) > TABLE:
            raise InvalidState("table", f"at most {TABLE} cards lie on the table")
        mommen = state.get("mommen")
        if state["phase"] == "mommen":
            if not isinstance(mommen, dict) or not mommen.get("pending"):
                raise InvalidState("mommen.pending", "after Mömmen is called, the opponents still to answer")
            for j, p in enumerate(mommen["pending"]):
                if not is_player(p, n) or p == mommen.get("caller"):
                    raise InvalidState(f"mommen.pending[{j}]", "an opponent of the caller")
        elif mommen is not None:
            raise InvalidState("mommen", "only while Mömmen is being answered")

    # -- applying moves ---------------------------------------------------------------------------

    @staticmethod
    def _draw(state) -> str | None:
        if not state["deck"] and state["discard"]:  # Referee's reading: reshuffle the discard pile
            state["draws"] += 1
            state["deck"] = sorted(state["discard"])
            random.Random(f"{GAME}:{state['seed']}:reshuffle-{state['draws']}").shuffle(state["deck"])
            state["discard"] = []
        return state["deck"].pop(0) if state["deck"] else None

    @staticmethod
    def _refill(state, player: int) -> None:
        hand = state["players"][player]["hand"]
        while len(hand) < HAND and (drawn := Moemmen._draw(state)) is not None:
            hand.append(drawn)

    def _new_table(self, state) -> None:
        state["discard"].extend(state["table"])
        state["table"] = []
        while len(state["table"]) < TABLE and (drawn := self._draw(state)) is not None:
            state["table"].append(drawn)

    def _apply_respond(self, state, move) -> None:
        self._answer(state, move)

    def _apply_swap(self, state, move) -> None:
        p, hand = self._turn_player(state)
        state["passes"] = 0
        hand[hand.index(move["give"])] = move["take"]
        state["table"][state["table"].index(move["take"])] = move["give"]
        state["turn"] = (p + 1) % len(state["players"])  # swap.1: "This ends his turn."
        state["swapped"] = sorted(set(state.get("swapped", [])) | {p})

    def _apply_benny(self, state, move) -> None:  # benny.1: discard, refill, a new table, and play again
        p, hand = self._turn_player(state)
        state["passes"] = 0
        hand.remove(move["card"])
        state["discard"].append(move["card"])
        self._refill(state, p)
        self._new_table(state)

    def _apply_exchange_table(self, state, move) -> None:
        state["passes"] = 0
        self._new_table(state)

    def _apply_pass(self, state, move) -> None:
        p, _ = self._turn_player(state)
        n = len(state["players"])
        state["passes"] += 1
        state["turn"] = (p + 1) % n
        if state["passes"] >= n:  # pass.1: all passed, a new table
            self._new_table(state)
            state["passes"] = 0

    def _apply_tim(self, state, move) -> None:
        p, hand = self._turn_player(state)
        n = len(state["players"])
        state["passes"] = 0
        hand.remove(move["card"])
        state["discard"].append(move["card"])
        self._refill(state, p)
        if move["give"] is not None:
            hand[hand.index(move["give"])] = move["take"]
            state["table"][state["table"].index(move["take"])] = move["give"]
        state["mommen"] = {"caller": p, "pending": [(p + k) % n for k in range(1, n)]}
        state["phase"] = "mommen"
        self._next_answer(state)

    @staticmethod
    def _turn_player(state) -> tuple[int, list]:
        """The player whose turn it is, and their hand."""
        return state["turn"], state["players"][state["turn"]]["hand"]

    def after_move(self, state: dict, move: dict) -> None:
        self._end_of_round(state)

    def _answer(self, state, move) -> None:
        responder = state["mommen"]["pending"].pop(0)
        hand = state["players"][responder]["hand"]
        hand[hand.index(move["give"])] = move["take"]
        state["table"][state["table"].index(move["take"])] = move["give"]
        self._next_answer(state)

    def _next_answer(self, state) -> None:
        """Pass over opponents who cannot answer; when none is left to, or no minus card is on the
        table, play resumes with the player after the caller (tim.2)."""
        pending = state["mommen"]["pending"]
        while pending and not can_answer(state, pending[0]):
            pending.pop(0)
        if not pending or not minus_on_table(state):
            caller = state["mommen"]["caller"]
            state["mommen"] = None
            state["phase"] = "play"
            state["turn"] = (caller + 1) % len(state["players"])

    def _end_of_round(self, state) -> None:
        """goal.1, round-end.1: 6 plus cards of one colour end the round at once; scoring.1."""
        if state["phase"] == "over" or not any(six_of_a_colour(state, p) for p in range(len(state["players"]))):
            return
        points = []
        for p, player in enumerate(state["players"]):
            value, colour = score(state, p)
            player["score"] += value
            points.append({"player": p, "colour": colour, "points": value})
        state["history"].append({"round": state["round"], "scores": points})
        totals = [p["score"] for p in state["players"]]
        if max(totals) >= TARGET:
            state["phase"] = "over"
            state["mommen"] = None
            state["winners"] = [p for p, t in enumerate(totals) if t == max(totals)]
            return
        state["round"] += 1
        state["starter"] = (state["starter"] + 1) % len(state["players"])
        state["turn"] = state["starter"]
        state["phase"], state["mommen"], state["passes"] = "play", None, 0
        state["swapped"] = []
        self._deal(state)

    # -- legal moves and the result ---------------------------------------------------------------

    def parse_move(self, state: dict, move: dict) -> dict:
        return parse_move(state, move)

    def candidates(self, state: dict) -> list[dict]:
        if state["phase"] == "over":
            return []
        if state["phase"] == "mommen":
            hand = state["players"][state["mommen"]["pending"][0]]["hand"]
            return [{"kind": "respond", "give": g, "take": t} for g in hand for t in state["table"]]
        hand = state["players"][state["turn"]]["hand"]
        out = [{"kind": "swap", "give": g, "take": t} for g in hand for t in state["table"]]
        out += [{"kind": "benny", "card": c} for c in hand]
        for c in hand:
            out.append({"kind": "tim", "card": c, "give": None, "take": None})
            if card(state, c)["kind"] == "tim":
                after = hand_after_tim(state, c)
                out += [{"kind": "tim", "card": c, "give": g, "take": t} for g in after for t in state["table"]]
        out += [{"kind": "exchange-table"}, {"kind": "pass"}]
        return out

    def standings(self, state: dict, lang: str) -> dict:
        """Each recorded round's points (scoring.1) and the total; 100 points first wins (game-end.1)."""
        rows = []
        for i, player in enumerate(state["players"]):
            rounds = [SCORING["round"].line(lang, line["points"], round=past["round"], colour=line["colour"])
                      for past in state["history"] for line in past["scores"] if line["player"] == i]
            rows.append({"player": i, "total": player["score"], "key": player["score"],
                         "lines": [*rounds, SCORING["total"].line(lang, player["score"])]})
        return ranked(rows, state["phase"] == "over", winners=state["winners"])

    def result(self, state: dict) -> dict | None:
        if state["phase"] != "over":
            return None
        rows = rank_rows([{"player": i, "score": p["score"]} for i, p in enumerate(state["players"])],
                         key=lambda r: r["score"])
        return {"standings": rows, "winners": state["winners"], "tie_break": None, "shared": len(state["winners"]) > 1,
                "rounds": state["history"]}

    def examples(self) -> list[tuple[str, str, dict, dict]]:
        """A worked example per move kind, on states met in a seeded game: (name, summary, state, move)."""
        state = self.setup(3, 1, {})
        first = {m["kind"]: m for m in reversed(self.legal_moves(state))}
        out = [("swap", "Swap one hand card for a table card (this ends the turn)", state, first["swap"]),
               ("pass", "Pass", state, {"kind": "pass"}),
               ("exchange-table", "Exchange the table: refused unless 3 or more minus cards show", state, {"kind": "exchange-table"})]
        wanted = {"benny": "Play Benny: new table cards, and play again",
                  "tim": "Play Tim and call Mömmen",
                  "respond": "Answer Mömmen: take a minus card, lay down a plus, Tim or Benny card"}
        rng, s = random.Random(2), state
        for _ in range(2000):
            moves = self.legal_moves(s)
            for move in moves:
                if move["kind"] in wanted:
                    out.append((move["kind"], wanted.pop(move["kind"]), s, move))
            if not wanted or not moves:
                break
            s = self.apply(s, rng.choice(moves))
        return out

# ---- states and moves: their shape only (the engine checks the game's invariants) ---------------

class MoemmenCard(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(KINDS), metadata={"description": "plus, minus, tim or benny."})
    colour = fields.String(metadata={"description": "Plus and minus cards' colour."})
    value = fields.Integer(strict=True, required=True, metadata={"description": "Points: plus cards 1 or more, minus cards -1 or less."})


class MoemmenPlayer(Schema):
    hand = fields.List(fields.String(), required=True, validate=validate.Length(max=20))
    score = fields.Integer(strict=True, required=True, metadata={"description": "Points recorded over the rounds so far."})


class MoemmenCall(Schema):
    caller = fields.Integer(strict=True, required=True, metadata={"description": "Who played Tim and called Mömmen."})
    pending = fields.List(fields.Integer(strict=True), required=True, metadata={"description": "Opponents still to answer, in order."})


class MoemmenState(Schema):
    """A Mömmen table: hands, the table's 5 cards, the deck, and a Mömmen being answered."""

    game = fields.String(validate=validate.Equal("moemmen"), metadata={"description": "The game, always \"moemmen\" (optional in a request)."})
    seed = fields.Integer(strict=True, required=True)
    round = fields.Integer(strict=True, required=True)
    phase = fields.String(required=True, validate=validate.OneOf(PHASES), metadata={"description": "play, mommen (being answered) or over."})
    turn = fields.Integer(strict=True, required=True)
    starter = fields.Integer(strict=True, required=True, metadata={"description": "Who began this round."})
    cards = fields.Dict(keys=fields.String(), values=fields.Nested(MoemmenCard), required=True, validate=validate.Length(max=200),
                        metadata={"description": "Every card: the summary gives no card list, so the state carries it."})
    deck = fields.List(fields.String(), required=True, validate=validate.Length(max=200), metadata={"description": "Top first."})
    discard = fields.List(fields.String(), required=True, validate=validate.Length(max=200))
    table = fields.List(fields.String(), required=True, validate=validate.Length(max=20))
    players = fields.List(fields.Nested(MoemmenPlayer), required=True, validate=validate.Length(min=1, max=10))
    passes = fields.Integer(strict=True, required=True, metadata={"description": "Passes in a row since another option was taken."})
    mommen = fields.Nested(MoemmenCall, allow_none=True, required=True)
    draws = fields.Integer(strict=True, required=True, metadata={"description": "Reshuffles so far (seeds the next)."})
    history = fields.List(fields.Dict(), required=True, metadata={"description": "Each round's scores."})
    winners = fields.List(fields.Integer(strict=True), required=True)
    deck_label = fields.String(metadata={"description": "Present when the cards are Referee's default deck."})
    ruleset = fields.String(validate=validate.OneOf(RULESETS), metadata={"description": "round-of-turns (the default when absent) or scoring-round: "
                                                     "what \"once per round\" limits the swap to."})
    swapped = fields.List(fields.Integer(strict=True), validate=validate.Length(max=10),
                          metadata={"description": "Players who swapped with the table this scoring round."})


# Where a move's cards come from (registry.move_shapes): the hand of the player to play, or of the
# opponent answering Mömmen, and the table.
_HAND = "@players.{turn}.hand"
_ANSWERING = "@players.{mommen.pending.0}.hand"


class MoemmenMove(MoveShape):
    """One option of a turn, or an answer to Mömmen."""

    KINDS = MOVE_FIELDS

    kind = fields.String(required=True, metadata={"description": "swap, benny, tim, respond, exchange-table or pass."})
    player = fields.Integer(strict=True, allow_none=True)
    card = fields.String(metadata={"description": "benny, tim: the Benny or Tim card played.",
                                   "choices": {"benny": [_HAND], "tim": [_HAND]}})
    give = fields.String(allow_none=True, metadata={"description": "swap, respond, tim: the hand card put on the table.",
                                                    "choices": {"swap": [_HAND], "tim": [_HAND], "respond": [_ANSWERING]}})
    take = fields.String(allow_none=True, metadata={"description": "swap, respond, tim: the table card taken.",
                                                    "choices": {k: ["@table"] for k in ("swap", "tim", "respond")}})


register(Game(GAME, Moemmen(), MoemmenState, MoemmenMove))
