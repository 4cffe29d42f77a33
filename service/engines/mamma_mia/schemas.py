"""The shape of Mamma Mia!'s states and moves (the engine checks the game's invariants)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate
from service.engines.mamma_mia.reading import INGREDIENTS, MOVE_FIELDS, ORDER_KINDS, PHASES, PILES, RULESETS
from service.engines.registry import MoveShape

# ---- states and moves: their shape only (the engine checks the game's invariants) ---------------

_Counts = lambda **kw: fields.Dict(keys=fields.String(), values=fields.Integer(strict=True), **kw)  # noqa: E731


class MammaMiaHand(Schema):
    ingredients = _Counts(required=True, metadata={"description": "Ingredient name -> cards held.", "example": {"salami": 2, "olive": 1}})
    orders = fields.List(fields.String(), required=True, metadata={"description": "Order ids held."})


class MammaMiaPlayer(Schema):
    colour = fields.String(required=True, metadata={"description": "green, red, blue, yellow or purple."})
    hand = fields.Nested(MammaMiaHand, required=True)
    server_pile = fields.List(fields.String(), required=True, validate=validate.Length(max=40),
                              metadata={"description": "The player's face-down orders, top first."})
    completed = fields.List(fields.String(), required=True, validate=validate.Length(max=40))


class MammaMiaOrder(Schema):
    colour = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(ORDER_KINDS), metadata={"description": "classic, bombastica, minimale or monotoni."})
    recipe = _Counts(metadata={"description": "A classic order's ingredients (not given by the rulebooks: carried by the state)."})
    ingredient = fields.String(metadata={"description": "The ingredient pictured on a Minimale or Monotoni."})


class MammaMiaOvenEntry(Schema):
    ingredient = fields.String()
    count = fields.Integer(strict=True)
    order = fields.String()
    player = fields.Integer(strict=True)


class MammaMiaOpening(Schema):
    order = fields.String(allow_none=True, metadata={"description": "The order revealed last, awaiting its owner's decision."})


class MammaMiaState(Schema):
    """The whole table of a Mamma Mia! game, as setup returns it."""

    game = fields.String(validate=validate.Equal("mamma-mia"), metadata={"description": "The game, always \"mamma-mia\" (optional in a request)."})
    ruleset = fields.String(required=True, validate=validate.OneOf(RULESETS), metadata={"description": "fr or zh: which text decides where they disagree."})
    seed = fields.Integer(strict=True, required=True)
    service = fields.Integer(strict=True, required=True, metadata={"description": "1 to 3."})
    phase = fields.String(required=True, validate=validate.OneOf(PHASES), metadata={"description": "play, oven (being opened) or over."})
    turn = fields.Integer(strict=True, required=True, metadata={"description": "Index of the player to play."})
    players = fields.List(fields.Nested(MammaMiaPlayer), required=True, validate=validate.Length(min=1, max=10))
    orders = fields.Dict(keys=fields.String(), values=fields.Nested(MammaMiaOrder), required=True,
                         validate=validate.Length(max=100), metadata={"description": "Every order card: id -> data."})
    kitchen = fields.List(fields.String(), required=True, validate=validate.Length(max=100),
                          metadata={"description": "The face-down draw pile, top first: ingredient names and mamma-mia."})
    oven = fields.List(fields.Nested(MammaMiaOvenEntry), required=True, validate=validate.Length(max=200),
                       metadata={"description": "Played cards not yet revealed, first played first."})
    table = _Counts(required=True, metadata={"description": "Revealed ingredients lying on the table, by kind."})
    consumed = _Counts(required=True, metadata={"description": "Ingredients used by completed pizzas during this opening."})
    removed = _Counts(required=True, metadata={"description": "Ingredients out of the game for the player count."})
    mamma_mia_holder = fields.Integer(strict=True, allow_none=True, required=True,
                                      metadata={"description": "Who set the Mamma Mia! card aside this service (the Oya)."})
    opening = fields.Nested(MammaMiaOpening, allow_none=True, required=True)
    deck = fields.String(metadata={"description": "Present when the order deck is Referee's default, not the publisher's."})


_HAND = "@players.{turn}.hand"  # the hand of the player to play: where a move's cards come from (registry.move_shapes)


class MammaMiaMove(MoveShape):
    """A turn, a pass, or an owner's decision on a revealed order."""

    KINDS = MOVE_FIELDS

    kind = fields.String(required=True, metadata={"description": "turn, pass, serve or fail."})
    player = fields.Integer(strict=True, allow_none=True, metadata={"description": "Who makes the move (checked when given)."})
    ingredients = _Counts(metadata={"description": "turn: ingredients put into the oven.",
                                    "choices": {"turn": [f"{_HAND}.ingredients"]}})
    orders = fields.List(fields.String(), validate=validate.Length(max=10), metadata={
        "description": "turn, pass: orders played on top.", "choices": {k: [f"{_HAND}.orders"] for k in ("turn", "pass")}})
    draw = _Counts(metadata={"description": "turn, pass: cards drawn, by pile (kitchen or server_pile).",
                             "choices": {"turn": list(PILES), "pass": list(PILES)}})
    order = fields.String(metadata={"description": "serve, fail: the order just revealed.",
                                    "choices": {"serve": ["@opening.order"], "fail": ["@opening.order"]}})
    ingredient = fields.String(allow_none=True, metadata={"description": "serve: the ingredient chosen for a Minimale or Monotoni.",
                                                          "choices": {"serve": list(INGREDIENTS)}})
    from_hand = _Counts(metadata={"description": "serve: ingredients the owner adds from their hand.",
                                  "choices": {"serve": list(INGREDIENTS)}})
