"""Mömmen: the summary's rules as situations, scoring, whole games, and the property."""

import random
from collections import Counter

import pytest
from hypothesis import strategies as st

from service.engines import InvalidMove, InvalidState, adjudicate
from service.engines.moemmen import Moemmen, card, score

ENGINE = Moemmen()


def arrange(hand=None, table=None, players=3, seed=1, others=None):
    """A new game where player 0 holds ``hand`` and the table shows ``table`` (card ids); the
    cards they displace go where those came from, so every card stays in one place."""
    state = ENGINE.setup(players, seed, {})
    wanted = [("hand", 0, c) for c in (hand or [])] + [("table", None, c) for c in (table or [])]
    for i, cards in (others or {}).items():
        wanted += [("hand", i, c) for c in cards]

    def spot(cid):
        for name in ("deck", "discard", "table"):
            if cid in state[name]:
                return state[name]
        return next(p["hand"] for p in state["players"] if cid in p["hand"])

    for place, player, cid in wanted:
        target = state["players"][player]["hand"] if place == "hand" else state["table"]
        if cid in target:
            continue
        here = {c for pl, who, c in wanted if (pl, who) == (place, player)}
        victim = next(c for c in target if c not in here)  # a card wanted elsewhere moves on later
        source = spot(cid)
        source[source.index(cid)] = victim
        target[target.index(victim)] = cid
    state["turn"] = 0
    ENGINE.validate(state)
    return state


def codes(state, move):
    return [v.code for v in ENGINE.check(state, move)]


SIX_RED = ["red+1", "red+2", "red+3", "red+4", "red+5", "red+6"]


@pytest.mark.parametrize("setup, move, expected", [
    (dict(hand=["red+1"], table=["blue+2"]), {"kind": "swap", "give": "red+1", "take": "blue+2"}, []),
    (dict(hand=["red+1"], table=["blue+2"]), {"kind": "swap", "give": "green+8", "take": "blue+2"}, ["moemmen/card.in-hand"]),
    (dict(hand=["red+1"], table=["blue+2"]), {"kind": "swap", "give": "red+1", "take": "green+8"}, ["moemmen/card.on-table"]),
    (dict(hand=["benny-1"]), {"kind": "benny", "card": "benny-1"}, []),
    (dict(hand=["red+1"]), {"kind": "benny", "card": "red+1"}, ["moemmen/benny.card"]),
    (dict(hand=["tim-1"], table=["red-1"]), {"kind": "tim", "card": "tim-1"}, []),
    (dict(hand=["red+1"], table=["red-1"]), {"kind": "tim", "card": "red+1"}, ["moemmen/tim.card"]),
    (dict(hand=["tim-1", "blue+1"], table=["red+2", "blue+3", "green+4", "yellow+5", "red+6"]), {"kind": "tim", "card": "tim-1"}, ["moemmen/tim.needs-minus"]),
    (dict(hand=["tim-1", "blue-2"], table=["red+2", "blue+3", "green+4", "yellow+5", "red+6"]), {"kind": "tim", "card": "tim-1", "give": "blue-2", "take": "red+6"}, []),
    (dict(hand=["tim-1", "blue+1"], table=["red-1", "blue+3"]), {"kind": "tim", "card": "tim-1", "give": "blue+1", "take": "blue+3"}, []),
    (dict(hand=["tim-1", "blue+1"], table=["red-1", "red+3"]), {"kind": "tim", "card": "tim-1", "give": "blue+1", "take": "red+3"}, ["moemmen/tim.exchange"]),
    (dict(hand=["tim-1", "blue+1"], table=["red-1", "red+3"]), {"kind": "tim", "card": "tim-1", "give": "tim-1", "take": "red+3"}, ["moemmen/tim.exchange"]),
    (dict(table=["red-1", "blue-1", "green-1"]), {"kind": "exchange-table"}, []),
    (dict(table=["red-1", "blue-1", "green+1", "green+2", "green+3"]), {"kind": "exchange-table"}, ["moemmen/table-exchange.three-minus"]),
    (dict(hand=["red+1"]), {"kind": "respond", "give": "red+1", "take": "red+2"}, ["moemmen/mommen.none-called", "moemmen/card.on-table"]),
    (dict(hand=["red+1"]), {"kind": "pass", "player": 2}, ["moemmen/turn.out-of-turn"]),
])
def test_a_turn(setup, move, expected):
    assert codes(arrange(**setup), move) == expected


