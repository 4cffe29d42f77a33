"""Mamma: every rule as a situation, the rulebook's worked examples, whole games to the final
score, and the property (legal_moves lists a move exactly when no rule objects).

The situations are played on Referee's default city (service/engines/mamma/__init__.py, the package's docstring):

    column:  1     2         3        4            5
    row 1:   1     7 bank    13 taxi  18 bus stop  23 church
    row 2:   2*    8         14       19*          24 W.C.
    row 3:   3     9 bench   15 (T2)  20 (bus)     25 ingredient
    row 4:   4*   10 ingr.   16 (T1)  21*          26
    row 5:   5    11*        17*      22 school    27 bus stop
    row 6:   6    12 hospital

(* a space marked with the club; T1, T2 the traffic cards; the seats in column B beside 1 to 6:
Grandpa, Grandma, Mamma, Wife, Husband, Son.)
"""

import random
from collections import deque

import pytest
from hypothesis import strategies as st

from service.engines import InvalidState, adjudicate, replay
from service.engines.mamma import board, engine, reading
from service.engines.mamma.board import CHARACTERS
from service.engines.mamma.engine import Mamma

ENGINE = Mamma()


# ---- arranging a table ---------------------------------------------------------------------------


def begun(players=3, seed=1):
    """A game just past the draft (every hand of 5 taken from the movement deck), player 0 to play."""
    state = ENGINE.setup(players, seed, {"player_a": players - 1})
    while state["phase"] == "draft":
        state = ENGINE.apply(state, {"kind": "take", "deck": "movement" if state["decks"]["movement"] else "money"})
    assert state["turn"] == 0
    return state


def _lists(state):
    """Every list of card ids a card can be taken from."""
    yield from state["decks"].values()
    yield from (p["hand"] for p in state["players"])
    yield from (c["money"] for c in state["characters"].values())
    yield state["ingredient_row"]
    yield state["substitutes"]
    yield state["guests"]


def _take_out(state, cid):
    for cards in _lists(state):
        if cid in cards:
            cards.remove(cid)
            return
    for c in state["characters"].values():
        held = [i for i in c["ingredients"] if i["card"] == cid]
        if held:
            c["ingredients"].remove(held[0])
            return
        if c["guests"] == cid:
            c["guests"] = None
            return
    raise AssertionError(f"{cid} is nowhere to take it from")


def _put_back(state, cid):
    k = reading.kind(state, cid)
    {"movement": state["decks"]["movement"], "money": state["decks"]["money"],
     "ingredient": state["ingredient_row"], "guests": state["guests"]}[k].append(cid)


def _card(state, spec, taken):
    """A card id, or (kind, value): the lowest-numbered such card not taken yet."""
    if isinstance(spec, str):
        return spec
    wanted, v = spec
    return next(c for c in sorted(state["cards"], key=engine._natural)
                if reading.kind(state, c) == wanted and reading.value(state, c) == v and c not in taken)


def _set_cards(state, holder, specs, taken):
    """Make ``holder`` (a list in the state) hold exactly these cards, the others put back."""
    chosen = []
    for spec in specs:
        chosen.append(_card(state, spec, taken | set(chosen)))
    taken |= set(chosen)
    for cid in list(holder):
        if cid not in chosen:
            holder.remove(cid)
            _put_back(state, cid)
    for cid in chosen:
        if cid not in holder:
            _take_out(state, cid)
            holder.append(cid)


def arrange(state=None, hand=None, money=None, ingredients=None, pieces=None, city=None, turn=None, guests=None, **fields):
    """A table for a situation, every card still in one place: the hand of the player to move,
    each character's money (values) and ingredients (ids; "ing-1/h" horizontal), where the pieces
    are, which card lies on a space (swapped with wherever it was), the turn in progress."""
    state, taken = reading.plain(state or begun()), set()
    for name, v in fields.items():
        state[name] = v
    if hand is not None:
        _set_cards(state, state["players"][state["turn"]]["hand"], hand, taken)
    for c, values in (money or {}).items():
        _set_cards(state, state["characters"][c]["money"], [("money", v) for v in values], taken)
    for space, cid in (city or {}).items():
        where = next((s for s, x in state["city"].items() if x == cid), None)
        if where is not None:
            state["city"][where] = state["city"][space]
        else:
            here = state["city"][space]
            _take_out(state, cid)
            if reading.kind(state, here) == "ingredient":
                state["ingredient_row"].insert(0, here)
            else:
                state["substitutes"].append(here)
        state["city"][space] = cid
    for c, ids in (ingredients or {}).items():
        for entry in list(state["characters"][c]["ingredients"]):
            state["characters"][c]["ingredients"].remove(entry)
            state["ingredient_row"].append(entry["card"])
        for cid in ids:
            card, _, flag = cid.partition("/")
            _take_out(state, card)
            state["characters"][c]["ingredients"].append({"card": card, "horizontal": flag == "h"})
    for c, cid in (guests or {}).items():
        _take_out(state, cid)
        state["characters"][c]["guests"] = cid
    state["pieces"].update(pieces or {})
    state["turn_state"].update(turn or {})
    ENGINE.validate(state)
    return state


def moving(piece, *crossed, steps=1, ride=None):
    return {"piece": piece, "crossed": list(crossed), "steps": steps, "ride": ride, "bought": False, "released": False}


def codes(state, move):
    return [v.code for v in ENGINE.check(state, move)]


def after(state, *moves):
    """The state after these moves, each one legal."""
    for move in moves:
        assert codes(state, move) == [], move
        state = ENGINE.apply(state, move)
        ENGINE.validate(state)
    return state


def step(piece, to, **more):
    return {"kind": "move", "piece": piece, "to": to, **more}


STOP = {"kind": "stop"}
END = {"kind": "end-turn", "movement": 1, "money": 0}
MP = lambda n: {"mp": n}  # noqa: E731 - the turn's mp, as if movement cards worth n had been played


def wife_bought_ing_1():
    """The rulebook's purchase: the Wife, with one money card of 2, moves next to an ingredient that costs 1."""
    state = arrange(money={"wife": [2]}, city={"10": "ing-1"}, hand=[("movement", 1)] + [("movement", 3)] * 4)
    return after(state, {"kind": "play", "card": _hand_card(state, 1)}, step("wife", "4"))


def _hand_card(state, v):
    return next(c for c in state["players"][state["turn"]]["hand"] if reading.value(state, c) == v)


def dinner(pieces, **more):
    """The Dinner Hour under way: every ingredient bought, the characters where ``pieces`` puts them."""
    state = arrange(city={"10": "substitute-1", "25": "substitute-2"})
    per = {c: [] for c in CHARACTERS}
    for i, cid in enumerate(list(state["ingredient_row"])):
        per[CHARACTERS[i % 6]].append(cid)
    state = arrange(state, ingredients=per)
    assert not state["ingredient_row"] and reading.ingredients_left(state) == 0
    return arrange(state, **{"phase": "dinner", "player_x": 0, "pieces": pieces, **more})


DINNER_PIECES = {"grandpa": "26", "grandma": "19", "mamma": "21", "wife": "17", "husband": "14", "son": "11"}


# ---- every rule, as a situation ------------------------------------------------------------------


