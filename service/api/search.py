from service.api import Blueprint, best_language, library
from service.language import say
from service.schemas import LanguageHintArgs, SearchArgs, SearchOut

blp = Blueprint("search", __name__, description="Rulebook search across every rulebook language.")


@blp.route("/v1/search")
@blp.arguments(SearchArgs, location="query", as_kwargs=True)
@blp.arguments(LanguageHintArgs, location="headers", as_kwargs=True)
@blp.response(200, SearchOut)
def search(q, game, lang, limit, accept_language):
    """Rank rulebook passages of every language for a question in any language."""
    result = library().search(q, game=game, limit=limit, lang=lang, hint=best_language(accept_language))
    return {
        "query": {"q": q, "lang": result.lang, "game": game},
        "did_you_mean": None if result.corrected is None else {
            "text": result.corrected, "message": say("did_you_mean", result.lang, text=result.corrected),
        },
        "hits": result.hits,
    }