def mommen_called():
    """Player 0 played Tim with two minus cards on the table; player 1 must answer."""
    state = arrange(hand=["tim-1", "blue+1"], table=["red-1", "green-2", "yellow+3", "blue+4", "green+5"],
                    others={1: ["red+7", "blue-3"], 2: ["yellow+8"]})
    return ENGINE.apply(state, {"kind": "tim", "card": "tim-1"})


def test_tim_calls_mommen_and_the_others_must_answer():
    state = mommen_called()
    assert state["phase"] == "mommen" and state["mommen"]["pending"][0] == 1
    assert codes(state, {"kind": "pass"}) == ["moemmen/mommen.answer-first"]
    assert codes(state, {"kind": "respond", "give": "red+7", "take": "red-1"}) == []
    assert codes(state, {"kind": "respond", "give": "red+7", "take": "yellow+3"}) == ["moemmen/mommen.take-minus"]
    assert codes(state, {"kind": "respond", "give": "blue-3", "take": "red-1"}) == ["moemmen/mommen.no-minus-down"]
    assert codes(state, {"kind": "respond", "give": "red+7", "take": "red-1", "player": 2}) == ["moemmen/turn.out-of-turn"]


def test_play_resumes_after_the_caller_once_no_minus_card_is_left():
    state = mommen_called()
    state = ENGINE.apply(state, {"kind": "respond", "give": "red+7", "take": "red-1"})
    assert state["phase"] == "mommen" and state["mommen"]["pending"] == [2]
    state = ENGINE.apply(state, {"kind": "respond", "give": "yellow+8", "take": "green-2"})
    assert state["phase"] == "play" and state["turn"] == 1


def test_benny_renews_the_table_and_the_player_plays_again():
    state = arrange(hand=["benny-1"])
    table = list(state["table"])
    after = ENGINE.apply(state, {"kind": "benny", "card": "benny-1"})
    assert after["turn"] == 0 and len(after["players"][0]["hand"]) == 6
    assert not set(after["table"]) & set(table) and "benny-1" in after["discard"]


def test_a_swap_ends_the_turn():
    state = arrange(hand=["red+1"], table=["blue+2"])
    after = ENGINE.apply(state, {"kind": "swap", "give": "red+1", "take": "blue+2"})
    assert after["turn"] == 1 and "blue+2" in after["players"][0]["hand"] and "red+1" in after["table"]


def test_when_everyone_passes_the_table_is_renewed():
    state = arrange()
    table = list(state["table"])
    for _ in range(3):
        state = ENGINE.apply(state, {"kind": "pass"})
    assert not set(state["table"]) & set(table) and state["passes"] == 0


def test_six_plus_cards_of_one_colour_end_the_round_and_everyone_scores():
    state = arrange(hand=SIX_RED[:5] + ["green+8"], table=["red+6"],
                    others={1: ["blue+8", "blue+7", "red-3", "tim-2", "green+1", "yellow+1"]})
    expected = score_of(state, 1)
    after = ENGINE.apply(state, {"kind": "swap", "give": "green+8", "take": "red+6"})
    assert after["round"] == 2
    scores = after["history"][0]["scores"]
    assert scores[0] == {"player": 0, "colour": "red", "points": 21}  # 1 + 2 + ... + 6
    assert scores[1]["points"] == expected
    assert [p["score"] for p in after["players"]] == [s["points"] for s in scores]


