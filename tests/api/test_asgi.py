"""service.asgi in process (Starlette's test client): /mcp beside the Flask app on one ASGI app, the
key check in front of /mcp, and bodies read whole, up to the limit, before Flask sees them."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from service.asgi import create_asgi_app

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Host": "127.0.0.1:8000"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}


@pytest.fixture(scope="module")
def asgi(app):
    with TestClient(create_asgi_app(app), base_url="http://127.0.0.1:8000") as client:
        yield client


def test_mcp_and_the_api_answer_on_one_app(asgi):
    tools = asgi.post("/mcp", json=LIST_TOOLS, headers=MCP_HEADERS).json()["result"]["tools"]
    assert "adjudicate_move" in {t["name"] for t in tools}
    assert asgi.get("/healthz").json()["status"] == "ok"
    assert asgi.post("/v1/ask", json={"question": "Wie viele Zutaten braucht die Pizza Bombastica?"}).json()["answer"]


def test_mcp_asks_for_the_key_only_when_one_is_set(asgi, monkeypatch):
    monkeypatch.setenv("REFEREE_API_KEY", "sesame")
    refused = asgi.post("/mcp", json=LIST_TOOLS, headers=MCP_HEADERS)
    assert refused.status_code == 401 and refused.headers["content-type"] == "application/problem+json"
    allowed = asgi.post("/mcp", json=LIST_TOOLS, headers={**MCP_HEADERS, "Authorization": "Bearer sesame"})
    assert allowed.status_code == 200


def test_mcp_refuses_a_foreign_host_on_loopback(asgi):
    """The SDK's DNS-rebinding check: a page on another site cannot drive a local Referee's /mcp."""
    response = asgi.post("/mcp", json=LIST_TOOLS, headers={**MCP_HEADERS, "Host": "evil.example"})
    assert response.status_code in (403, 421)


def test_a_body_is_read_whole_and_refused_past_the_limit_however_it_is_sent(asgi, app):
    limit = app.config["MAX_CONTENT_LENGTH"]
    chunks = iter([b'{"question": "', b"a" * limit, b'"}'])  # no Content-Length: sent chunked
    response = asgi.post("/v1/ask", content=chunks, headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and response.json()["status"] == 413
    chunked = iter([b'{"question": "How many ', b'cards?", "lang": "en"}'])
    assert asgi.post("/v1/ask", content=chunked, headers={"Content-Type": "application/json"}).status_code == 200


def test_mcp_takes_post_only_and_tags_and_logs_every_request(asgi, caplog):
    refused = asgi.get("/mcp", headers={**MCP_HEADERS, "X-Request-ID": "table-7"})
    assert refused.status_code == 405 and refused.headers["allow"] == "POST"
    assert refused.headers["x-request-id"] == "table-7" and refused.json()["request_id"] == "table-7"
    with caplog.at_level("INFO", logger="referee.requests"):
        answered = asgi.post("/mcp", json=LIST_TOOLS, headers={**MCP_HEADERS, "X-Request-ID": "table-8"})
    assert answered.headers["x-request-id"] == "table-8"
    assert any('"path": "/mcp"' in r.message and '"request_id": "table-8"' in r.message for r in caplog.records)


def test_a_chat_body_over_the_limit_is_413_in_openais_form(asgi, app):
    chunks = iter([b'{"model": "referee", "messages": [{"role": "user", "content": "', b"a" * app.config["MAX_CONTENT_LENGTH"], b'"}]}'])
    response = asgi.post("/v1/chat/completions", content=chunks, headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and response.headers["connection"] == "close"
    assert response.json()["error"]["code"] == "request_too_large" and response.json()["request_id"]


@pytest.mark.parametrize("path", ["/v1/ask", "/docs", "/healthz", "/mcp", "/nowhere"])
def test_every_response_says_not_to_sniff_its_type(asgi, path):
    response = asgi.post(path, json={"question": "How many cards?"}, headers=MCP_HEADERS) if path in ("/v1/ask", "/mcp") \
        else asgi.get(path)
    assert response.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", ["/v1/games/%0A", "/%0A", "/v1/passages/a%0Ab", "/mcp%0A"])
def test_a_newline_in_a_path_is_a_404_problem_with_its_request_id(asgi, path, caplog):
    with caplog.at_level("INFO", logger="referee.requests"):
        response = asgi.get(path, headers={"X-Request-ID": "newline-1"})
    assert response.status_code == 404 and response.headers["content-type"] == "application/problem+json"
    assert response.json()["request_id"] == "newline-1"
    assert any('"request_id": "newline-1"' in r.message for r in caplog.records)


def test_the_mcp_servers_own_refusals_are_problems_too(asgi):
    response = asgi.post("/mcp", json=LIST_TOOLS, headers={**MCP_HEADERS, "Host": "evil.example", "X-Request-ID": "mcp-9"})
    assert response.status_code in (403, 421) and response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["status"] == response.status_code and body["request_id"] == "mcp-9" and body["detail"]
    assert response.headers["x-request-id"] == "mcp-9"


def test_one_client_past_its_rate_limit_gets_429_and_the_others_are_still_served(app, monkeypatch):
    monkeypatch.setenv("REFEREE_RATE_LIMIT", "3/minute")
    monkeypatch.setenv("REFEREE_API_KEY", "sesame")
    with TestClient(create_asgi_app(app), base_url="http://127.0.0.1:8000") as client:
        preflight = {"Origin": "https://chat.example", "Access-Control-Request-Method": "POST"}
        assert client.options("/v1/ask", headers=preflight).status_code == 200  # not counted
        answered = [client.get("/v1/games") for _ in range(3)]
        assert [r.status_code for r in answered] == [200] * 3
        assert [r.headers["ratelimit-remaining"] for r in answered] == ["2", "1", "0"]
        assert answered[0].headers["ratelimit-limit"] == "3" and answered[0].headers["ratelimit-policy"] == "3;w=60"
        refused = client.post("/v1/ask", json={"question": "How many cards?"}, headers={"X-Request-ID": "flood-1"})
        assert refused.status_code == 429 and refused.headers["content-type"] == "application/problem+json"
        assert 1 <= int(refused.headers["retry-after"]) <= 60 and refused.headers["ratelimit-remaining"] == "0"
        assert refused.json()["status"] == 429 and refused.json()["request_id"] == "flood-1"
        from service.openapi import spec_dict  # as openapi.yaml says every /v1/ operation may answer

        spec = spec_dict(app)
        assert spec["paths"]["/v1/ask"]["post"]["responses"]["429"] == {"$ref": "#/components/responses/TOO_MANY_REQUESTS"}
        documented = spec["components"]["responses"]["TOO_MANY_REQUESTS"]["headers"]
        assert all(name.lower() in refused.headers for name in documented)
        assert client.get("/healthz").status_code == 200 and client.get("/").status_code == 200  # not limited
        keyed = {"Authorization": "Bearer sesame"}  # a client with the key is counted by its key
        assert client.post("/v1/ask", json={"question": "How many cards?"}, headers=keyed).status_code == 200
        assert client.post("/mcp", json=LIST_TOOLS, headers={**MCP_HEADERS, **keyed}).status_code == 200
