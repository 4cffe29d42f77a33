from service.api import Blueprint, best_language, library
from service.ask import ask
from service.schemas import AskIn, AskOut, LanguageHintArgs

blp = Blueprint("ask", __name__, description="Questions answered from the rulebooks, with citations.")


@blp.route("/v1/ask", methods=["POST"])
@blp.arguments(AskIn, as_kwargs=True)
@blp.arguments(LanguageHintArgs, location="headers", as_kwargs=True)
@blp.response(200, AskOut)
def post_ask(question, game, lang, accept_language):
    """Answer a question in any language from the rulebooks, or say that they do not answer it."""
    return ask(library(), question, game=game, lang=lang, hint=best_language(accept_language))