SITUATIONS = [
    # the turn and its phases
    ("over", lambda: arrange(phase="over"), STOP, ["mamma/game.over"]),
    ("someone else's turn", lambda: arrange(), {**END, "player": 1}, ["mamma/turn.out-of-turn"]),
    ("taking a card is the draft's", lambda: arrange(), {"kind": "take", "deck": "money"}, ["mamma/turn.not-now"]),
    ("the draft takes nothing else", lambda: ENGINE.setup(3, 1, {}), END, ["mamma/turn.not-now"]),
    ("a deck emptied in the draft", lambda: _draft_without_movement(), {"kind": "take", "deck": "movement"}, ["mamma/cards.deck-empty"]),
    ("stop with nothing moving", lambda: arrange(), STOP, ["mamma/move.nothing-moving"]),
    ("two cards are not three", lambda: arrange(), {"kind": "discard", "cards": ["mp-1", "mp-2"], "turn_over": None}, None),
    ("taking 5 with nothing played", lambda: arrange(hand=[("movement", 1)]), {"kind": "end-turn", "movement": 3, "money": 2}, ["mamma/turn.take"]),
    ("taking none after playing two", lambda: arrange(turn={"played": 2, "mp": 0}), {"kind": "end-turn", "movement": 0, "money": 0}, ["mamma/turn.take"]),
    ("a seventh card", lambda: arrange(), {"kind": "end-turn", "movement": 1, "money": 1}, ["mamma/turn.hand-limit"]),
    # cards
    ("a card not in the hand", lambda: arrange(hand=[("movement", 1)]), {"kind": "play", "card": "mp-16"}, ["mamma/cards.in-hand"]),
    ("a money card played for mp", lambda: arrange(hand=[("money", 1)]), {"kind": "play", "card": "money-1"}, ["mamma/cards.wrong-kind"]),
    ("playing after placing money", lambda: arrange(hand=[("movement", 1)], turn={"money_placed": True, "played": 1}),
     {"kind": "play", "card": "mp-1"}, ["mamma/cards.after-money"]),
    ("playing after discarding", lambda: arrange(hand=[("movement", 1)], turn={"discarded": 3}),
     {"kind": "play", "card": "mp-1"}, ["mamma/turn.discard-three"]),
    ("turning over a card nobody holds vertical", lambda: arrange(hand=["mp-1", "mp-2", "mp-3"], ingredients={"wife": ["ing-1/h"]}),
     {"kind": "discard", "cards": ["mp-1", "mp-2", "mp-3"], "turn_over": "ing-1"}, ["mamma/turn.turn-over"]),
    # Guests cards
    ("a second Guests card", lambda: arrange(guests={"wife": "guests-6"}, players=_assigned(0)),
     {"kind": "guests", "character": "son"}, ["mamma/guests.once"]),
    ("a character who has one", lambda: arrange(guests={"wife": "guests-6"}, players=_assigned(1)),
     {"kind": "guests", "character": "wife"}, ["mamma/guests.has-one"]),
    ("no Guests card left", lambda: _all_guests_out(), {"kind": "guests", "character": "son"}, ["mamma/guests.none-left"]),
    # movement
    ("a step away from where it stands", lambda: arrange(turn=MP(3)), step("wife", "10"), ["mamma/move.not-next"]),
    ("onto an ingredient", lambda: arrange(pieces={"wife": "4"}, turn=MP(1)), step("wife", "10"), ["mamma/move.streets"]),
    ("back over a space crossed", lambda: arrange(pieces={"wife": "3"}, turn={"mp": 2, "moving": moving("wife", "4", "3")}),
     step("wife", "4"), ["mamma/move.crossed-twice"]),
    ("through a traffic card", lambda: arrange(pieces={"wife": "17"}, turn=MP(2)), step("wife", "16"), ["mamma/move.traffic"]),
    ("a step with no mp", lambda: arrange(), step("wife", "4"), ["mamma/move.mp"]),
    ("the schoolbus's first space costs its number", lambda: arrange(turn=MP(3)), step("schoolbus", "21"), ["mamma/move.mp"]),
    ("onto a character with no empty space in reach", lambda: arrange(hand=[("money", 1)], pieces={"grandpa": "4"}, turn=MP(1)),
     step("wife", "4"), ["mamma/move.no-way-on"]),
    ("stopping on a character", lambda: arrange(money={"wife": [1]}, pieces={"grandpa": "4", "wife": "4"},
                                                turn={"mp": 1, "moving": moving("wife", "4")}), STOP, ["mamma/move.end-empty"]),
    ("a character who bought", lambda: arrange(pieces={"wife": "4"}, turn={"mp": 2, "bought": ["wife"]}), step("wife", "3"), ["mamma/move.bought"]),
    ("a character in the W.C.", lambda: _in_wc("grandpa", turn=MP(2)), step("grandpa", "19"), ["mamma/move.out-of-play"]),
    # bench, W.C.
    ("the bench holds one", lambda: arrange(pieces={"grandma": "bench", "wife": "3"}, turn=MP(1)), step("wife", "bench"), ["mamma/bench.occupied"]),
    ("the W.C. holds one", lambda: _in_wc("grandpa", pieces={"wife": "19"}, turn=MP(1)), step("wife", "wc"), ["mamma/wc.occupied"]),
    ("never twice in a row", lambda: arrange(wc={"occupant": None, "turns": 6, "last": "grandpa"}, pieces={"grandpa": "19"}, turn=MP(1)),
     step("grandpa", "wc"), ["mamma/wc.twice"]),
    ("the sixth turn: out first", lambda: _in_wc("grandpa", turns=6, turn={"wc_exit_due": True}), END, ["mamma/wc.leave-first"]),
    ("out before the sixth turn", lambda: _in_wc("grandpa", turns=3), {"kind": "leave-wc", "to": "19"}, ["mamma/wc.not-due"]),
    ("out onto a far space", lambda: _in_wc("grandpa", turns=6, turn={"wc_exit_due": True}), {"kind": "leave-wc", "to": "1"}, ["mamma/move.exit-space"]),
    ("the W.C. is closed at dinner", lambda: dinner(DINNER_PIECES, turn=MP(2)), step("grandma", "wc"), ["mamma/wc.closed"]),
    # stealing, the arcade
    ("stealing with nobody crossed", lambda: arrange(ingredients={"grandpa": ["ing-1"]}, turn=MP(2)),
     step("wife", "4", steal="ing-1"), ["mamma/steal.nothing-crossed"]),
    ("the Son never steals", lambda: arrange(ingredients={"grandpa": ["ing-1"]}, pieces={"grandpa": "6"}, turn=MP(2)),
     step("son", "6", steal="ing-1"), ["mamma/steal.son"]),
    ("stealing from someone younger", lambda: arrange(ingredients={"wife": ["ing-1"]}, pieces={"wife": "1"}, turn=MP(2)),
     step("grandpa", "1", steal="ing-1"), ["mamma/steal.not-older"]),
    ("a horizontal card", lambda: arrange(ingredients={"grandpa": ["ing-1/h", "ing-2"]}, pieces={"grandpa": "4"}, turn=MP(2)),
     step("wife", "4", steal="ing-1"), ["mamma/steal.card"]),
    ("the Child's steal is no Mother-in-Law", lambda: arrange(ingredients={"wife": ["ing-1"]}, pieces={"wife": "1"}, turn=MP(2),
                                                              grandpa={"bank": False, "child": True, "child_stole": False}),
     step("grandpa", "1", steal="ing-1"), ["mamma/grandpa.child-steal"]),
    ("the Child's one steal", lambda: arrange(ingredients={"wife": ["ing-2"]}, pieces={"wife": "1"}, turn=MP(2),
                                              grandpa={"bank": False, "child": True, "child_stole": True}),
     step("grandpa", "1", steal="ing-2"), ["mamma/grandpa.child-steal"]),
    ("the arcade on someone not the richest", lambda: arrange(money={"grandpa": [1], "husband": [3]}, pieces={"grandpa": "6"}, turn=MP(2)),
     step("son", "6", arcade=True), ["mamma/son.arcade"]),
    # the schoolbus and the hospital
    ("the Son run over keeps no more than half", lambda: arrange(ingredients={"son": ["ing-1", "ing-2"]}, pieces={"son": "21"}, turn=MP(5)),
     step("schoolbus", "21", lose=[]), ["mamma/schoolbus.lost-ingredients"]),
    ("the Wife run over loses nothing", lambda: arrange(ingredients={"wife": ["ing-1"]}, pieces={"wife": "21"}, turn=MP(5)),
     step("schoolbus", "21", lose=["ing-1"]), ["mamma/schoolbus.lost-ingredients"]),
    ("the Mamma beside the hospital lets the patient out", lambda: arrange(pieces={"son": "hospital", "mamma": "6"},
                                                                           turn={"mp": 0, "moving": moving("mamma", "5", "6")}),
     STOP, ["mamma/hospital.release-due"]),
    ("nobody to let out", lambda: arrange(pieces={"mamma": "6"}, turn={"mp": 0, "moving": moving("mamma", "5", "6")}),
     {"kind": "release", "to": "11"}, ["mamma/hospital.no-release"]),
    # buying
    ("a purchase is compulsory", lambda: wife_bought_ing_1(), STOP, ["mamma/ingredients.must-buy"]),
    ("buying without moving there", lambda: arrange(money={"wife": [2]}, city={"10": "ing-1"}, pieces={"wife": "4"}),
     {"kind": "buy", "ingredient": "ing-1", "pay": ["money-13"], "place": "19"}, ["mamma/ingredients.no-purchase"]),
    ("no change is given", lambda: _wife_with([1, 2]), {"kind": "buy", "ingredient": "ing-1", "pay": ["money-1", "money-13"], "place": "19"},
     ["mamma/ingredients.payment"]),
    ("the Husband pays 2 more", lambda: _stopped_by_10("husband", [1, 2]), {"kind": "buy", "ingredient": "ing-1", "pay": ["money-13"], "place": "19"},
     ["mamma/ingredients.payment"]),
    ("the next ingredient 5 mp away", lambda: wife_bought_ing_1(), {"kind": "buy", "ingredient": "ing-1", "pay": ["money-13"], "place": "11"},
     ["mamma/ingredients.placement"]),
    # the characters' own rules
    ("the taxi from afar", lambda: arrange(money={"wife": [2]}, pieces={"wife": "4"}), {"kind": "taxi", "card": "money-13"}, ["mamma/wife.taxi"]),
    ("the bus from no stop", lambda: arrange(pieces={"grandma": "4"}), {"kind": "bus", "number": "969", "to": None}, ["mamma/grandma.bus"]),
    ("a card after the bus was missed", lambda: arrange(hand=[("movement", 1)], pieces={"grandma": "church"}, turn={"bus_tried": True, "bus_missed": True}),
     {"kind": "play", "card": "mp-1"}, ["mamma/grandma.bus-missed"]),
    # money
    ("a third money card", lambda: arrange(hand=[("money", 1)], money={"wife": [1, 2]}),
     {"kind": "money", "card": "money-1", "character": "wife", "replace": None}, ["mamma/money.limit"]),
    ("replacing a higher card", lambda: arrange(hand=[("money", 2)], money={"wife": [1, 3]}),
     {"kind": "money", "card": "money-13", "character": "wife", "replace": "money-20"}, ["mamma/money.replace"]),
    # the Dinner Hour
    ("a fourth card at dinner", lambda: dinner(DINNER_PIECES, hand=[("movement", 1)], turn={"played": 3, "mp": 0}),
     {"kind": "play", "card": "mp-1"}, ["mamma/dinner.three-cards"]),
    ("money for a seated character", lambda: dinner(DINNER_PIECES | {"grandpa": "seated"}, seated=["grandpa"], hand=[("money", 1)]),
     {"kind": "money", "card": "money-1", "character": "grandpa", "replace": None}, ["mamma/dinner.seated-no-money"]),
    ("placed left of the first free column", lambda: _placing(), {"kind": "place", "character": "wife", "to": "4"}, ["mamma/dinner.place"]),
    ("the last two are the two left", lambda: _last_seats(), {"kind": "last-seats", "order": ["wife", "grandpa"]}, ["mamma/dinner.last-two"]),
]


