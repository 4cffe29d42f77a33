from service.api import TOO_LARGE, Blueprint, best_language, known_game, library
from service.ask import ask
from service.schemas import AskIn, AskOut, LanguageHintArgs

blp = Blueprint("ask", __name__, description="Questions answered from the rulebooks, with citations.")


@blp.route("/v1/ask", methods=["POST"])
@blp.arguments(AskIn, as_kwargs=True)
@blp.arguments(LanguageHintArgs, location="headers", as_kwargs=True)
@blp.response(200, AskOut)
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(413, response=TOO_LARGE)
@blp.doc(operationId="askQuestion")
def post_ask(question, game, lang, accept_language):
    """Answer a question in any language from the rulebooks, or say that they do not answer it.

    A question the rulebooks do not answer is a 200 with answer null and the closest passages, not
    an error. 400 when the body is not JSON or a field is missing, empty, too long or of the wrong
    type; 404 when game names no game.
    """
    known_game(game)
    return ask(library(), question, game=game, lang=lang, hint=best_language(accept_language),
               accept_language=accept_language)
