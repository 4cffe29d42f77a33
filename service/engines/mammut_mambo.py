"""Mammut Mambo: a real-time dance game, judged after the fact.

The state records the table between moments of play; the moves are what happened:
* ``turn``: the player whose turn it is turns over the top card of their pile;
* ``dance``: after a gesture card, every player's performance, a list of (gesture, shout) steps,
  plus whom the tribal leader judged to lag behind, and who receives leftover penalty cards;
* ``hunt``: after a hunt card, who caught the pink mammoth, who came away empty-handed, and the
  two players the new tribal leader gives a card to.

A dance is never illegal: mistakes are part of the game. The verdict on a dance is legal and
lists every dancer's mistake (who, which rule, the rulebook's words) under ``outcome``, with the
penalty applied in the state after it. Only the table's own decisions can break a rule: leftover
cards given to a dancer who made no mistake, two players without a mammoth, and so on.

Only four of the seven gestures are named in the rulebook (Bunga, Umba, Roarrr, Toc Toc Toc): the
state names its gestures, and the default deck calls the other three "gesture 5" to "gesture 7".
"""

from __future__ import annotations

import random
import re
from collections import Counter
from itertools import combinations

from marshmallow import Schema, fields, validate

from indexer.corpus import player_counts
from service.engines.base import (
    BaseEngine,
    load_scoring,
    rank_rows,
    ranked,
    Citation,
    InvalidMove,
    InvalidState,
    is_player,
    move_head,
    player_index,
    load_mistakes,
    load_rules,
    rule,
    nothing,
    starting_player,
)
from service.engines.registry import Game, MoveShape, register

GAME = "mammut-mambo"

GESTURE_CARDS = 53  # components.1: "53 gesture cards"
HUNT_CARDS = 7  # components.1: "7 hunt cards"
MAMMOTHS = 5  # components.1: "5 wooden mammoths (4 brown, 1 pink)"
GESTURES = 7  # gameplay.1: "seven different gestures"
LAST_HUNT = 7  # game-end.1: "After the 7th mammoth hunt"
GIFTS = 2  # step-4.1: "distribute 1 card each from their pile to two players"
NAMED_GESTURES = ("Bunga", "Umba", "Roarrr", "Toc Toc Toc")
BACKGROUNDS = ("outdoors", "cave")
PHASES = ("turn", "dance", "hunt", "over")
MOVE_FIELDS = {"turn": (), "dance": (), "hunt": ("pink", "empty_handed")}  # each move kind, and the fields it cannot do without
MOVE_KINDS = tuple(MOVE_FIELDS)


def same_word(a: str | None, b: str | None) -> bool:
    """Shouts compare without case, spaces or punctuation ("Toc Toc Toc" = "toc-toc-toc")."""
    squeeze = lambda s: re.sub(r"\W+", "", s.lower())  # noqa: E731
    return a is not None and b is not None and squeeze(a) == squeeze(b)


# ---- the choreography --------------------------------------------------------------------------


def visible(state: dict, player: int) -> str | None:
    """The card lying face up in front of a player: the last one turned this round."""
    played = state["players"][player]["played"]
    return played[-1] if played else None


def choreography(state: dict) -> list[dict]:
    """The dance due after the card just turned: [{player, card, gesture, shout}] in order.

    step-1.3 and step-2.1: the new card first, then all face-up cards, clockwise after an
    outdoor card and counterclockwise after a cave card. step-3.1: a gesture lying face up more
    than once is danced without its shout (shout None)."""
    n = len(state["players"])
    start = state["last"]["player"]
    card = state["cards"][state["last"]["card"]]
    step = 1 if card["background"] == "outdoors" else -1
    order = [start] + [(start + step * k) % n for k in range(1, n)]
    cards = [(p, visible(state, p)) for p in order if visible(state, p) is not None]
    counts = Counter(state["cards"][c]["gesture"] for _, c in cards)
    return [
        {
            "player": p,
            "card": c,
            "gesture": state["cards"][c]["gesture"],
            "shout": None if counts[state["cards"][c]["gesture"]] > 1 else state["cards"][c]["gesture"],
        }
        for p, c in cards
    ]