def _draft_without_movement():
    state = ENGINE.setup(4, 1, {})
    for _ in range(16):
        state = ENGINE.apply(state, {"kind": "take", "deck": "movement"})
    assert state["phase"] == "draft" and not state["decks"]["movement"]
    return state


def _assigned(*who):
    return [{**p, "guests_assigned": i in who} for i, p in enumerate(begun()["players"])]


def _all_guests_out():
    state = begun(players=6)
    four = {c: f"guests-{v}" for c, v in zip(CHARACTERS, (6, 5, 4, 3))}
    return arrange(state, guests=four, players=[{**p, "guests_assigned": i in (1, 2, 3, 4)} for i, p in enumerate(state["players"])])


def _in_wc(character, turns=0, pieces=None, **more):
    return arrange(pieces={character: "wc", **(pieces or {})}, wc={"occupant": character, "turns": turns, "last": character}, **more)


def _stopped_by_10(character, values):
    """``character`` has just moved from 3 to 4, next to ing-1 (cost 1) on 10, holding money of these values."""
    state = arrange(money={character: values}, city={"10": "ing-1"}, pieces={character: "3"}, turn=MP(1))
    return after(state, step(character, "4"))


def _wife_with(values):
    return _stopped_by_10("wife", values)


def _placing():
    state = dinner({c: "off" for c in CHARACTERS} | {"grandpa": "26"}, phase="dinner-placing")
    assert reading.placing_column(state) == ["25"]  # column 5: 26 taken, 25 a substitute card now
    return state


def _last_seats():
    seated = ["grandpa", "grandma", "mamma", "husband"]
    return dinner(DINNER_PIECES | {c: "seated" for c in seated}, seated=seated, phase="last-seats")


@pytest.mark.parametrize("name, make, move, expected", SITUATIONS, ids=[s[0] for s in SITUATIONS])
def test_a_situation(name, make, move, expected):
    state = make()
    found = codes(state, move)
    if expected is None:  # a situation whose codes the rows beside it pin down; here: refused at all
        assert found
    else:
        assert found == expected


def test_situations_that_only_need_refusing_are_refused_for_the_right_rule():
    state = arrange()
    assert "mamma/turn.discard-three" in codes(state, {"kind": "discard", "cards": state["players"][0]["hand"][:2], "turn_over": None})
    three, hand = arrange(hand=["mp-1", "mp-2", "mp-3"]), ["mp-1", "mp-2", "mp-3"]
    assert "mamma/turn.discard-three" in codes(three, {"kind": "discard", "cards": hand + ["mp-1"], "turn_over": None}), \
        "a card named twice is not discarded twice"
    empty = arrange(hand=[("movement", 1)] * 2)
    empty["decks"]["money"], moved = [], empty["decks"]["money"]
    empty["out_of_game"] += moved  # only to empty the deck: the rule reads the deck, not where its cards went
    assert codes(empty, {"kind": "end-turn", "movement": 0, "money": 1}) == ["mamma/cards.deck-empty"]


# ---- the rulebook's worked examples ---------------------------------------------------------------


def test_the_wifes_purchase_pays_without_change_and_the_next_ingredient_goes_5_mp_away():
    state = wife_bought_ing_1()
    buy = next(m for m in ENGINE.legal_moves(state) if m["kind"] == "buy")
    assert buy == {"kind": "buy", "ingredient": "ing-1", "pay": ["money-13"], "place": "19"}  # the only spot 5 mp from 4
    assert [m for m in ENGINE.legal_moves(state) if m["kind"] == "buy"] == [buy]
    top = state["ingredient_row"][0]
    done = after(state, buy)
    assert [i["card"] for i in done["characters"]["wife"]["ingredients"]] == ["ing-1"]
    assert done["characters"]["wife"]["money"] == [] and done["decks"]["money"][-1] == "money-13"  # under the deck
    assert done["city"]["10"] == "substitute-1" and done["city"]["19"] == top and "city-19" in done["substitutes"]
    assert reading.distances(done, "4")["19"] == 5
    assert codes(done, step("wife", "3")) == ["mamma/move.bought", "mamma/move.mp"]


