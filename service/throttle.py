"""Per-client rate limits, in front of the API and /mcp alike (ASGI, before a request takes one of
Flask's threads).

A client is its API key when it sends one of REFEREE_API_KEY's, else its address. Each has the
limits of REFEREE_RATE_LIMIT (``limits``' notation, ";" between limits; default 30 a second and 600
a minute: a table of players asking and tapping never comes near, a script flooding /v1/ask does),
counted in a sliding window by the ``limits`` library, in each worker's memory (with two workers a
client may get up to twice as much before every worker has refused it once). A request over a
limit gets a 429 problem with ``Retry-After``, a second after it came; every limited response
carries ``RateLimit-Limit``, ``RateLimit-Remaining``, ``RateLimit-Reset`` and ``RateLimit-Policy``
(the IETF draft's fields) of the limit nearest to running out. Limited: /v1/ and /mcp, except CORS
preflights; /healthz, the web app's pages and its files are not. ``REFEREE_RATE_LIMIT=off`` turns
the limits off (behind a proxy that limits, where every client has the proxy's address).
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import time

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter

from service import tracing
from service.config import Settings
from service.api.chat import authorized, keys
from service.errors import send_problem

REFUSAL_PAUSE = 1.0  # seconds before a 429 is sent


def _limits(spec: str) -> list[RateLimitItem]:
    return [] if spec.strip().lower() in ("off", "none", "") else parse_many(spec)


class Throttle:
    """The ASGI middleware: counts each client's requests to the limited paths, refuses past a limit."""

    def __init__(self, app, spec: str | None = None):
        self.app = app
        self.items = _limits(spec if spec is not None else Settings.read().rate_limit)
        self.limiter = SlidingWindowCounterRateLimiter(MemoryStorage())
        self.policy = ", ".join(f"{item.amount};w={item.get_expiry()}" for item in self.items).encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not self.items or not _limited(scope):
            return await self.app(scope, receive, send)
        client = _client(scope)
        allowed = all([self.limiter.hit(item, client) for item in self.items])  # each counted, like limits' own
        amount, remaining, reset = self._nearest(client)
        headers = [(b"ratelimit-limit", str(amount).encode()), (b"ratelimit-remaining", str(remaining).encode()),
                   (b"ratelimit-reset", str(reset).encode()), (b"ratelimit-policy", self.policy)]
        if not allowed:
            return await self._refuse(scope, send, headers, wait=max(1, reset))

        async def counted(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *headers]}
            await send(message)

        await self.app(scope, receive, counted)

    def _nearest(self, client: str) -> tuple[int, int, int]:
        """The limit nearest to running out for this client: its amount, what is left of it, and
        the seconds until its window starts again."""
        stats = [(self.limiter.get_window_stats(item, client), item) for item in self.items]
        window, item = min(stats, key=lambda s: (s[0].remaining, -s[0].reset_time))
        return item.amount, window.remaining, max(0, math.ceil(window.reset_time - time.time()))

    async def _refuse(self, scope, send, headers, wait: int):
        started, rid = time.perf_counter(), tracing.take_id(_header(scope, b"x-request-id"))
        # Sent after a pause: a client that asks again at once would otherwise have thousands of
        # refusals a second written (3,300/s on two workers, /healthz p99 10 -> 43 ms); paused, one
        # per connection and second. The pause holds a coroutine, not a thread.
        await asyncio.sleep(REFUSAL_PAUSE)
        await send_problem(send, 429, "Too Many Requests",
                           f"More requests than this server takes from one client ({self.policy.decode()}: "
                           f"requests;w=seconds). Try again in {wait} s.",
                           rid, [(b"retry-after", str(wait).encode()), (b"x-request-id", rid.encode()), *headers])
        tracing.log_request_line(scope["method"], scope["path"], 429, started, rid)


def _limited(scope) -> bool:
    path = scope.get("path", "")
    return (path.startswith("/v1/") or path == "/mcp") and scope.get("method") != "OPTIONS"


def _header(scope, name: bytes) -> str | None:
    return next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k.lower() == name), None)


def _client(scope) -> str:
    """The API key (hashed) when the request carries one of REFEREE_API_KEY's, else the address."""
    given = _header(scope, b"authorization")
    if keys() and authorized(given):
        return "key:" + hashlib.sha256(given.partition(" ")[2].strip().encode()).hexdigest()[:16]
    host = (scope.get("client") or ("?", 0))[0]
    return f"address:{host}"