def score_of(state, player):
    # blue 8 + 7, other plus cards -1 each (green+1, yellow+1), red-3, Tim -3
    return 8 + 7 - 1 - 1 - 3 - 3


def test_scoring_counts_the_best_colour_minus_cards_and_tim_and_benny():
    state = arrange(others={1: ["blue+8", "blue+7", "red-3", "tim-2", "green+1", "yellow+1"]})
    assert score(state, 1) == (score_of(state, 1), "blue")


def test_reaching_100_points_ends_the_game():
    state = arrange(hand=SIX_RED[:5] + ["green+8"], table=["red+6"])
    state["players"][0]["score"] = 90
    after = ENGINE.apply(state, {"kind": "swap", "give": "green+8", "take": "red+6"})
    assert after["phase"] == "over" and ENGINE.result(after)["winners"] == [0]
    assert codes(after, {"kind": "pass"}) == ["moemmen/game.over"]
    assert ENGINE.legal_moves(after) == []


# States the game cannot reach, each with the field the refusal names: tests/engines/test_contract.py
# breaks a new game (3 players, seed 1) each way and expects InvalidState naming that field.
IMPOSSIBLE_SETUP = (3, 1)
IMPOSSIBLE = [
    (lambda s: s["players"][0]["hand"].append(s["deck"][0]), "players[0].hand"),
    (lambda s: s["deck"].pop(), "cards"),
    (lambda s: s["cards"]["red+1"].__setitem__("kind", "joker"), "cards.red+1.kind"),
    (lambda s: s["cards"]["red-1"].__setitem__("value", 2), "cards.red-1.value"),
    (lambda s: s.__setitem__("phase", "mommen"), "mommen.pending"),
    (lambda s: s.__setitem__("turn", 9), "turn"),
]


def test_setup_deals_six_each_and_five_on_the_table_and_labels_its_deck():
    state = ENGINE.setup(4, 2, {})
    assert all(len(p["hand"]) == 6 for p in state["players"]) and len(state["table"]) == 5
    assert "no card list" in state["deck_label"]
    with pytest.raises(InvalidState):
        ENGINE.setup(7, 1, {})
    with pytest.raises(InvalidMove):
        ENGINE.check(state, {"kind": "shuffle"})


def best_set(state, player):
    colours = Counter(card(state, c)["colour"] for c in state["players"][player]["hand"] if card(state, c)["kind"] == "plus")
    return max(colours.values(), default=0)


def play_out(players, seed):
    """A seeded game where each player mostly takes the move that best grows their largest set."""
    state, rng = ENGINE.setup(players, seed, {}), random.Random(seed)
    for _ in range(20_000):
        moves = ENGINE.legal_moves(state)
        if not moves:
            return state
        mover = state["mommen"]["pending"][0] if state["phase"] == "mommen" else state["turn"]
        if rng.random() < 0.3:
            move = rng.choice(moves)
        else:
            move = max(moves, key=lambda m: (best_set(ENGINE.apply(state, m), mover), rng.random()))
        state = ENGINE.apply(state, move)
        ENGINE.validate(state)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players, seed", [(2, 0), (3, 1)])
def test_games_end_at_100_points_with_every_card_kept(players, seed):
    state = play_out(players, seed)
    result = ENGINE.result(state)
    assert max(p["score"] for p in state["players"]) >= 100
    assert result["winners"] == [r["player"] for r in result["standings"] if r["score"] == result["standings"][0]["score"]]
    placed = state["deck"] + state["discard"] + state["table"] + [c for p in state["players"] for c in p["hand"]]
    assert sorted(placed) == sorted(state["cards"])


def random_states():
    out = []
    for seed in range(3):
        state, rng = ENGINE.setup(2 + seed, seed, {}), random.Random(seed)
        for _ in range(120):
            moves = ENGINE.legal_moves(state)
            if not moves:
                break
            out.append(state)
            state = ENGINE.apply(state, rng.choice(moves))
    return out


STATES = random_states() + [mommen_called()]


