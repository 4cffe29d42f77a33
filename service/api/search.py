from service.api import Blueprint, best_language, known_game, library
from service.language import did_you_mean, writes_simplified
from service.schemas import LanguageHintArgs, SearchArgs, SearchOut

blp = Blueprint("search", __name__, description="Rulebook search across every rulebook language.")


@blp.route("/v1/search")
@blp.arguments(SearchArgs, location="query", as_kwargs=True)
@blp.arguments(LanguageHintArgs, location="headers", as_kwargs=True)
@blp.response(200, SearchOut)
@blp.alt_response(404, response="NOT_FOUND")
@blp.doc(operationId="searchPassages")
def search(q, game, lang, limit, accept_language):
    """Rank rulebook passages of every language for a question in any language.

    400 when q is missing, empty or over 500 characters, or game, lang or limit is not one of the
    allowed values; 404 when game names no game. The hits come from every rulebook language,
    best first.
    """
    known_game(game)
    result = library().search(q, game=game, limit=limit, lang=lang, hint=best_language(accept_language))
    question = result.question
    return {
        "query": {"q": q, "lang": question.lang, "game": game},
        "did_you_mean": did_you_mean(question.corrected, question.lang,
                                     writes_simplified(question.lang, q, accept_language)),
        "hits": result.hits,
    }
