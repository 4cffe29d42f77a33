"""The adjudicator: one engine per game, all with the interface of service.engines.base.Engine.

Every module of this package but base and registry is a game, and registers itself when imported
(service.engines.registry): adding a game's module is all it takes.
"""

from __future__ import annotations

import importlib
import pkgutil

from service.engines.base import Engine, InvalidMove, InvalidState, adjudicate, replay, standings
from service.engines.registry import GAMES, Game

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if _module not in ("base", "registry"):
        importlib.import_module(f"{__name__}.{_module}")

ENGINES: dict[str, Engine] = {game.id: game.engine for game in GAMES.values()}


def engine_for(game: str) -> Engine | None:
    """The engine of a game, or None when Referee cannot adjudicate it yet."""
    return ENGINES.get(game)


__all__ = ["ENGINES", "GAMES", "Engine", "Game", "InvalidMove", "InvalidState", "adjudicate", "engine_for", "replay",
           "standings"]
