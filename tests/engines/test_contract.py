"""The contract every registered engine keeps (OpenSpiel's api_test.py): one test, every game.

A new game registers itself and gets these for free; its own test file keeps only its situations.
"""

import importlib
import os
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings

from service.engines import ENGINES, GAMES, InvalidMove, InvalidState, adjudicate
from tests.engines.helpers import assert_readings_cited_and_tested, assert_rules_cited_and_tested

REGISTERED = sorted(GAMES.values(), key=lambda game: game.id)


def by_id(game):
    return game.id


def game_tests(game):
    """The game's own test module (tests/engines/test_<game>.py, mamma-mia as mamma_mia): its situations."""
    return importlib.import_module(f"tests.engines.test_{game.id.replace('-', '_')}")


def _impossible():
    for game in REGISTERED:
        module = game_tests(game)
        for number, (break_it, field) in enumerate(module.IMPOSSIBLE):
            yield pytest.param(game, module.IMPOSSIBLE_SETUP, break_it, field, id=f"{game.id}-{number}-{field}")


@pytest.mark.parametrize("game, setup, break_it, field", list(_impossible()))
def test_an_impossible_state_is_refused_naming_the_field(game, setup, break_it, field):
    players, seed = setup
    state = game.engine.setup(players, seed, {})
    break_it(state)
    with pytest.raises(InvalidState) as refused:
        game.engine.validate(state)
    assert refused.value.field.startswith(field)


def test_engines_do_not_import_flask():
    code = "import sys, service.engines; assert not {'flask', 'werkzeug', 'flask_smorest'} & set(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("game", REGISTERED, ids=by_id)
def test_every_rule_is_cited_and_tested(game):
    assert_rules_cited_and_tested(game.engine.rules, game.id, game_tests(game))


@pytest.mark.parametrize("game", REGISTERED, ids=by_id)
def test_every_reading_option_quotes_the_rulebook_and_is_tested(game):
    assert_readings_cited_and_tested(game.engine, game_tests(game))


@pytest.mark.parametrize("game", REGISTERED, ids=by_id)
def test_an_unknown_reading_is_refused_at_setup_naming_the_option(game):
    for option in getattr(game.engine, "readings", ()):
        with pytest.raises(InvalidState) as refused:
            game.engine.setup(game.engine.players[0], 1, {option.option: "neither"})
        assert refused.value.field == f"options.{option.option}"


@pytest.mark.parametrize("game", REGISTERED, ids=by_id)
def test_a_move_is_legal_exactly_when_no_rule_objects(game):
    """legal_moves and check are the same rules: a move is listed if and only if nothing objects,
    on the random states and moves of the game's own strategy (its test module's state_and_move)."""
    module = game_tests(game)

    @settings(max_examples=module.LEGALITY_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(case=module.state_and_move())
    def run(case):
        state, move = case
        listed = game.engine.canonical(state, move) in [game.engine.canonical(state, m) for m in game.engine.legal_moves(state)]
        assert listed == (not game.engine.check(state, move)), game.engine.check(state, move)

    run()


@pytest.mark.parametrize("game", REGISTERED, ids=by_id)
def test_setup_takes_exactly_the_player_counts_it_declares(game):
    low, high = game.engine.players
    for players in (low, high):
        state = game.engine.setup(players, 1, {})
        game.engine.validate(state)
        assert game.state_schema().load(state) == state  # the documented shape, to the letter
    for players in (low - 1, high + 1):
        with pytest.raises(InvalidState) as refused:
            game.engine.setup(players, 1, {})
        assert refused.value.field == "players"


@pytest.mark.parametrize("game", REGISTERED, ids=by_id)
def test_setup_is_deterministic_from_the_seed(game):
    assert game.engine.setup(3, 5, {}) == game.engine.setup(3, 5, {})


@pytest.mark.parametrize("game", REGISTERED, ids=by_id)
def test_a_move_of_an_unknown_kind_is_an_invalid_move_naming_kind(game):
    state = game.engine.setup(3, 1, {})
    with pytest.raises(InvalidMove) as refused:
        game.engine.check(state, {"kind": "castle"})
    assert refused.value.field == "kind"


@pytest.mark.parametrize("game", REGISTERED, ids=by_id)
def test_another_games_state_is_an_impossible_state(game):
    other = next(g for g in REGISTERED if g.id != game.id)
    state = game.engine.setup(3, 1, {}) | {"game": other.id}
    with pytest.raises(InvalidState) as refused:
        game.engine.validate(state)
    assert refused.value.field == "game"


@pytest.mark.parametrize("game", REGISTERED, ids=by_id)
def test_worked_examples_fit_the_documented_shapes(game):
    for name, summary, state, move in game.engine.examples():
        assert game.state_schema().load(state) == state, name
        game.move_schema().load(move)
        assert summary


@pytest.mark.parametrize("game", REGISTERED, ids=by_id)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_seeded_play_keeps_states_possible_and_legal_moves_legal(game, seed):
    """Random legal moves from a new game: every state stays possible, and every listed move is
    legal by the same rules that explain a refusal."""
    rng = random.Random(seed)
    low, high = game.engine.players
    state = game.engine.setup(rng.randint(low, min(high, 4)), seed, {})
    for _ in range(60):
        moves = game.engine.legal_moves(state)
        if not moves:
            assert game.engine.result(state) is not None
            break
        move = rng.choice(moves)
        assert game.engine.check(state, move) == []
        verdict = adjudicate(game.engine, state, move)
        assert verdict["legal"]
        state = verdict["state"]
        game.engine.validate(state)
        assert game.state_schema().load(state) == state


_PLAY_OUT = """
import json, random, sys
from service.engines import ENGINES
engine, rng = ENGINES[sys.argv[1]], random.Random(3)
state, seen = engine.setup(3, 3, {}), []
for _ in range(400):
    moves = engine.legal_moves(state)
    if not moves:
        break
    seen.append(moves)
    state = engine.apply(state, rng.choice(moves))
print(json.dumps([seen, state]))
"""


@pytest.mark.parametrize("game", list(ENGINES))
def test_legal_moves_come_in_the_same_order_in_every_process(game):
    """Deterministic means the same list in the same order from any worker: Python salts string
    hashes per process, so nothing may follow a set's or a hash's order."""
    runs = [subprocess.run([sys.executable, "-c", _PLAY_OUT, game], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")]
    assert runs[0] == runs[1]
