"""Every error leaves the service as application/problem+json (RFC 9457)."""

from __future__ import annotations

import logging
import time
import traceback

from flask import Response, has_request_context, json, request
from werkzeug.exceptions import HTTPException, InternalServerError

from service.tracing import request_id

PROBLEM_JSON = "application/problem+json"

log = logging.getLogger("referee.errors")  # Referee's handler (service.tracing), not the root's


def log_unexpected(error: BaseException) -> None:
    """A failure nobody foresaw: one JSON line with the request id, the error and where it was
    raised, and the whole traceback at debug level only (a rich traceback of 150 lines cost a
    worker about a second of CPU a 500)."""
    asked = has_request_context()
    frame = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
    log.error(json.dumps({
        "event": "error",
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "method": request.method if asked else None,
        "path": request.path if asked else None,
        "request_id": request_id(),
        "error": f"{type(error).__name__}: {error}"[:300],
        "at": f"{frame[0].filename}:{frame[0].lineno}" if frame else None,
    }, ensure_ascii=False))
    log.debug("traceback of request %s", request_id(), exc_info=error)


def problem(status: int, title: str, detail: str | None = None, errors=None, type_: str = "about:blank",
            headers=None, **members) -> Response:
    """A problem+json response; ``members`` are extension members (the chat routes' OpenAI ``error``)."""
    body = {"type": type_, "title": title, "status": status}
    if detail:
        body["detail"] = detail
    if errors:
        body["errors"] = errors
    if request_id():
        body["request_id"] = request_id()
    body.update(members)
    return Response(json.dumps(body, ensure_ascii=False), status=status, mimetype=PROBLEM_JSON, headers=headers)


def _field_errors(messages) -> dict:
    """webargs nests messages by location ({"query": {"q": [...]}}): clients want field paths."""
    if isinstance(messages, dict) and len(messages) == 1:
        (location, inner), = messages.items()
        if location in ("query", "json", "view_args", "path", "form", "files") and isinstance(inner, dict):
            return inner
    return messages


def _detail(errors: dict) -> str:
    parts = []
    for field, messages in errors.items():
        if isinstance(messages, list):
            text = "; ".join(str(m).rstrip(".") for m in messages) + "."  # "Too long; must contain ..."
        else:
            text = "invalid"
        parts.append(f"{field}: {text}")
    return "Invalid input. " + " ".join(parts) if parts else "Invalid input."


def handle_http_exception(error: HTTPException) -> Response:
    data = getattr(error, "data", None) or {}
    # The exception's own headers (Allow on a 405, for one) go out with the problem.
    headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
    errors = data.get("errors") or data.get("messages")
    if errors:
        in_body = isinstance(errors, dict) and "json" in errors
        errors = _field_errors(errors)
        detail = data.get("message") or _detail(errors)
        if in_body and request.content_length and not request.is_json:  # a form or text body, read as none
            detail = f"Send the body as JSON, with Content-Type: application/json. {detail}"
        return problem(error.code, error.name, detail, errors=errors, headers=headers)
    detail = data.get("message") or error.description
    if isinstance(error, InternalServerError):
        original = getattr(error, "original_exception", None)
        if original is not None:
            log_unexpected(original)
        detail = "Referee failed to answer this request; the failure is logged."
    return problem(error.code or 500, error.name, detail, headers=headers)


def register(app) -> None:
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(Exception, lambda e: handle_http_exception(_internal(e)))


def _internal(error: Exception) -> InternalServerError:
    wrapped = InternalServerError()
    wrapped.original_exception = error
    return wrapped


def problem_body(status: int, title: str, detail: str, rid: str | None = None) -> bytes:
    """A problem's JSON, for what answers before Flask does (the ASGI middleware, the worker's protocol)."""
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail}
    if rid:
        body["request_id"] = rid
    return json.dumps(body, ensure_ascii=False).encode()


async def send_problem(send, status: int, title: str, detail: str, rid: str, extra=()) -> None:
    """The same problem, sent by ASGI middleware in front of Flask (``send``: ASGI's; ``extra``:
    more headers as (bytes, bytes) pairs)."""
    data = problem_body(status, title, detail, rid)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", PROBLEM_JSON.encode()), (b"content-length", str(len(data)).encode()), *extra]})
    await send({"type": "http.response.body", "body": data})
