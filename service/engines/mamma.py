"""Mamma: the whole board game of the English rulebook, from choosing the hands to the final score.

The city is in an illustration the text does not have, and so are the characters' printed ages,
the ingredient cards' drawings, costs and Mother-in-Law values, and the game cards' values. The
state carries all of it: ``board`` (the 27 spaces, which are next to which, each space's column,
the seat in column B each character starts from) and ``cards`` (every one of the 110 cards with
what is printed on it). ``default_board`` and ``default_cards`` are Referee's own reading, and a
state built from them says so in ``board.label``. Every value they invent:

* the city: a grid of 5 columns (6, 6, 5, 5 and 5 spaces, numbered 1 to 27 column by column,
  column 1 beside column B); the bank on 7, the bench on 9, the hospital on 12, the taxi on 13,
  the bus stops on 18 and 27, the school on 22, the church on 23, the W.C. on 24; the ingredients
  on 10 and 25 at the start; the spaces marked with the club on 2, 4, 11, 17, 19 and 21 (19 is
  5 mp from the Wife's first space, as in the rulebook's purchase example); the schoolbus on 20
  (printed cost 4, the rulebook's own example), the traffic cards on 16 (cost 3) and 15 (cost 2);
  every landmark has a street space beside it, and the west and the east of the city are joined
  by more than one way; the seats in column B beside spaces 1 to 6, in the order Grandpa, Grandma,
  Mamma, Wife, Husband, Son;
* the ages: Grandpa 82, Grandma 78, Mamma 55, Husband 34, Wife 31, Son 9;
* the 12 ingredient cards (2 in the city, 10 in the row): their drawings among fish, spaghetti,
  salami, cheese, tomato and mushroom, costs 1 to 3, and three Mother-in-Law values (5, 3, 1,
  the values the rulebook names); ing-1 and ing-2 are the cards of the rulebook's scoring example;
* 16 movement cards (1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4 mp) and 23 money cards
  (twelve 1s, seven 2s, four 3s): 39 game cards, the rest of the 110;
* the 5 Bus cards: 969, 696, 699, 969, 696 (three numbers on five cards).

The 110: 6 reference cards, 6 character cards (column B), a series of 6 secret characters, the 27
cards of the city (9 of them the bench, W.C., hospital, church, school, bank, taxi and the two bus
stops, 2 ingredients), the schoolbus, 2 traffic cards, the vertical wc card, 2 substitute cards,
the summary card, 4 Guests cards, the 10 ingredients of the row, 5 Bus cards and 39 game cards.

Referee's readings where the text is silent (each verdict resting on one says so):

* 3 to 6 players (corpus/games.yaml says why);
* the turn is a sequence of moves: ``play`` (a movement card into the turn's mp), ``move`` (one
  piece one space: a movement is the moves of one piece in a row, and ends with ``stop``, with
  ``buy``, or with any move of another kind), ``taxi``, ``bus``, ``buy``, ``release``,
  ``discard``, ``guests``, ``money`` and ``end-turn`` (the cards taken);
* pieces move over street spaces (plain, marked with the club, or substitute cards); they cross a
  space where a character or the schoolbus stands, never a traffic card's; ingredient and landmark
  cards are not walked on (the bench and the W.C. are entered as their rules say);
* a step onto an occupied space is refused when the movement could not go on to an empty space
  with the mp left (in the turn, or in the hand while cards may still be played);
* distances for placing an ingredient count spaces over the whole board, whatever lies on them;
  a space under a piece is not free for an ingredient;
* the first space of a Dinner Hour movement that is neither back (a higher column) nor forward
  costs 2, as forward;
* a character leaving the W.C. at the start of the sixth turn is back in play that turn;
* a failed bus closes the turn's card play (movement cards and money), not the mp already played;
  one try at the bus a turn;
* Player X's turn ends when the Dinner Hour begins, without taking cards.
"""

from __future__ import annotations

import copy
import random
from collections import Counter, deque
from itertools import combinations

from marshmallow import Schema, fields, validate

from indexer.corpus import player_counts
from service.engines.base import (
    BaseEngine,
    Boolean,
    InvalidMove,
    InvalidState,
    is_player,
    is_whole,
    load_rules,
    load_scoring,
    move_head,
    ranked,
)
from service.engines.registry import Game, MoveShape, register

GAME = "mamma"

# ---- what the rulebook fixes (named once, beside the rule that states them) ------------------

CHARACTERS = ("grandpa", "grandma", "mamma", "wife", "husband", "son")  # preparation.1
TRAFFIC = ("traffic-1", "traffic-2")
PIECES = CHARACTERS + ("schoolbus",) + TRAFFIC
ALL_CARDS = 110  # material.1: "All 110 cards are utilized for this version."
CITY_SPACES = 27  # aim.1: "the 27 spaces of the area of play"
START_HAND = 5  # preparation.16: "until all the players have 5 cards in their hands"
HAND_LIMIT = 6  # turn.3: "never exceeding the maximum hand size of 6 cards"
TAKE_UP_TO = {0: 4, 1: 2}  # turn.3: options 1 and 2; 2 or more played, or 3 discarded: take 1
DISCARD = 3  # turn.3, option 4
MONEY_LIMIT = 2  # game-cards.11: "more than 2 money cards"
GRANDPA_BANK_LIMIT = 3  # grandpa.4: "up to 3 money cards"
HUSBAND_MORE, MAMMA_LESS = 2, 1  # ingredients.6
PLACE_AWAY = 5  # ingredients.10: "at least 5 mp away from the buying character"
BENCH_IN, BENCH_OUT, CHURCH_OUT = 1, 3, 3  # bench.1, bench.2, grandma.5
WC_TURNS = 6  # wc.2: "out of play for the next 6 turns"
TAXI_TIMES = 3  # wife.1: "multiplies by 3 the value of the chosen card"
BUS_NUMBERS = ("969", "696", "699")  # grandma.1
DINNER_CARDS = 3  # dinner-hour.10: "a maximum of 3 game cards"
DINNER_BACK, DINNER_FORWARD = 3, 2  # dinner-hour.10
SEATED_TO_END = 4  # dinner-hour.16: "the fourth character sit at the table"
MATCHING = {5: 15, 4: 10, 3: 6, 2: 3}  # victory.1
CHARACTER_VP = {"grandpa": 3, "grandma": 5, "mamma": 3, "husband": -5}  # victory.5, victory.6
GRANDPA_CHILD_VP = 7  # victory.6
ARRIVAL_VP = (3, 2, 1, -1, -2, -3)  # victory.7
GUESTS = (6, 5, 4, 3)  # turn.7: "6, 5, 4 or 3 negative vp"

LANDMARKS = ("bench", "wc", "hospital", "church", "school", "bank", "taxi", "bus-stop-1", "bus-stop-2")
OFF_BOARD = ("seat", "bench", "wc", "hospital", "church", "seated", "off")  # a character's places off the spaces
WALKABLE = ("street", "club", "substitute")
PHASES = ("draft", "play", "dinner-guests", "dinner-placing", "dinner", "last-seats", "over")
DINNER = ("dinner-guests", "dinner-placing", "dinner", "last-seats")
DECKS = ("movement", "money")
MOVE_FIELDS = {"take": ("deck",), "play": ("card",), "move": ("piece", "to"), "stop": (), "taxi": ("card",),
               "bus": ("number",), "buy": ("ingredient",), "release": ("to",), "leave-wc": ("to",),
               "discard": ("cards",), "guests": ("character",), "money": ("card", "character"),
               "end-turn": (), "place": ("character", "to"), "last-seats": ("order",)}
MOVE_KINDS = tuple(MOVE_FIELDS)
PHASE_MOVES = {  # what each moment of the game takes
    "draft": ("take",),
    "play": ("play", "move", "stop", "taxi", "bus", "buy", "release", "leave-wc", "discard", "guests", "money", "end-turn"),
    "dinner-guests": ("guests",),
    "dinner-placing": ("place",),
    "dinner": ("play", "move", "stop", "taxi", "bus", "buy", "release", "discard", "money", "end-turn"),
    "last-seats": ("last-seats",),
    "over": (),
}
UNCHANGING = ("board", "cards")  # no move changes them: apply shares them between states
ENDS_MOVEMENT = ("taxi", "bus", "release", "leave-wc", "discard", "money", "end-turn", "stop")
LABEL = ("Referee's own reading of the city, the ages and the cards: the rulebook's illustration and printed "
         "values are not in its text. Not the publisher's.")

# ---- the default board and cards (Referee's, listed in the module docstring) -----------------

COLUMNS = (6, 6, 5, 5, 5)
CITY_CARDS = {"7": "bank", "9": "bench", "12": "hospital", "13": "taxi", "18": "bus-stop-1", "22": "school",
              "23": "church", "24": "wc", "27": "bus-stop-2"}
CITY_INGREDIENTS = {"10": "ing-11", "25": "ing-12"}
CLUBS = ("2", "4", "11", "17", "19", "21")
START_PIECES = {"schoolbus": "20", "traffic-1": "16", "traffic-2": "15"}
AGES = {"grandpa": 82, "grandma": 78, "mamma": 55, "husband": 34, "wife": 31, "son": 9}
INGREDIENT_CARDS = (  # (drawings, cost, Mother-in-Law)
    (("fish",), 1, 1), (("fish", "spaghetti", "salami"), 2, 0), (("cheese", "tomato"), 2, 0),
    (("mushroom",), 1, 0), (("salami", "cheese"), 2, 3), (("spaghetti",), 1, 0),
    (("tomato", "mushroom", "fish"), 3, 0), (("cheese",), 1, 5), (("spaghetti", "tomato"), 2, 0),
    (("salami",), 1, 0), (("fish", "cheese"), 2, 0), (("mushroom", "spaghetti", "salami"), 3, 0),
)
MOVEMENT_VALUES = (1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4)
MONEY_VALUES = (1,) * 12 + (2,) * 7 + (3,) * 4
BUS_CARDS = ("969", "696", "699", "969", "696")


def default_board() -> dict:
    """Referee's city: spaces by column, each with the spaces next to it, and the seats in column B."""
    grid, number = {}, 0
    for column, rows in enumerate(COLUMNS, 1):
        for row in range(1, rows + 1):
            number += 1
            grid[(row, column)] = str(number)
    spaces = {}
    for (row, column), space in grid.items():
        around = ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1))
        spaces[space] = {"column": column, "row": row, "next_to": [grid[p] for p in around if p in grid]}
    seats = {c: grid[(row, 1)] for row, c in enumerate(CHARACTERS, 1)}
    return {"label": LABEL, "spaces": spaces, "seats": seats}


