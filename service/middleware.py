"""WSGI middleware: what must happen before Flask reads a request."""

from __future__ import annotations

import io
from typing import Callable

from werkzeug.wsgi import get_content_length


class DeclaredLength:
    """Gives a chunked body a Content-Length, so that the one size check covers it too.

    A body sent without Content-Length (Transfer-Encoding: chunked) is read here, up to one byte
    over ``limit``, and declared with its length: the app's check then answers 413 for a body
    over the limit, as it does for a declared one. (Werkzeug would instead cut such a body at the
    limit and hand the app a truncated document.)
    """

    def __init__(self, app, limit: Callable[[str, str], int]):
        """``limit(method, path)``: the largest body the request may send."""
        self.app = app
        self.limit = limit

    def __call__(self, environ, start_response):
        if environ.get("wsgi.input_terminated") and get_content_length(environ) is None:
            limit = self.limit(environ.get("REQUEST_METHOD", "GET"), environ.get("PATH_INFO", ""))
            body = environ["wsgi.input"].read(limit + 1)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)  # the app now gets a plain, measured body
        return self.app(environ, start_response)
