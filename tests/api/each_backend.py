"""``app`` and ``library`` once with each search backend (whoosh, tantivy): a test module that
imports them runs every test of its own under both (tests/conftest.py, ``app_of_each_backend``)."""

import pytest


@pytest.fixture(scope="module")
def app(app_of_each_backend):
    return app_of_each_backend


@pytest.fixture(scope="module")
def library(app):
    return app.extensions["referee.librarian"].current()
