"""Reading a Mamma state: where each piece stands, what a character can reach and pay, what the moment
of the game calls for, worked out once per state (Reading).
"""

from __future__ import annotations

import copy
from collections import deque

from service.engines.mamma.board import (
    BENCH_IN,
    BENCH_OUT,
    CHARACTERS,
    CHURCH_OUT,
    DECKS,
    DINNER,
    DINNER_BACK,
    DINNER_CARDS,
    DINNER_FORWARD,
    GRANDPA_BANK_LIMIT,
    HAND_LIMIT,
    HUSBAND_MORE,
    MAMMA_LESS,
    MONEY_LIMIT,
    PIECES,
    PLACE_AWAY,
    READINGS,
    SPACE_MP,
    START_HAND,
    TAKE_UP_TO,
    TRAFFIC,
    WALKABLE,
)

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


def read_as(state, option: str) -> str:
    """The table's reading of an ambiguous point of the text (a setup option): the state's, else the default."""
    return READINGS[option].of(state)


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


def _moving_buyer(state) -> str | None:
    """The character moving that may buy: it took a step and has bought nothing yet, or, when the
    table reads must_buy as each, whatever it bought."""
    m = moving(state)
    if m and m["piece"] in CHARACTERS and m["steps"] > 0 and (not m["bought"] or read_as(state, "must_buy") == "each"):
        return m["piece"]
    return None


def purchase_due(state) -> bool:
    """A character that moved and stopped next to an ingredient it can pay must buy it; having
    bought one, another it can still pay too when the table reads must_buy as each."""
    c = _moving_buyer(state)
    return bool(c and affordable_next_to(state, c))


def wc_buyer(state) -> str | None:
    """The character put back from the W.C. this turn, still where it was put and with nothing
    bought, when the table reads wc_exit as moved-and-stopped (it stopped there, so it buys)."""
    t = state["turn_state"]
    left = t.get("wc_left")
    if not left or read_as(state, "wc_exit") != "moved-and-stopped":
        return None
    c = left["character"]
    if c in t["bought"] or mover(state) == c or state["pieces"][c] != left["space"]:
        return None
    return c


def wc_purchase_due(state) -> bool:
    c = wc_buyer(state)
    return bool(c and affordable_next_to(state, c))


def buyer(state) -> str | None:
    """Who buys now: the character moving (and stopped), or the one put back from the W.C. (wc_exit)."""
    return _moving_buyer(state) or wc_buyer(state)


def least_payment(state, character, cost) -> int | None:
    """The smallest total of the character's money cards that pays ``cost`` (None: none does)."""
    values = [value(state, m) for m in state["characters"][character]["money"]]
    totals = {0}
    for v in values:
        totals |= {t + v for t in totals}
    return min((t for t in totals if t >= cost), default=None)


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
        if frm in spaces and to in spaces:
            if spaces[to]["column"] > spaces[frm]["column"]:
                return DINNER_BACK
            if spaces[to]["column"] == spaces[frm]["column"] and read_as(state, "sideways_first_space") == "one-mp":
                return SPACE_MP
        return DINNER_FORWARD
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