def judge(expected: list[dict], steps: list[dict] | None) -> tuple[str, dict] | None:
    """A dancer's first mistake against the choreography, as (kind, values), or None."""
    if not steps:
        return "missing", {"position": 1}
    for position, (due, done) in enumerate(zip(expected, steps), start=1):
        if not same_word(done.get("gesture"), due["gesture"]):
            later = any(same_word(done.get("gesture"), e["gesture"]) for e in expected)
            kind = "out-of-order" if later else "wrong-gesture"
            return kind, {"position": position, "due": due["gesture"], "done": done.get("gesture")}
        if due["shout"] is None and done.get("shout"):
            return "repeated-shout", {"position": position, "due": due["gesture"], "done": done.get("shout")}
        if due["shout"] is not None and not same_word(done.get("shout"), due["shout"]):
            return "wrong-shout", {"position": position, "due": due["shout"], "done": done.get("shout") or nothing}
    if len(steps) < len(expected):
        return "missing", {"position": len(steps) + 1}
    if len(steps) > len(expected):
        extra = steps[len(expected)]
        return "wrong-gesture", {"position": len(expected) + 1, "due": nothing, "done": extra.get("gesture")}
    return None


def erring(state: dict, move: dict) -> dict[int, tuple[str, dict]]:
    """Every dancer who made a mistake, with the first one."""
    expected = choreography(state)
    found = {}
    for player, steps in enumerate(move["performances"]):
        mistake = judge(expected, steps)
        if mistake:
            found[player] = mistake
    for player in move["lagging"]:
        found.setdefault(player, ("lagging", {}))
    return found


def played_cards(state: dict) -> list[str]:
    return [c for p in state["players"] for c in p["played"]]


# ---- the rules ----------------------------------------------------------------------------------

PENALTY = Citation(f"{GAME}.en.mambo-dud.2", "As a penalty, they take all the played cards and place them face down under their pile.")

# The dancers' mistakes: not rules a move can break, but what the verdict on a dance reports.
MISTAKE_MESSAGES = load_mistakes(GAME)  # a dancer's mistakes, named after the dance: rules/mammut-mambo.yaml


def _phase(state, move, phase, kind):
    return state["phase"] == phase and move["kind"] == kind


@rule("mammut-mambo/game.over")
def check_game_over(state, move):
    if state["phase"] == "over":
        yield {}


@rule("mammut-mambo/phase.judge-first")
def check_judge_first(state, move):
    if state["phase"] in ("dance", "hunt") and move["kind"] != state["phase"]:
        yield {"due": state["phase"]}


@rule("mammut-mambo/phase.nothing-to-judge")
def check_nothing_to_judge(state, move):
    if state["phase"] == "turn" and move["kind"] in ("dance", "hunt"):
        yield {"kind": move["kind"]}


@rule("mammut-mambo/turn.out-of-turn")
def check_out_of_turn(state, move):
    if _phase(state, move, "turn", "turn") and move.get("player") is not None and move["player"] != state["turn"]:
        yield {"player": move["player"], "turn": state["turn"]}


@rule("mammut-mambo/penalty.surplus")
def check_surplus(state, move):
    if not _phase(state, move, "dance", "dance"):
        return
    errs = sorted(erring(state, move))
    total = len(played_cards(state))
    left_over = total % len(errs) if errs else 0
    given = move["surplus"]
    if len(given) != left_over or len(set(given)) != len(given) or any(p not in errs for p in given):
        yield {"count": left_over, "erring": ", ".join(map(str, errs)) or nothing, "given": ", ".join(map(str, given)) or nothing}


@rule("mammut-mambo/hunt.one-mammoth-each")
def check_one_empty_handed(state, move):
    if _phase(state, move, "hunt", "hunt") and move["pink"] == move["empty_handed"]:
        yield {"player": move["pink"]}


@rule("mammut-mambo/hunt.gifts")
def check_gifts(state, move):
    if not _phase(state, move, "hunt", "hunt"):
        return
    pink, gifts = move["pink"], move["gifts"]
    due = min(GIFTS, len(state["players"]) - 1, _pile_after_hunt(state, move, pink))
    if len(gifts) != due or len(set(gifts)) != len(gifts) or pink in gifts:
        yield {"due": due, "given": ", ".join(map(str, gifts)) or nothing}


