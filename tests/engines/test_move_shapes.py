"""The move shapes every game declares (registry.move_shapes, GET /v1/games's adjudicator.moves):
what a client builds a move from. Every field of a move schema is offered for the kinds that use
it, and where its choices are read in a state holds every value the game's legal moves use there,
so a move built by tapping can be any legal move (and illegal ones too)."""

from __future__ import annotations

import random
import re

import pytest

from service.engines import ENGINES, GAMES, adjudicate
from service.engines.registry import move_shapes


def _at(state, path):
    node = state
    for raw in path.split("."):
        key = re.sub(r"\{([^}]+)\}", lambda m: str(_at(state, m.group(1))), raw)
        if node is None:
            return None
        node = node.get(key) if isinstance(node, dict) else (node[int(key)] if key.isdigit() and int(key) < len(node) else None)
    return node


def _ids(state, path):
    nodes = [state]
    for raw in path.split("."):
        key = re.sub(r"\{([^}]+)\}", lambda m: str(_at(state, m.group(1))), raw)
        step = []
        for node in nodes:
            if isinstance(node, dict):
                step += list(node.values()) if key == "*" else [node.get(key)]
            elif isinstance(node, list):
                step += node if key == "*" else [node[int(key)]] if key.isdigit() and int(key) < len(node) else []
        nodes = step
    out = []
    for node in nodes:
        if isinstance(node, list):
            out += [v for v in node if not isinstance(v, (dict, list))]
        elif isinstance(node, dict):
            out += list(node)
        elif node is not None:
            out.append(node)
    return out


def choices(field: dict, state: dict) -> set:
    """What web/static/moves.js's choicesOf reads, in Python: the values a client offers."""
    out = set()
    for source in field["choices"]:
        if source.startswith("#"):
            out |= set(range(len(_at(state, source[1:]) or [])))
        elif source.startswith("@"):
            path, _, wanted = source[1:].partition("?")
            ids = _ids(state, path)
            if wanted:
                key, value = wanted.split("=")
                ids = [i for i in ids if state["cards"].get(i, {}).get(key) == value]
            out |= set(ids)
        else:
            out.add(source)
    return out


def _states(game: str, count: int = 60):
    """States of seeded random games, every phase they reach."""
    engine = ENGINES[game]
    rng = random.Random(f"shapes:{game}")
    state = engine.setup(max(engine.players[0], 3), 3, {})
    for _ in range(count):
        yield state
        moves = engine.legal_moves(state)
        if not moves:
            state = engine.setup(max(engine.players[0], 3), rng.randrange(1000), {})
            continue
        state = adjudicate(engine, state, rng.choice(moves))["state"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_kind_and_field_of_a_move_is_offered_with_its_choices(game):
    schema = GAMES[game].move_schema
    shapes = {s["kind"]: s for s in move_shapes(schema)}
    assert list(shapes) == list(schema.KINDS)
    offered = {f["name"] for s in shapes.values() for f in s["fields"]}
    assert offered == set(schema().fields) - {"kind", "player"}, "every field but kind and player says where it comes from"
    for kind, needed in schema.KINDS.items():
        assert set(needed) <= {f["name"] for f in shapes[kind]["fields"] if f["required"]}
        for field in shapes[kind]["fields"]:
            assert field["choices"] or field["shape"] in ("number", "flag"), f"{kind}.{field['name']} has nothing to choose from"
    for kind, along in schema.PATHS.items():
        assert along in {f["name"] for f in shapes[kind]["fields"]}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_legal_moves_values_are_among_the_choices_the_state_offers(game):
    shapes = {s["kind"]: s for s in move_shapes(GAMES[game].move_schema)}
    checked = 0
    for state in _states(game):
        for move in ENGINES[game].legal_moves(state)[:200]:
            for field in shapes[move["kind"]]["fields"]:
                value = move.get(field["name"])
                if value is None or field["shape"] in ("number", "flag"):
                    continue
                offered = choices(field, state)
                if field["shape"] == "one":
                    picked = [value]
                elif field["shape"] == "some":
                    picked = value
                elif field["shape"] == "counts":
                    picked = [k for k, n in value.items() if n]
                else:  # steps: each dancer's gestures and shouts
                    picked = [s[k] for steps in value if steps for s in steps for k in ("gesture", "shout") if s[k]]
                assert set(picked) <= offered, f"{move}: {field['name']} {picked} not among {sorted(offered, key=str)}"
                checked += 1
    assert checked > 20

