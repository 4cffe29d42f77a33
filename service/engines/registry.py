"""One registration per game (OpenSpiel's register_game): its id, its engine, and the schemas of
its states and moves. The engine table, the schema lookup and the OpenAPI references are derived
from here. A game registers itself when its module (or package) is imported, and
service/engines/__init__.py imports every module of the package: adding the module is all it takes."""

from __future__ import annotations

from dataclasses import dataclass

from marshmallow import Schema, ValidationError, validates_schema

from service.engines.base import Engine


class MoveShape(Schema):
    """A move's shape. ``KINDS`` maps each move kind to the fields it cannot do without: a move
    of a known kind missing one is malformed (400, naming the field); a move of an unknown kind
    passes here, for the engine to refuse as impossible (422)."""

    KINDS: dict[str, tuple[str, ...]] = {}

    @validates_schema
    def _has_its_kinds_fields(self, data, **kwargs):
        missing = [f for f in self.KINDS.get(data.get("kind"), ()) if data.get(f) is None]
        if missing:
            raise ValidationError({f: [f"Missing data for required field: a {data['kind']} move needs it."] for f in missing})


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