def default_cards() -> dict:
    """Every one of the 110 cards with what Referee reads as printed on it."""
    cards = {}
    for c in CHARACTERS:
        cards[f"ref-{c}"] = {"kind": "reference", "character": c}
        cards[c] = {"kind": "character", "age": AGES[c]}
        cards[f"secret-{c}"] = {"kind": "secret", "character": c}
    for space in map(str, range(1, CITY_SPACES + 1)):
        if space not in CITY_CARDS and space not in CITY_INGREDIENTS:
            cards[f"city-{space}"] = {"kind": "city", "face": "club" if space in CLUBS else "street"}
    for name in LANDMARKS:
        cards[name] = {"kind": "landmark"}
    cards["schoolbus"] = {"kind": "schoolbus", "cost": 4}
    cards["traffic-1"] = {"kind": "traffic", "cost": 3}
    cards["traffic-2"] = {"kind": "traffic", "cost": 2}
    cards["wc-card"] = {"kind": "wc-card"}
    cards["substitute-1"] = {"kind": "substitute"}
    cards["substitute-2"] = {"kind": "substitute"}
    cards["summary"] = {"kind": "summary"}
    for value in GUESTS:
        cards[f"guests-{value}"] = {"kind": "guests", "value": -value}
    for i, (drawings, cost, mother_in_law) in enumerate(INGREDIENT_CARDS, 1):
        cards[f"ing-{i}"] = {"kind": "ingredient", "drawings": list(drawings), "cost": cost, "mother_in_law": mother_in_law}
    for i, number in enumerate(BUS_CARDS, 1):
        cards[f"bus-{i}"] = {"kind": "bus", "number": number}
    for i, value in enumerate(MOVEMENT_VALUES, 1):
        cards[f"mp-{i}"] = {"kind": "movement", "value": value}
    for i, value in enumerate(MONEY_VALUES, 1):
        cards[f"money-{i}"] = {"kind": "money", "value": value}
    return cards


# ---- reading a state ---------------------------------------------------------------------------


class Reading(dict):
    """A state read many times over without changing (one check, one list of legal moves): what
    its rules ask again and again (where the landmarks are, where a piece can step) is worked out
    once. Only ``prepared`` makes one; a copy to change is made with ``plain``."""

    def __init__(self, state: dict):
        super().__init__(state)
        self.memo = {}


def _memo(state, key, work):
    memo = getattr(state, "memo", None)
    if memo is None:
        return work()
    if key not in memo:
        memo[key] = work()
    return memo[key]


def plain(state) -> dict:
    """A deep copy to change: a plain dict, never a Reading and its memo."""
    return copy.deepcopy(dict(state))


def kind(state, cid) -> str | None:
    return state["cards"].get(cid, {}).get("kind")


def value(state, cid) -> int:
    return state["cards"][cid].get("value", 0)


def face(state, space) -> str:
    """What lies on a space: street, club, substitute, ingredient, or a landmark's name."""
    cid = state["city"][space]
    k = kind(state, cid)
    return state["cards"][cid]["face"] if k == "city" else cid if k == "landmark" else k


def landmark_space(state, name) -> str | None:
    return next((s for s, cid in state["city"].items() if cid == name), None)


def next_to(state, space) -> list[str]:
    return state["board"]["spaces"][space]["next_to"]


def next_to_landmark(state, name) -> list[str]:
    def work():
        where = landmark_space(state, name)
        return [s for s in next_to(state, where) if face(state, s) in WALKABLE] if where else []
    return _memo(state, ("next-to", name), work)


def standing_on(state, space, but=None) -> str | None:
    """The piece on a space (other than ``but``)."""
    return next((p for p in PIECES if p != but and state["pieces"][p] == space), None)


def is_empty(state, space, but=None) -> bool:
    """A street space with no piece on it (game-cards.7's "empty space")."""
    return face(state, space) in WALKABLE and standing_on(state, space, but) is None


def distances(state, start: str) -> dict[str, int]:
    """Spaces from ``start`` over the whole board, whatever lies on them."""
    return _memo(state, ("distances", start), lambda: _distances(state, start))


def _distances(state, start: str) -> dict[str, int]:
    seen, queue = {start: 0}, deque([start])
    while queue:
        here = queue.popleft()
        for there in next_to(state, here):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def nearest_empty(state, around: list[str], but=None) -> list[str]:
    """wc.4, schoolbus-hospital.3: an empty space next to it, or else the nearest empty spaces."""
    empty = [s for s in around if is_empty(state, s, but)]
    if empty or not around:
        return sorted(empty, key=int)
    best = {}
    for start in around:
        for s, d in distances(state, start).items():
            if is_empty(state, s, but):
                best[s] = min(best.get(s, d), d)
    low = min(best.values(), default=0)
    return sorted((s for s, d in best.items() if d == low), key=int)


def money_of(state, character) -> int:
    return sum(value(state, m) for m in state["characters"][character]["money"])


def money_limit(state, character) -> int:
    return GRANDPA_BANK_LIMIT if character == "grandpa" and state["grandpa"]["bank"] else MONEY_LIMIT


def price(state, character, ingredient) -> int:
    """ingredients.5, ingredients.6: the printed cost, 2 more for the Husband, 1 less for the Mamma."""
    cost = state["cards"][ingredient]["cost"]
    return cost + HUSBAND_MORE if character == "husband" else max(0, cost - MAMMA_LESS) if character == "mamma" else cost


def vertical(state, character) -> list[str]:
    return [i["card"] for i in state["characters"][character]["ingredients"] if not i["horizontal"]]


def older(state, a, b) -> bool:
    return state["cards"][a]["age"] > state["cards"][b]["age"]


def in_dinner(state) -> bool:
    return state["phase"] in DINNER


def moving(state) -> dict | None:
    return state["turn_state"]["moving"]


def mover(state) -> str | None:
    return (moving(state) or {}).get("piece")


def space_of(state, piece) -> str | None:
    place = state["pieces"][piece]
    return place if place in state["board"]["spaces"] else None


def affordable_next_to(state, character) -> list[str]:
    """ingredients.2-4: the ingredients next to a character that it has enough money for."""
    here = space_of(state, character)
    if here is None:
        return []
    return [state["city"][s] for s in next_to(state, here)
            if face(state, s) == "ingredient" and price(state, character, state["city"][s]) <= money_of(state, character)]


def purchase_due(state) -> bool:
    """A character that moved and stopped next to an ingredient it can pay must buy it."""
    m = moving(state)
    return bool(m and m["piece"] in CHARACTERS and not m["bought"] and m["steps"] > 0
                and affordable_next_to(state, m["piece"]))


def release_due(state) -> bool:
    """schoolbus-hospital.2, mamma.2: the Mamma moved and stopped next to the hospital with someone in it."""
    m = moving(state)
    return bool(m and m["piece"] == "mamma" and not m["released"] and m["steps"] > 0 and hospital_patient(state)
                and space_of(state, "mamma") in next_to_landmark(state, "hospital"))


def hospital_patient(state) -> str | None:
    return next((c for c in CHARACTERS if state["pieces"][c] == "hospital"), None)


def stuck_on_occupied(state) -> bool:
    """game-cards.7: a movement that would end somewhere other than an empty space."""
    m = moving(state)
    if not m:
        return False
    here = space_of(state, m["piece"])
    return here is not None and not is_empty(state, here, but=m["piece"])


def card_play_open(state) -> bool:
    t = state["turn_state"]
    return not t["money_placed"] and not t["bus_missed"] and not t["discarded"]


def cards_left_this_turn(state) -> int:
    """How many more game cards the turn may play (the Dinner Hour's 3, else the hand)."""
    t = state["turn_state"]
    return DINNER_CARDS - t["played"] - t["discarded"] if state["phase"] == "dinner" else HAND_LIMIT


def mp_left(state, piece) -> int:
    """The mp the piece's next space is paid from: the taxi's or bus's own, or the turn's."""
    m = moving(state)
    if m and m["piece"] == piece and m["ride"] is not None:
        return m["ride"]
    return state["turn_state"]["mp"]


def playable_mp(state) -> int:
    """The mp the hand could still add this turn."""
    if not card_play_open(state):
        return 0
    hand = sorted((value(state, c) for c in state["players"][state["turn"]]["hand"] if kind(state, c) == "movement"),
                  reverse=True)
    return sum(hand[:max(0, cards_left_this_turn(state))])


def step_cost(state, piece, frm, to) -> int:
    """game-cards.2, game-cards.3, bench, church and dinner-hour.10: what one space costs."""
    m = moving(state)
    if m and m["piece"] == piece and m["steps"] > 0:
        return 1
    if piece not in CHARACTERS:
        return state["cards"][piece]["cost"]
    if frm == "bench":
        return BENCH_OUT
    if frm == "church":
        return CHURCH_OUT
    if state["phase"] == "dinner":
        spaces = state["board"]["spaces"]
        back = frm in spaces and to in spaces and spaces[to]["column"] > spaces[frm]["column"]
        return DINNER_BACK if back else DINNER_FORWARD
    return BENCH_IN if to in ("bench", "wc") else 1


def reachable(state, piece) -> list[str]:
    """Where one step can take a piece: spaces next to it, the bench, the W.C., its seat."""
    return _memo(state, ("reachable", piece), lambda: _reachable(state, piece))


def _reachable(state, piece) -> list[str]:
    place = state["pieces"][piece]
    spaces = state["board"]["spaces"]
    if piece in CHARACTERS and place == "seat":
        return [state["board"]["seats"][piece]]
    if place in ("bench", "church"):
        return next_to_landmark(state, place)
    if place not in spaces:
        return []
    out = list(next_to(state, place))
    if piece in CHARACTERS:
        for name in ("bench", "wc"):
            if place in next_to_landmark(state, name):
                out.append(name)
        if state["phase"] == "dinner" and place == state["board"]["seats"][piece]:
            out.append("seat")
    return out


def crossed_at(state, piece, to) -> str | None:
    """The character a step onto ``to`` crosses, if any."""
    if to not in state["board"]["spaces"]:
        return None
    other = standing_on(state, to, but=piece)
    return other if other in CHARACTERS else None


def can_end_after(state, piece, to) -> bool:
    """After a step onto an occupied space, an empty space is still within the mp left."""
    m = moving(state)
    crossed = set(m["crossed"]) if m and m["piece"] == piece else {state["pieces"][piece]}
    budget = mp_left(state, piece) - step_cost(state, piece, state["pieces"][piece], to)
    if not (m and m["piece"] == piece and m["ride"] is not None):
        budget += playable_mp(state)
    seen, queue = {to: 0}, deque([to])
    while queue:
        here = queue.popleft()
        if seen[here] >= budget:
            continue
        for there in next_to(state, here):
            if there in seen or there in crossed or face(state, there) not in WALKABLE:
                continue
            if standing_on(state, there, but=piece) in TRAFFIC:
                continue
            if is_empty(state, there, but=piece):
                return True
            seen[there] = seen[here] + 1
            queue.append(there)
    return False


def richest_others(state) -> list[str]:
    """son.1: the characters with the most money among the other 5 (or tied)."""
    others = [c for c in CHARACTERS if c != "son"]
    top = max(money_of(state, c) for c in others)
    return [c for c in others if money_of(state, c) == top and top > 0]


def placement_spots(state, buyer_space, but_space=None) -> list[str]:
    """ingredients.10: spaces of a substitute or club card with no piece, at least 5 mp from the
    buyer, or else as far as possible."""
    far = distances(state, buyer_space)
    spots = [s for s in state["board"]["spaces"]
             if face(state, s) in ("club", "substitute") and standing_on(state, s) is None]
    if not spots:
        return []
    away = [s for s in spots if far.get(s, 0) >= PLACE_AWAY]
    if away:
        return sorted(away, key=int)
    top = max(far.get(s, 0) for s in spots)
    return sorted((s for s in spots if far.get(s, 0) == top), key=int)