@st.composite
def state_and_move(draw):
    state = draw(st.sampled_from(STATES))
    ids = st.sampled_from(sorted(state["cards"]))
    kind = draw(st.sampled_from(["swap", "benny", "tim", "respond", "exchange-table", "pass"]))
    move = {"kind": kind}
    if kind in ("swap", "respond"):
        move.update(give=draw(ids), take=draw(ids))
    elif kind == "benny":
        move["card"] = draw(ids)
    elif kind == "tim":
        move["card"] = draw(ids)
        if draw(st.booleans()):
            move.update(give=draw(ids), take=draw(ids))
    return state, move


LEGALITY_EXAMPLES = 400  # tests/engines/test_contract.py draws this many (state, move) pairs from state_and_move




def test_an_interpretation_says_so_in_the_verdict():
    state = arrange(hand=["tim-1", "blue+1"], table=["red-1", "red+3"])
    verdict = adjudicate(ENGINE, state, {"kind": "tim", "card": "tim-1", "give": "blue+1", "take": "red+3"}, "de")
    assert verdict["violations"][0]["interpretation"].startswith("Die Zusammenfassung")


def test_the_swap_reading_is_a_ruleset_and_a_refusal_under_it_names_both_readings():
    default = ENGINE.setup(3, 1, {})
    scoring = ENGINE.setup(3, 1, {"ruleset": "scoring-round"})
    assert default["ruleset"] == "round-of-turns" and scoring["ruleset"] == "scoring-round"
    swap = next(m for m in ENGINE.legal_moves(scoring) if m["kind"] == "swap")
    after = adjudicate(ENGINE, scoring, swap)["state"]
    after["turn"] = 0  # back to the same player, still in the same scoring round
    second = next(m for m in ENGINE.legal_moves(default | {"swapped": [0]}) if m["kind"] == "swap")
    again = {"kind": "swap", "give": after["players"][0]["hand"][0], "take": after["table"][0]}
    verdict = adjudicate(ENGINE, after, again, "de")
    assert [v["code"] for v in verdict["violations"]] == ["moemmen/swap.once-per-scoring-round"]
    said = verdict["violations"][0]["interpretation"]
    assert "ein Tausch pro Wertungsrunde" in said and "ein Tausch pro Runde am Tisch" in said, "both readings, in words"
    assert "scoring-round" not in said and "round-of-turns" not in said, "not by the rulesets' ids"
    assert "scoring-round" in adjudicate(ENGINE, after, again, "en")["violations"][0]["interpretation"]
    # the default reading: a swap ends the turn, and the next one around the table is allowed
    assert ENGINE.check(default | {"swapped": [0]}, second) == []


def test_an_unknown_ruleset_or_a_stranger_among_the_swappers_is_impossible():
    state = ENGINE.setup(2, 3, {"ruleset": "scoring-round"})
    for broken, field in ((state | {"swapped": [5]}, "swapped[0]"), (state | {"ruleset": "weekly"}, "ruleset")):
        with pytest.raises(InvalidState) as refused:
            ENGINE.validate(broken)
        assert refused.value.field == field
    with pytest.raises(InvalidState) as refused:
        ENGINE.setup(2, 3, {"ruleset": "weekly"})
    assert refused.value.field == "options.ruleset"


def test_scoring_a_round_clears_who_swapped():
    state = ENGINE.setup(2, 3, {"ruleset": "scoring-round"}) | {"swapped": [0, 1]}
    colour = next(c["colour"] for c in state["cards"].values() if c["kind"] == "plus")
    six = [cid for cid, c in state["cards"].items() if c["kind"] == "plus" and c["colour"] == colour][:6]
    rest = [cid for cid in state["cards"] if cid not in six]
    state["players"][0]["hand"], state["players"][1]["hand"] = six, rest[:6]
    state["table"], state["deck"], state["discard"] = rest[6:11], rest[11:], []
    ENGINE._end_of_round(state)
    assert state["round"] == 2 and state["swapped"] == []
