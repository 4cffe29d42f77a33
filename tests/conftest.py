"""Shared fixtures: one index built from the real corpus per test session, the app and a client."""

import threading
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
def app(index_dir):
    return create_app({"REFEREE_INDEX": str(index_dir), "TESTING": True})


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