def ingredients_left(state) -> int:
    return len(state["ingredient_row"]) + sum(1 for s in state["city"] if face(state, s) == "ingredient")


def draft_done(state) -> bool:
    return all(len(p["hand"]) >= START_HAND for p in state["players"])


def guests_due(state) -> int | None:
    """dinner-hour.4: beginning with Player X, the first player who has not placed a Guests card."""
    if not state["guests"]:
        return None
    n = len(state["players"])
    return next(((state["player_x"] + k) % n for k in range(n)
                 if not state["players"][(state["player_x"] + k) % n]["guests_assigned"]), None)


def placing_column(state) -> list[str]:
    """dinner-hour.5, dinner-hour.7: the empty spaces of the rightmost column that has one."""
    spaces = state["board"]["spaces"]
    for column in sorted({s["column"] for s in spaces.values()}, reverse=True):
        empty = [s for s, data in spaces.items() if data["column"] == column and is_empty(state, s)]
        if empty:
            return sorted(empty, key=int)
    return []


def takes_allowed(state) -> tuple[int, int]:
    """turn.3: the cards the turn's option lets the player take (fewest, most)."""
    t = state["turn_state"]
    if t["discarded"] or t["played"] >= 2:
        low = high = 1
    else:
        low, high = 0, TAKE_UP_TO[t["played"]]
    if not any(state["decks"][d] for d in DECKS):
        low = 0
    return low, high


def due_player(state) -> int:
    return state["turn"]


# ---- the rules ---------------------------------------------------------------------------------


def moves(*kinds):
    """The move kinds a check can object to (a check without: every kind); legal_moves and check
    run only those, the rules' order kept."""
    def mark(check):
        check.kinds = kinds
        return check
    return mark


def _turn_move(state, move, *kinds):
    return state["phase"] in ("play", "dinner") and move["kind"] in kinds


def check_game_over(state, move):
    if state["phase"] == "over":
        yield {}


def check_out_of_turn(state, move):
    if move.get("player") is not None and state["phase"] != "over" and move["player"] != due_player(state):
        yield {"player": move["player"], "due": due_player(state)}


def check_not_now(state, move):
    if state["phase"] != "over" and move["kind"] not in PHASE_MOVES[state["phase"]]:
        yield {"kind": move["kind"], "expected": ", ".join(PHASE_MOVES[state["phase"]])}


def check_leave_wc_first(state, move):
    if state["phase"] == "play" and state["turn_state"]["wc_exit_due"] and move["kind"] != "leave-wc":
        yield {"character": state["wc"]["occupant"]}


@moves("leave-wc")
def check_leave_wc_not_due(state, move):
    if _turn_move(state, move, "leave-wc") and not state["turn_state"]["wc_exit_due"]:
        yield {}


def _ends_movement(state, move) -> bool:
    """Whether the move ends the movement in progress (another piece's step, or most other moves)."""
    if not moving(state) or state["phase"] not in ("play", "dinner"):
        return False
    if move["kind"] == "move":
        return move["piece"] != mover(state)
    return move["kind"] in ENDS_MOVEMENT


def check_must_buy(state, move):
    if purchase_due(state) and _ends_movement(state, move) and move["kind"] not in ("buy", "release"):
        yield {"character": mover(state), "ingredients": ", ".join(affordable_next_to(state, mover(state)))}


def check_release_due(state, move):
    if release_due(state) and _ends_movement(state, move) and move["kind"] not in ("buy", "release"):
        yield {"character": hospital_patient(state)}


def check_end_empty(state, move):
    if stuck_on_occupied(state) and (_ends_movement(state, move) or move["kind"] in ("buy", "release")):
        yield {"piece": mover(state), "space": space_of(state, mover(state))}


@moves("stop")
def check_nothing_moving(state, move):
    if _turn_move(state, move, "stop") and not moving(state):
        yield {}


@moves("play", "move", "taxi", "bus", "discard")
def check_after_money(state, move):
    if (_turn_move(state, move, "play", "move", "taxi", "bus", "discard") and state["turn_state"]["money_placed"]):
        yield {}


def _hand(state):
    return state["players"][state["turn"]]["hand"]


def _cards_named(move) -> list[str]:
    if move["kind"] in ("play", "money", "taxi"):
        return [move["card"]]
    return list(move["cards"]) if move["kind"] == "discard" else []


@moves("play", "money", "discard")
def check_in_hand(state, move):
    if _turn_move(state, move, "play", "money", "discard"):
        for cid in _cards_named(move):
            if cid not in _hand(state):
                yield {"card": cid}


@moves("play", "money")
def check_card_kind(state, move):
    wanted = {"play": "movement", "money": "money"}.get(move["kind"])
    if wanted and _turn_move(state, move, "play", "money") and move["card"] in _hand(state) and kind(state, move["card"]) != wanted:
        yield {"card": move["card"], "wanted": wanted}


@moves("take", "end-turn")
def check_deck_empty(state, move):
    if state["phase"] == "draft" and move["kind"] == "take" and not state["decks"][move["deck"]]:
        yield {"deck": move["deck"]}
    if _turn_move(state, move, "end-turn"):
        for deck in DECKS:
            if move[deck] > len(state["decks"][deck]):
                yield {"deck": deck}


@moves("discard", "play", "money")
def check_discard_three(state, move):
    t = state["turn_state"]
    if _turn_move(state, move, "discard") and (len(set(move["cards"])) != DISCARD or t["played"] or t["discarded"]):
        yield {"count": len(set(move["cards"])), "played": t["played"]}
    if _turn_move(state, move, "play", "money") and t["discarded"]:
        yield {"count": t["discarded"], "played": t["played"]}


@moves("play", "money", "discard")
def check_dinner_three_cards(state, move):
    if state["phase"] == "dinner" and move["kind"] in ("play", "money", "discard"):
        adding = len(set(move["cards"])) if move["kind"] == "discard" else 1
        t = state["turn_state"]
        if t["played"] + t["discarded"] + adding > DINNER_CARDS:
            yield {"count": t["played"] + t["discarded"] + adding}


@moves("play", "money")
def check_bus_missed(state, move):
    if _turn_move(state, move, "play", "money") and state["turn_state"]["bus_missed"]:
        yield {}


@moves("discard")
def check_turn_over(state, move):
    if _turn_move(state, move, "discard") and move["turn_over"] is not None:
        if not any(move["turn_over"] in vertical(state, c) for c in CHARACTERS):
            yield {"card": move["turn_over"]}


@moves("guests")
def check_guests_once(state, move):
    if move["kind"] == "guests" and state["phase"] in ("play", "dinner-guests"):
        if state["players"][state["turn"]]["guests_assigned"]:
            yield {"player": state["turn"]}


@moves("guests")
def check_guests_none_left(state, move):
    if move["kind"] == "guests" and state["phase"] in ("play", "dinner-guests") and not state["guests"]:
        yield {}


@moves("guests")
def check_guests_has_one(state, move):
    if move["kind"] == "guests" and state["phase"] in ("play", "dinner-guests"):
        if state["characters"][move["character"]]["guests"] is not None:
            yield {"character": move["character"]}


def _stepping(state, move):
    return _turn_move(state, move, "move")


@moves("move")
def check_frozen(state, move):
    if _stepping(state, move) and move["piece"] in state["turn_state"]["bought"]:
        yield {"character": move["piece"]}


@moves("move")
def check_cannot_move(state, move):
    if _stepping(state, move) and state["pieces"][move["piece"]] in ("wc", "hospital", "seated", "off"):
        yield {"piece": move["piece"], "place": state["pieces"][move["piece"]]}


@moves("move")
def check_not_next(state, move):
    if _stepping(state, move) and state["pieces"][move["piece"]] not in ("wc", "hospital", "seated", "off"):
        if move["to"] not in reachable(state, move["piece"]):
            yield {"piece": move["piece"], "to": move["to"]}


def _step_on_space(state, move) -> bool:
    return (_stepping(state, move) and move["to"] in state["board"]["spaces"]
            and move["to"] in reachable(state, move["piece"]))


@moves("move")
def check_walk_on_streets(state, move):
    if _step_on_space(state, move) and face(state, move["to"]) not in WALKABLE:
        yield {"to": move["to"], "card": face(state, move["to"])}


@moves("move")
def check_crossed_twice(state, move):
    m = moving(state)
    if _step_on_space(state, move) and m and m["piece"] == move["piece"] and move["to"] in m["crossed"]:
        yield {"to": move["to"]}


@moves("move")
def check_traffic(state, move):
    if _step_on_space(state, move) and standing_on(state, move["to"], but=move["piece"]) in TRAFFIC:
        yield {"to": move["to"]}


@moves("move")
def check_mp(state, move):
    if _stepping(state, move) and move["to"] in reachable(state, move["piece"]):
        cost = step_cost(state, move["piece"], state["pieces"][move["piece"]], move["to"])
        if cost > mp_left(state, move["piece"]):
            yield {"cost": cost, "mp": mp_left(state, move["piece"])}


@moves("move")
def check_no_way_on(state, move):
    if (_step_on_space(state, move) and face(state, move["to"]) in WALKABLE and not _runs_over(state, move)
            and standing_on(state, move["to"], but=move["piece"]) not in (None, *TRAFFIC)
            and not can_end_after(state, move["piece"], move["to"])):
        yield {"to": move["to"]}


@moves("move")
def check_bench_occupied(state, move):
    if _stepping(state, move) and move["to"] == "bench" and any(state["pieces"][c] == "bench" for c in CHARACTERS):
        yield {}


@moves("move")
def check_wc_closed(state, move):
    if _stepping(state, move) and move["to"] == "wc" and in_dinner(state):
        yield {}


@moves("move")
def check_wc_occupied(state, move):
    if _stepping(state, move) and move["to"] == "wc" and state["wc"]["occupant"] is not None:
        yield {"character": state["wc"]["occupant"]}


@moves("move")
def check_wc_twice(state, move):
    if _stepping(state, move) and move["to"] == "wc" and state["wc"]["last"] == move["piece"]:
        yield {"character": move["piece"]}


@moves("move")
def check_steal_nothing_crossed(state, move):
    if _stepping(state, move) and move["steal"] is not None:
        if move["piece"] not in CHARACTERS or crossed_at(state, move["piece"], move["to"]) is None:
            yield {}


@moves("move")
def check_steal_son(state, move):
    if _stepping(state, move) and move["steal"] is not None and move["piece"] == "son":
        yield {}


def _steal_victim(state, move):
    if _stepping(state, move) and move["steal"] is not None and move["piece"] in CHARACTERS and move["piece"] != "son":
        return crossed_at(state, move["piece"], move["to"])
    return None


@moves("move")
def check_steal_not_older(state, move):
    victim = _steal_victim(state, move)
    if victim and not older(state, victim, move["piece"]) and not (move["piece"] == "grandpa" and state["grandpa"]["child"]):
        yield {"character": move["piece"], "victim": victim}