def test_the_grandma_and_the_schoolbus_cost_1_and_4_plus_1_mp():
    state = arrange(hand=[("movement", 3), ("movement", 3)])
    three = [c for c in state["players"][0]["hand"] if reading.value(state, c) == 3]
    state = after(state, *({"kind": "play", "card": c} for c in three))
    assert state["turn_state"]["mp"] == 6
    state = after(state, step("grandma", "2"), step("schoolbus", "21"), step("schoolbus", "26"))
    assert state["turn_state"]["mp"] == 0
    assert codes(state, step("schoolbus", "27")) == ["mamma/move.streets", "mamma/move.mp"]
    assert codes(state, step("schoolbus", "21")) == ["mamma/move.crossed-twice", "mamma/move.mp"]


def test_the_dinner_hours_first_steps_cost_2_forward_and_3_back():
    where = {"grandpa": "17", "grandma": "26", "mamma": "21", "wife": "4", "husband": "19", "son": "5"}
    # 1. the Husband 4 spaces, the first to his left: 2 + 1 + 1 + 1, so at least 5 mp
    state = dinner(where, turn=MP(5))
    state = after(state, step("husband", "14"), step("husband", "8"), step("husband", "2"), step("husband", "3"))
    assert state["turn_state"]["mp"] == 0
    assert codes(dinner(where, turn=MP(1)), step("husband", "14")) == ["mamma/move.mp"]
    # 2. the Grandpa 1 space to his left (2) and the Wife back 2 spaces, the first to her right (3 + 1): 6 mp
    state = dinner(where | {"wife": "2"}, turn=MP(6))
    state = after(state, step("grandpa", "11"), step("wife", "8"), step("wife", "14"))
    assert state["turn_state"]["mp"] == 0
    assert codes(dinner(where | {"wife": "2"}, turn=MP(2)), step("wife", "8")) == ["mamma/move.mp"]


def test_the_schoolbus_and_traffic_cards_keep_their_printed_cost_at_dinner():
    state = dinner(DINNER_PIECES, turn=MP(4))
    assert reading.step_cost(state, "schoolbus", "20", "15") == 4 and reading.step_cost(state, "traffic-2", "15", "9") == 2


def test_no_moving_along_column_b_and_a_character_sits_from_its_own_space():
    state = dinner(DINNER_PIECES | {"wife": "3"}, turn=MP(4))
    assert codes(state, step("wife", "seat")) == ["mamma/move.not-next"]  # the Wife's seat is beside 4
    state = after(state, step("wife", "4"), step("wife", "seat"))
    assert state["seated"] == ["wife"] and state["pieces"]["wife"] == "seated"


def test_the_fourth_character_seated_ends_the_game_and_its_player_orders_the_last_two():
    seated = ["grandpa", "grandma", "mamma"]
    state = dinner(DINNER_PIECES | {c: "seated" for c in seated} | {"wife": "4"}, seated=seated, turn=MP(2))
    state = after(state, step("wife", "seat"))
    assert state["phase"] == "last-seats" and state["turn"] == 0
    assert codes(state, END) == ["mamma/turn.not-now"]
    state = after(state, {"kind": "last-seats", "order": ["son", "husband"]})
    assert state["phase"] == "over" and state["seated"] == seated + ["wife", "son", "husband"]
    assert ENGINE.result(state)["standings"] and ENGINE.legal_moves(state) == []


def test_the_wc_example_grandpa_then_the_wife_then_the_grandpa_again():
    state = arrange(pieces={"grandpa": "19", "wife": "14"}, hand=[("movement", 4), ("movement", 4)] + [("movement", 1)] * 3, turn=MP(1))
    state = after(state, step("grandpa", "wc"), {"kind": "end-turn", "movement": 0, "money": 0})
    for _ in range(5):
        assert not state["turn_state"]["wc_exit_due"]
        state = after(state, {"kind": "end-turn", "movement": 0, "money": 0})
    assert state["turn_state"]["wc_exit_due"] and state["turn"] == 0  # the sixth turn after his own
    assert codes(state, step("wife", "19")) == ["mamma/wc.leave-first", "mamma/move.mp"]
    assert [m["to"] for m in ENGINE.legal_moves(state)] == ["19"]
    state = after(state, {"kind": "leave-wc", "to": "19"})
    fours = [c for c in state["players"][0]["hand"] if reading.value(state, c) == 4]
    state = after(state, {"kind": "play", "card": fours[0]}, step("grandpa", "20"), step("grandpa", "21"),
                  step("wife", "19"), step("wife", "wc"))
    assert state["wc"] == {"occupant": "wife", "turns": 0, "last": "wife"}
    again = arrange(state, pieces={"grandpa": "19"}, turn={"mp": 1, "moving": None})
    assert codes(again, step("grandpa", "wc")) == ["mamma/wc.occupied"]
    out = arrange(again, pieces={"wife": "14"}, wc={"occupant": None, "turns": 6, "last": "wife"})
    assert codes(out, step("grandpa", "wc")) == []  # only now may the Grandpa go in again


def test_the_wifes_scoring_example_is_1_vp():
    state = arrange(ingredients={"wife": ["ing-1", "ing-2"]}, guests={"wife": "guests-3"}, players=_assigned(0), money={"wife": []})
    wife = ENGINE.characters_points(state, "en")["wife"]
    lines = {line["code"].split(".")[-1]: line["value"] for line in wife["lines"]}
    assert (lines["matching"], lines["single"], lines["mother-in-law"], lines["guests"]) == (3, 2, -1, -3)
    assert wife["total"] == 1


def test_a_player_scores_their_secret_character_and_a_tie_goes_to_who_sat_first():
    state = _last_seats()
    state = after(state, {"kind": "last-seats", "order": ["son", "wife"]})
    score = ENGINE.standings(state, "en")
    secrets = [state["cards"][p["secret"]]["character"] for p in state["players"]]
    points = {r["character"]: r["total"] for r in score["characters"]}
    assert [r["character"] for r in score["players"]] == sorted(secrets, key=lambda c: (-points[c], state["seated"].index(c)))


def test_the_wife_takes_the_taxi_for_three_times_her_money_card():
    state = arrange(money={"wife": [2]}, pieces={"wife": "14"})
    state = after(state, {"kind": "taxi", "card": "money-13"})
    assert state["turn_state"]["moving"]["ride"] == 6 and state["characters"]["wife"]["money"] == []


def test_after_the_taxi_the_player_plays_a_movement_card_and_moves_the_wife_again():
    """wife.2: "After this movement, the player can still play game cards, moving the Wife again (with
    movement cards)." The ride's mp spent, a movement card's pay for a movement of its own."""
    state = arrange(money={"wife": [1]}, pieces={"wife": "14"}, hand=[("movement", 2)])
    money = state["characters"]["wife"]["money"][0]  # worth 1: a ride of 3 mp
    state = after(state, {"kind": "taxi", "card": money}, step("wife", "8"), step("wife", "2"), step("wife", "3"))
    assert state["turn_state"]["moving"]["ride"] == 0
    card = next(c for c in state["players"][state["turn"]]["hand"] if reading.kind(state, c) == "movement")
    state = after(state, {"kind": "play", "card": card}, step("wife", "2"), step("wife", "8"))  # crossed in the ride
    assert state["pieces"]["wife"] == "8" and state["turn_state"]["mp"] == 0