def _pile_after_hunt(state, move, player) -> int:
    pile = len(state["players"][player]["pile"])
    if player == move["empty_handed"]:
        pile += len(played_cards(state))
    return pile


SCORING = load_scoring(GAME)  # who wins: rules/mammut-mambo.yaml, "scoring"
RULES = load_rules(GAME, globals())  # each check's prose: rules/<game>.yaml, bound by @rule


# ---- moves --------------------------------------------------------------------------------------


def parse_move(state: dict, move: dict) -> dict:
    out = move_head(state, move, MOVE_KINDS)
    kind, n = out["kind"], len(state["players"])
    if kind == "dance":
        performances = move.get("performances") or []
        if not isinstance(performances, list) or len(performances) > n:
            raise InvalidMove("performances", f"one list of steps per player ({n}); null for a player who did nothing")
        performances = performances + [None] * (n - len(performances))
        for i, steps in enumerate(performances):
            if steps is not None and not (isinstance(steps, list) and all(isinstance(s, dict) for s in steps)):
                raise InvalidMove(f"performances[{i}]", "a list of {gesture, shout} steps, or null")
        out["performances"] = performances
        out["lagging"] = sorted({player_index(p, n, "lagging") for p in move.get("lagging") or []})
        out["surplus"] = [player_index(p, n, "surplus") for p in move.get("surplus") or []]
    elif kind == "hunt":
        out["pink"] = player_index(move.get("pink"), n, "pink")
        out["empty_handed"] = player_index(move.get("empty_handed"), n, "empty_handed")
        out["gifts"] = [player_index(p, n, "gifts") for p in move.get("gifts") or []]
    return out


def canonical(state: dict, move: dict) -> dict:
    """What a move changes: for a dance, who erred and who takes leftovers, not every step."""
    move = parse_move(state, move)
    move.pop("player", None)
    if move["kind"] == "dance" and state["phase"] == "dance":
        return {"kind": "dance", "erring": sorted(erring(state, move)), "surplus": sorted(move["surplus"])}
    if move["kind"] == "hunt":
        move["gifts"] = sorted(move["gifts"])
    return move


# ---- the engine ---------------------------------------------------------------------------------