@moves("move")
def check_steal_card(state, move):
    victim = _steal_victim(state, move)
    if victim and move["steal"] not in vertical(state, victim):
        yield {"card": move["steal"], "victim": victim}


@moves("move")
def check_child_steal(state, move):
    victim = _steal_victim(state, move)
    if victim and move["piece"] == "grandpa" and state["grandpa"]["child"]:
        if state["grandpa"]["child_stole"] or state["cards"].get(move["steal"], {}).get("mother_in_law"):
            yield {"card": move["steal"]}


@moves("move")
def check_arcade(state, move):
    if _stepping(state, move) and move["arcade"]:
        victim = crossed_at(state, move["piece"], move["to"]) if move["piece"] == "son" else None
        if victim is None or victim not in richest_others(state):
            yield {"victim": victim or "-"}


def _runs_over(state, move) -> str | None:
    if _stepping(state, move) and move["piece"] == "schoolbus" and state["phase"] == "play":
        victim = crossed_at(state, "schoolbus", move["to"])
        return victim if victim in ("wife", "son") else None
    return None


@moves("move")
def check_lost_ingredients(state, move):
    if not _stepping(state, move):
        return
    victim = _runs_over(state, move)
    if victim == "son":
        lost, held = set(move["lose"]), vertical(state, "son")
        if len(lost) != len(held) // 2 or not lost <= set(held) or len(lost) != len(move["lose"]):
            yield {"count": len(held) // 2}
    elif move["lose"]:
        yield {"count": 0}


def _exit_spaces(state, move) -> tuple[list[str] | None, str | None]:
    """Where the move's ``to`` (or ``release_to``) must be, and which field: None when it places nobody."""
    k = move["kind"]
    if k == "leave-wc" and state["turn_state"]["wc_exit_due"]:
        return nearest_empty(state, next_to_landmark(state, "wc")), move["to"]
    if k == "release" and release_due(state):
        return nearest_empty(state, next_to_landmark(state, "hospital")), move["to"]
    if k == "bus" and _bus_ok(state, move) and _bus_hits(state, move["number"]):
        return nearest_empty(state, next_to_landmark(state, _other_stop(state)), but="grandma"), move["to"]
    if k == "move" and _runs_over(state, move) and hospital_patient(state):
        preview = plain(state)
        preview["pieces"][_runs_over(state, move)] = "hospital"
        preview["pieces"]["schoolbus"] = move["to"]
        return nearest_empty(preview, next_to_landmark(preview, "hospital")), move["release_to"]
    return None, None


@moves("leave-wc", "release", "bus", "move")
def check_exit_space(state, move):
    if state["phase"] not in ("play", "dinner"):
        return
    allowed, given = _exit_spaces(state, move)
    if allowed is not None and given not in allowed:
        yield {"space": given or "-", "spaces": ", ".join(allowed)}
    if move["kind"] == "move" and allowed is None and move["release_to"] is not None:
        yield {"space": move["release_to"], "spaces": "-"}


@moves("buy")
def check_no_purchase(state, move):
    if _turn_move(state, move, "buy"):
        m = moving(state)
        if not (m and m["piece"] in CHARACTERS and not m["bought"] and m["steps"] > 0
                and move["ingredient"] in affordable_next_to(state, m["piece"])):
            yield {"ingredient": move["ingredient"]}


def _buying(state, move) -> str | None:
    if _turn_move(state, move, "buy") and purchase_due(state) and move["ingredient"] in affordable_next_to(state, mover(state)):
        return mover(state)
    return None


@moves("buy")
def check_payment(state, move):
    buyer = _buying(state, move)
    if buyer is None:
        return
    pay, held = move["pay"], state["characters"][buyer]["money"]
    total, cost = sum(value(state, m) for m in pay if m in held), price(state, buyer, move["ingredient"])
    if (len(set(pay)) != len(pay) or not set(pay) <= set(held) or total < cost
            or any(total - value(state, m) >= cost for m in pay)):
        yield {"cost": cost, "paid": total}


@moves("buy")
def check_placement(state, move):
    buyer = _buying(state, move)
    if buyer is None:
        return
    spots = _placements(state, buyer, move["ingredient"])
    if (move["place"] is None) != (not spots) or (move["place"] is not None and move["place"] not in spots):
        yield {"space": move["place"] or "-", "spaces": ", ".join(spots) or "-"}


def _placements(state, buyer, ingredient) -> list[str]:
    if not state["ingredient_row"]:
        return []

    def work():
        preview = plain(state)
        Mamma._take_ingredient(preview, buyer, ingredient)
        return placement_spots(preview, space_of(preview, buyer))
    return _memo(state, ("placements", buyer, ingredient), work)


@moves("release")
def check_no_release(state, move):
    if _turn_move(state, move, "release") and not release_due(state):
        yield {}


@moves("taxi")
def check_taxi(state, move):
    if _turn_move(state, move, "taxi"):
        wife = state["pieces"]["wife"]
        if (wife not in next_to_landmark(state, "taxi") or move["card"] not in state["characters"]["wife"]["money"]
                or "wife" in state["turn_state"]["bought"]):
            yield {"card": move["card"]}


def _other_stop(state) -> str:
    here = state["pieces"]["grandma"]
    return "bus-stop-2" if here in next_to_landmark(state, "bus-stop-1") else "bus-stop-1"


def _bus_ok(state, move) -> bool:
    here = state["pieces"]["grandma"]
    at_stop = any(here in next_to_landmark(state, stop) for stop in ("bus-stop-1", "bus-stop-2"))
    return (at_stop and not state["turn_state"]["bus_tried"] and move["number"] in BUS_NUMBERS
            and "grandma" not in state["turn_state"]["bought"])


def _bus_hits(state, number) -> bool:
    return bool(state["bus_deck"]) and state["cards"][state["bus_deck"][0]]["number"] == number


@moves("bus")
def check_bus(state, move):
    if _turn_move(state, move, "bus") and not _bus_ok(state, move):
        yield {"number": move["number"]}


def _placing_money(state, move):
    return _turn_move(state, move, "money") and move["card"] in _hand(state) and kind(state, move["card"]) == "money"


@moves("money")
def check_seated_no_money(state, move):
    if _placing_money(state, move) and state["pieces"][move["character"]] == "seated":
        yield {"character": move["character"]}


@moves("money")
def check_money_limit(state, move):
    if _placing_money(state, move) and move["replace"] is None:
        if len(state["characters"][move["character"]]["money"]) >= money_limit(state, move["character"]):
            yield {"character": move["character"], "limit": money_limit(state, move["character"])}


@moves("money")
def check_money_replace(state, move):
    if _placing_money(state, move) and move["replace"] is not None:
        held = state["characters"][move["character"]]["money"]
        if (len(held) < money_limit(state, move["character"]) or move["replace"] not in held
                or value(state, move["replace"]) >= value(state, move["card"])):
            yield {"card": move["replace"]}


@moves("end-turn")
def check_take(state, move):
    if _turn_move(state, move, "end-turn"):
        low, high = takes_allowed(state)
        taken = move["movement"] + move["money"]
        if not low <= taken <= high:
            yield {"taken": taken, "low": low, "high": high}


@moves("end-turn")
def check_hand_limit(state, move):
    if _turn_move(state, move, "end-turn") and len(_hand(state)) + move["movement"] + move["money"] > HAND_LIMIT:
        yield {"hand": len(_hand(state)) + move["movement"] + move["money"]}


@moves("place")
def check_dinner_place(state, move):
    if state["phase"] == "dinner-placing" and move["kind"] == "place":
        if state["pieces"][move["character"]] != "off" or move["to"] not in placing_column(state):
            yield {"character": move["character"], "spaces": ", ".join(placing_column(state)) or "-"}


@moves("last-seats")
def check_last_two(state, move):
    if state["phase"] == "last-seats" and move["kind"] == "last-seats":
        left = sorted(c for c in CHARACTERS if state["pieces"][c] != "seated")
        if sorted(move["order"]) != left or len(move["order"]) != len(left):
            yield {"characters": ", ".join(left)}


SCORING = load_scoring(GAME)
RULES = load_rules(GAME, {  # the prose of each rule: rules/mamma.yaml
    "mamma/game.over": check_game_over,
    "mamma/turn.out-of-turn": check_out_of_turn,
    "mamma/turn.not-now": check_not_now,
    "mamma/wc.leave-first": check_leave_wc_first,
    "mamma/wc.not-due": check_leave_wc_not_due,
    "mamma/ingredients.must-buy": check_must_buy,
    "mamma/hospital.release-due": check_release_due,
    "mamma/move.end-empty": check_end_empty,
    "mamma/move.nothing-moving": check_nothing_moving,
    "mamma/cards.after-money": check_after_money,
    "mamma/cards.in-hand": check_in_hand,
    "mamma/cards.wrong-kind": check_card_kind,
    "mamma/cards.deck-empty": check_deck_empty,
    "mamma/turn.discard-three": check_discard_three,
    "mamma/dinner.three-cards": check_dinner_three_cards,
    "mamma/grandma.bus-missed": check_bus_missed,
    "mamma/turn.turn-over": check_turn_over,
    "mamma/guests.once": check_guests_once,
    "mamma/guests.none-left": check_guests_none_left,
    "mamma/guests.has-one": check_guests_has_one,
    "mamma/move.bought": check_frozen,
    "mamma/move.out-of-play": check_cannot_move,
    "mamma/move.not-next": check_not_next,
    "mamma/move.streets": check_walk_on_streets,
    "mamma/move.crossed-twice": check_crossed_twice,
    "mamma/move.traffic": check_traffic,
    "mamma/move.mp": check_mp,
    "mamma/move.no-way-on": check_no_way_on,
    "mamma/bench.occupied": check_bench_occupied,
    "mamma/wc.closed": check_wc_closed,
    "mamma/wc.occupied": check_wc_occupied,
    "mamma/wc.twice": check_wc_twice,
    "mamma/steal.nothing-crossed": check_steal_nothing_crossed,
    "mamma/steal.son": check_steal_son,
    "mamma/steal.not-older": check_steal_not_older,
    "mamma/steal.card": check_steal_card,
    "mamma/grandpa.child-steal": check_child_steal,
    "mamma/son.arcade": check_arcade,
    "mamma/schoolbus.lost-ingredients": check_lost_ingredients,
    "mamma/move.exit-space": check_exit_space,
    "mamma/ingredients.no-purchase": check_no_purchase,
    "mamma/ingredients.payment": check_payment,
    "mamma/ingredients.placement": check_placement,
    "mamma/hospital.no-release": check_no_release,
    "mamma/wife.taxi": check_taxi,
    "mamma/grandma.bus": check_bus,
    "mamma/dinner.seated-no-money": check_seated_no_money,
    "mamma/money.limit": check_money_limit,
    "mamma/money.replace": check_money_replace,
    "mamma/turn.take": check_take,
    "mamma/turn.hand-limit": check_hand_limit,
    "mamma/dinner.place": check_dinner_place,
    "mamma/dinner.last-two": check_last_two,
})
RULES_FOR = {k: tuple(r for r in RULES if k in getattr(r.check, "kinds", MOVE_KINDS)) for k in MOVE_KINDS}


# ---- moves -------------------------------------------------------------------------------------


def _card_field(state, move, name, out, allow_none=False):
    cid = move.get(name)
    if cid is None and allow_none:
        out[name] = None
        return
    if not isinstance(cid, str) or cid not in state["cards"]:
        raise InvalidMove(name, f"no card {cid!r} in this game")
    out[name] = cid


def _choice(move, name, options, out, allow_none=False):
    v = move.get(name)
    if v is None and allow_none:
        out[name] = None
        return
    if v not in options:
        raise InvalidMove(name, f"one of {', '.join(options)}")
    out[name] = v


def _card_list(state, move, name, out):
    """A list of card ids, sorted (the order they are named in does not matter)."""
    cids = move.get(name) or []
    for j, cid in enumerate(cids):
        if cid not in state["cards"]:
            raise InvalidMove(f"{name}[{j}]", f"no card {cid!r} in this game")
    out[name] = sorted(cids)


def parse_move(state: dict, move: dict) -> dict:
    """The move in canonical form: defaults filled in, lists sorted; InvalidMove for an unknown kind or name."""
    out = move_head(state, move, MOVE_KINDS)
    k = out["kind"]
    spaces = list(state["board"]["spaces"])
    if k == "take":
        _choice(move, "deck", DECKS, out)
    elif k in ("play", "taxi"):
        _card_field(state, move, "card", out)
    elif k == "move":
        _choice(move, "piece", PIECES, out)
        _choice(move, "to", spaces + ["bench", "wc", "seat"], out)
        _card_field(state, move, "steal", out, allow_none=True)
        out["arcade"] = bool(move.get("arcade", False))
        _card_list(state, move, "lose", out)
        _choice(move, "release_to", spaces, out, allow_none=True)
    elif k == "bus":
        _choice(move, "number", BUS_NUMBERS, out)
        _choice(move, "to", spaces, out, allow_none=True)
        if not _bus_hits(state, out["number"]):
            out["to"] = None  # a missed bus goes to the church: where it would have gone does not count
    elif k == "buy":
        _card_field(state, move, "ingredient", out)
        _card_list(state, move, "pay", out)
        _choice(move, "place", spaces, out, allow_none=True)
    elif k in ("release", "leave-wc"):
        _choice(move, "to", spaces, out)
    elif k == "discard":
        _card_list(state, move, "cards", out)
        _card_field(state, move, "turn_over", out, allow_none=True)
    elif k == "guests":
        _choice(move, "character", CHARACTERS, out)
    elif k == "money":
        _card_field(state, move, "card", out)
        _choice(move, "character", CHARACTERS, out)
        _card_field(state, move, "replace", out, allow_none=True)
    elif k == "end-turn":
        for deck in DECKS:
            taken = move.get(deck, 0)
            if not is_whole(taken, 0) or taken > HAND_LIMIT:
                raise InvalidMove(deck, f"the number of cards taken from the {deck} deck, 0 to {HAND_LIMIT}")
            out[deck] = taken
    elif k == "place":
        _choice(move, "character", CHARACTERS, out)
        _choice(move, "to", spaces, out)
    elif k == "last-seats":
        order = move.get("order") or []
        for j, c in enumerate(order):
            if c not in CHARACTERS:
                raise InvalidMove(f"order[{j}]", f"one of {', '.join(CHARACTERS)}")
        out["order"] = list(order)
    return out


def new_turn_state() -> dict:
    return {"played": 0, "discarded": 0, "mp": 0, "moving": None, "bought": [], "money_placed": False,
            "bus_tried": False, "bus_missed": False, "wc_exit_due": False}


# ---- the engine ---------------------------------------------------------------------------------


class Mamma(BaseEngine):
    game = GAME
    rules = RULES
    players = player_counts(GAME)  # corpus/games.yaml, with the reasoning where the rulebook is silent
    players_note = "one secret character each, guessed among several opponents"
    setup_options = {"player_a": "The player index who is Player A (drawn from the seed when absent)."}

    def setup(self, players: int, seed: int, options: dict | None = None) -> dict:
        """preparation.5-16: secret characters, money to each reference card, the ingredient row,
        the Bus deck; then the players choose their hands (phase draft)."""
        options, _ = self.setup_options_read(players, options)
        rng = random.Random(f"{GAME}:{seed}")
        player_a = options.get("player_a", rng.randrange(players))
        if not is_player(player_a, players):
            raise InvalidState("options.player_a", f"a player index from 0 to {players - 1}")
        cards, board = default_cards(), default_board()
        secrets = [f"secret-{c}" for c in CHARACTERS]
        rng.shuffle(secrets)  # Player A chooses one, the others take theirs at random: a seeded draw for all
        movement = sorted((c for c in cards if cards[c]["kind"] == "movement"), key=_natural)
        money = sorted((c for c in cards if cards[c]["kind"] == "money"), key=_natural)
        rng.shuffle(movement)
        rng.shuffle(money)
        row = sorted((c for c in cards if cards[c]["kind"] == "ingredient" and c not in CITY_INGREDIENTS.values()), key=_natural)
        rng.shuffle(row)
        bus = sorted((c for c in cards if cards[c]["kind"] == "bus"), key=_natural)
        rng.shuffle(bus)
        city = {}
        for space in board["spaces"]:
            city[space] = CITY_CARDS.get(space) or CITY_INGREDIENTS.get(space) or f"city-{space}"
        characters = {c: {"money": [money.pop(0)], "ingredients": [], "guests": None} for c in CHARACTERS}
        state = {
            "game": GAME, "seed": seed, "phase": "draft", "player_a": player_a, "turn": player_a, "player_x": None,
            "turns": 0, "board": board, "cards": cards, "city": city,
            "pieces": {**{c: "seat" for c in CHARACTERS}, **START_PIECES},
            "characters": characters,
            "players": [{"secret": secrets[i], "hand": [], "guests_assigned": False} for i in range(players)],
            "decks": {"movement": movement, "money": money},
            "ingredient_row": row, "substitutes": ["substitute-1", "substitute-2"],
            "guests": [f"guests-{v}" for v in GUESTS], "bus_deck": bus,
            "wc": {"occupant": None, "turns": 0, "last": None},
            "grandpa": {"bank": False, "child": False, "child_stole": False},
            "seated": [], "out_of_game": secrets[players:],
            "table": [f"ref-{c}" for c in CHARACTERS] + ["summary", "wc-card"],
            "turn_state": new_turn_state(),
        }
        self.validate(state)
        return state

    # -- invariants ------------------------------------------------------------------------------

    def validate(self, state: dict) -> None:
        n = self.validate_head(state, PHASES, "turn", "player_a")
        if set(state["characters"]) != set(CHARACTERS):
            raise InvalidState("characters", f"the money, ingredients and Guests card beside each of {', '.join(CHARACTERS)}")
        if state["player_x"] is not None and not is_player(state["player_x"], n):
            raise InvalidState("player_x", f"a player index from 0 to {n - 1}")
        self._validate_board(state)
        self._validate_cards(state)
        self._validate_pieces(state)
        for c in CHARACTERS:
            if len(state["characters"][c]["money"]) > money_limit(state, c):
                raise InvalidState(f"characters.{c}.money", f"at most {money_limit(state, c)} money cards (game-cards.11)")
        for i, p in enumerate(state["players"]):
            limit = START_HAND if state["phase"] == "draft" else HAND_LIMIT
            if len(p["hand"]) > limit:
                raise InvalidState(f"players[{i}].hand", f"at most {limit} cards, not {len(p['hand'])}")
            if kind(state, p["secret"]) != "secret":
                raise InvalidState(f"players[{i}].secret", "a secret character card")
        assigned = sum(1 for c in CHARACTERS if state["characters"][c]["guests"])
        if assigned != sum(1 for p in state["players"] if p["guests_assigned"]):
            raise InvalidState("players", "one Guests card beside a character for each player who assigned one")
        if len(state["seated"]) != len(set(state["seated"])) or any(state["pieces"].get(c) != "seated" for c in state["seated"]):
            raise InvalidState("seated", "the characters at the table, each once, in the order they sat")
        t = state["turn_state"]
        for name in ("played", "discarded", "mp"):
            if t[name] < 0:
                raise InvalidState(f"turn_state.{name}", "0 or more")
        if state["wc"]["turns"] < 0:
            raise InvalidState("wc.turns", "0 or more")
        if not set(t["bought"]) <= set(CHARACTERS):
            raise InvalidState("turn_state.bought", f"characters: {', '.join(CHARACTERS)}")
        m = moving(state)
        if m is not None and (m.get("piece") not in PIECES or state["pieces"][m["piece"]] not in state["board"]["spaces"]):
            raise InvalidState("turn_state.moving.piece", "a piece standing on a space of the city")

    def _validate_board(self, state) -> None:
        spaces = state["board"]["spaces"]
        if len(spaces) != CITY_SPACES:
            raise InvalidState("board.spaces", f"the city has {CITY_SPACES} spaces (aim.1), not {len(spaces)}")
        for s, data in spaces.items():
            for t in data["next_to"]:
                if t not in spaces or s not in spaces[t]["next_to"]:
                    raise InvalidState(f"board.spaces.{s}.next_to", f"{t} is not a space next to {s} both ways")
        for c in CHARACTERS:
            if state["board"]["seats"].get(c) not in spaces:
                raise InvalidState(f"board.seats.{c}", "the space of the city beside the character's seat in column B")
        if set(state["city"]) != set(spaces):
            raise InvalidState("city", "one card on each space of the board")
        for s, cid in state["city"].items():
            if kind(state, cid) not in ("city", "landmark", "ingredient", "substitute"):
                raise InvalidState(f"city.{s}", "a card of the city, a landmark, an ingredient or a substitute card")

    def _validate_cards(self, state) -> None:
        cards = state["cards"]
        if len(cards) != ALL_CARDS:
            raise InvalidState("cards", f"all {ALL_CARDS} cards (material.1), not {len(cards)}")
        needed = {**{c: "character" for c in CHARACTERS}, "schoolbus": "schoolbus", **{t: "traffic" for t in TRAFFIC},
                  **{name: "landmark" for name in LANDMARKS}}
        for cid, wanted in needed.items():
            if cards.get(cid, {}).get("kind") != wanted:
                raise InvalidState(f"cards.{cid}", f"the {wanted} card {cid} (material.1)")
        for cid, c in cards.items():
            for name, invariant in _printed_wrong(cid, c):
                raise InvalidState(f"cards.{cid}.{name}", invariant)
        where = {}
        zones = [("city", list(state["city"].values())), ("substitutes", state["substitutes"]),
                 ("ingredient_row", state["ingredient_row"]), ("guests", state["guests"]), ("bus_deck", state["bus_deck"]),
                 ("out_of_game", state["out_of_game"]), ("table", state["table"]), ("pieces", list(state["pieces"]))]
        zones += [(f"decks.{d}", state["decks"][d]) for d in DECKS]
        for c in CHARACTERS:
            mine = state["characters"][c]
            zones.append((f"characters.{c}.money", mine["money"]))
            zones.append((f"characters.{c}.ingredients", [i["card"] for i in mine["ingredients"]]))
            zones.append((f"characters.{c}.guests", [mine["guests"]] if mine["guests"] else []))
        zones += [(f"players[{i}].hand", p["hand"]) for i, p in enumerate(state["players"])]
        zones += [(f"players[{i}].secret", [p["secret"]]) for i, p in enumerate(state["players"])]
        expected = {"ingredient_row": "ingredient", "guests": "guests", "bus_deck": "bus",
                    "decks.movement": "movement", "decks.money": "money"}
        for zone, ids in zones:
            for j, cid in enumerate(ids):
                if cid not in cards:
                    raise InvalidState(f"{zone}[{j}]", f"no card {cid!r} in cards")
                if cid in where:
                    raise InvalidState(f"{zone}[{j}]", f"card {cid} is also in {where[cid]}")
                want = expected.get(zone) or ("money" if zone.endswith(".money") else "ingredient" if zone.endswith(".ingredients")
                                              else "guests" if zone.endswith(".guests") else None)
                if want and kind(state, cid) != want:
                    raise InvalidState(f"{zone}[{j}]", f"a {want} card, not {cid}")
                where[cid] = zone
        missing = set(cards) - set(where)
        if missing:
            raise InvalidState("cards", f"every card is somewhere: {', '.join(sorted(missing)[:5])} is nowhere")
        for j, cid in enumerate(state["substitutes"]):
            if kind(state, cid) not in ("substitute", "city"):  # ingredients.10: a card taken from the city becomes one
                raise InvalidState(f"substitutes[{j}]", f"a substitute card, not {cid}")
        in_city = sum(1 for cid in state["city"].values() if kind(state, cid) == "ingredient")
        needed = in_city if not state["ingredient_row"] else min(1, in_city)
        if len(state["substitutes"]) < needed:
            raise InvalidState("substitutes", "a substitute card for each ingredient bought (ingredients.9)")

    def _validate_pieces(self, state) -> None:
        spaces, pieces = state["board"]["spaces"], state["pieces"]
        if set(pieces) != set(PIECES):
            raise InvalidState("pieces", f"the place of each of {', '.join(PIECES)}")
        m = mover(state)
        for p, place in pieces.items():
            allowed = OFF_BOARD if p in CHARACTERS else ("off",)
            if place not in spaces and place not in allowed:
                raise InvalidState(f"pieces.{p}", f"a space of the city or one of {', '.join(allowed)}")
            if place in spaces and face(state, place) not in WALKABLE:
                raise InvalidState(f"pieces.{p}", f"space {place} holds {face(state, place)}: no piece stands there")
        for s in spaces:
            here = [p for p in PIECES if pieces[p] == s]
            if len(here) > 2 or len(here) == 2 and m not in here:
                raise InvalidState(f"pieces.{here[-1]}", f"space {s} holds one piece (another only while crossing it)")
        for place, who, rule in (("bench", CHARACTERS, "bench.1"), ("hospital", ("wife", "son"), "schoolbus-hospital.1"),
                                 ("church", ("grandma",), "grandma.3"), ("wc", CHARACTERS, "wc.5")):
            there = [c for c in CHARACTERS if pieces[c] == place]
            if len(there) > 1 or any(c not in who for c in there):
                raise InvalidState(f"pieces.{there[-1]}", f"the {place} holds one of {', '.join(who)} ({rule})")
        occupant = state["wc"]["occupant"]
        for name in ("occupant", "last"):
            if state["wc"][name] not in (None, *CHARACTERS):
                raise InvalidState(f"wc.{name}", f"one of {', '.join(CHARACTERS)}, or null")
        if (occupant is None) != (not any(pieces[c] == "wc" for c in CHARACTERS)) or occupant and pieces[occupant] != "wc":
            raise InvalidState("wc.occupant", "the character inside the W.C., as the pieces say")

    # -- applying moves -------------------------------------------------------------------------

    def parse_move(self, state: dict, move: dict) -> dict:
        return parse_move(state, move)

    def rules_for(self, move: dict) -> tuple:
        return RULES_FOR[move["kind"]]

    def prepared(self, state: dict) -> dict:
        return Reading(state)

    @staticmethod
    def _under(state, deck, cid) -> None:
        """turn.3 and game-cards.11: a card played, discarded or replaced goes under its deck, face up."""
        state["decks"][deck].append(cid)

    def _end_movement(self, state) -> None:
        """The piece stops: grandpa.4, the bank."""
        m = moving(state)
        if m and m["piece"] == "grandpa" and space_of(state, "grandpa") in next_to_landmark(state, "bank"):
            state["grandpa"]["bank"] = True
        state["turn_state"]["moving"] = None

    def apply(self, state: dict, move: dict) -> dict:
        """The state after a legal move, a new dict: the board and the cards' printed values, which
        no move changes, are shared with the given state, everything else copied."""
        state = {k: v if k in UNCHANGING else copy.deepcopy(v) for k, v in state.items()}
        move = self.parse_move(state, move)
        if _ends_movement(state, move) and move["kind"] not in ("buy", "release"):
            self._end_movement(state)
        getattr(self, f"_apply_{move['kind'].replace('-', '_')}")(state, move)
        return state

    def _apply_take(self, state, move) -> None:
        state["players"][state["turn"]]["hand"].append(state["decks"][move["deck"]].pop(0))
        n = len(state["players"])
        state["turn"] = (state["turn"] + 1) % n
        if draft_done(state):
            state["phase"] = "play"
            state["turn"] = (state["player_a"] + 1) % n  # turn.2: the player to the left of Player A

    def _apply_play(self, state, move) -> None:
        _hand(state).remove(move["card"])
        self._under(state, "movement", move["card"])
        t = state["turn_state"]
        t["mp"] += value(state, move["card"])
        t["played"] += 1
        if t["moving"] and t["moving"]["ride"] is not None:
            # wife.2, grandma.1: "After this movement [the taxi's, the bus's], the player can still
            # play game cards, moving the Wife again (with movement cards)": a card played ends
            # the ride (what is left of its mp with it), and the next step begins a movement paid
            # with the cards' mp.
            t["moving"] = None

    def _apply_move(self, state, move) -> None:
        piece, to, t = move["piece"], move["to"], state["turn_state"]
        frm = state["pieces"][piece]
        cost = step_cost(state, piece, frm, to)
        m = t["moving"]
        if not m or m["piece"] != piece:
            m = t["moving"] = {"piece": piece, "crossed": [frm] if frm in state["board"]["spaces"] else [],
                               "steps": 0, "ride": None, "bought": False, "released": False}
        if m["ride"] is not None:
            m["ride"] -= cost
        else:
            t["mp"] -= cost
        victim = crossed_at(state, piece, to)
        run_over = _runs_over(state, move)
        state["pieces"][piece] = to
        m["steps"] += 1
        if to in state["board"]["spaces"]:
            m["crossed"].append(to)
        if move["steal"] is not None and victim:
            self._move_ingredient(state, victim, piece, move["steal"])
            if piece == "grandpa" and state["grandpa"]["child"]:
                state["grandpa"]["child_stole"] = True
        if move["arcade"] and victim:
            best = max(state["characters"][victim]["money"], key=lambda c: (value(state, c), c))
            state["characters"][victim]["money"].remove(best)
            self._under(state, "money", best)
        if run_over:
            patient = hospital_patient(state)
            state["pieces"][run_over] = "hospital"
            if patient:
                state["pieces"][patient] = move["release_to"]
            for cid in move["lose"]:
                self._drop_ingredient(state, "son", cid)
                state["out_of_game"].append(cid)
        if to == "wc":
            state["wc"] = {"occupant": piece, "turns": 0, "last": piece}
        if to == "seat":
            state["pieces"][piece] = "seated"
            state["seated"].append(piece)
            if len(state["seated"]) == SEATED_TO_END:
                state["phase"] = "last-seats"
        if to in ("bench", "wc", "seat"):
            t["moving"] = None

    @staticmethod
    def _drop_ingredient(state, character, cid) -> dict:
        mine = state["characters"][character]["ingredients"]
        entry = next(i for i in mine if i["card"] == cid)
        mine.remove(entry)
        return entry

    def _move_ingredient(self, state, frm, to, cid) -> None:
        self._drop_ingredient(state, frm, cid)
        state["characters"][to]["ingredients"].append({"card": cid, "horizontal": False})

    def _apply_stop(self, state, move) -> None:
        pass  # the movement ended before this (apply)

    def _apply_taxi(self, state, move) -> None:
        state["characters"]["wife"]["money"].remove(move["card"])
        self._under(state, "money", move["card"])
        here = state["pieces"]["wife"]
        state["turn_state"]["moving"] = {"piece": "wife", "crossed": [here], "steps": 0,
                                         "ride": TAXI_TIMES * value(state, move["card"]), "bought": False, "released": False}

    def _apply_bus(self, state, move) -> None:
        t = state["turn_state"]
        t["bus_tried"] = True
        hit = _bus_hits(state, move["number"])
        deck = state["bus_deck"]
        state["bus_deck"] = deck[2:] + deck[:2]  # grandma.4: the card taken, then the next, under the deck
        if hit:
            state["pieces"]["grandma"] = move["to"]
            t["moving"] = {"piece": "grandma", "crossed": [move["to"]], "steps": 1, "ride": 0,
                           "bought": False, "released": False}
        else:
            state["pieces"]["grandma"] = "church"
            t["bus_missed"] = True

    @staticmethod
    def _take_ingredient(state, buyer, ingredient) -> str:
        """ingredients.7, ingredients.9: the card beside the buyer, a substitute card in its place."""
        space = next(s for s, cid in state["city"].items() if cid == ingredient)
        state["characters"][buyer]["ingredients"].append({"card": ingredient, "horizontal": False})
        if state["substitutes"]:
            state["city"][space] = state["substitutes"].pop(0)
        return space

    def _apply_buy(self, state, move) -> None:
        buyer, t = mover(state), state["turn_state"]
        for cid in move["pay"]:
            state["characters"][buyer]["money"].remove(cid)
            self._under(state, "money", cid)
        self._take_ingredient(state, buyer, move["ingredient"])
        if move["place"] is not None:
            state["substitutes"].append(state["city"][move["place"]])
            state["city"][move["place"]] = state["ingredient_row"].pop(0)
        t["bought"].append(buyer)
        t["moving"]["bought"] = True
        if ingredients_left(state) == 0:
            self._dinner_hour(state)

    def _dinner_hour(self, state) -> None:
        """dinner-hour.1-4: Player X, the characters removed, the schoolbus too with the Child."""
        state["player_x"] = state["turn"]
        for c in CHARACTERS:
            state["pieces"][c] = "off"
        state["wc"]["occupant"] = None
        if state["grandpa"]["child"]:
            state["pieces"]["schoolbus"] = "off"
        state["turn_state"] = new_turn_state()
        self._next_dinner_step(state)

    def _next_dinner_step(self, state) -> None:
        due = guests_due(state)
        if due is not None:
            state["phase"], state["turn"] = "dinner-guests", due
        elif state["phase"] != "dinner-placing":
            state["phase"], state["turn"] = "dinner-placing", state["player_x"]

    def _apply_release(self, state, move) -> None:
        state["pieces"][hospital_patient(state)] = move["to"]
        state["turn_state"]["moving"]["released"] = True

    def _apply_leave_wc(self, state, move) -> None:
        state["pieces"][state["wc"]["occupant"]] = move["to"]
        state["wc"]["occupant"] = None
        state["turn_state"]["wc_exit_due"] = False

    def _apply_discard(self, state, move) -> None:
        for cid in move["cards"]:
            _hand(state).remove(cid)
            self._under(state, kind(state, cid), cid)
        state["turn_state"]["discarded"] = len(move["cards"])
        if move["turn_over"] is not None:
            owner = next(c for c in CHARACTERS if move["turn_over"] in vertical(state, c))
            next(i for i in state["characters"][owner]["ingredients"] if i["card"] == move["turn_over"])["horizontal"] = True

    def _apply_guests(self, state, move) -> None:
        state["characters"][move["character"]]["guests"] = state["guests"].pop(0)  # turn.7: the highest left
        state["players"][state["turn"]]["guests_assigned"] = True
        if state["phase"] == "dinner-guests":
            self._next_dinner_step(state)

    def _apply_money(self, state, move) -> None:
        held = state["characters"][move["character"]]["money"]
        if move["replace"] is not None:
            held.remove(move["replace"])
            self._under(state, "money", move["replace"])
        _hand(state).remove(move["card"])
        held.append(move["card"])
        state["turn_state"]["money_placed"] = True
        state["turn_state"]["played"] += 1

    def _apply_end_turn(self, state, move) -> None:
        hand = _hand(state)
        for deck in DECKS:
            for _ in range(move[deck]):
                hand.append(state["decks"][deck].pop(0))
        # grandpa.1: "At the end of any turn", the Dinner Hour's too ("All the rules regarding [...]
        # the school [...] remain the same": dinner-hour.3)
        if (state["phase"] in ("play", "dinner") and space_of(state, "grandpa") in next_to_landmark(state, "school")
                and space_of(state, "schoolbus") in next_to_landmark(state, "school")):
            state["grandpa"]["child"] = True
        self._next_turn(state)

    def _next_turn(self, state) -> None:
        state["turn"] = (state["turn"] + 1) % len(state["players"])
        state["turns"] += 1
        state["turn_state"] = new_turn_state()
        if state["phase"] == "play" and state["wc"]["occupant"] is not None:
            state["wc"]["turns"] += 1  # wc.3: one space down at the beginning of each turn
            state["turn_state"]["wc_exit_due"] = state["wc"]["turns"] >= WC_TURNS

    def _apply_place(self, state, move) -> None:
        state["pieces"][move["character"]] = move["to"]
        n = len(state["players"])
        if any(state["pieces"][c] == "off" for c in CHARACTERS):
            state["turn"] = (state["turn"] + 1) % n
        else:  # dinner-hour.8: the player to the left of Player X plays first
            state["phase"] = "dinner"
            state["turn"] = (state["player_x"] + 1) % n
            state["turn_state"] = new_turn_state()

    def _apply_last_seats(self, state, move) -> None:
        for c in move["order"]:
            state["pieces"][c] = "seated"
            state["seated"].append(c)
        state["phase"] = "over"
        state["turn_state"] = new_turn_state()

    # -- legal moves, scores and the result ------------------------------------------------------

    def candidates(self, state: dict) -> list[dict]:
        phase = state["phase"]
        if phase == "over":
            return []
        if phase == "draft":
            return [{"kind": "take", "deck": d} for d in DECKS]
        if phase == "dinner-guests":
            return [{"kind": "guests", "character": c} for c in CHARACTERS]
        if phase == "dinner-placing":
            return [{"kind": "place", "character": c, "to": s} for c in CHARACTERS if state["pieces"][c] == "off"
                    for s in placing_column(state)]
        if phase == "last-seats":
            left = [c for c in CHARACTERS if state["pieces"][c] != "seated"]
            return [{"kind": "last-seats", "order": left}, {"kind": "last-seats", "order": left[::-1]}]
        t, hand = state["turn_state"], _hand(state)
        if t["wc_exit_due"]:
            return [{"kind": "leave-wc", "to": s} for s in nearest_empty(state, next_to_landmark(state, "wc"))]
        out = [{"kind": "stop"}]
        out += [{"kind": "play", "card": c} for c in hand if kind(state, c) == "movement"]
        for piece in PIECES:
            for to in reachable(state, piece):
                out += self._step_candidates(state, piece, to)
        out += [{"kind": "taxi", "card": c} for c in state["characters"]["wife"]["money"]]
        for number in BUS_NUMBERS:
            spots = nearest_empty(state, next_to_landmark(state, _other_stop(state)), but="grandma") if _bus_hits(state, number) else [None]
            out += [{"kind": "bus", "number": number, "to": s} for s in spots]
        m = moving(state)
        if m and m["piece"] in CHARACTERS:
            for ingredient in affordable_next_to(state, m["piece"]):
                spots = _placements(state, m["piece"], ingredient) or [None]
                for pay in _payments(state, m["piece"], ingredient):
                    out += [{"kind": "buy", "ingredient": ingredient, "pay": pay, "place": s} for s in spots]
        if release_due(state):
            out += [{"kind": "release", "to": s} for s in nearest_empty(state, next_to_landmark(state, "hospital"))]
        if len(hand) >= DISCARD and not t["played"] and not t["discarded"]:
            turnable = [None] + sorted(i for c in CHARACTERS for i in vertical(state, c))
            out += [{"kind": "discard", "cards": list(cards), "turn_over": i}
                    for cards in combinations(sorted(hand), DISCARD) for i in turnable]
        out += [{"kind": "guests", "character": c} for c in CHARACTERS]
        for cid in hand:
            if kind(state, cid) == "money":
                for c in CHARACTERS:
                    out += [{"kind": "money", "card": cid, "character": c, "replace": r}
                            for r in [None, *state["characters"][c]["money"]]]
        out += [{"kind": "end-turn", "movement": a, "money": b}
                for a in range(TAKE_UP_TO[0] + 1) for b in range(TAKE_UP_TO[0] + 1 - a)]
        return out

    def _step_candidates(self, state, piece, to) -> list[dict]:
        base = {"kind": "move", "piece": piece, "to": to, "steal": None, "arcade": False, "lose": [], "release_to": None}
        out = [base]
        victim = crossed_at(state, piece, to)
        if victim and piece in CHARACTERS:
            out += [{**base, "steal": cid} for cid in vertical(state, victim)]
            if piece == "son":
                out.append({**base, "arcade": True})
        run_over = _runs_over(state, {**base, "kind": "move"}) if piece == "schoolbus" else None
        if run_over:
            losses = [sorted(c) for c in combinations(sorted(vertical(state, "son")), len(vertical(state, "son")) // 2)] \
                if run_over == "son" else [[]]
            allowed, _ = _exit_spaces(state, base)
            releases = allowed if allowed is not None else [None]
            out = [{**base, "lose": lose, "release_to": r} for lose in losses for r in releases]
        return out

    def characters_points(self, state: dict, lang: str) -> dict[str, dict]:
        """victory.1-7: each character's points, one cited line per criterion."""
        out = {}
        for c in CHARACTERS:
            mine = state["characters"][c]
            cards = [state["cards"][i["card"]] for i in mine["ingredients"]]
            counts = Counter(d for card in cards for d in set(card["drawings"]))
            matching = sum(MATCHING[min(n, max(MATCHING))] for n in counts.values() if n >= 2)
            single = sum(1 for card in cards if not card["mother_in_law"] for d in set(card["drawings"]) if counts[d] == 1)
            mother_in_law = -sum(card["mother_in_law"] for card in cards)
            guests = value(state, mine["guests"]) if mine["guests"] else 0
            money = money_of(state, c)
            bonus = GRANDPA_CHILD_VP if c == "grandpa" and state["grandpa"]["child"] else CHARACTER_VP.get(c, 0)
            seat = state["seated"].index(c) if c in state["seated"] else None
            arrival = ARRIVAL_VP[seat] if seat is not None else 0
            lines = [SCORING["matching"].line(lang, matching), SCORING["single"].line(lang, single),
                     SCORING["mother-in-law"].line(lang, mother_in_law), SCORING["guests"].line(lang, guests),
                     SCORING["money"].line(lang, money), SCORING["character"].line(lang, bonus),
                     SCORING["arrival"].line(lang, arrival, place=seat + 1 if seat is not None else "-")]
            out[c] = {"character": c, "total": sum(line["value"] for line in lines), "seat": seat, "lines": lines}
        return out

    def standings(self, state: dict, lang: str) -> dict:
        """Each player's points are their secret character's; a tie goes to whoever sat first (victory.9)."""
        points = self.characters_points(state, lang)
        rows = []
        for i, p in enumerate(state["players"]):
            c = state["cards"][p["secret"]]["character"]
            seat = points[c]["seat"]
            rows.append({"player": i, "character": c, "total": points[c]["total"], "lines": points[c]["lines"],
                         "key": (points[c]["total"], -(seat if seat is not None else len(CHARACTERS)))})
        tops = [r for r in rows if r["total"] == max(x["total"] for x in rows)]
        tie_break = SCORING["tie"].line(lang) if len(tops) > 1 else None
        out = ranked(rows, state["phase"] == "over", tie_break=tie_break)
        out["characters"] = sorted(points.values(), key=lambda r: -r["total"])
        for r in out["characters"]:
            r.pop("seat")
        return out

    def result(self, state: dict) -> dict | None:
        if state["phase"] != "over":
            return None
        score = self.standings(state, "en")
        rows = [{"player": r["player"], "character": r["character"], "points": r["total"], "rank": r["rank"]}
                for r in score["players"]]
        return {"standings": rows, "winners": score["winners"],
                "tie_break": "seated first" if score["tie_break"] else None, "shared": len(score["winners"]) > 1}

    def examples(self) -> list[tuple[str, str, dict, dict]]:
        """A worked example per kind of move on seeded states: (name, summary, state, move)."""
        state = self.setup(3, 1, {})
        out = [("take", "Choose a starting card from the movement deck", state, {"kind": "take", "deck": "movement"})]
        while state["phase"] == "draft":
            state = self.apply(state, {"kind": "take", "deck": "movement" if len(_hand(state)) < 3 else "money"})
        card = next(c for c in _hand(state) if kind(state, c) == "movement")
        out.append(("play", "Play a movement card for its mp", state, {"kind": "play", "card": card}))
        played = self.apply(state, {"kind": "play", "card": card})
        out.append(("move", "Move the Wife out of her seat, one space", played, {"kind": "move", "piece": "wife", "to": "4"}))
        out.append(("move-illegal", "The Wife enters the city beside her seat (space 4), not on 3: illegal",
                    played, {"kind": "move", "piece": "wife", "to": "3"}))
        out.append(("end-turn", "End the turn and take 1 card (1 played: up to 2)", played,
                    {"kind": "end-turn", "movement": 1, "money": 0}))
        return out


CARD_KINDS = ("reference", "character", "secret", "city", "landmark", "schoolbus", "traffic", "wc-card",
              "substitute", "summary", "guests", "ingredient", "bus", "movement", "money")


def _printed_wrong(cid, card):
    """What a card's kind needs printed on it and is missing: (field, invariant) pairs."""
    k = card.get("kind")
    if k not in CARD_KINDS:
        yield "kind", f"one of {', '.join(CARD_KINDS)}"
    elif k == "character" and (cid not in CHARACTERS or not is_whole(card.get("age"), 0)):
        yield "age", "a character card (grandpa ... son) with its printed age, a whole number"
    elif k in ("reference", "secret") and card.get("character") not in CHARACTERS:
        yield "character", f"one of {', '.join(CHARACTERS)}"
    elif k == "city" and card.get("face") not in ("street", "club"):
        yield "face", "street or club"
    elif k == "landmark" and cid not in LANDMARKS:
        yield "kind", f"a landmark is one of {', '.join(LANDMARKS)}"
    elif k in ("schoolbus", "traffic", "ingredient") and not is_whole(card.get("cost"), 1):
        yield "cost", "the printed cost, 1 or more"
    elif k == "ingredient" and not (isinstance(card.get("drawings"), list) and is_whole(card.get("mother_in_law"), 0)):
        yield "drawings", "an ingredient's drawings and its Mother-in-Law number (0: none)"
    elif k in ("movement", "money") and not is_whole(card.get("value"), 1):
        yield "value", "a game card's printed value, 1 or more"
    elif k == "guests" and not (is_whole(card.get("value")) and card["value"] <= 0):
        yield "value", "a Guests card's negative vp"
    elif k == "bus" and card.get("number") not in BUS_NUMBERS:
        yield "number", f"one of {', '.join(BUS_NUMBERS)}"


def _payments(state, buyer, ingredient) -> list[list[str]]:
    """ingredients.7-8: the sets of the buyer's money cards that pay without a card to spare."""
    held, cost = sorted(state["characters"][buyer]["money"]), price(state, buyer, ingredient)
    out = []
    for k in range(len(held) + 1):
        for pay in combinations(held, k):
            total = sum(value(state, m) for m in pay)
            if total >= cost and not any(total - value(state, m) >= cost for m in pay):
                out.append(list(pay))
    return out


def _natural(cid: str):
    head, _, tail = cid.rpartition("-")
    return (head, int(tail)) if tail.isdigit() else (cid, 0)


# ---- states and moves: their shape only (the engine checks the game's invariants) ---------------


class MammaSpace(Schema):
    column = fields.Integer(strict=True, required=True, metadata={"description": "1 beside column B; higher is further right (back, in the Dinner Hour)."})
    row = fields.Integer(strict=True, required=True)
    next_to = fields.List(fields.String(), required=True, validate=validate.Length(max=8))


class MammaBoard(Schema):
    label = fields.String(metadata={"description": "Present when the city is Referee's own reading, not the publisher's."})
    spaces = fields.Dict(keys=fields.String(), values=fields.Nested(MammaSpace), required=True, validate=validate.Length(max=40))
    seats = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                        metadata={"description": "Each character's seat in column B: the space of the city beside it."})


class MammaCard(Schema):
    kind = fields.String(required=True, metadata={"description": "reference, character, secret, city, landmark, schoolbus, traffic, "
                                                                 "wc-card, substitute, summary, guests, ingredient, bus, movement or money."})
    character = fields.String()
    age = fields.Integer(strict=True, metadata={"description": "A character's printed age."})
    face = fields.String(metadata={"description": "A city card: street or club (an ingredient may be placed on it)."})
    cost = fields.Integer(strict=True, metadata={"description": "An ingredient's price; the schoolbus's or a traffic card's first-space mp."})
    drawings = fields.List(fields.String(), validate=validate.Length(max=10))
    mother_in_law = fields.Integer(strict=True, metadata={"description": "The red number of a Mother-in-Law card (0: none)."})
    value = fields.Integer(strict=True, metadata={"description": "mp, money, or a Guests card's negative vp."})
    number = fields.String(metadata={"description": "A Bus card's number."})


class MammaHeld(Schema):
    card = fields.String(required=True)
    horizontal = Boolean(required=True, metadata={"description": "Turned horizontal: it cannot be stolen."})


class MammaCharacter(Schema):
    money = fields.List(fields.String(), required=True, validate=validate.Length(max=10))
    ingredients = fields.List(fields.Nested(MammaHeld), required=True, validate=validate.Length(max=20))
    guests = fields.String(allow_none=True, required=True)


class MammaPlayer(Schema):
    secret = fields.String(required=True, metadata={"description": "The player's secret character card."})
    hand = fields.List(fields.String(), required=True, validate=validate.Length(max=20))
    guests_assigned = Boolean(required=True)


class MammaMoving(Schema):
    piece = fields.String(required=True)
    crossed = fields.List(fields.String(), required=True, validate=validate.Length(max=40))
    steps = fields.Integer(strict=True, required=True)
    ride = fields.Integer(strict=True, allow_none=True, required=True, metadata={"description": "The taxi's or bus's mp left; null when moved with movement cards."})
    bought = Boolean(required=True)
    released = Boolean(required=True)


class MammaTurn(Schema):
    played = fields.Integer(strict=True, required=True, metadata={"description": "Game cards played this turn (money placed counts)."})
    discarded = fields.Integer(strict=True, required=True)
    mp = fields.Integer(strict=True, required=True, metadata={"description": "The turn's mp not yet spent."})
    moving = fields.Nested(MammaMoving, allow_none=True, required=True, metadata={"description": "The movement in progress."})
    bought = fields.List(fields.String(), required=True, metadata={"description": "Characters who bought this turn: they move no more."})
    money_placed = Boolean(required=True)
    bus_tried = Boolean(required=True)
    bus_missed = Boolean(required=True)
    wc_exit_due = Boolean(required=True)


class MammaWc(Schema):
    occupant = fields.String(allow_none=True, required=True)
    turns = fields.Integer(strict=True, required=True, metadata={"description": "Turns begun since the occupant went in."})
    last = fields.String(allow_none=True, required=True, metadata={"description": "The last character in (the vertical wc card is beside it)."})


class MammaGrandpa(Schema):
    bank = Boolean(required=True, metadata={"description": "The bank card turned: the Grandpa may hold 3 money cards."})
    child = Boolean(required=True, metadata={"description": "The Grandpa with the Child."})
    child_stole = Boolean(required=True)


class MammaDecks(Schema):
    movement = fields.List(fields.String(), required=True, validate=validate.Length(max=110))
    money = fields.List(fields.String(), required=True, validate=validate.Length(max=110))


class MammaState(Schema):
    """A Mamma table: the city and its pieces, every card's place, the turn in progress."""

    game = fields.String(validate=validate.Equal("mamma"), metadata={"description": "The game, always \"mamma\" (optional in a request)."})
    seed = fields.Integer(strict=True, required=True)
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    player_a = fields.Integer(strict=True, required=True)
    player_x = fields.Integer(strict=True, allow_none=True, required=True, metadata={"description": "Who bought the last ingredient."})
    turn = fields.Integer(strict=True, required=True, metadata={"description": "The player due to move."})
    turns = fields.Integer(strict=True, required=True)
    board = fields.Nested(MammaBoard, required=True)
    cards = fields.Dict(keys=fields.String(), values=fields.Nested(MammaCard), required=True, validate=validate.Length(max=200))
    city = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={"description": "The card on each space."})
    pieces = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                         metadata={"description": "Each character's, the schoolbus's and the traffic cards' place: a space, "
                                                  "or seat, bench, wc, hospital, church, seated, off."})
    characters = fields.Dict(keys=fields.String(), values=fields.Nested(MammaCharacter), required=True)
    players = fields.List(fields.Nested(MammaPlayer), required=True, validate=validate.Length(min=1, max=10))
    decks = fields.Nested(MammaDecks, required=True)
    ingredient_row = fields.List(fields.String(), required=True, validate=validate.Length(max=50), metadata={"description": "Top first."})
    substitutes = fields.List(fields.String(), required=True, validate=validate.Length(max=50))
    guests = fields.List(fields.String(), required=True, validate=validate.Length(max=10), metadata={"description": "Highest first."})
    bus_deck = fields.List(fields.String(), required=True, validate=validate.Length(max=10), metadata={"description": "Top first."})
    wc = fields.Nested(MammaWc, required=True)
    grandpa = fields.Nested(MammaGrandpa, required=True)
    seated = fields.List(fields.String(), required=True, validate=validate.Length(max=6))
    out_of_game = fields.List(fields.String(), required=True, validate=validate.Length(max=110))
    table = fields.List(fields.String(), required=True, validate=validate.Length(max=20),
                        metadata={"description": "Cards that stay in place: reference cards, the summary, the wc card."})
    turn_state = fields.Nested(MammaTurn, required=True)