def test_a_ride_that_stops_beside_an_ingredient_she_can_pay_ends_in_a_purchase_not_a_card_played():
    """ingredients.4 after wife.2: the taxi's movement stopped beside ing-1 (on 4) with money left to
    pay it, so the Wife buys before a movement card ends the ride (a card played escaped it before)."""
    state = arrange(money={"wife": [1, 1]}, pieces={"wife": "14"}, hand=[("movement", 2)], city={"4": "ing-1"})
    state = after(state, {"kind": "taxi", "card": state["characters"]["wife"]["money"][0]},
                  step("wife", "8"), step("wife", "2"), step("wife", "3"))
    card = next(c for c in state["players"][state["turn"]]["hand"] if reading.kind(state, c) == "movement")
    assert codes(state, {"kind": "play", "card": card}) == ["mamma/ingredients.must-buy"]
    assert {m["kind"] for m in ENGINE.legal_moves(state)} == {"buy", "guests"}  # a Guests card ends no movement

def test_after_the_bus_the_player_plays_a_movement_card_and_moves_the_grandma_again():
    """grandma.1: "After this movement, the player can still play game cards, moving the Grandma again"."""
    state = arrange(pieces={"grandma": "19"}, hand=[("movement", 1)], money={"grandma": [1]})  # 26 is beside ing-12, cost 3
    top = state["cards"][state["bus_deck"][0]]["number"]
    state = after(state, {"kind": "bus", "number": top, "to": "26"})
    card = next(c for c in state["players"][state["turn"]]["hand"] if reading.kind(state, c) == "movement")
    state = after(state, {"kind": "play", "card": card}, step("grandma", "21"))
    assert state["pieces"]["grandma"] == "21"


def test_the_grandmas_bus_takes_her_to_the_other_stop_or_to_church():
    state = arrange(pieces={"grandma": "19"})
    top = state["cards"][state["bus_deck"][0]]["number"]
    wrong = next(n for n in board.BUS_NUMBERS if n != top)
    hit = after(state, {"kind": "bus", "number": top, "to": "26"})
    assert hit["pieces"]["grandma"] == "26" and hit["bus_deck"][-2:] == state["bus_deck"][:2]
    missed = after(state, {"kind": "bus", "number": wrong, "to": None})
    assert missed["pieces"]["grandma"] == "church" and missed["turn_state"]["bus_missed"]
    assert codes(missed, {"kind": "bus", "number": top, "to": "26"}) == ["mamma/grandma.bus"]  # one try a turn


def test_crossing_an_older_character_steals_one_vertical_card_each():
    state = arrange(ingredients={"grandpa": ["ing-1"], "grandma": ["ing-2"]}, pieces={"grandpa": "4", "grandma": "3"}, turn=MP(3))
    state = after(state, step("wife", "4", steal="ing-1"), step("wife", "3", steal="ing-2"), step("wife", "2"))
    assert sorted(i["card"] for i in state["characters"]["wife"]["ingredients"]) == ["ing-1", "ing-2"]


def test_the_schoolbus_runs_over_the_son_who_loses_half_his_vertical_cards():
    state = arrange(ingredients={"son": ["ing-1", "ing-2", "ing-3"]}, pieces={"son": "21"}, turn=MP(5))
    state = after(state, step("schoolbus", "21", lose=["ing-2"]), step("schoolbus", "26"))
    assert state["pieces"]["son"] == "hospital" and "ing-2" in state["out_of_game"]
    assert reading.vertical(state, "son") == ["ing-1", "ing-3"]


def test_the_mamma_stopping_beside_the_hospital_lets_the_patient_out():
    state = arrange(pieces={"son": "hospital", "mamma": "5"}, turn=MP(1))
    state = after(state, step("mamma", "6"), {"kind": "release", "to": "11"})
    assert state["pieces"]["son"] == "11"


def test_the_bench_costs_1_in_and_3_out_and_the_bank_lets_the_grandpa_hold_3():
    state = arrange(pieces={"wife": "3"}, turn=MP(1))
    state = after(state, step("wife", "bench"))
    assert codes(arrange(state, turn=MP(2)), step("wife", "3")) == ["mamma/move.mp"]
    state = arrange(pieces={"grandpa": "2"}, turn=MP(1), money={"grandpa": [1, 1]}, hand=[("money", 1)])
    state = after(state, step("grandpa", "1"), STOP)
    assert state["grandpa"]["bank"]
    after(state, {"kind": "money", "card": _hand_card(state, 1), "character": "grandpa", "replace": None})


def test_the_grandpa_with_the_child_scores_7():
    state = arrange(pieces={"grandpa": "17", "schoolbus": "21"})
    state = after(state, {"kind": "end-turn", "movement": 0, "money": 0})
    assert state["grandpa"]["child"]
    assert ENGINE.characters_points(state, "en")["grandpa"]["lines"][5]["value"] == 7


def test_the_school_turns_the_grandpa_in_the_dinner_hour_too():
    """dinner-hour: "All the rules regarding [...] the school [...] remain the same"; with the Grandpa
    in play, the schoolbus stays in the area of play."""
    state = dinner(DINNER_PIECES | {"grandpa": "17", "wife": "5", "mamma": "3", "schoolbus": "21"})
    state = after(state, {"kind": "end-turn", "movement": 0, "money": 0})
    assert state["grandpa"]["child"]


def test_the_last_purchase_begins_the_dinner_hour():
    state = arrange(money={"wife": [2]}, city={"10": "ing-1", "25": "substitute-2"}, pieces={"wife": "3"}, turn=MP(1))
    rest = {c: [] for c in CHARACTERS}
    for i, cid in enumerate(list(state["ingredient_row"])):
        rest[CHARACTERS[1 + i % 5]].append(cid)
    state = arrange(state, ingredients=rest)
    state = after(state, step("wife", "4"), {"kind": "buy", "ingredient": "ing-1", "pay": ["money-13"], "place": None})
    assert state["phase"] == "dinner-guests" and state["player_x"] == 0
    assert all(state["pieces"][c] == "off" for c in CHARACTERS)


# ---- the readings a table chooses: each ambiguous point of the text a setup option ----------------


def read(state, **chosen):
    """The same table, reading the named options as given (the others as the state had them)."""
    return arrange(state, readings={**(state.get("readings") or {}), **chosen})


def verdicts(state, move, option, values):
    """The verdict on the same state and move under each of the option's two readings."""
    return [adjudicate(ENGINE, read(state, **{option: v}), move) for v in values]


def assert_rests_on(said, option, value, other):
    """A violation, note or score line that names the table's reading and the other (a violation or
    note citing the words the readings rest on too)."""
    assert said["reading"] == {"option": option, "value": value, "other": other}
    assert value in said["interpretation"] and other in said["interpretation"]
    if "value" not in said:  # not a score line
        cited = {(c["passage_id"], c["quote"]) for c in said["citations"]}
        assert {(c.passage_id, c.quote) for c in board.READINGS[option].citations} <= cited


def son_sideways_at_dinner():
    """Dinner: the Son on 11 and 1 mp; 10 (a substitute card now) is beside him in his own column."""
    return dinner(DINNER_PIECES, turn=MP(1))


def son_crosses_the_richest_at_dinner():
    """Dinner: the Son on 11, the Husband (the most money) on 10, 3 mp."""
    return dinner(DINNER_PIECES | {"husband": "10"}, money={"husband": [3, 3]}, turn=MP(3))


def wife_beside_two_ingredients():
    """The Wife, with money of 1 and 2, moved from 17 to 11: next to ing-1 (on 10) and ing-4 (on 5), each costing 1."""
    state = arrange(money={"wife": [1, 2]}, city={"10": "ing-1", "5": "ing-4"}, pieces={"wife": "17"}, turn=MP(1))
    return after(state, step("wife", "11"))


