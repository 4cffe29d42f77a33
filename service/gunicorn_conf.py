"""gunicorn's settings for Referee, read from the environment (make run: gunicorn -c python:service.gunicorn_conf).

Worker class: gevent. A thread-per-connection worker (gthread) gives a thread to a connection as
soon as its first byte arrives, and a client that sends its headers slowly keeps that thread:
twenty such clients shut everyone else out. gunicorn's documentation asks for either a buffering
proxy in front (nginx) or an async worker; Referee runs on its own, so each worker serves its
connections from greenlets (up to REFEREE_WORKER_CONNECTIONS), and a slow client costs one greenlet
and a socket. The work of a request is CPU-bound Python either way: throughput comes from the
number of worker processes.
"""

import os


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default)


bind = f"{_env('REFEREE_HOST', '127.0.0.1')}:{_env('PORT', '8000')}"
workers = int(_env("REFEREE_WORKERS", "2"))
worker_class = "gevent"
worker_connections = int(_env("REFEREE_WORKER_CONNECTIONS", "1000"))
timeout = int(_env("REFEREE_TIMEOUT", "30"))  # a worker silent this long is restarted
graceful_timeout = int(_env("REFEREE_GRACEFUL_TIMEOUT", "10"))
keepalive = int(_env("REFEREE_KEEPALIVE", "5"))
limit_request_line = 16384  # a 500-character Chinese question is 4,500 bytes once percent-encoded
loglevel = _env("REFEREE_LOG_LEVEL", "info")
accesslog = None  # the app logs one structured line per request (service.requests)
wsgi_app = "service:create_app()"
control_socket_disable = True  # gunicorn's control socket sits in ~/.gunicorn: one per user, not per server
