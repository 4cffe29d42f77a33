"""gunicorn's settings for Referee, read from the environment by service.config (make run: gunicorn -c python:service.gunicorn_conf).

Worker class: uvicorn's (uvicorn-worker), serving service.asgi: the MCP server's streamable HTTP at
/mcp is ASGI (the official SDK's), the API and the web app are Flask (WSGI, through a2wsgi), and
both answer on one host and port. Each worker reads requests on an event loop, so a client that
sends its headers or its body slowly costs a coroutine and a socket, not a thread (a
thread-per-connection worker gives a connection a thread as soon as its first byte arrives, and
twenty slow clients shut everyone else out). service.asgi reads a body whole before Flask's views
run, on up to REFEREE_THREADS threads per worker. The work of a request is CPU-bound Python either
way: throughput comes from the number of worker processes.
"""

import gc

from service.config import WILDCARD_HOSTS, Settings, phone_url

settings = Settings.read()
bind = f"{settings.host}:{settings.port}"
workers = settings.workers
worker_class = "service.http_guard.Worker"  # uvicorn's, with limits on a request's head (431, 408)
timeout = settings.timeout  # a worker silent this long is restarted
graceful_timeout = settings.graceful_timeout
keepalive = settings.keepalive
# gunicorn's limit_request_* bind its own workers only: service.http_guard limits the head
# (REFEREE_MAX_HEAD_BYTES, REFEREE_HEAD_SECONDS), service.asgi a body's pace (REFEREE_BODY_SECONDS)
loglevel = settings.log_level
accesslog = None  # the app logs one structured line per request (service.requests)
wsgi_app = "service.asgi:create_asgi_app()"
# The app (index, encoder, language detector's word lists and models) loaded once, in the master,
# and shared by the forked workers: each worker's proportional memory 520 -> about 225 MB after
# 10,000 new questions; the first answer 3.4 to 3.9 s after the start (six starts, 2026-12-07; 3.9 to
# 4.4 s before the encoder's words were cut by sentencepiece and the word lists read directly).
# Nothing bound to a process is opened before the fork: searchers, threads and the MCP session
# manager start in each worker. A worker that switches to a rebuilt index loads that generation itself.
preload_app = True
control_socket_disable = True  # gunicorn's control socket sits in ~/.gunicorn: one per user, not per server


def pre_fork(server, worker):
    gc.freeze()  # the loaded objects left out of collections: the collector never writes to their shared pages


def when_ready(server):
    """Say where to open the app: on this machine, and (with a QR code) on a phone at the table."""
    local = "127.0.0.1" if settings.host in WILDCARD_HOSTS else settings.host
    server.log.info("Referee: open http://%s:%s/", local, settings.port)
    phone = phone_url(settings)
    if phone:
        import segno

        server.log.info("Referee: on a phone at the table, open %s or scan:", phone)
        segno.make(phone, micro=False).terminal(compact=True)
