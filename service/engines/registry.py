"""One registration per game (OpenSpiel's register_game): its id, its engine, and the schemas of
its states and moves. The engine table, the schema lookup and the OpenAPI references are derived
from here. A game registers itself when its module (or package) is imported, and
service/engines/__init__.py imports every module of the package: adding the module is all it takes."""

from __future__ import annotations

from dataclasses import dataclass

from marshmallow import Schema, ValidationError, fields, validates_schema

from service.engines.base import Engine


class MoveShape(Schema):
    """A move's shape. ``KINDS`` maps each move kind to the fields it cannot do without: a move
    of a known kind missing one is malformed (400, naming the field); a move of an unknown kind
    passes here, for the engine to refuse as impossible (422)."""

    KINDS: dict[str, tuple[str, ...]] = {}
    # A kind whose moves come in runs, each naming the next value of one field (Mamma's ``move``,
    # one space at a time: a path): kind -> that field. A client builds such a run step by step.
    PATHS: dict[str, str] = {}

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


# What a client picks a field's value from: each field of a move schema (but ``kind`` and ``player``,
# which the state implies) says, in its metadata's ``choices``, the kinds that use it and, for each,
# where its values come from in the state. A source is a value as it is (a deck's name), "@path" (the
# ids at a path of the state: a list's items, a dict's keys, one value; "*" any key or item,
# "{path}" the value at another path, "?kind=x" only cards of that kind) or "#path" (the indices
# of the list at a path: the players).
def _shape(field) -> str:
    """How a field's value is made: one choice, some choices, a count per choice, a number, a
    flag, or a list of steps per player (a dance); a number among choices is one choice."""
    if isinstance(field, fields.Boolean):
        return "flag"
    if isinstance(field, fields.Dict):
        return "counts"
    if isinstance(field, fields.List):
        return "steps" if isinstance(field.inner, fields.List) else "some"
    return "number" if isinstance(field, fields.Integer) else "one"


def move_shapes(schema: type[MoveShape]) -> list[dict]:
    """Each kind of move with the fields a client fills in to make one, from a game's move schema:
    how each field's value is made, whether the kind needs it, whether it may be null, and
    where its choices come from (see above). A path kind names the field its steps follow."""
    declared = schema().fields
    out = []
    for kind, needed in schema.KINDS.items():
        kind_fields = []
        for name, field in declared.items():
            choices = field.metadata.get("choices", {})
            if kind not in choices:
                continue
            shape = _shape(field)
            if shape == "number" and choices[kind]:
                shape = "one"  # a number picked among choices: a player
            kind_fields.append({"name": name, "shape": shape, "required": name in needed,
                                "can_be_null": bool(field.allow_none), "choices": list(choices[kind])})
        entry = {"kind": kind, "fields": kind_fields}
        if kind in schema.PATHS:
            entry["path"] = schema.PATHS[kind]
        out.append(entry)
    return out
