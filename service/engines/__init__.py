"""The adjudicator: one engine per game, all with the interface of service.engines.base.Engine.

Each game's module registers it (service.engines.registry): importing the module is all it takes.
"""

from __future__ import annotations

from service.engines import mamma_mia, mammut_mambo, moemmen  # noqa: F401  (each registers its game)
from service.engines.base import Engine, InvalidMove, InvalidState, adjudicate, replay
from service.engines.registry import GAMES, Game

ENGINES: dict[str, Engine] = {game.id: game.engine for game in GAMES.values()}


def engine_for(game: str) -> Engine | None:
    """The engine of a game, or None when Referee cannot adjudicate it yet."""
    return ENGINES.get(game)


__all__ = ["ENGINES", "GAMES", "Engine", "Game", "InvalidMove", "InvalidState", "adjudicate", "engine_for", "replay"]
