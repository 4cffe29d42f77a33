import functools

from flask import request
from flask_smorest import abort

from indexer.analysis import to_simplified
from service.api import Blueprint, library
from service.api.adjudicate import ACTIONS
from service.engines import ENGINES, GAMES
from service.engines.registry import move_shapes
from service.engines.base import load_words
from service.schemas import GameDetailOut, GamesOut, PassageOut, RulebookOut

blp = Blueprint("games", __name__, description="The games, their rulebooks and passages.")

@blp.after_request
def cacheable(response):
    """An ETag on what only the index changes, to be checked at each use (a table may add a game at
    any time): 304 when the client's copy is current."""
    if request.method in ("GET", "HEAD") and response.status_code == 200:
        response.cache_control.public = True
        response.cache_control.no_cache = True
        response.add_etag()
        response.make_conditional(request)
    return response

_GAME_FIELDS = ("id", "names", "players", "designer", "publisher")


def _game(game_id: str) -> dict:
    lib = library()
    game = lib.games.get(game_id)
    if game is None:
        abort(404, message=f"No game {game_id!r}. Known games: {', '.join(lib.games)}.")
    summary = {k: game[k] for k in _GAME_FIELDS if k in game}
    summary["rulebooks"] = lib.rulebook_langs(game_id)
    summary["adjudicator"] = _adjudicator(game_id)
    return summary


def _adjudicator(game_id: str) -> dict | None:
    engine = ENGINES.get(game_id)
    if engine is None:
        return None
    return {
        "routes": [f"/v1/games/{game_id}/{action}" for action in ACTIONS],
        "players": list(engine.players),
        "rulesets": list(engine.rulesets),
        "readings": [option.as_dict() for option in getattr(engine, "readings", ())],
        "setup_options": engine.setup_options,
        "moves": move_shapes(GAMES[game_id].move_schema),
        "words": _words(game_id),
    }


@functools.lru_cache(maxsize=None)
def _words(game_id: str) -> dict:
    """The game's own words by language, and in Simplified script too (zh-Hans) for a Chinese
    interface that reads it: the rules files write Chinese in Traditional script."""
    words = load_words(game_id).by_lang()
    words["zh-Hans"] = {key: to_simplified(word) for key, word in words["zh"].items()}
    return words


def _rulebook_meta(game_id: str, lang: str) -> dict:
    entries = library().games[game_id].get("rulebooks", [])
    return next((e for e in entries if e["lang"] == lang), {})


@blp.route("/v1/games")
@blp.response(200, GamesOut)
@blp.doc(operationId="listGames")
def list_games():
    """List the games with their names and rulebook languages."""
    return {"games": [_game(game_id) for game_id in library().games]}


@blp.route("/v1/games/<game>")
@blp.response(200, GameDetailOut)
@blp.alt_response(404, response="NOT_FOUND")
@blp.doc(operationId="getGame")
def get_game(game):
    """One game with the outline of each rulebook and where its rulebooks disagree."""
    lib = library()
    detail = _game(game)
    detail["outlines"] = []
    for lang in detail["rulebooks"]:
        book = lib.rulebooks[(game, lang)]
        meta = _rulebook_meta(game, lang)
        detail["outlines"].append(
            {
                **{k: book[k] for k in ("lang", "title", "source")},
                **{k: meta[k] for k in ("provenance", "missing") if k in meta},
                "sections": [{**s, "passages": len(s["passages"])} for s in book["sections"]],
            }
        )
    detail["disagreements"] = lib.disagreements_for(game)
    return detail


@blp.route("/v1/rulebooks/<game>/<lang>")
@blp.response(200, RulebookOut)
@blp.alt_response(404, response="NOT_FOUND")
@blp.doc(operationId="getRulebook")
def get_rulebook(game, lang):
    """A whole rulebook: its sections in order, each with its passages."""
    lib = library()
    _game(game)
    book = lib.rulebooks.get((game, lang))
    if book is None:
        have = ", ".join(lib.rulebook_langs(game))
        abort(404, message=f"No {lang!r} rulebook for {game!r}. Its rulebooks: {have}.")
    return {**book, **{k: v for k, v in _rulebook_meta(game, lang).items() if k in ("provenance", "missing")}}


@blp.route("/v1/passages/<passage_id>")
@blp.response(200, PassageOut)
@blp.alt_response(404, response="NOT_FOUND")
@blp.doc(operationId="getPassage")
def get_passage(passage_id):
    """One passage, with its section and the rulebook's exact words."""
    passage = library().passages.get(passage_id)
    if passage is None:
        abort(404, message=f"No passage {passage_id!r}.")
    return passage
