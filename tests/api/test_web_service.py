"""What a web-service user expects: docs offline, CORS, request ids in headers, bodies and logs, caching."""

import json
import logging
import re

import pytest

from service import create_app


def test_the_docs_page_is_served_with_every_asset_from_referee(client):
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert not re.search(r"(src|href)=\"(https?:)?//", html), "an asset from another origin"
    assert '"validatorUrl": null' in html  # Swagger UI would otherwise call an outside validator
    assets = re.findall(r'(?:src|href)="(/docs/assets/[^"]+)"', html)
    assert len(assets) == 3
    for asset in assets:
        response = client.get(asset)
        assert response.status_code == 200 and len(response.data) > 1000, asset
    assert client.get("/openapi.json").json["info"]["title"] == "Referee"


def test_cors_preflight_allows_any_origin_without_credentials(client):
    response = client.options("/v1/ask", headers={
        "Origin": "https://table.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "Content-Type"})
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    assert response.headers["Access-Control-Allow-Headers"].lower() == "content-type"
    assert "Access-Control-Allow-Credentials" not in response.headers


def test_a_cross_origin_answer_exposes_the_request_id(client):
    response = client.get("/v1/search", query_string={"q": "four"}, headers={"Origin": "https://table.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "X-Request-ID" in response.headers["Access-Control-Expose-Headers"]


def test_cors_origins_are_configurable(index_dir):
    app = create_app({"REFEREE_INDEX": str(index_dir), "REFEREE_CORS_ORIGINS": "https://a.example, https://b.example"})
    client = app.test_client()
    allowed = client.get("/v1/games", headers={"Origin": "https://b.example"})
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://b.example"
    refused = client.get("/v1/games", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in refused.headers


@pytest.fixture()
def request_log():
    lines = []

    class Keep(logging.Handler):
        def emit(self, record):
            lines.append(json.loads(record.getMessage()))

    handler = Keep()
    logger = logging.getLogger("referee.requests")
    logger.addHandler(handler)
    yield lines
    logger.removeHandler(handler)


def test_a_clients_request_id_is_echoed_in_the_header_the_problem_and_the_log(client, request_log):
    response = client.get("/v1/passages/nope", headers={"X-Request-ID": "table-7:dispute-3"})
    assert response.status_code == 404
    assert response.headers["X-Request-ID"] == "table-7:dispute-3"
    assert response.json["request_id"] == "table-7:dispute-3"
    line = request_log[-1]
    assert {k: line[k] for k in ("method", "path", "status", "request_id")} == {
        "method": "GET", "path": "/v1/passages/nope", "status": 404, "request_id": "table-7:dispute-3"}
    assert line["ms"] >= 0


@pytest.mark.parametrize("given", [None, "", "x" * 200, "bad id; drop table", "é" * 8])
def test_a_missing_or_unusable_request_id_is_replaced_by_a_new_one(client, request_log, given):
    headers = {} if given is None else {"X-Request-ID": given}
    response = client.get("/healthz", headers=headers)
    assert re.fullmatch(r"[0-9a-f]{32}", response.headers["X-Request-ID"])
    assert request_log[-1]["request_id"] == response.headers["X-Request-ID"]
    assert request_log[-1]["index"] == response.json["index"]


@pytest.mark.parametrize("url", ["/v1/games", "/v1/games/mamma-mia", "/v1/rulebooks/moemmen/en",
                                 "/v1/passages/mamma-mia.fr.oven.1"])
def test_what_only_the_index_changes_has_an_etag_and_a_304(client, url):
    first = client.get(url)
    assert first.status_code == 200
    assert first.headers["Cache-Control"] == "public, no-cache"  # checked at each use: a game may be added any time
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    other = client.get(url, headers={"If-None-Match": '"something-else"'})
    assert other.status_code == 200 and other.data == first.data


def test_answers_that_depend_on_the_question_are_not_cached(client):
    response = client.get("/v1/search", query_string={"q": "four"})
    assert "ETag" not in response.headers and "Cache-Control" not in response.headers
