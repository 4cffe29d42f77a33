"""The whole service on one host and port: the MCP server's streamable HTTP at /mcp (ASGI, the SDK's
own), and everything else to the Flask app (WSGI) through a2wsgi. gunicorn runs
``create_asgi_app()`` with uvicorn's worker (service/gunicorn_conf.py).

Before a request reaches Flask, its body is read here, on the event loop, up to the body limit: a
client that sends its body slowly holds a coroutine, not one of the threads Flask's views run on,
and a body over the limit is refused (413, by the app's own check) however it is sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from http import HTTPStatus

from a2wsgi import WSGIMiddleware
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette

from service import body_limit, create_app, tracing
from service import mcp as referee_mcp
from service.config import Settings
from service.api.chat import authorized
from service.errors import PROBLEM_JSON, send_problem
from service.throttle import Throttle

# Flask's views run on these threads, per worker. The work is CPU-bound Python under one GIL: more
# threads only fight over it (searches saturated on two cores: 143/s with 2 threads, 125/s with 4,
# 82/s with 8). Bodies are read before a view runs, so a slow client does not hold one.
_SETTINGS = Settings.read()
FLASK_THREADS = _SETTINGS.threads
# The longest a body may pause between two of its parts: a client that stops sending holds a
# coroutine and a socket until then, then gets a 408.
BODY_SECONDS = _SETTINGS.body_seconds


def _headers(scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}


class BufferedBody:
    """Reads a request's whole body before the WSGI app sees it, and declares its length. A body
    over ``limit`` bytes is cut one byte past it and declared so: the app's own check answers 413,
    as it does for any route (the chat routes in OpenAI's form), and the connection is closed after."""

    def __init__(self, app, limit):
        """``limit(method, path)``: the largest body the request may send (service.body_limit)."""
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started, limit = time.perf_counter(), self.limit(scope.get("method", "GET"), scope.get("path", ""))
        body = bytearray()
        while len(body) <= limit:
            try:
                message = await asyncio.wait_for(receive(), BODY_SECONDS)
            except asyncio.TimeoutError:
                rid = tracing.take_id(None)
                await send_problem(send, 408, "Request Timeout", f"The body paused for more than {BODY_SECONDS:g} seconds.",
                                   rid, [(b"connection", b"close")])
                tracing.log_request_line(scope.get("method", ""), scope.get("path", ""), 408, started, rid)
                return
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        over = len(body) > limit
        body = bytes(body[:limit + 1])
        given = False

        async def replay():
            nonlocal given
            if given:
                return await receive()  # after the body: the disconnect, when it comes
            given = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def closing(message):  # the rest of an oversized body is never read: do not keep the connection
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), (b"connection", b"close")]}
            await send(message)

        headers = [(k, v) for k, v in scope.get("headers", ()) if k.lower() not in (b"content-length", b"transfer-encoding")]
        scope = {**scope, "headers": [*headers, (b"content-length", str(len(body)).encode())]}
        await self.app(scope, replay, closing if over else send)


class NoSniff:
    """Every response says its Content-Type is the one to believe (X-Content-Type-Options: nosniff):
    a browser never runs a JSON answer or a rulebook's text as a script or a page."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def sniffless(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), (b"x-content-type-options", b"nosniff")]}
            await send(message)

        await self.app(scope, receive, sniffless)


class McpGate:
    """In front of the MCP server: the request id and log line every request of Referee's has,
    REFEREE_API_KEY's bearer check (service.api.chat.keys), and POST only (the server is stateless:
    it opens no stream for GET, and has no session for DELETE to end)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started, headers = time.perf_counter(), _headers(scope)
        rid = tracing.take_id(headers.get("x-request-id"))
        status = 500

        plain, said = False, bytearray()  # the SDK's own refusals (413, 421, 403, 400) are text/plain: sent as problems

        async def tagged(message):
            nonlocal status, plain
            if message["type"] == "http.response.start":
                status = message["status"]
                content_type = dict(message.get("headers", ())).get(b"content-type", b"")
                if status >= 400 and not content_type.startswith((b"application/json", PROBLEM_JSON.encode())):
                    plain = True
                    return
                message = {**message, "headers": [*message.get("headers", ()), (b"x-request-id", rid.encode())]}
            elif plain:
                said.extend(message.get("body", b""))
                if not message.get("more_body", False):
                    detail = said.decode("utf-8", "replace").strip()[:500] or HTTPStatus(status).description
                    await send_problem(send, status, HTTPStatus(status).phrase, detail, rid, [(b"x-request-id", rid.encode())])
                return
            await send(message)

        try:
            if scope["method"] != "POST":
                await send_problem(tagged, 405, "Method Not Allowed", "The MCP endpoint takes POST (streamable HTTP, stateless).",
                                   rid, [(b"allow", b"POST")])
            elif not authorized(headers.get("authorization")):
                await send_problem(tagged, 401, "Unauthorized", "Send Authorization: Bearer <key>, a key of REFEREE_API_KEY.",
                                   rid, [(b"www-authenticate", b'Bearer realm="referee"')])
            else:
                await self.app(scope, receive, tagged)
        finally:
            tracing.log_request_line(scope["method"], scope["path"], status, started, rid)


def create_asgi_app(flask_app=None):
    """The ASGI app: /mcp to the MCP server, the rest to Flask (Starlette for the lifespan)."""
    flask_app = flask_app or create_app()
    server = referee_mcp.build(flask_app)
    settings = Settings.read()
    host = settings.host
    # The SDK checks Host and Origin (DNS rebinding) on a loopback host; other hosts name theirs here.
    allowed = list(settings.mcp_allowed_hosts)
    security = TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                         allowed_hosts=allowed + ["127.0.0.1:*", "localhost:*", "[::1]:*"],
                                         allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]) \
        if host in ("127.0.0.1", "localhost", "::1") else None
    mcp_http = server.streamable_http_app(streamable_http_path="/mcp", stateless_http=True, json_response=True,
                                          transport_security=security, host=host,
                                          max_request_body_size=flask_app.config["MAX_CONTENT_LENGTH"])
    mcp_app = McpGate(mcp_http)
    def limit(method: str, path: str) -> int:
        return body_limit(flask_app.config, method, path)

    flask = BufferedBody(WSGIMiddleware(flask_app, workers=FLASK_THREADS), limit)
    # /healthz on a thread of its own: a load balancer's check never waits behind the searches
    health = BufferedBody(WSGIMiddleware(flask_app, workers=1), limit)

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        async with server.session_manager.run():  # the MCP server's task group, while the server runs
            yield

    by_path = {"/mcp": mcp_app, "/healthz": health}

    async def route(scope, receive, send):  # by the exact path: a route's pattern ends at a newline ("/mcp\n")
        await by_path.get(scope["path"], flask)(scope, receive, send)

    app = Starlette(lifespan=lifespan)
    app.router.default = route
    return NoSniff(Throttle(app))