def grandpa_out_of_the_wc():
    """The sixth turn: the Grandpa, money of 1, put back on 19, next to ing-1 (cost 1) on 14; a movement card of 2 in hand."""
    state = _in_wc("grandpa", turns=6, turn={"wc_exit_due": True}, money={"grandpa": [1]}, city={"14": "ing-1"},
                   hand=[("movement", 2)])
    return state


def test_a_sideways_first_space_at_dinner_costs_2_or_1_by_the_tables_reading():
    state, move = son_sideways_at_dinner(), step("son", "10")
    as_forwards, one_mp = verdicts(state, move, "sideways_first_space", ["as-forwards", "one-mp"])
    assert [v["code"] for v in as_forwards["violations"]] == ["mamma/move.mp"]
    assert "costs 2 mp" in as_forwards["violations"][0]["message"]
    assert_rests_on(as_forwards["violations"][0], "sideways_first_space", "as-forwards", "one-mp")
    assert one_mp["legal"] and one_mp["state"]["turn_state"]["mp"] == 0
    assert [n["code"] for n in one_mp["notes"]] == ["mamma/move.mp"]
    assert_rests_on(one_mp["notes"][0], "sideways_first_space", "one-mp", "as-forwards")
    forwards = adjudicate(ENGINE, read(state, sideways_first_space="one-mp"), step("son", "5"))  # 2 under either reading
    assert [v["code"] for v in forwards["violations"]] == ["mamma/move.mp"] and "reading" not in forwards["violations"][0]


def test_the_arcade_at_dinner_stays_open_or_closes_by_the_tables_reading():
    state, move = son_crosses_the_richest_at_dinner(), step("son", "10", arcade=True)
    opened, closed = verdicts(state, move, "arcade_at_dinner", ["open", "closed"])
    assert opened["legal"] and reading.money_of(opened["state"], "husband") == 3  # one card of 3 spent at the arcade
    assert_rests_on(opened["notes"][0], "arcade_at_dinner", "open", "closed")
    assert [v["code"] for v in closed["violations"]] == ["mamma/son.arcade-dinner"]
    assert_rests_on(closed["violations"][0], "arcade_at_dinner", "closed", "open")
    assert codes(read(state, arcade_at_dinner="closed"), step("son", "10")) == []  # crossing him without the arcade


def test_a_card_of_2_pays_for_1_unless_the_table_reads_the_least_surplus():
    state = _wife_with([1, 2])
    move = {"kind": "buy", "ingredient": "ing-1", "pay": ["money-13"], "place": "19"}
    spare, least = verdicts(state, move, "money_paid", ["no-card-to-spare", "least-surplus"])
    assert spare["legal"] and spare["state"]["characters"]["wife"]["money"] == ["money-1"]
    assert_rests_on(spare["notes"][0], "money_paid", "no-card-to-spare", "least-surplus")
    assert [v["code"] for v in least["violations"]] == ["mamma/ingredients.least-surplus"]
    assert "could pay 1" in least["violations"][0]["message"]
    assert_rests_on(least["violations"][0], "money_paid", "least-surplus", "no-card-to-spare")
    pays = [m["pay"] for m in ENGINE.legal_moves(read(state, money_paid="least-surplus")) if m["kind"] == "buy"]
    assert pays == [["money-1"]]
    assert {tuple(m["pay"]) for m in ENGINE.legal_moves(state) if m["kind"] == "buy"} == {("money-1",), ("money-13",)}


def test_beside_two_ingredients_it_can_pay_a_character_buys_one_or_each():
    state = wife_beside_two_ingredients()
    first = next(m for m in ENGINE.legal_moves(state) if m["kind"] == "buy" and m["ingredient"] == "ing-1" and m["pay"] == ["money-1"])
    for chosen in ("one", "each"):
        bought = after(read(state, must_buy=chosen), first)
        assert reading.affordable_next_to(bought, "wife") == ["ing-4"]
    one, each = verdicts(bought, STOP, "must_buy", ["one", "each"])
    assert one["legal"]
    assert_rests_on(one["notes"][0], "must_buy", "one", "each")
    assert [v["code"] for v in each["violations"]] == ["mamma/ingredients.must-buy"]
    assert_rests_on(each["violations"][0], "must_buy", "each", "one")
    second = next(m for m in ENGINE.legal_moves(read(bought, must_buy="each")) if m["kind"] == "buy")
    assert second["ingredient"] == "ing-4" and not [m for m in ENGINE.legal_moves(read(bought, must_buy="one")) if m["kind"] == "buy"]
    refused = adjudicate(ENGINE, read(bought, must_buy="one"), second)
    assert [v["code"] for v in refused["violations"]] == ["mamma/ingredients.no-purchase"]
    assert_rests_on(refused["violations"][0], "must_buy", "one", "each")
    done = after(read(bought, must_buy="each"), second)
    assert [i["card"] for i in done["characters"]["wife"]["ingredients"]] == ["ing-1", "ing-4"]
    assert done["turn_state"]["bought"] == ["wife"] and codes(done, STOP) == []


def test_a_character_back_from_the_wc_moves_in_the_sixth_turn_or_from_the_next():
    state = _in_wc("grandpa", turns=6, turn={"wc_exit_due": True}, hand=[("movement", 2)])
    state = after(state, {"kind": "leave-wc", "to": "19"})
    assert state["turn_state"]["wc_left"] == {"character": "grandpa", "space": "19"}
    state = after(state, {"kind": "play", "card": _hand_card(state, 2)})
    sixth, after_sixth = verdicts(state, step("grandpa", "14"), "wc_return", ["in-sixth-turn", "after-sixth-turn"])
    assert sixth["legal"]
    assert_rests_on(sixth["notes"][0], "wc_return", "in-sixth-turn", "after-sixth-turn")
    assert [v["code"] for v in after_sixth["violations"]] == ["mamma/wc.back-next-turn"]
    assert_rests_on(after_sixth["violations"][0], "wc_return", "after-sixth-turn", "in-sixth-turn")
    later = after(read(state, wc_return="after-sixth-turn"), {"kind": "end-turn", "movement": 0, "money": 0})
    assert "wc_left" not in later["turn_state"]  # the next turn: in play again


def test_a_character_put_back_from_the_wc_beside_an_ingredient_buys_it_only_if_the_table_reads_it_stopped():
    state = grandpa_out_of_the_wc()
    out = {"kind": "leave-wc", "to": "19"}
    placed, stopped = (after(read(state, wc_exit=v), out) for v in ("placed", "moved-and-stopped"))
    assert reading.affordable_next_to(placed, "grandpa") == ["ing-1"]
    end = {"kind": "end-turn", "movement": 1, "money": 0}
    legal, refused = adjudicate(ENGINE, placed, end), adjudicate(ENGINE, stopped, end)
    assert legal["legal"]
    assert_rests_on(legal["notes"][0], "wc_exit", "placed", "moved-and-stopped")
    assert [v["code"] for v in refused["violations"]] == ["mamma/ingredients.must-buy"]
    assert_rests_on(refused["violations"][0], "wc_exit", "moved-and-stopped", "placed")
    buy = next(m for m in ENGINE.legal_moves(stopped) if m["kind"] == "buy")
    assert {m["kind"] for m in ENGINE.legal_moves(stopped)} == {"buy"}
    assert codes(placed, buy) == ["mamma/ingredients.no-purchase"]
    done = after(stopped, buy)
    assert [i["card"] for i in done["characters"]["grandpa"]["ingredients"]] == ["ing-1"]
    assert done["turn_state"]["bought"] == ["grandpa"] and codes(done, end) == []


