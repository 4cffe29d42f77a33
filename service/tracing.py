"""Every request gets an id and one structured log line.

The id is the client's ``X-Request-ID`` when it is a sensible token, a new one otherwise; it is
echoed in the response header, in every problem+json body and in the log line, so a player's
complaint ("this answer was wrong") can be found in the logs. The log line is JSON: method, path,
status, duration, request id and the index generation that answered.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import uuid

from flask import Flask, g, has_request_context, request

REQUEST_ID = "X-Request-ID"
_TOKEN = re.compile(r"[A-Za-z0-9._:+/=-]{1,128}")

log = logging.getLogger("referee.requests")


def take_id(given: str | None) -> str:
    """The request's id: the client's X-Request-ID when it is a sensible token, else a new one."""
    return given if given and _TOKEN.fullmatch(given) else uuid.uuid4().hex


def log_request_line(method: str, path: str, status: int, started: float, rid: str, index: str | None = None) -> None:
    """The one JSON line of a request (``started``: its time.perf_counter() at arrival)."""
    log.info(json.dumps({
        "event": "request",
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "method": method,
        "path": path,
        "status": status,
        "ms": round((time.perf_counter() - started) * 1000, 2),
        "request_id": rid,
        "index": index,
    }))


def request_id() -> str | None:
    """The current request's id (None outside a request)."""
    return g.get("request_id") if has_request_context() else None


def setup_logging(level: str) -> None:
    """Referee's loggers write to stderr (gunicorn's error log) at ``level``, once per process."""
    logger = logging.getLogger("referee")
    logger.setLevel(level.upper())
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
        logger.propagate = False


def init_app(app: Flask) -> None:
    setup_logging(app.config["REFEREE_LOG_LEVEL"])

    @app.before_request
    def take_request_id():
        g.request_id = take_id(request.headers.get(REQUEST_ID))
        g.started = time.perf_counter()

    @app.after_request
    def log_request(response):
        response.headers[REQUEST_ID] = g.request_id
        if request.endpoint and request.endpoint.startswith("docs."):
            return response  # the documentation page's assets are not requests worth a line
        log_request_line(request.method, request.path, response.status_code, g.started, g.request_id,
                         response.headers.get("X-Referee-Index"))
        return response
