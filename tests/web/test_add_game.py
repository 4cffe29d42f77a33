"""A table adds the game it plays from the web app: upload, progress, then its Chat and Rulebook."""

from __future__ import annotations

import threading

import pytest
from werkzeug.serving import make_server

from indexer.build import DEFAULT_CORPUS, build
from service import create_app
from tests.conftest import FIXTURES, finish_rebuilds, seeded

pytestmark = pytest.mark.browser
PRINTED = FIXTURES / "rulebooks" / "pilzsammler.de.pdf"


@pytest.fixture(scope="module")
def base_url(tmp_path_factory, corpus_embeddings):
    """An app over its own index and library (adding a game changes them), served on a free port."""
    root = tmp_path_factory.mktemp("web-table")
    build(seeded(root / "index", corpus_embeddings), DEFAULT_CORPUS)
    app = create_app({"REFEREE_INDEX": str(root / "index"), "REFEREE_LIBRARY": str(root / "library"),
                      "REFEREE_INDEX_CHECK_SECONDS": 0.0, "TESTING": True})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    finish_rebuilds()


def test_a_german_table_adds_its_pdf_and_asks_about_it(open_page):
    page = open_page("/", locale="de-DE")
    page.get_by_role("link", name="Spiel hinzufügen").click()
    page.get_by_label("Spielregel", exact=True).set_input_files(str(PRINTED))
    assert page.get_by_label("Name des Spiels").input_value() == "pilzsammler de"
    page.get_by_label("Name des Spiels").fill("Pilzsammler")
    assert page.get_by_label("Kennung des Spiels (in Links)").input_value() == "pilzsammler"
    page.get_by_role("button", name="Spiel hinzufügen").click()
    page.get_by_text("Fertig: fragt los.").wait_for(timeout=120_000)
    assert page.get_by_text("8 Abschnitte und 10 Textstellen auf 2 Seiten gefunden, auf Deutsch.").is_visible()
    page.get_by_role("link", name="Fragen").click()
    page.get_by_role("heading", name="Pilzsammler").wait_for()
    page.get_by_role("link", name="Regelheft").click()
    page.get_by_text("Im Uhrzeigersinn", exact=False).first.wait_for()
    page.goto(page.url.split("/games/")[0] + "/")
    page.get_by_role("heading", name="Pilzsammler").wait_for()


def test_a_scan_is_refused_in_the_interface_language(open_page):
    page = open_page("/add", locale="fr-FR")
    page.get_by_label("Règle du jeu", exact=True).set_input_files(str(FIXTURES / "rulebooks" / "scan.pdf"))
    page.get_by_label("Nom du jeu").fill("Scanné")
    page.get_by_role("button", name="Ajouter le jeu").click()
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert "Referee n’a pas pu lire ce fichier." in alert.inner_text()