def _ingredient_lines(state):
    lines = ENGINE.characters_points(state, "en")["wife"]["lines"]
    return {line["code"].split(".")[-1]: line for line in lines[:2]}


def test_matching_ingredients_count_per_ingredient_or_per_card_by_the_tables_reading():
    """ing-2 (fish, spaghetti, salami), ing-5 (salami, cheese; Mother-in-Law 3), ing-3 (cheese, tomato),
    ing-7 (tomato, mushroom, fish): per ingredient four pairs (12) and the spaghetti and the mushroom
    (2); per card each card in one pair at most: two pairs (6) and five individual ingredients."""
    state = arrange(ingredients={"wife": ["ing-2", "ing-5", "ing-3", "ing-7"]})
    per_ingredient = _ingredient_lines(read(state, matching="per-ingredient"))
    per_card = _ingredient_lines(read(state, matching="per-card"))
    assert (per_ingredient["matching"]["value"], per_ingredient["single"]["value"]) == (12, 2)
    assert (per_card["matching"]["value"], per_card["single"]["value"]) == (6, 5)
    assert_rests_on(per_ingredient["matching"], "matching", "per-ingredient", "per-card")
    assert "it would be 6 vp" in per_ingredient["matching"]["interpretation"]
    assert_rests_on(per_card["single"], "matching", "per-card", "per-ingredient")
    example = arrange(ingredients={"wife": ["ing-1", "ing-2"]})  # the rulebook's own example: 3 and 2 either way
    for chosen in ("per-ingredient", "per-card"):
        lines = _ingredient_lines(read(example, matching=chosen))
        assert (lines["matching"]["value"], lines["single"]["value"]) == (3, 2) and "reading" not in lines["matching"]


def test_six_matching_cards_give_15_or_15_and_an_individual_ingredient_by_the_tables_reading():
    """A table's own cards (the default ones have no drawing on more than 4): fish on six, none a Mother-in-Law."""
    six = [f"ing-{i}" for i in range(1, 7)]
    state = arrange(ingredients={"wife": six})
    for cid in six:
        state["cards"][cid] = {**state["cards"][cid], "drawings": ["fish"], "mother_in_law": 0}
    ENGINE.validate(state)
    as_five = _ingredient_lines(read(state, six_matching="as-five"))
    and_single = _ingredient_lines(read(state, six_matching="five-and-single"))
    assert (as_five["matching"]["value"], as_five["single"]["value"]) == (15, 0)
    assert (and_single["matching"]["value"], and_single["single"]["value"]) == (15, 1)
    assert_rests_on(as_five["single"], "six_matching", "as-five", "five-and-single")
    assert "per-card" in as_five["single"]["interpretation"]  # a card left out of the matching scores 1 there too
    assert_rests_on(and_single["single"], "six_matching", "five-and-single", "as-five")
    assert "reading" not in as_five["matching"]  # 15 either way
    score = ENGINE.standings(read(state, six_matching="five-and-single"), "fr")
    wife = next(r for r in score["characters"] if r["character"] == "wife")
    line = wife["lines"][1]
    assert line["reading"]["option"] == "six_matching" and "pv" in line["interpretation"]
    assert board.READINGS["six_matching"].meaning("five-and-single", "fr") in line["interpretation"]
    assert "six_matching" not in line["interpretation"], "French names the reading in words, not by its id"


def test_every_reading_is_a_setup_option_quoting_the_rulebook_and_a_state_says_the_tables():
    state = ENGINE.setup(3, 1, {"must_buy": "each", "wc_exit": "moved-and-stopped"})
    assert state["readings"] == {o.option: o.default for o in ENGINE.readings} | {"must_buy": "each", "wc_exit": "moved-and-stopped"}
    for option in ENGINE.readings:
        assert option.option in ENGINE.setup_options and len(option.values) == 2
        assert all(set(option.readings[v]) == {"en", "fr", "de", "zh"} for v in option.values)
    with pytest.raises(InvalidState) as refused:
        ENGINE.setup(3, 1, {"must_buy": "all"})
    assert refused.value.field == "options.must_buy" and "one, each" in refused.value.invariant


def test_a_verdict_resting_on_no_reading_names_none():
    verdict = adjudicate(ENGINE, wife_bought_ing_1(), {"kind": "buy", "ingredient": "ing-1", "pay": ["money-13"], "place": "19"})
    assert verdict["legal"] and "notes" not in verdict


# ---- whole games -----------------------------------------------------------------------------------


def _walk(state, goals):
    """Steps from each space to the nearest goal, over the streets, around the traffic cards."""
    blocked = {state["pieces"][t] for t in board.TRAFFIC}
    far, queue = {g: 0 for g in goals}, deque(goals)
    while queue:
        here = queue.popleft()
        for there in reading.next_to(state, here):
            if there not in far and there not in blocked and reading.face(state, there) in board.WALKABLE:
                far[there] = far[here] + 1
                queue.append(there)
    return far


def _goals(state, character):
    """Where a character heads: beside an ingredient it can pay for, or (at dinner) its seat."""
    if state["phase"] == "dinner":
        return [state["board"]["seats"][character]]
    money = reading.money_of(state, character)
    return sorted({n for s, cid in state["city"].items() if reading.face(state, s) == "ingredient"
                   and reading.price(state, character, cid) <= money for n in reading.next_to(state, s)
                   if reading.face(state, n) in board.WALKABLE}, key=int)


def _progress(state, move):
    """How much closer a step takes its character to where it heads (None: no closer)."""
    piece = move["piece"]
    if piece not in CHARACTERS:
        return None
    if move["to"] == "seat":
        return -100
    goals = _goals(state, piece)
    if not goals or move["to"] not in state["board"]["spaces"]:
        return None
    far, here = _walk(state, goals), state["pieces"][piece]
    now = far.get(here, 99) if here in far else 1 + min((far.get(s, 99) for s in reading.reachable(state, piece)), default=99)
    if now == 0 and reading.mover(state) != piece:
        return 0.5  # there without buying (put there, not moved): a step away, to come back
    there = far.get(move["to"], 99)
    return there - now if there < min(now, 99) else None


def policy(state, moves, rng):
    """A table that wants the game to go on: it buys, seats, steps towards ingredients it can pay
    for (its seat at dinner), plays cards for mp, places money on the poorest, and takes cards."""
    by = {}
    for m in moves:
        by.setdefault(m["kind"], []).append(m)
    for k in ("buy", "release", "leave-wc", "place", "last-seats", "take"):
        if k in by:
            return rng.choice(by[k])
    if "guests" in by and (state["phase"] == "dinner-guests" or rng.random() < 0.03):
        return rng.choice(by["guests"])
    steps = by.get("move", [])
    pushed = [m for m in steps if m["piece"] not in CHARACTERS]
    if pushed and rng.random() < 0.1:  # the traffic cards and the schoolbus, to open a way
        return rng.choice(pushed)
    closer = [(p, m) for m in steps if (p := _progress(state, m)) is not None]
    if closer:
        best = min(p for p, _ in closer)
        return rng.choice([m for p, m in closer if p == best])
    if reading.moving(state) and "stop" in by:
        return by["stop"][0]
    if pushed and rng.random() < 0.25:
        return rng.choice(pushed)
    if "play" in by and state["turn_state"]["mp"] < 6 and rng.random() < 0.8:
        return rng.choice(by["play"])
    if steps and rng.random() < 0.15:
        return rng.choice(steps)
    if "money" in by and rng.random() < 0.8:
        poorest = min(CHARACTERS, key=lambda c: (reading.money_of(state, c), rng.random()))
        return rng.choice([m for m in by["money"] if m["character"] == poorest] or by["money"])
    if "end-turn" in by:
        return max(by["end-turn"], key=lambda m: (m["movement"] + m["money"], m["money"], rng.random()))
    return rng.choice(moves)