class MammaMove(MoveShape):
    """One move of a turn (a card played, one space of a movement, a purchase...) or of the set-up and Dinner Hour."""

    KINDS = MOVE_FIELDS

    kind = fields.String(required=True, metadata={"description": ", ".join(MOVE_KINDS) + "."})
    player = fields.Integer(strict=True, allow_none=True)
    deck = fields.String(metadata={"description": "take: movement or money."})
    card = fields.String(metadata={"description": "play, money: a card of the hand; taxi: a money card beside the Wife."})
    piece = fields.String(metadata={"description": "move: a character, schoolbus, traffic-1 or traffic-2."})
    to = fields.String(allow_none=True, metadata={"description": "move: a space, bench, wc or seat; bus, release, leave-wc, place: a space."})
    steal = fields.String(allow_none=True, metadata={"description": "move: the crossed character's vertical ingredient taken."})
    arcade = Boolean(metadata={"description": "move: the Son spends the crossed character's highest money card."})
    lose = fields.List(fields.String(), validate=validate.Length(max=20), metadata={"description": "move: the Son's vertical ingredients lost when run over."})
    release_to = fields.String(allow_none=True, metadata={"description": "move: where the character leaving the hospital goes."})
    number = fields.String(metadata={"description": "bus: 969, 696 or 699."})
    ingredient = fields.String(metadata={"description": "buy: the ingredient card."})
    pay = fields.List(fields.String(), validate=validate.Length(max=10), metadata={"description": "buy: the money cards paid."})
    place = fields.String(allow_none=True, metadata={"description": "buy: the space for the next ingredient of the row."})
    cards = fields.List(fields.String(), validate=validate.Length(max=10), metadata={"description": "discard: 3 cards of the hand."})
    turn_over = fields.String(allow_none=True, metadata={"description": "discard: a vertical ingredient turned horizontal."})
    character = fields.String(metadata={"description": "guests, money, place: the character."})
    replace = fields.String(allow_none=True, metadata={"description": "money: the lower money card replaced."})
    movement = fields.Integer(strict=True, metadata={"description": "end-turn: cards taken from the movement deck."})
    money = fields.Integer(strict=True, metadata={"description": "end-turn: cards taken from the money deck."})
    order = fields.List(fields.String(), validate=validate.Length(max=6), metadata={"description": "last-seats: the fifth and sixth."})


register(Game(GAME, Mamma(), MammaState, MammaMove))
