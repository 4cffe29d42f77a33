"""Mammut Mambo: the rulebook's worked examples, performances, hunts, whole games, the property."""

import inspect
import random

import pytest
from hypothesis import strategies as st

from service.engines import InvalidMove, InvalidState, adjudicate
from service.engines.mammut_mambo import MammutMambo, choreography

from tests.engines.helpers import PASSAGES

ENGINE = MammutMambo()


def with_tops(tops, players=4):
    """A new game whose players' top cards are the given (gesture, background) lists, in order."""
    state = ENGINE.setup(players, 1, {})
    chosen = {state["players"][p]["pile"][d] for p, cards in enumerate(tops) for d in range(len(cards))}
    spare = [c for c, card in state["cards"].items() if card["type"] == "gesture" and c not in chosen]
    for player, cards in enumerate(tops):
        for depth, (gesture, background) in enumerate(cards):
            cid = state["players"][player]["pile"][depth]
            if state["cards"][cid]["type"] == "hunt":  # keep 7 hunt cards: one spare card becomes the hunt card
                state["cards"][spare.pop()] = state["cards"][cid]
            state["cards"][cid] = {"type": "gesture", "gesture": gesture, "background": background}
    ENGINE.validate(state)
    return state


def perfect(state):
    steps = [{"gesture": s["gesture"], "shout": s["shout"]} for s in choreography(state)]
    return {"kind": "dance", "performances": [steps] * len(state["players"]), "lagging": [], "surplus": []}


def dance_due(state):
    return [(s["gesture"], s["shout"]) for s in choreography(state)]


def test_the_four_worked_examples_come_out_as_printed():
    # Players 1 to 4 of the rulebook are 0 to 3 here; player 1 is the tribal leader and begins.
    state = with_tops([
        [("Bunga", "outdoors"), ("Toc Toc Toc", "outdoors")],
        [("Umba", "outdoors")],
        [("Roarrr", "cave")],
        [("Bunga", "cave")],
    ])
    state = ENGINE.apply(state, {"kind": "turn"})
    assert dance_due(state) == [("Bunga", "Bunga")]
    state = ENGINE.apply(ENGINE.apply(state, perfect(state)), {"kind": "turn"})
    # Example Step 1: "all players now first do Umba and its gesture, and then Bunga and its gesture."
    assert dance_due(state) == [("Umba", "Umba"), ("Bunga", "Bunga")]
    state = ENGINE.apply(ENGINE.apply(state, perfect(state)), {"kind": "turn"})
    # Example Step 2: the cave card Roarrr: "all players next do Umba and its gesture, and then Bunga".
    assert dance_due(state) == [("Roarrr", "Roarrr"), ("Umba", "Umba"), ("Bunga", "Bunga")]
    state = ENGINE.apply(ENGINE.apply(state, perfect(state)), {"kind": "turn"})
    # Example Step 3: "Roarrr (shout and gesture), Umba (shout and gesture), Bunga (gesture only!)".
    assert dance_due(state) == [("Bunga", None), ("Roarrr", "Roarrr"), ("Umba", "Umba"), ("Bunga", None)]
    state = ENGINE.apply(ENGINE.apply(state, perfect(state)), {"kind": "turn"})
    # Example new round: Toc Toc Toc covers Bunga; "the players must give the shout again".
    assert dance_due(state) == [("Toc Toc Toc", "Toc Toc Toc"), ("Umba", "Umba"), ("Roarrr", "Roarrr"), ("Bunga", "Bunga")]


def four_cards_down():
    """After example step 3: Bunga, Umba, Roarrr and a cave Bunga face up; the Bunga must be danced."""
    state = with_tops([[("Bunga", "outdoors")], [("Umba", "outdoors")], [("Roarrr", "cave")], [("Bunga", "cave")]])
    for _ in range(3):
        state = ENGINE.apply(state, {"kind": "turn"})
        state = ENGINE.apply(state, perfect(state))
    return ENGINE.apply(state, {"kind": "turn"})


def steps(*pairs):
    return [{"gesture": g, "shout": s} for g, s in pairs]


DUE = [("Bunga", None), ("Roarrr", "Roarrr"), ("Umba", "Umba"), ("Bunga", None)]


