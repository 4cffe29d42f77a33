"""Shared fixtures: one index built from the real corpus per test session, the app and a client."""

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from indexer.build import DEFAULT_CORPUS, build
from service import create_app

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = ROOT / "corpus" / "sources"  # the rulebooks as received
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session")
def index_dir(tmp_path_factory) -> Path:
    index = tmp_path_factory.mktemp("index") / "index"
    build(index, DEFAULT_CORPUS)
    return index


@pytest.fixture(scope="session")
def corpus_embeddings(index_dir) -> Path:
    """The embeddings file the session's build left beside its index (indexer.vectors.EmbeddingCache)."""
    return index_dir.parent / f".{index_dir.name}.embeddings"


def seeded(index: Path, embeddings: Path) -> Path:
    """``index``, with the corpus's embeddings beside it as an earlier build there would have left
    them: a test's build of the corpus then embeds only what it adds (embedding the corpus's 8,000
    texts takes 20 of a build's 22 s), as a build on a user's machine does after the first."""
    index.parent.mkdir(parents=True, exist_ok=True)
    cache = index.parent / f".{index.name}.embeddings"
    if not cache.exists():
        shutil.copyfile(embeddings, cache)
    return index


@pytest.fixture(scope="session")
def app(index_dir, tmp_path_factory):
    """The app over the session's index; a rulebook a test adds would go to a library of its own."""
    return create_app({"REFEREE_INDEX": str(index_dir), "REFEREE_LIBRARY": str(tmp_path_factory.mktemp("library")),
                       "TESTING": True})


@pytest.fixture(scope="module", params=["whoosh", "tantivy"])
def app_of_each_backend(request, index_dir):
    """The app once with each search backend (REFEREE_SEARCH_BACKEND), for the modules whose every
    test should hold for both: they override ``app`` and ``library`` with it (tests/api/test_search.py)."""
    app = create_app({"REFEREE_INDEX": str(index_dir), "REFEREE_SEARCH_BACKEND": request.param, "TESTING": True})
    yield app
    app.extensions["referee.librarian"].current().close()


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def library(app):
    return app.extensions["referee.librarian"].current()


@pytest.fixture(scope="session")
def base_url(app):
    """The app served over a real socket on a free port, for browsers and generated clients."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def finish_rebuilds() -> None:
    """Wait for the rebuilds the tests started (a thread each): none may run into the next module,
    whose first imports would compile beside it (CPython 3.11.7's AST validator keeps its recursion
    depth per interpreter, not per thread: two compiles at once can fail with a SystemError)."""
    for thread in threading.enumerate():
        if thread.name.startswith("rebuild-"):
            thread.join(timeout=300)



def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server(index_dir):
    """The production server as make run starts it (gunicorn, service.gunicorn_conf: the API and /mcp
    on one port), on a free port; its port."""
    port = free_port()
    env = {**os.environ, "PORT": str(port), "REFEREE_INDEX": str(index_dir), "REFEREE_LOG_LEVEL": "warning",
           "REFEREE_HEAD_SECONDS": "4", "REFEREE_BODY_SECONDS": "4",  # short, for tests/api/test_server.py
           "REFEREE_RATE_LIMIT": "off"}  # the whole suite is one client here (the limits: tests/api/test_asgi.py)
    process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:service.gunicorn_conf"],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            assert process.poll() is None, process.stderr.read().decode()
            time.sleep(0.2)
    yield port
    process.terminate()
    process.wait(timeout=30)
