"""Setting up, listing moves, adjudicating and replaying: the same routes for every game."""

from contextlib import contextmanager

from flask_smorest import abort
from marshmallow import ValidationError

from service.api import Blueprint, library
from service.engines import InvalidMove, InvalidState, adjudicate, engine_for, replay
from service.schemas import (
    GAME_SCHEMAS,
    AdjudicateIn,
    LegalMovesOut,
    ReplayIn,
    ReplayOut,
    SetupIn,
    StateIn,
    StateOut,
    VerdictOut,
)

blp = Blueprint("adjudicate", __name__, description="Game states, legal moves and verdicts on moves.")


def _worked_examples() -> dict:
    """One request per move kind of every game, on states its engine produced (seeded)."""
    from service.engines import ENGINES

    return {
        f"{game}/{name}": {"summary": f"{game}: {summary}", "value": {"state": state, "move": move, "lang": "en"}}
        for game, engine in ENGINES.items()
        for name, summary, state, move in engine.examples()
    }


def _engine(game: str):
    engine = engine_for(game)
    if engine is None:
        if game in library().games:
            from service.engines import ENGINES

            abort(404, message=f"Referee cannot adjudicate {game!r} yet. Games with an adjudicator: {', '.join(ENGINES)}.")
        abort(404, message=f"No game {game!r}. Known games: {', '.join(library().games)}.")
    return engine


def _load(game: str, which: int, value, field: str) -> dict:
    """Check a state (which=0) or a move (which=1) against the game's schema: shape errors are 400."""
    try:
        return GAME_SCHEMAS[game][which]().load(value)
    except ValidationError as error:
        abort(400, errors={f"{field}.{k}": v for k, v in error.normalized_messages().items()})


@contextmanager
def _unprocessable(state_field: str = "state", move_field: str = "move"):
    """An impossible state or move raised by the engine becomes a 422 naming the field."""
    try:
        yield
    except (InvalidState, InvalidMove) as error:
        prefix, what, kind = (
            (state_field, error.invariant, "state") if isinstance(error, InvalidState) else (move_field, error.problem, "move")
        )
        where = f"{prefix}.{error.field}" if prefix else error.field
        abort(422, message=f"Impossible {kind}: {where}: {what}", errors={where: [what]})


@blp.route("/v1/games/<game>/setup", methods=["POST"])
@blp.arguments(SetupIn, as_kwargs=True)
@blp.response(200, StateOut)
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def setup(game, players, seed, options):
    """Set up a new game for a number of players, shuffled from the seed."""
    engine = _engine(game)
    with _unprocessable(state_field=""):  # setup's fields are the request's own
        return {"state": engine.setup(players, seed, options)}


@blp.route("/v1/games/<game>/legal-moves", methods=["POST"])
@blp.arguments(StateIn, as_kwargs=True)
@blp.response(200, LegalMovesOut)
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def legal_moves(game, state):
    """List every legal move in a state, or the final result when the game is over."""
    engine = _engine(game)
    state = _load(game, 0, state, "state")
    with _unprocessable():
        return {"moves": engine.legal_moves(state), "result": engine.result(state)}


@blp.route("/v1/games/<game>/adjudicate", methods=["POST"])
@blp.arguments(AdjudicateIn, as_kwargs=True, examples=_worked_examples())
@blp.response(200, VerdictOut)
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def adjudicate_move(game, state, move, lang):
    """Judge one move: legal with the state after it, or every rule it breaks, cited."""
    engine = _engine(game)
    state = _load(game, 0, state, "state")
    move = _load(game, 1, move, "move")
    with _unprocessable():
        return adjudicate(engine, state, move, lang)


@blp.route("/v1/games/<game>/replay", methods=["POST"])
@blp.arguments(ReplayIn, as_kwargs=True)
@blp.response(200, ReplayOut)
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def replay_moves(game, state, moves, lang):
    """Check a whole sequence of moves and report the first illegal one with the state before it."""
    engine = _engine(game)
    state = _load(game, 0, state, "state")
    moves = [_load(game, 1, m, f"moves.{i}") for i, m in enumerate(moves)]
    with _unprocessable(move_field="moves"):
        return replay(engine, state, moves, lang)