@pytest.mark.parametrize("performance, code", [
    (steps(*DUE), None),
    (steps(("Bunga", None), ("Roarrr", "roarrr!"), ("Umba", "UMBA"), ("Bunga", None)), None),  # case and punctuation
    (steps(("Bunga", "Bunga"), ("Roarrr", "Roarrr"), ("Umba", "Umba"), ("Bunga", None)), "mammut-mambo/dance.repeated-shout"),
    (steps(("Bunga", None), ("Roarrr", "Umba"), ("Umba", "Umba"), ("Bunga", None)), "mammut-mambo/dance.wrong-shout"),
    (steps(("Bunga", None), ("Roarrr", None), ("Umba", "Umba"), ("Bunga", None)), "mammut-mambo/dance.wrong-shout"),
    (steps(("Bunga", None), ("Toc Toc Toc", "Toc Toc Toc"), ("Umba", "Umba"), ("Bunga", None)), "mammut-mambo/dance.wrong-gesture"),
    (steps(("Bunga", None), ("Umba", "Umba"), ("Roarrr", "Roarrr"), ("Bunga", None)), "mammut-mambo/dance.out-of-order"),
    (steps(("Bunga", None), ("Roarrr", "Roarrr")), "mammut-mambo/dance.missing"),
    (None, "mammut-mambo/dance.missing"),
])
def test_a_performance_is_judged_step_by_step(performance, code):
    state = four_cards_down()
    move = perfect(state)
    move["performances"][2] = performance
    verdict = adjudicate(ENGINE, state, move, "en")
    assert verdict["legal"]  # a mistake is part of the game, not an illegal move
    mistakes = verdict["outcome"]["mistakes"]
    assert [m["code"] for m in mistakes] == ([code] if code else [])
    if code:
        assert mistakes[0]["player"] == 2 and mistakes[0]["message"].startswith("Player 2")


def test_a_lagging_dancer_as_the_tribal_leader_judged():
    state = four_cards_down()
    move = {**perfect(state), "lagging": [1]}
    mistakes = adjudicate(ENGINE, state, move, "de")["outcome"]["mistakes"]
    assert [(m["player"], m["code"]) for m in mistakes] == [(1, "mammut-mambo/dance.lagging")]
    assert "Häuptling" in mistakes[0]["message"]


def test_an_erring_dancer_takes_every_played_card_and_begins_the_new_round():
    state = four_cards_down()
    before = len(state["players"][2]["pile"])
    move = perfect(state)
    move["performances"][2] = None
    after = ENGINE.apply(state, move)
    assert len(after["players"][2]["pile"]) == before + 4
    assert all(p["played"] == [] for p in after["players"])
    assert after["turn"] == 2 and after["phase"] == "turn"


def test_several_erring_dancers_split_the_cards_and_the_leader_gives_the_leftover():
    state = four_cards_down()  # 4 cards face up
    move = perfect(state)
    move["performances"][1] = move["performances"][2] = move["performances"][3] = None  # 3 err: 1 each, 1 left
    assert [v.code for v in ENGINE.check(state, move)] == ["mammut-mambo/penalty.surplus"]
    assert [v.code for v in ENGINE.check(state, {**move, "surplus": [0]})] == ["mammut-mambo/penalty.surplus"]  # 0 did well
    assert [v.code for v in ENGINE.check(state, {**move, "surplus": [2, 3]})] == ["mammut-mambo/penalty.surplus"]
    after = ENGINE.apply(state, {**move, "surplus": [3]})
    gained = [len(after["players"][p]["pile"]) - len(state["players"][p]["pile"]) for p in range(4)]
    assert gained == [0, 1, 1, 2]
    assert after["turn"] == 1  # of the erring players, the closest clockwise to the tribal leader (0)


def hunt_state(players=4, turner=1):
    state = ENGINE.setup(players, 2, {})
    state["turn"] = turner
    cid = state["players"][turner]["pile"][0]
    hunt_card = next(c for c, card in state["cards"].items() if card["type"] == "hunt")
    if cid != hunt_card:  # swap the cards' data so that the top card is a hunt card
        state["cards"][cid], state["cards"][hunt_card] = state["cards"][hunt_card], state["cards"][cid]
    return ENGINE.apply(state, {"kind": "turn"})


