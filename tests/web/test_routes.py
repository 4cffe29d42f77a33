"""The web app's pages and assets, served by the same Flask app as the API (no browser needed)."""

from __future__ import annotations

import re

import pytest

from service.web import STATIC, strings


def test_the_home_page_is_the_app_with_a_same_origin_policy(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert b'src="/app/app.js"' in response.data


@pytest.mark.parametrize("path", ["/games/mamma-mia/chat", "/games/mamma/rulebook", "/games/mamma-mia/rulebook/fr-zh",
                                  "/games/moemmen/dispute"])
def test_every_tab_of_a_known_game_is_a_page(client, path):
    response = client.get(path)
    assert response.status_code == 200 and response.mimetype == "text/html"


def test_a_game_opens_on_its_chat_tab(client):
    response = client.get("/games/mammut-mambo")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/games/mammut-mambo/chat")


@pytest.mark.parametrize("path", ["/games/chess", "/games/chess/chat", "/games/chess/rulebook/en"])
def test_an_unknown_game_is_a_404_page_not_an_api_error(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.mimetype == "text/html"


@pytest.mark.parametrize("path", ["/nowhere", "/games/mamma-mia/scores"])
def test_a_browser_on_an_unknown_page_gets_the_app_and_an_api_client_gets_a_problem(client, path):
    page = client.get(path, headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert page.status_code == 404 and page.mimetype == "text/html"
    for accept in ("*/*", "application/json"):
        problem = client.get(path, headers={"Accept": accept})
        assert problem.status_code == 404 and problem.mimetype == "application/problem+json"
    assert client.get("/v1/nothing", headers={"Accept": "text/html"}).mimetype == "application/problem+json"


def test_assets_are_served_and_missing_ones_are_404(client):
    assert client.get("/app/app.js").mimetype in ("text/javascript", "application/javascript")
    assert client.get("/app/app.css").mimetype == "text/css"
    assert client.get("/app/nothing.js").status_code == 404


def test_no_asset_refers_to_another_origin():
    for path in STATIC.iterdir():
        # SVG's namespace, in markup or given to createElementNS: a name, not a request
        text = re.sub(r'(xmlns=)?"http://www\.w3\.org/2000/svg"', "", path.read_text(encoding="utf-8"))
        assert not re.search(r"https?://|//[a-z0-9-]+\.[a-z]", text, re.I), path.name


def test_every_interface_language_has_every_string_with_the_same_placeholders():
    table = strings()
    assert set(table) == {"en", "fr", "de", "zh-Hans", "zh-Hant"}
    for lang, texts in table.items():
        assert set(texts) == set(table["en"]), lang
        for key, english in table["en"].items():
            assert set(re.findall(r"\{\w+\}", texts[key])) == set(re.findall(r"\{\w+\}", english)), (lang, key)


def test_traditional_chinese_is_converted_from_the_simplified(client):
    served = client.get("/app/strings.json").get_json()
    assert served["zh-Hans"]["rulebook"] == "规则书"
    assert served["zh-Hant"]["rulebook"] == "規則書"


def test_every_suggested_question_gets_an_answer_from_its_game(client):
    for lang, texts in strings().items():
        for key, questions in texts.items():
            if not key.startswith("suggest."):
                continue
            game = key.removeprefix("suggest.")
            for question in questions.split("\n"):
                reply = client.post("/v1/ask", json={"question": question, "game": game}).get_json()
                assert reply["answer"] is not None, (lang, question)
                assert reply["answer"]["game"] == game
