"""One registration per game (OpenSpiel's register_game): its id, its engine, and the schemas of
its states and moves. The engine table, the schema lookup and the OpenAPI references are derived
from here; a new game registers at the end of its own module and is listed in
service/engines/__init__.py, nothing else."""

from __future__ import annotations

from dataclasses import dataclass

from service.engines.base import Engine


@dataclass(frozen=True)
class Game:
    id: str
    engine: Engine
    state_schema: type  # marshmallow Schema: the state's shape (the engine checks its invariants)
    move_schema: type  # marshmallow Schema: a move's shape


GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.id in GAMES:
        raise ValueError(f"game {game.id!r} is registered twice")
    GAMES[game.id] = game
    return game