def test_the_hunt_the_empty_handed_take_the_cards_the_pink_hunter_leads_and_gives():
    state = hunt_state()
    assert state["phase"] == "hunt"
    before = [len(p["pile"]) for p in state["players"]]
    after = ENGINE.apply(state, {"kind": "hunt", "pink": 3, "empty_handed": 2, "gifts": [0, 1]})
    assert after["tribal_leader"] == 3 and after["hunts"] == 1
    assert [len(p["pile"]) for p in after["players"]] == [before[0] + 1, before[1] + 1, before[2] + 1, before[3] - 2]
    assert after["turn"] == 2  # the empty-handed hunter begins the new round


@pytest.mark.parametrize("move, code", [
    ({"pink": 3, "empty_handed": 3, "gifts": [0, 1]}, "mammut-mambo/hunt.one-mammoth-each"),
    ({"pink": 3, "empty_handed": 2, "gifts": [0]}, "mammut-mambo/hunt.gifts"),
    ({"pink": 3, "empty_handed": 2, "gifts": [3, 1]}, "mammut-mambo/hunt.gifts"),
    ({"pink": 3, "empty_handed": 2, "gifts": [1, 1]}, "mammut-mambo/hunt.gifts"),
])
def test_a_hunt_breaks_rules_when_the_table_records_the_impossible(move, code):
    assert [v.code for v in ENGINE.check(hunt_state(), {"kind": "hunt", **move})] == [code]


def test_with_two_players_the_pink_hunter_gives_one_card():
    state = hunt_state(players=2, turner=0)
    assert ENGINE.check(state, {"kind": "hunt", "pink": 0, "empty_handed": 1, "gifts": [1]}) == []
    violation = ENGINE.check(state, {"kind": "hunt", "pink": 0, "empty_handed": 1, "gifts": [1, 1]})[0]
    assert violation.interpretation


@pytest.mark.parametrize("phase_move, code", [
    ({"kind": "dance", "performances": []}, "mammut-mambo/phase.nothing-to-judge"),
    ({"kind": "hunt", "pink": 0, "empty_handed": 1, "gifts": [2, 3]}, "mammut-mambo/phase.nothing-to-judge"),
    ({"kind": "turn", "player": 2}, "mammut-mambo/turn.out-of-turn"),
])
def test_between_turns(phase_move, code):
    state = ENGINE.setup(4, 1, {})
    assert [v.code for v in ENGINE.check(state, phase_move)] == [code]


def test_a_turned_card_is_danced_before_the_next_turn():
    state = four_cards_down()
    assert [v.code for v in ENGINE.check(state, {"kind": "turn"})] == ["mammut-mambo/phase.judge-first"]


def test_the_last_card_danced_without_a_mistake_wins():
    state = with_tops([[("Umba", "outdoors")], [], [], []])
    me = state["players"][0]
    rest, me["pile"] = me["pile"][1:], me["pile"][:1]
    state["players"][1]["pile"].extend(rest)
    state = ENGINE.apply(state, {"kind": "turn"})
    after = ENGINE.apply(state, perfect(state))
    assert after["phase"] == "over" and ENGINE.result(after)["winners"] == [0]
    assert ENGINE.result(after)["title"] == "Neanderthal of the Month"
    assert [v.code for v in ENGINE.check(after, {"kind": "turn"})] == ["mammut-mambo/game.over"]


