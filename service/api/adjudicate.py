"""Setting up, listing moves, adjudicating, replaying and scoring: the same five routes for every game with an engine."""

from contextlib import contextmanager

import flask

from flask_smorest import abort
from marshmallow import ValidationError

from indexer.analysis import to_simplified
from service.api import TOO_LARGE, Blueprint, library
from service.language import prefers_simplified
from service.engines import ENGINES, InvalidMove, InvalidState, adjudicate, replay, standings
from service.schemas import GAME_SCHEMAS, ScoreOut, SetupIn, game_schemas

blp = Blueprint("adjudicate", __name__, description="Game states, legal moves and verdicts on moves.")
ACTIONS = ("setup", "legal-moves", "adjudicate", "replay", "score")  # /v1/games/{game}/<action>


def _worked_examples(game: str) -> dict:
    """One request per move kind of the game, on states its engine produced (seeded)."""
    return {
        f"{game}/{name}": {"summary": f"{game}: {summary}", "value": {"state": state, "move": move, "lang": "en"}}
        for name, summary, state, move in ENGINES[game].examples()
    }


def _response_examples(game: str) -> dict:
    """What each route answers, computed by the game's engine on a seeded game: a set-up state, its
    first legal moves, the verdict on a worked example and a replay of it (responses the client
    generators and /docs show)."""
    engine = ENGINES[game]
    state = engine.setup(max(engine.players[0], 3), 1, {})
    _, _, example_state, example_move = engine.examples()[0]
    return {
        "setup": {"state": state},
        "legal-moves": {"moves": engine.legal_moves(state)[:3], "result": engine.result(state)},
        "adjudicate": adjudicate(engine, example_state, example_move, "en"),
        "replay": replay(engine, example_state, [example_move], "en"),
        "score": standings(engine, state, "en"),
    }


def _in_script(answer: dict, lang: str) -> dict:
    """A verdict, replay or standings for a Chinese asker whose Accept-Language asks for Simplified
    script (zh-Hans, zh-CN): Referee's messages converted; the rulebooks' quotes stay as written."""
    if lang != "zh" or not prefers_simplified(flask.request.headers.get("Accept-Language")):
        return answer

    def convert(value, key=None):
        if isinstance(value, dict):
            return {k: convert(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [convert(v, key) for v in value]
        return to_simplified(value) if isinstance(value, str) and key in ("message", "interpretation") else value

    return convert(answer)


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


def _routes(game: str) -> None:
    """The five routes of one game, each documented with the game's own state and move schemas."""
    schemas = game_schemas(game)
    name = "".join(word.title() for word in game.split("-"))  # MammaMia: operation ids
    answers = _response_examples(game)

    def operation(action: str, operation_id: str, arguments, response, **argument_options):
        """One of the game's routes: its request and 200 schemas, the errors it documents, an
        example answer and its operation id."""
        decorators = [
            blp.route(f"/v1/games/{game}/{action}", methods=["POST"], endpoint=f"{game}-{action}"),
            blp.arguments(arguments, as_kwargs=True, **argument_options),
            blp.response(200, response, example=answers[action]),
            blp.alt_response(422, response="UNPROCESSABLE_ENTITY"),
            blp.alt_response(413, response=TOO_LARGE),
            blp.doc(operationId=operation_id),
        ]

        def decorate(view):
            for decorator in reversed(decorators):  # as if stacked above the view, top first
                view = decorator(view)
            return view

        return decorate

    @operation("setup", f"setup{name}Game", SetupIn, schemas.state_out)
    def setup(players, seed, options):
        """Set up a new game for a number of players, shuffled from the seed.

        400 when players or seed is missing or not an integer; 422 when the game cannot be set up
        that way (a player count outside the game's range, an unknown option).
        """
        with _unprocessable(state_field=""):  # setup's fields are the request's own
            return {"state": ENGINES[game].setup(players, seed, options)}

    @operation("legal-moves", f"list{name}LegalMoves", schemas.state_in, schemas.legal_moves_out)
    def legal_moves(state):
        """List every legal move in a state, or the final result when the game is over.

        400 when the state is malformed (a missing field, a wrong type); 422 when it is well formed
        but impossible under the game's rules, naming the field and the broken invariant.
        """
        engine = ENGINES[game]
        state = _load(game, 0, state, "state")
        with _unprocessable():
            return {"moves": engine.legal_moves(state), "result": engine.result(state)}

    @operation("adjudicate", f"adjudicate{name}Move", schemas.adjudicate_in, schemas.verdict_out,
               examples=_worked_examples(game))
    def adjudicate_move(state, move, lang):
        """Judge one move: legal with the state after it, or every rule it breaks, cited.

        An illegal move is a 200 with legal false and its violations, not an error. 400 when the
        state or move is malformed (a missing field, a field the move's kind needs); 422 when the
        state is impossible or the move's kind is unknown.
        """
        state = _load(game, 0, state, "state")
        move = _load(game, 1, move, "move")
        with _unprocessable():
            return _in_script(adjudicate(ENGINES[game], state, move, lang), lang)

    @operation("replay", f"replay{name}Moves", schemas.replay_in, schemas.replay_out)
    def replay_moves(state, moves, lang):
        """Check a whole sequence of moves and report the first illegal one with the state before it.

        A log with an illegal move is a 200 naming it, not an error. 400 and 422 as for adjudicate,
        with the move's position in the log (moves.3) in the field name.
        """
        state = _load(game, 0, state, "state")
        moves = [_load(game, 1, m, f"moves.{i}") for i, m in enumerate(moves)]
        with _unprocessable(move_field="moves"):
            return _in_script(replay(ENGINES[game], state, moves, lang), lang)


    @operation("score", f"score{name}Game", schemas.score_in, ScoreOut)
    def score(state, lang):
        """Who is winning, or who won: each player's standing with one cited line per scoring rule,
        the winners (final once the game is over, the leaders until then) and the rule that settles
        a tie.

        400 when the state is malformed; 422 when it is impossible under the game's rules.
        """
        state = _load(game, 0, state, "state")
        with _unprocessable():
            return _in_script(standings(ENGINES[game], state, lang), lang)


for _game_id in ENGINES:
    _routes(_game_id)

# A game without an adjudicator, or no game at all: a 404 that says which games have one. Not in
# the API description, which lists each game's routes.
no_adjudicator = flask.Blueprint("no-adjudicator", __name__)


@no_adjudicator.route(f"/v1/games/<game>/<any({', '.join(map(repr, ACTIONS))}):action>", methods=["POST"])
def no_such_adjudicator(game, action):
    """404 naming the games that have an adjudicator."""
    if game in library().games:
        abort(404, message=f"Referee cannot adjudicate {game!r} yet. Games with an adjudicator: {', '.join(ENGINES)}.")
    abort(404, message=f"No game {game!r}. Known games: {', '.join(library().games)}.")
