"""Limits the worker that serves enforces before a request reaches the app: the size of a request's
head (its request line and headers) and the time a client may take to send it.

gunicorn's ``limit_request_*`` settings bind its own workers only; uvicorn's worker reads headers
with httptools and has neither a size limit nor a deadline for them (one 100 MB header was read for
29 s and grew the worker by 196 MB). ``GuardedHttpTools`` is uvicorn's httptools protocol with both:
a head over ``REFEREE_MAX_HEAD_BYTES`` is answered 431, a head not complete within
``REFEREE_HEAD_SECONDS`` of the connection or of its first byte 408, each as problem+json on a
closed connection. A body's pace is service.asgi's (BufferedBody); idle keep-alive connections are
closed after gunicorn's ``keepalive`` seconds (uvicorn's ``timeout_keep_alive``).
"""

from __future__ import annotations

from http import HTTPStatus

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

from service.errors import problem_body
from service.config import Settings

LINGER_SECONDS = 2.0  # after a refusal, what the client still sends is read and dropped this long
LINGER_BYTES = 4 * 1024 * 1024  # or until this much came: then the connection is cut
_SETTINGS = Settings.read()
MAX_HEAD_BYTES = _SETTINGS.max_head_bytes  # a request line and its headers
HEAD_SECONDS = _SETTINGS.head_seconds


def refusal(status: int, detail: str) -> bytes:
    """A whole HTTP/1.1 response: the problem, and the connection closed after it."""
    phrase = HTTPStatus(status).phrase
    body = problem_body(status, phrase, detail)
    return (f"HTTP/1.1 {status} {phrase}\r\ncontent-type: application/problem+json\r\n"
            f"content-length: {len(body)}\r\nx-content-type-options: nosniff\r\nconnection: close\r\n\r\n").encode() + body


class GuardedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol, with a limit on the head's size and a deadline for it."""

    in_head = True  # from the connection or a request's first byte until its headers are read
    head_bytes = 0  # of this head, as read (the first chunk of a keep-alive connection's next request not)
    asked = False  # some byte of a request came
    head_deadline = None
    dropped = None  # bytes read and dropped since a refusal (None: not refused)

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._await_head()

    def connection_lost(self, exc) -> None:
        self._cancel_deadline()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.in_head = self.asked = True
        if self.head_deadline is None:
            self._await_head()

    def on_headers_complete(self) -> None:
        self.in_head, self.head_bytes = False, 0
        self._cancel_deadline()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # idle now: uvicorn's keep-alive timer runs, not the head's
        self.in_head = self.asked = False

    def data_received(self, data: bytes) -> None:
        if self.dropped is not None:  # refused: read on, so that closing does not reset the refusal away
            self.dropped += len(data)
            if self.dropped > LINGER_BYTES:
                self.transport.abort()
            return
        if self.in_head:  # a chunk that ends the head may bring body bytes too: at most one read's worth
            self.head_bytes += len(data)
        super().data_received(data)
        if self.in_head and self.head_bytes > MAX_HEAD_BYTES and not self.transport.is_closing():
            self._refuse(431, f"The request line and headers take more than {MAX_HEAD_BYTES} bytes.")

    def _await_head(self) -> None:
        self._cancel_deadline()
        self.in_head = True
        self.head_deadline = self.loop.call_later(HEAD_SECONDS, self._head_too_slow)

    def _cancel_deadline(self) -> None:
        if self.head_deadline is not None:
            self.head_deadline.cancel()
            self.head_deadline = None

    def _head_too_slow(self) -> None:
        self.head_deadline = None
        if self.in_head and not self.transport.is_closing():
            if self.asked:
                self._refuse(408, f"The request line and headers did not arrive within {HEAD_SECONDS:g} seconds.")
            else:  # nothing asked: nobody to answer
                self.transport.close()

    def _refuse(self, status: int, detail: str) -> None:
        """Answer and close, lingering: closing a socket with unread bytes sends a reset, which can
        reach the client before the answer and discard it; so the answer is written, the writing
        side shut, and what still comes read and dropped for a moment (as nginx's lingering_close)."""
        self._cancel_deadline()
        self.logger.warning("refused a connection from %s: %s %s", self.client, status, detail)
        self.dropped = 0
        self.transport.write(refusal(status, detail))
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_SECONDS, self.transport.close)


class Worker(UvicornWorker):
    """gunicorn's worker for Referee: uvicorn's, reading requests with GuardedHttpTools."""

    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "http": GuardedHttpTools}