def test_after_the_seventh_hunt_the_fewest_cards_win():
    state = hunt_state()
    state["hunts"] = 6
    after = ENGINE.apply(state, {"kind": "hunt", "pink": 3, "empty_handed": 2, "gifts": [0, 1]})
    result = ENGINE.result(after)
    assert after["phase"] == "over" and result["title"] == "Club King"
    fewest = min(len(p["pile"]) for p in after["players"])
    assert all(len(after["players"][w]["pile"]) == fewest for w in result["winners"])


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_deals_the_sixty_cards_evenly_with_the_tribal_leader_first(players):
    state = ENGINE.setup(players, 1, {"tribal_leader": players - 1})
    assert {len(p["pile"]) for p in state["players"]} == {60 // players}
    assert state["turn"] == state["tribal_leader"] == players - 1
    assert "gesture 5" in state["gestures"] and "not give" in state["deck"]


# States the game cannot reach, each with the field the refusal names: tests/engines/test_contract.py
# breaks a new game (4 players, seed 1) each way and expects InvalidState naming that field.
IMPOSSIBLE_SETUP = (4, 1)
IMPOSSIBLE = [
    (lambda s: s["players"][0]["pile"].append(s["players"][1]["pile"][0]), "players[1].pile"),
    (lambda s: s["players"][0]["pile"].pop(), "cards"),
    (lambda s: s["cards"][s["players"][0]["pile"][0]].__setitem__("gesture", "Hula"), "cards."),
    (lambda s: s["cards"][s["players"][0]["pile"][0]].__setitem__("background", "beach"), "cards."),
    (lambda s: s.__setitem__("hunts", 8), "hunts"),
    (lambda s: s.__setitem__("gestures", s["gestures"][:6]), "gestures"),
    (lambda s: s.__setitem__("phase", "dance"), "last"),
]


def test_setup_refuses_seven_players_and_moves_of_unknown_kinds():
    with pytest.raises(InvalidState):
        ENGINE.setup(7, 1, {})
    with pytest.raises(InvalidMove):
        ENGINE.check(ENGINE.setup(3, 1, {}), {"kind": "moonwalk"})


def play_out(players, seed):
    state = ENGINE.setup(players, seed, {})
    rng = random.Random(seed)
    for _ in range(20_000):
        moves = ENGINE.legal_moves(state)
        if not moves:
            return state
        state = ENGINE.apply(state, rng.choice(moves))
        ENGINE.validate(state)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_end_with_every_card_kept(players):
    for seed in range(3):
        state = play_out(players, seed)
        assert state["phase"] == "over" and ENGINE.result(state)["winners"]
        assert sum(len(p["pile"]) + len(p["played"]) for p in state["players"]) == 60


def random_states():
    out = []
    for seed in range(4):
        state = ENGINE.setup(3 + seed % 3, seed, {})
        rng = random.Random(seed)
        while (moves := ENGINE.legal_moves(state)) and len(out) < 60 * (seed + 1):
            if state["phase"] != "turn" or rng.random() < 0.2:
                out.append(state)
            state = ENGINE.apply(state, rng.choice(moves))
    return out


STATES = random_states()


@st.composite
def state_and_move(draw):
    state = draw(st.sampled_from(STATES))
    n = len(state["players"])
    player = st.integers(min_value=0, max_value=n - 1)
    kind = draw(st.sampled_from(["turn", "dance", "hunt"]))
    if kind == "turn":
        return state, {"kind": "turn"}
    if kind == "hunt":
        return state, {"kind": "hunt", "pink": draw(player), "empty_handed": draw(player),
                       "gifts": draw(st.lists(player, max_size=3))}
    due = [{"gesture": s["gesture"], "shout": s["shout"]} for s in choreography(state)] if state["phase"] == "dance" else []
    gesture = st.sampled_from(state["gestures"])
    noisy = st.lists(st.fixed_dictionaries({"gesture": gesture, "shout": st.one_of(st.none(), gesture)}), max_size=4)
    performances = [draw(st.one_of(st.just(due), st.none(), noisy)) for _ in range(n)]
    return state, {"kind": "dance", "performances": performances,
                   "lagging": draw(st.lists(player, max_size=2)), "surplus": draw(st.lists(player, max_size=3))}


LEGALITY_EXAMPLES = 400  # tests/engines/test_contract.py draws this many (state, move) pairs from state_and_move


def test_a_dancers_mistakes_are_cited_and_tested_like_rules():
    import sys

    from service.engines.mammut_mambo import MISTAKE_MESSAGES, PENALTY

    source = inspect.getsource(sys.modules[__name__])
    assert PENALTY.quote in PASSAGES[PENALTY.passage_id]
    for kind, (citation, messages) in MISTAKE_MESSAGES.items():  # a dancer's mistakes, not rules of moves
        assert citation.quote in PASSAGES[citation.passage_id], kind
        assert set(messages) == {"en", "fr", "de", "zh"}
        assert f'"mammut-mambo/dance.{kind}"' in source, kind
