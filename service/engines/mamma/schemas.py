"""The shape of Mamma's states and moves (the engine checks the game's invariants)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate
from service.engines.base import (
    Boolean,
)
from service.engines.mamma.board import BUS_NUMBERS, CHARACTERS, DECKS, MOVE_FIELDS, MOVE_KINDS, PHASES, PIECES, READINGS
from service.engines.registry import MoveShape

# ---- states and moves: their shape only (the engine checks the game's invariants) ---------------


class MammaSpace(Schema):
    column = fields.Integer(strict=True, required=True, metadata={"description": "1 beside column B; higher is further right (back, in the Dinner Hour)."})
    row = fields.Integer(strict=True, required=True)
    next_to = fields.List(fields.String(), required=True, validate=validate.Length(max=8))


class MammaBoard(Schema):
    label = fields.String(metadata={"description": "Present when the city is Referee's own reading, not the publisher's."})
    spaces = fields.Dict(keys=fields.String(), values=fields.Nested(MammaSpace), required=True, validate=validate.Length(max=40))
    seats = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                        metadata={"description": "Each character's seat in column B: the space of the city beside it."})


class MammaCard(Schema):
    kind = fields.String(required=True, metadata={"description": "reference, character, secret, city, landmark, schoolbus, traffic, "
                                                                 "wc-card, substitute, summary, guests, ingredient, bus, movement or money."})
    character = fields.String()
    age = fields.Integer(strict=True, metadata={"description": "A character's printed age."})
    face = fields.String(metadata={"description": "A city card: street or club (an ingredient may be placed on it)."})
    cost = fields.Integer(strict=True, metadata={"description": "An ingredient's price; the schoolbus's or a traffic card's first-space mp."})
    drawings = fields.List(fields.String(), validate=validate.Length(max=10))
    mother_in_law = fields.Integer(strict=True, metadata={"description": "The red number of a Mother-in-Law card (0: none)."})
    value = fields.Integer(strict=True, metadata={"description": "mp, money, or a Guests card's negative vp."})
    number = fields.String(metadata={"description": "A Bus card's number."})


class MammaHeld(Schema):
    card = fields.String(required=True)
    horizontal = Boolean(required=True, metadata={"description": "Turned horizontal: it cannot be stolen."})


class MammaCharacter(Schema):
    money = fields.List(fields.String(), required=True, validate=validate.Length(max=10))
    ingredients = fields.List(fields.Nested(MammaHeld), required=True, validate=validate.Length(max=20))
    guests = fields.String(allow_none=True, required=True)


class MammaPlayer(Schema):
    secret = fields.String(required=True, metadata={"description": "The player's secret character card."})
    hand = fields.List(fields.String(), required=True, validate=validate.Length(max=20))
    guests_assigned = Boolean(required=True)


class MammaMoving(Schema):
    piece = fields.String(required=True)
    crossed = fields.List(fields.String(), required=True, validate=validate.Length(max=40))
    steps = fields.Integer(strict=True, required=True)
    ride = fields.Integer(strict=True, allow_none=True, required=True, metadata={"description": "The taxi's or bus's mp left; null when moved with movement cards."})
    bought = Boolean(required=True)
    released = Boolean(required=True)


class MammaWcLeft(Schema):
    character = fields.String(required=True)
    space = fields.String(required=True, metadata={"description": "Where it was put back, next to the W.C."})


class MammaTurn(Schema):
    played = fields.Integer(strict=True, required=True, metadata={"description": "Game cards played this turn (money placed counts)."})
    discarded = fields.Integer(strict=True, required=True)
    mp = fields.Integer(strict=True, required=True, metadata={"description": "The turn's mp not yet spent."})
    moving = fields.Nested(MammaMoving, allow_none=True, required=True, metadata={"description": "The movement in progress."})
    bought = fields.List(fields.String(), required=True, metadata={"description": "Characters who bought this turn: they move no more."})
    money_placed = Boolean(required=True)
    bus_tried = Boolean(required=True)
    bus_missed = Boolean(required=True)
    wc_exit_due = Boolean(required=True)
    wc_left = fields.Nested(MammaWcLeft, allow_none=True, metadata={
        "description": "The character put back from the W.C. this turn (the reading options wc_return and wc_exit); "
                       "absent otherwise."})


class MammaWc(Schema):
    occupant = fields.String(allow_none=True, required=True)
    turns = fields.Integer(strict=True, required=True, metadata={"description": "Turns begun since the occupant went in."})
    last = fields.String(allow_none=True, required=True, metadata={"description": "The last character in (the vertical wc card is beside it)."})


class MammaGrandpa(Schema):
    bank = Boolean(required=True, metadata={"description": "The bank card turned: the Grandpa may hold 3 money cards."})
    child = Boolean(required=True, metadata={"description": "The Grandpa with the Child."})
    child_stole = Boolean(required=True)


class MammaDecks(Schema):
    movement = fields.List(fields.String(), required=True, validate=validate.Length(max=110))
    money = fields.List(fields.String(), required=True, validate=validate.Length(max=110))


class MammaState(Schema):
    """A Mamma table: the city and its pieces, every card's place, the turn in progress."""

    game = fields.String(validate=validate.Equal("mamma"), metadata={"description": "The game, always \"mamma\" (optional in a request)."})
    seed = fields.Integer(strict=True, required=True)
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    player_a = fields.Integer(strict=True, required=True)
    player_x = fields.Integer(strict=True, allow_none=True, required=True, metadata={"description": "Who bought the last ingredient."})
    turn = fields.Integer(strict=True, required=True, metadata={"description": "The player due to move."})
    turns = fields.Integer(strict=True, required=True)
    board = fields.Nested(MammaBoard, required=True)
    cards = fields.Dict(keys=fields.String(), values=fields.Nested(MammaCard), required=True, validate=validate.Length(max=200))
    city = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={"description": "The card on each space."})
    pieces = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                         metadata={"description": "Each character's, the schoolbus's and the traffic cards' place: a space, "
                                                  "or seat, bench, wc, hospital, church, seated, off."})
    characters = fields.Dict(keys=fields.String(), values=fields.Nested(MammaCharacter), required=True)
    players = fields.List(fields.Nested(MammaPlayer), required=True, validate=validate.Length(min=1, max=10))
    decks = fields.Nested(MammaDecks, required=True)
    ingredient_row = fields.List(fields.String(), required=True, validate=validate.Length(max=50), metadata={"description": "Top first."})
    substitutes = fields.List(fields.String(), required=True, validate=validate.Length(max=50))
    guests = fields.List(fields.String(), required=True, validate=validate.Length(max=10), metadata={"description": "Highest first."})
    bus_deck = fields.List(fields.String(), required=True, validate=validate.Length(max=10), metadata={"description": "Top first."})
    wc = fields.Nested(MammaWc, required=True)
    grandpa = fields.Nested(MammaGrandpa, required=True)
    seated = fields.List(fields.String(), required=True, validate=validate.Length(max=6))
    out_of_game = fields.List(fields.String(), required=True, validate=validate.Length(max=110))
    table = fields.List(fields.String(), required=True, validate=validate.Length(max=20),
                        metadata={"description": "Cards that stay in place: reference cards, the summary, the wc card."})
    turn_state = fields.Nested(MammaTurn, required=True)
    readings = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "The table's reading of each ambiguous point of the text, by setup option ("
                       + "; ".join(f"{o.option}: {' or '.join(o.values)}" for o in READINGS.values())
                       + "); an option absent is read the default way (the first)."})


