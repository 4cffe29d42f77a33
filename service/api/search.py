from service.api import Blueprint, library
from service.library import guess_lang
from service.schemas import SearchArgs, SearchOut

blp = Blueprint("search", __name__, description="Rulebook search across every rulebook language.")


@blp.route("/v1/search")
@blp.arguments(SearchArgs, location="query", as_kwargs=True)
@blp.response(200, SearchOut)
def search(q, game, lang, limit):
    """Rank rulebook passages of every language for a question."""
    hits = library().search(q, game=game, limit=limit)
    return {
        "query": {"q": q, "lang": lang or guess_lang(q), "game": game},
        "hits": hits,
    }
