"""Referee for the chat apps people already run: the OpenAI Chat Completions API (/v1/chat/completions,
/v1/models), as OpenAI's official clients use it, over service.chat.

Errors keep problem+json's members and add OpenAI's ``error`` object (message, type, param, code),
which OpenAI's clients read, with the statuses they expect: 400 malformed, 401 a wrong key, 404 an
unknown model, 413 too large. A key is asked for only when REFEREE_API_KEY is set (see ``keys``).
"""

from __future__ import annotations

import hmac
from http import HTTPStatus

from flask import Response, current_app, json, request, stream_with_context
from werkzeug.exceptions import HTTPException, InternalServerError

from service import chat, errors
from service.config import api_keys
from service.api import Blueprint, best_language, library
from service.schemas import AskOut, ChatCompletionIn, ChatCompletionOut, ChatModelOut, ChatModelsOut, ChatProblemOut

blp = Blueprint("chat", __name__, description="The OpenAI Chat Completions API, answered by Referee with citations.")


def _errors(*statuses: int):
    """Document the chat routes' errors: problem+json with OpenAI's error object."""
    def decorate(view):
        for status in statuses:
            view = blp.alt_response(status, schema=ChatProblemOut, content_type=errors.PROBLEM_JSON,
                                    description=HTTPStatus(status).phrase)(view)
        return view
    return decorate


_CODES = {401: "invalid_api_key", 404: "model_not_found", 413: "request_too_large", 405: "method_not_allowed"}


def keys() -> list[str]:
    """The keys a client must send as ``Authorization: Bearer <key>``: REFEREE_API_KEY, one or several
    separated by commas. None set (the default): no key is asked for."""
    return list(api_keys())


def authorized(header: str | None) -> bool:
    """Whether an Authorization header carries one of the keys (always, when none is set)."""
    wanted = keys()
    if not wanted:
        return True
    scheme, _, given = (header or "").partition(" ")
    return scheme.lower() == "bearer" and any(hmac.compare_digest(given.strip().encode(), k.encode()) for k in wanted)


def openai_error(status: int, message: str, param: str | None = None, code: str | None = None) -> Response:
    """A problem+json body with OpenAI's ``error`` object beside its members."""
    kind = "server_error" if status >= 500 else "invalid_request_error"
    headers = {"WWW-Authenticate": 'Bearer realm="referee"'} if status == 401 else None
    return errors.problem(status, HTTPStatus(status).phrase, message, headers=headers,
                          error={"message": message, "type": kind, "param": param, "code": code or _CODES.get(status)})


def _first_error(messages) -> tuple[str | None, str]:
    """The first field path of webargs' messages ({"json": {"messages": {0: {"role": [...]}}}}), as
    OpenAI names a parameter ("messages[0].role"), and what is wrong with it."""
    messages = errors._field_errors(messages)
    path = ""
    while isinstance(messages, dict) and messages:
        key, messages = next(iter(messages.items()))
        path += f"[{key}]" if isinstance(key, int) or str(key).isdigit() else (f".{key}" if path else str(key))
    said = messages[0] if isinstance(messages, list) and messages else "Invalid value."
    return path or None, str(said)


@blp.errorhandler(HTTPException)
def http_error(error: HTTPException):
    data = getattr(error, "data", None) or {}
    found = data.get("messages") or data.get("errors")
    if found:  # webargs: the body did not fit the schema
        param, said = _first_error(found)
        if not request.is_json:  # a form or text body is read as no body at all
            return openai_error(400, "Send the body as JSON, with Content-Type: application/json.")
        if param == "json" or param is None:  # not a JSON object
            return openai_error(400, f"The body must be a JSON object. {said}")
        return openai_error(400, f"Invalid input. {param}: {said}", param)
    if isinstance(error, InternalServerError):
        return unexpected(getattr(error, "original_exception", None) or error)
    return openai_error(error.code or 500, data.get("message") or error.description)


@blp.errorhandler(Exception)
def unexpected(error: Exception):
    errors.log_unexpected(error)
    return openai_error(500, "Referee failed to answer this request; the failure is logged.")


@blp.before_request
def check_key():
    if request.method == "OPTIONS":  # a browser's CORS preflight never carries the key
        return None
    if not authorized(request.headers.get("Authorization")):
        return openai_error(401, "Incorrect API key provided: send Authorization: Bearer <key>, a key of REFEREE_API_KEY.")


@blp.route("/v1/models")
@blp.response(200, ChatModelsOut)
@_errors(401)
@blp.doc(operationId="listChatModels")
def list_models():
    """The chat models: referee answers from every game's rulebooks, referee-<game> from one game's."""
    return {"object": "list", "data": chat.models(library())}


@blp.route("/v1/models/<model>")
@blp.response(200, ChatModelOut)
@_errors(401, 404)
@blp.doc(operationId="getChatModel")
def get_model(model):
    """One chat model; 404 (model_not_found) when Referee has no such model."""
    found = next((m for m in chat.models(library()) if m["id"] == model), None)
    if found is None:
        return _unknown_model(model, "model")
    return found


def _unknown_model(model: str, param: str | None) -> Response:
    known = ", ".join(m["id"] for m in chat.models(library()))
    return openai_error(404, f"The model {model!r} does not exist. Referee's models: {known}.", param)


@blp.route("/v1/chat/completions", methods=["POST"])
@blp.arguments(ChatCompletionIn)
@blp.response(200, ChatCompletionOut, content_type="application/json")
@_errors(400, 401, 404, 413)
@blp.doc(operationId="createChatCompletion", responses={200: {"content": {"text/event-stream": {
    "schema": {"type": "string", "description": "With stream true: data: lines of chat.completion.chunk objects "
                                                 "(the last with referee), then data: [DONE]."}}}}})
def create_completion(body):
    """Answer the conversation's last user message from the rulebooks, as a chat completion.

    The reply is Markdown: Referee's message, the quoted rule and its citations as links to the
    rulebook pages; a question the rulebooks do not answer gets Referee's refusal and the closest
    passages. ``referee`` holds the structured answer of /v1/ask. A follow-up ("and with three
    players?") is read with the user messages before it: their game, and the question it continues.
    """
    lib = library()
    known, game = chat.game_of_model(lib, body["model"])
    if not known:
        return _unknown_model(body["model"], "model")
    asked, answered = chat.answer(lib, body["messages"], game, best_language(request.headers.get("Accept-Language")))
    referee = AskOut().dump(answered)
    content = chat.reply_markdown(lib, answered, current_app.config["REFEREE_PUBLIC_URL"], asked)
    choices = body.get("n") or 1
    if body.get("stream"):
        events = chat.stream(body["model"], content, referee, choices)
        return Response(stream_with_context(events), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    return Response(json.dumps(chat.completion(body["model"], content, referee, choices), ensure_ascii=False),
                    mimetype="application/json")