# Where a move's values come from (registry.move_shapes): the hand of the player to play, the city's
# spaces, the ingredient cards the characters hold, the money of the character who buys.
_HAND = "@players.{turn}.hand"
_SPACES = "@board.spaces"
_HELD = "@characters.*.ingredients.*.card"
_BUYERS_MONEY = ["@characters.{turn_state.moving.piece}.money", "@characters.{turn_state.wc_left.character}.money"]


class MammaMove(MoveShape):
    """One move of a turn (a card played, one space of a movement, a purchase...) or of the set-up and Dinner Hour."""

    KINDS = MOVE_FIELDS
    PATHS = {"move": "to"}  # a movement: one move per space, the same piece

    kind = fields.String(required=True, metadata={"description": ", ".join(MOVE_KINDS) + "."})
    player = fields.Integer(strict=True, allow_none=True)
    deck = fields.String(metadata={"description": "take: movement or money.", "choices": {"take": list(DECKS)}})
    card = fields.String(metadata={"description": "play, money: a card of the hand; taxi: a money card beside the Wife.",
                                   "choices": {"play": [_HAND], "taxi": ["@characters.wife.money"], "money": [_HAND]}})
    piece = fields.String(metadata={"description": "move: a character, schoolbus, traffic-1 or traffic-2.",
                                    "choices": {"move": list(PIECES)}})
    to = fields.String(allow_none=True, metadata={
        "description": "move: a space, bench, wc or seat; bus, release, leave-wc, place: a space.",
        "choices": {"move": [_SPACES, "bench", "wc", "seat"], **{k: [_SPACES] for k in ("bus", "release", "leave-wc", "place")}}})
    steal = fields.String(allow_none=True, metadata={"description": "move: the crossed character's vertical ingredient taken.",
                                                     "choices": {"move": [_HELD]}})
    arcade = Boolean(metadata={"description": "move: the Son spends the crossed character's highest money card.",
                               "choices": {"move": []}})
    lose = fields.List(fields.String(), validate=validate.Length(max=20), metadata={
        "description": "move: the Son's vertical ingredients lost when run over.", "choices": {"move": ["@characters.son.ingredients.*.card"]}})
    release_to = fields.String(allow_none=True, metadata={"description": "move: where the character leaving the hospital goes.",
                                                          "choices": {"move": [_SPACES]}})
    number = fields.String(metadata={"description": "bus: 969, 696 or 699.", "choices": {"bus": list(BUS_NUMBERS)}})
    ingredient = fields.String(metadata={"description": "buy: the ingredient card.", "choices": {"buy": ["@city.*?kind=ingredient"]}})
    pay = fields.List(fields.String(), validate=validate.Length(max=10), metadata={"description": "buy: the money cards paid.",
                                                                                   "choices": {"buy": _BUYERS_MONEY}})
    place = fields.String(allow_none=True, metadata={"description": "buy: the space for the next ingredient of the row.",
                                                     "choices": {"buy": [_SPACES]}})
    cards = fields.List(fields.String(), validate=validate.Length(max=10), metadata={"description": "discard: 3 cards of the hand.",
                                                                                     "choices": {"discard": [_HAND]}})
    turn_over = fields.String(allow_none=True, metadata={"description": "discard: a vertical ingredient turned horizontal.",
                                                         "choices": {"discard": [_HELD]}})
    character = fields.String(metadata={"description": "guests, money, place: the character.",
                                        "choices": {k: list(CHARACTERS) for k in ("guests", "money", "place")}})
    replace = fields.String(allow_none=True, metadata={"description": "money: the lower money card replaced.",
                                                       "choices": {"money": ["@characters.*.money"]}})
    movement = fields.Integer(strict=True, metadata={"description": "end-turn: cards taken from the movement deck.",
                                                     "choices": {"end-turn": []}})
    money = fields.Integer(strict=True, metadata={"description": "end-turn: cards taken from the money deck.",
                                                  "choices": {"end-turn": []}})
    order = fields.List(fields.String(), validate=validate.Length(max=6), metadata={"description": "last-seats: the fifth and sixth.",
                                                                                    "choices": {"last-seats": list(CHARACTERS)}})
