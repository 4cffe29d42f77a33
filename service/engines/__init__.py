"""The adjudicator: one engine per game, all with the interface of service.engines.base.Engine."""

from __future__ import annotations

from service.engines.base import Engine, InvalidMove, InvalidState, adjudicate, replay
from service.engines.mamma_mia import MammaMia
from service.engines.mammut_mambo import MammutMambo
from service.engines.moemmen import Moemmen

ENGINES: dict[str, Engine] = {"mamma-mia": MammaMia(), "mammut-mambo": MammutMambo(), "moemmen": Moemmen()}


def engine_for(game: str) -> Engine | None:
    """The engine of a game, or None when Referee cannot adjudicate it yet."""
    return ENGINES.get(game)


__all__ = ["ENGINES", "Engine", "InvalidMove", "InvalidState", "adjudicate", "engine_for", "replay"]