def default_cards(gestures: list[str]) -> dict:
    """Referee's deck: 53 gesture cards spread over the 7 gestures and both backgrounds as evenly
    as 53 allows, and 7 hunt cards. The rulebook does not give the real distribution."""
    cards = {}
    for i in range(GESTURE_CARDS):
        gesture = gestures[i % GESTURES]
        background = BACKGROUNDS[(i // GESTURES) % 2]
        cards[f"g{i + 1:02d}"] = {"type": "gesture", "gesture": gesture, "background": background}
    for i in range(HUNT_CARDS):
        cards[f"h{i + 1}"] = {"type": "hunt"}
    return cards


DEFAULT_GESTURES = list(NAMED_GESTURES) + ["gesture 5", "gesture 6", "gesture 7"]
DEFAULT_DECK_LABEL = ("Referee's default deck: the rulebook names four gestures and does not give the "
                      "distribution of cards; 'gesture 5' to 'gesture 7' stand for the unnamed ones.")


class MammutMambo(BaseEngine):
    game = GAME
    rules = RULES
    players = player_counts(GAME)  # corpus/games.yaml, with the reasoning where the rulebook is silent
    players_note = "5 mammoths, one fewer than players"
    setup_options = {
        "tribal_leader": "The player index who gets the tribal leader stand (0 when absent).",
        "gestures": "The names of the seven gestures (the rulebook names four); Referee's defaults otherwise.",
        "cards": "The table's own Mambo cards; Referee's default deck otherwise.",
    }

    def setup(self, players: int, seed: int, options: dict | None = None) -> dict:
        """setup.1-4: the cards dealt evenly, one mammoth fewer than players, a tribal leader."""
        options, _ = self.setup_options_read(players, options)
        leader = starting_player(options, "tribal_leader", players)
        gestures = list(options.get("gestures") or DEFAULT_GESTURES)
        cards = options.get("cards") or default_cards(gestures)
        deck = sorted(cards)
        random.Random(f"{GAME}:{seed}:setup").shuffle(deck)
        if len(deck) % players:
            raise InvalidState("players", f"{len(deck)} cards cannot be dealt evenly to {players} players")
        share = len(deck) // players
        state = {
            "game": GAME,
            "seed": seed,
            "phase": "turn",
            "turn": leader,  # step-1.1: "The tribal leader begins."
            "tribal_leader": leader,
            "hunts": 0,
            "gestures": gestures,
            "cards": cards,
            "players": [{"pile": deck[p * share:(p + 1) * share], "played": []} for p in range(players)],
            "last": None,
            "winners": [],
        }
        if not options.get("cards"):
            state["deck"] = DEFAULT_DECK_LABEL
        self.validate(state)
        return state

    def validate(self, state: dict) -> None:
        n = self.validate_head(state, PHASES, "turn", "tribal_leader")
        if not 0 <= state["hunts"] <= LAST_HUNT:
            raise InvalidState("hunts", f"the stone moves once per hunt, {LAST_HUNT} at most")
        gestures = state["gestures"]
        if len(gestures) != GESTURES or len(set(gestures)) != GESTURES:
            raise InvalidState("gestures", f"{GESTURES} different gestures")
        kinds = Counter()
        for cid, card in state["cards"].items():
            if card.get("type") == "hunt":
                kinds["hunt"] += 1
            elif card.get("type") == "gesture":
                if card.get("gesture") not in gestures:
                    raise InvalidState(f"cards.{cid}.gesture", f"one of the state's gestures: {', '.join(gestures)}")
                if card.get("background") not in BACKGROUNDS:
                    raise InvalidState(f"cards.{cid}.background", "outdoors or cave")
                kinds["gesture"] += 1
            else:
                raise InvalidState(f"cards.{cid}.type", "gesture or hunt")
        if kinds["gesture"] != GESTURE_CARDS or kinds["hunt"] != HUNT_CARDS:
            raise InvalidState("cards", f"{GESTURE_CARDS} gesture cards and {HUNT_CARDS} hunt cards, not {kinds['gesture']} and {kinds['hunt']}")
        places = {}
        for i, p in enumerate(state["players"]):
            for where in ("pile", "played"):
                for j, cid in enumerate(p[where]):
                    path = f"players[{i}].{where}[{j}]"
                    if cid not in state["cards"]:
                        raise InvalidState(path, f"no card {cid!r} in cards")
                    if cid in places:
                        raise InvalidState(path, f"card {cid} is also at {places[cid]}")
                    places[cid] = path
        missing = set(state["cards"]) - set(places)
        if missing:
            raise InvalidState("cards", f"{len(missing)} card(s) are nowhere, e.g. {sorted(missing)[0]}")
        for i, p in enumerate(state["players"]):
            if any(state["cards"][c]["type"] == "hunt" for c in p["played"]) and state["phase"] != "hunt":
                raise InvalidState(f"players[{i}].played", "a hunt card lies face up only until the hunt")
        last = state["last"]
        if state["phase"] in ("dance", "hunt"):
            if not isinstance(last, dict) or not is_player(last.get("player"), n):
                raise InvalidState("last", "after a card is turned, the state records who turned which card")
            if visible(state, last["player"]) != last.get("card"):
                raise InvalidState("last.card", "the card just turned lies face up on top of its player's cards")
            expected = "hunt" if state["cards"][last["card"]]["type"] == "hunt" else "dance"
            if state["phase"] != expected:
                raise InvalidState("phase", f"a {state['cards'][last['card']]['type']} card calls for a {expected}")
        elif state["phase"] == "turn":
            if last is not None:
                raise InvalidState("last", "no card awaits a dance or hunt between turns")
            if not state["players"][state["turn"]]["pile"]:
                raise InvalidState("turn", "the player to turn a card has none: the game would be over")

    # -- moves ----------------------------------------------------------------------------------

    def outcome(self, state: dict, move: dict, lang: str = "en") -> dict | None:
        """What a legal dance or hunt led to: every mistake, who takes which cards, who begins."""
        move = parse_move(state, move)
        if move["kind"] != "dance":
            return None
        mistakes = []
        for player, (kind, values) in sorted(erring(state, move).items()):
            citation, messages = MISTAKE_MESSAGES[kind]
            template = messages.get(lang) or messages["en"]
            mistakes.append({
                "player": player,
                "code": f"{GAME}/dance.{kind}",
                "message": template.format(player=player, **{k: v(lang) if callable(v) else v for k, v in values.items()}),
                "citations": [citation.as_dict(), PENALTY.as_dict()],
            })
        return {"choreography": [{k: v for k, v in step.items()} for step in choreography(state)],
                "mistakes": mistakes}

    def _apply_turn(self, state, move) -> None:
        p = state["turn"]
        card = state["players"][p]["pile"].pop(0)
        state["players"][p]["played"].append(card)
        state["last"] = {"player": p, "card": card}
        state["phase"] = "hunt" if state["cards"][card]["type"] == "hunt" else "dance"

    def _apply_dance(self, state, move) -> None:
        n = len(state["players"])
        turner = state["last"]["player"]
        errs = sorted(erring(state, move))
        state["last"] = None
        if not errs:  # step-1.3: the next player clockwise turns a card
            if not state["players"][turner]["pile"]:  # game-end.1 a): the last card, danced without a mistake
                self._over(state, [turner], "Neanderthal of the Month")
                return
            state["phase"] = "turn"
            state["turn"] = self._holding_cards(state, turner + 1)
            return
        cards = played_cards(state)
        share, _ = divmod(len(cards), len(errs))
        at = 0
        for p in errs:  # mambo-dud.2: the played cards, divided evenly, go face down under the piles
            take = share + (1 if p in move["surplus"] else 0)
            state["players"][p]["pile"].extend(cards[at:at + take])
            at += take
        for p in state["players"]:
            p["played"] = []
        if turner not in errs and not state["players"][turner]["pile"]:
            self._over(state, [turner], "Neanderthal of the Month")
            return
        leader = state["tribal_leader"]  # next-round.1: the erring player closest clockwise to the leader
        state["turn"] = self._holding_cards(state, min(errs, key=lambda p: (p - leader) % n))
        state["phase"] = "turn"

    def _apply_hunt(self, state, move) -> None:
        turner = state["last"]["player"]
        empty, pink = move["empty_handed"], move["pink"]
        state["players"][empty]["pile"].extend(played_cards(state))  # step-4.1: all face-up cards
        for p in state["players"]:
            p["played"] = []
        state["tribal_leader"] = pink
        for receiver in move["gifts"]:  # one card each from the new leader's pile
            state["players"][receiver]["pile"].append(state["players"][pink]["pile"].pop(0))
        state["hunts"] += 1  # the Stone Age stone moves on
        state["last"] = None
        state["phase"] = "turn"
        state["turn"] = empty  # they begin the new round
        done = [p for p in (turner, pink) if not state["players"][p]["pile"]]
        if done:  # game-end.1 a): no cards left (the last card turned, or given away by the leader)
            self._over(state, sorted(set(done)), "Neanderthal of the Month")
        elif state["hunts"] == LAST_HUNT:  # game-end.1 b): fewest cards wins
            fewest = min(len(p["pile"]) for p in state["players"])
            self._over(state, [i for i, p in enumerate(state["players"]) if len(p["pile"]) == fewest], "Club King")

    @staticmethod
    def _holding_cards(state, start: int) -> int:
        """The first player from ``start`` clockwise who has a card to turn.

        Referee's reading, the rulebook being silent: a dancer who erred but received no card
        (more erring dancers than played cards) has an empty pile without having won (game-end.1 a)
        needs a dance without a mistake); their turns pass on until a penalty gives them cards."""
        n = len(state["players"])
        return next((start + k) % n for k in range(n) if state["players"][(start + k) % n]["pile"])

    def _over(self, state, winners: list[int], title: str) -> None:
        state["phase"] = "over"
        state["winners"] = winners
        state["title"] = title
        state["last"] = None

    def examples(self) -> list[tuple[str, str, dict, dict]]:
        """A worked example per move kind, on states from a seeded game: (name, summary, state, move)."""
        start = self.setup(4, 1, {})
        state, rng, dance, hunt = start, random.Random(1), None, None
        while dance is None or hunt is None:
            if state["phase"] == "dance" and dance is None:
                dance = state
            if state["phase"] == "hunt" and hunt is None:
                hunt = state
            moves = self.legal_moves(state) or self.legal_moves(start)
            state = self.apply(state if self.legal_moves(state) else start, rng.choice(moves))
        steps = [{"gesture": s["gesture"], "shout": s["shout"]} for s in choreography(dance)]
        slips = [dict(s, shout=s["gesture"]) for s in steps]  # shouting on every step
        performances = [steps] * len(dance["players"])
        performances[1] = slips  # one erring dancer takes every played card: nothing left over
        return [
            ("turn", "The player whose turn it is turns over their top card", start, {"kind": "turn"}),
            ("dance", "Everyone dances the due choreography but player 1, who shouts on every step",
             dance, {"kind": "dance", "performances": performances, "lagging": [], "surplus": []}),
            ("hunt", "Player 2 catches the pink mammoth, player 0 none; player 2 gives a card to players 1 and 3",
             hunt, {"kind": "hunt", "pink": 2, "empty_handed": 0, "gifts": [1, 3]}),
        ]

    def parse_move(self, state: dict, move: dict) -> dict:
        return parse_move(state, move)

    def canonical(self, state: dict, move: dict) -> dict:
        return canonical(state, move)

    def candidates(self, state: dict) -> list[dict]:
        n = len(state["players"])
        if state["phase"] == "turn":
            return [{"kind": "turn"}]
        if state["phase"] == "hunt":
            out = []
            for pink in range(n):
                for empty in range(n):
                    others = [p for p in range(n) if p != pink]
                    for size in range(0, GIFTS + 1):
                        for gifts in combinations(others, size):
                            out.append({"kind": "hunt", "pink": pink, "empty_handed": empty, "gifts": list(gifts)})
            return out
        if state["phase"] == "dance":
            perfect = [[{"gesture": s["gesture"], "shout": s["shout"]} for s in choreography(state)] for _ in range(n)]
            total = len(played_cards(state))
            out = []
            for size in range(0, n + 1):
                for errs in combinations(range(n), size):
                    performances = [None if p in errs else perfect[p] for p in range(n)]
                    left = total % size if size else 0
                    for surplus in combinations(errs, left):
                        out.append({"kind": "dance", "performances": performances, "lagging": [], "surplus": list(surplus)})
            return out
        return []

    def standings(self, state: dict, lang: str) -> dict:
        """The fewest cards in the pile wins (game-end.1); the tribal leader settles a tie (game-end.2)."""
        rows = [{"player": i, "total": len(p["pile"]), "key": -len(p["pile"]),
                 "lines": [SCORING["cards-in-pile"].line(lang, len(p["pile"]))]}
                for i, p in enumerate(state["players"])]
        over = state["phase"] == "over"
        fewest = min(len(p["pile"]) for p in state["players"])
        tied = len(state["winners"]) > 1 if over else sum(1 for p in state["players"] if len(p["pile"]) == fewest) > 1
        return ranked(rows, over, winners=state["winners"], tie_break=SCORING["tie"].line(lang) if tied else None)

    def result(self, state: dict) -> dict | None:
        if state["phase"] != "over":
            return None
        rows = rank_rows([{"player": i, "cards": len(p["pile"])} for i, p in enumerate(state["players"])],
                         key=lambda r: -r["cards"])  # the fewest cards first
        winners = state["winners"]
        return {
            "standings": rows,
            "winners": winners,
            "title": state.get("title"),
            "tie_break": "the tribal leader decides which of those tied has won" if len(winners) > 1 else None,
            "shared": len(winners) > 1,
        }

# ---- states and moves: their shape only (the engine checks the game's invariants) ---------------

class MammutMamboCard(Schema):
    type = fields.String(required=True, metadata={"description": "gesture or hunt."})
    gesture = fields.String(metadata={"description": "One of the state's gestures (the shout is its name)."})
    background = fields.String(metadata={"description": "outdoors (dance clockwise) or cave (counterclockwise)."})


class MammutMamboPlayer(Schema):
    pile = fields.List(fields.String(), required=True, validate=validate.Length(max=60), metadata={"description": "Face-down cards, top first."})
    played = fields.List(fields.String(), required=True, validate=validate.Length(max=60),
                         metadata={"description": "Cards turned this round, the visible one last."})


class MammutMamboLast(Schema):
    player = fields.Integer(strict=True, required=True)
    card = fields.String(required=True)


class MammutMamboState(Schema):
    """The table of a Mammut Mambo game between two moments of play."""

    game = fields.String(validate=validate.Equal("mammut-mambo"), metadata={"description": "The game, always \"mammut-mambo\" (optional in a request)."})
    seed = fields.Integer(strict=True, required=True)
    phase = fields.String(required=True, validate=validate.OneOf(PHASES), metadata={"description": "turn, dance (a gesture card was turned), hunt, or over."})
    turn = fields.Integer(strict=True, required=True)
    tribal_leader = fields.Integer(strict=True, required=True)
    hunts = fields.Integer(strict=True, required=True, metadata={"description": "Hunts so far: the Stone Age stone's place (0 to 7)."})
    gestures = fields.List(fields.String(), required=True, validate=validate.Length(max=20),
                           metadata={"description": "The seven gestures; the rulebook names four."})
    cards = fields.Dict(keys=fields.String(), values=fields.Nested(MammutMamboCard), required=True, validate=validate.Length(max=100))
    players = fields.List(fields.Nested(MammutMamboPlayer), required=True, validate=validate.Length(min=1, max=10))
    last = fields.Nested(MammutMamboLast, allow_none=True, required=True, metadata={"description": "The card just turned, awaiting its dance or hunt."})
    winners = fields.List(fields.Integer(strict=True), required=True)
    title = fields.String(metadata={"description": "Neanderthal of the Month or Club King, once the game is over."})
    deck = fields.String(metadata={"description": "Present when the deck is Referee's default."})


class MammutMamboStep(Schema):
    gesture = fields.String(allow_none=True)
    shout = fields.String(allow_none=True, metadata={"description": "The word called out; null for none."})


_PLAYERS = "#players"  # a field naming players: their indices (registry.move_shapes)


class MammutMamboMove(MoveShape):
    """A card turned, a dance performed, or a hunt."""

    KINDS = MOVE_FIELDS

    kind = fields.String(required=True, metadata={"description": "turn, dance or hunt."})
    player = fields.Integer(strict=True, allow_none=True)
    performances = fields.List(fields.List(fields.Nested(MammutMamboStep), allow_none=True), validate=validate.Length(max=10),
                               metadata={"description": "dance: each player's steps, in player order; null for nothing.",
                                         "choices": {"dance": ["@gestures"]}})
    lagging = fields.List(fields.Integer(strict=True), validate=validate.Length(max=10),
                          metadata={"description": "dance: players the tribal leader judged too slow.", "choices": {"dance": [_PLAYERS]}})
    surplus = fields.List(fields.Integer(strict=True), validate=validate.Length(max=10),
                          metadata={"description": "dance: erring players given one leftover penalty card each.",
                                    "choices": {"dance": [_PLAYERS]}})
    pink = fields.Integer(strict=True, metadata={"description": "hunt: who caught the pink mammoth.", "choices": {"hunt": [_PLAYERS]}})
    empty_handed = fields.Integer(strict=True, metadata={"description": "hunt: who caught no mammoth.", "choices": {"hunt": [_PLAYERS]}})
    gifts = fields.List(fields.Integer(strict=True), validate=validate.Length(max=10),
                        metadata={"description": "hunt: the players the pink hunter gives a card to.", "choices": {"hunt": [_PLAYERS]}})


register(Game(GAME, MammutMambo(), MammutMamboState, MammutMamboMove))