def play_out(players, seed, limit=6000):
    """A seeded game through legal-moves and adjudicate, setup to the final score: (setup, moves, states)."""
    rng, start = random.Random(seed), ENGINE.setup(players, seed, {})
    state, log, states = start, [], []
    for _ in range(limit):
        moves = ENGINE.legal_moves(state)
        if not moves:
            return start, log, states + [state]
        move = policy(state, moves, rng)
        verdict = adjudicate(ENGINE, state, move)
        assert verdict["legal"], (move, verdict["violations"])
        states.append(state)
        log.append(move)
        state = verdict["state"]
    raise AssertionError(f"no end after {limit} moves")


GAMES = {(players, seed): play_out(players, seed) for players, seed in ((3, 1), (4, 2), (6, 3))}


@pytest.mark.parametrize("players, seed", list(GAMES))
def test_seeded_games_end_with_a_result_keep_all_110_cards_and_agree_with_replay(players, seed):
    start, log, states = GAMES[players, seed]
    final = states[-1]
    assert final["phase"] == "over" and len(final["seated"]) == 6
    result = ENGINE.result(final)
    assert len(result["standings"]) == players and result["winners"]
    phases = [s["phase"] for s in states]
    assert {"draft", "play", "dinner-placing", "dinner", "over"} <= set(phases)
    for state in states[::50] + [final]:
        ENGINE.validate(state)  # every one of the 110 cards in exactly one place
        assert len(state["cards"]) == board.ALL_CARDS
    replayed = replay(ENGINE, start, log)
    assert replayed["legal"] and replayed["checked"] == len(log) and replayed["state"] == final
    broken = replay(ENGINE, start, log[:10] + [{"kind": "stop", "player": (states[10]["turn"] + 1) % players}] + log[10:])
    assert broken["first_illegal"]["index"] == 10


# ---- the property: legal_moves and check are the same rules -------------------------------------


STATES = [s for game in GAMES.values() for s in game[2][::40]] + [
    wife_bought_ing_1(), _wife_with([1, 2]), _placing(), _last_seats(), dinner(DINNER_PIECES, turn=MP(4)),
    _in_wc("grandpa", turns=6, turn={"wc_exit_due": True}),
    arrange(ingredients={"son": ["ing-1", "ing-2"]}, pieces={"son": "21", "wife": "hospital"}, turn=MP(5)),
    arrange(pieces={"grandma": "19", "wife": "14"}, money={"wife": [2]}, hand=[("money", 3)] * 3),
    # the other reading of each option
    read(son_sideways_at_dinner(), sideways_first_space="one-mp"), read(son_crosses_the_richest_at_dinner(), arcade_at_dinner="closed"),
    read(_wife_with([1, 2]), money_paid="least-surplus"), read(wife_beside_two_ingredients(), must_buy="each"),
    after(read(grandpa_out_of_the_wc(), wc_return="after-sixth-turn", wc_exit="moved-and-stopped"), {"kind": "leave-wc", "to": "19"}),
]
SPACES = [str(n) for n in range(1, 28)] + ["bench", "wc", "seat"]


@st.composite
def state_and_move(draw):
    """A listed move, or one with a field changed to another name the game knows."""
    state = draw(st.sampled_from(STATES))
    move = dict(draw(st.sampled_from(ENGINE.candidates(state))))
    if len(move) > 1 and draw(st.booleans()):
        field = draw(st.sampled_from(sorted(set(move) - {"kind"})))
        ids = st.sampled_from(sorted(state["cards"]))
        domain = {"to": st.sampled_from(SPACES if move["kind"] == "move" else SPACES[:27]),
                  "card": ids, "ingredient": ids, "release_to": st.sampled_from(SPACES[:27] + [None]),
                  "place": st.sampled_from(SPACES[:27] + [None]), "piece": st.sampled_from(board.PIECES),
                  "character": st.sampled_from(CHARACTERS), "deck": st.sampled_from(board.DECKS),
                  "number": st.sampled_from(board.BUS_NUMBERS), "arcade": st.booleans(),
                  "movement": st.integers(0, 4), "money": st.integers(0, 4),
                  "pay": st.lists(ids, max_size=3), "lose": st.lists(ids, max_size=2), "cards": st.lists(ids, min_size=2, max_size=3),
                  "order": st.permutations(CHARACTERS).map(lambda c: list(c[:2]))}
        move[field] = draw(domain.get(field, st.one_of(ids, st.none())))
    if draw(st.integers(0, 9)) == 0:
        move["player"] = state["turn"]  # who moves is not part of the move listed (a wrong one: the situations)
    return state, move


LEGALITY_EXAMPLES = 300  # tests/engines/test_contract.py draws this many (state, move) pairs from state_and_move


# States the game cannot reach, each with the field the refusal names: tests/engines/test_contract.py
# breaks a new game (3 players, seed 1) each way and expects InvalidState naming that field.
IMPOSSIBLE_SETUP = (3, 1)
IMPOSSIBLE = [
    (lambda s: s["decks"]["money"].append(s["decks"]["movement"][0]), "decks.money"),
    (lambda s: s["decks"]["money"].pop(), "cards"),
    (lambda s: s["characters"]["wife"]["money"].extend(s["decks"]["money"][:2]), "characters.wife.money"),
    (lambda s: s["pieces"].__setitem__("wife", "7"), "pieces.wife"),
    (lambda s: s["pieces"].update(wife="hospital", son="hospital"), "pieces.son"),
    (lambda s: s["pieces"].update(wife="4", son="4"), "pieces.son"),
    (lambda s: s["wc"].__setitem__("occupant", "wife"), "wc.occupant"),
    (lambda s: s["board"]["spaces"]["1"]["next_to"].append("27"), "board.spaces.1.next_to"),
    (lambda s: s["board"]["spaces"].pop("27"), "board.spaces"),
    (lambda s: s["cards"]["grandpa"].pop("age"), "cards.grandpa.age"),
    (lambda s: s["cards"]["ing-1"].__setitem__("cost", 0), "cards.ing-1.cost"),
    (lambda s: s["city"].__setitem__("1", "mp-1"), "city.1"),
    (lambda s: s.__setitem__("phase", "lunch"), "phase"),
    (lambda s: s.__setitem__("turn", 3), "turn"),
    (lambda s: s["characters"]["wife"].__setitem__("guests", "guests-6") or s["guests"].remove("guests-6"), "players"),
    (lambda s: s["seated"].append("wife"), "seated"),
    (lambda s: s["seated"].append("nobody"), "seated"),  # not a piece: once a KeyError, a 500
    (lambda s: s["readings"].__setitem__("must_buy", "all"), "readings.must_buy"),
    (lambda s: s["readings"].__setitem__("ruleset", "fr"), "readings.ruleset"),
    (lambda s: s["turn_state"].__setitem__("wc_left", {"character": "nobody", "space": "19"}), "turn_state.wc_left"),
]


def test_a_verdict_resting_on_an_interpretation_says_so():
    state = arrange(pieces={"grandpa": "4"}, hand=[("money", 1)], turn=MP(1))
    verdict = adjudicate(ENGINE, state, step("wife", "4"), "fr")
    assert verdict["violations"][0]["interpretation"]


def test_an_impossible_state_names_its_field_and_a_default_board_says_whose_reading_it_is():
    state = ENGINE.setup(3, 1, {})
    assert "Not the publisher's" in state["board"]["label"]
    with pytest.raises(InvalidState) as refused:
        ENGINE.setup(3, 1, {"player_a": 5})
    assert refused.value.field == "options.player_a"
