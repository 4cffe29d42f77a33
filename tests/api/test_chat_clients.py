"""The real clients against the production server (tests/conftest.py's ``server``: gunicorn as make
run starts it): OpenAI's official Python client on /v1, and the MCP SDK's client over streamable
HTTP at /mcp and over stdio (python -m service.mcp)."""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

import anyio
import openai
import pytest
from mcp import Client, StdioServerParameters

from tests.conftest import ROOT

BOMBASTICA = "Wie viele Zutaten braucht die Pizza Bombastica?"


@pytest.fixture(scope="module")
def openai_client(server):
    return openai.OpenAI(base_url=f"http://127.0.0.1:{server}/v1", api_key="x", max_retries=0, timeout=30)


def test_openai_client_gets_the_cited_french_and_chinese_rule(openai_client):
    completion = openai_client.chat.completions.create(model="referee", messages=[{"role": "user", "content": BOMBASTICA}])
    content = completion.choices[0].message.content
    referee = completion.model_extra["referee"]
    assert "> " + referee["answer"]["text"] in content and referee["answer"]["lang"] == "fr"
    assert {c["lang"] for c in referee["citations"]} >= {"fr", "zh"}
    assert "/games/mamma-mia/rulebook/zh" in content and "/games/mamma-mia/rulebook/fr" in content


def test_openai_client_streams_the_same_answer(openai_client):
    whole = openai_client.chat.completions.create(model="referee", messages=[{"role": "user", "content": BOMBASTICA}])
    stream = openai_client.chat.completions.create(model="referee", messages=[{"role": "user", "content": BOMBASTICA}],
                                                   stream=True, stream_options={"include_usage": True}, temperature=0)
    chunks = list(stream)
    streamed = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert streamed == whole.choices[0].message.content
    assert chunks[-1].choices[0].finish_reason == "stop"


def test_openai_client_sees_a_refusal_for_an_off_topic_question(openai_client):
    completion = openai_client.chat.completions.create(
        model="referee", messages=[{"role": "user", "content": "What's a good pizza dough recipe for tonight?"}])
    assert completion.model_extra["referee"]["answer"] is None
    assert completion.choices[0].message.content.startswith("The rulebooks do not answer this.")


def test_openai_client_lists_models_and_raises_its_own_errors(openai_client):
    assert [m.id for m in openai_client.models.list()][:2] == ["referee", "referee-mamma"]
    with pytest.raises(openai.NotFoundError) as unknown:
        openai_client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}])
    assert unknown.value.code == "model_not_found" and unknown.value.param == "model"
    with pytest.raises(openai.BadRequestError) as malformed:
        openai_client.chat.completions.create(model="referee", messages=[{"role": "system", "content": "be brief"}])
    assert malformed.value.param == "messages"


def run(scenario, target):
    """Run an async scenario with an MCP client connected to ``target``; its result. On a thread of
    its own: a test before it in this process may have left an event loop running on this one
    (Playwright's sync API does), and anyio.run refuses to start beside it."""
    async def main():
        async with Client(target) as client:
            return await scenario(client)
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(anyio.run, main).result()


async def every_tool_and_resource(client) -> dict:
    found = {"tools": {t.name: t for t in (await client.list_tools()).tools}}
    found["resources"] = [str(r.uri) for r in (await client.list_resources()).resources]
    found["templates"] = [t.uri_template for t in (await client.list_resource_templates()).resource_templates]
    found["search"] = await client.call_tool("search_rules", {"query": "Pizza Bombastica", "limit": 3})
    found["ask"] = await client.call_tool("ask_rules", {"question": BOMBASTICA})
    state = (await client.call_tool("setup_game", {"game": "mamma-mia", "players": 3, "seed": 4})).structured_content["state"]
    found["moves"] = await client.call_tool("legal_moves", {"game": "mamma-mia", "state": state})
    move = {**found["moves"].structured_content["moves"][0], "player": (state["turn"] + 1) % 3}  # out of turn
    found["verdict"] = await client.call_tool("adjudicate_move", {"game": "mamma-mia", "state": state, "move": move, "lang": "fr"})
    found["score"] = await client.call_tool("score_game", {"game": "moemmen", "state": (await client.call_tool(
        "setup_game", {"game": "moemmen", "players": 3, "seed": 1})).structured_content["state"]})
    found["impossible"] = await client.call_tool("adjudicate_move", {"game": "mamma-mia", "state": {"turn": 1}, "move": move})
    found["passage"] = (await client.read_resource("referee://passages/mamma-mia.fr.special-pizzas.2")).contents[0].text
    found["rulebook"] = (await client.read_resource("referee://rulebooks/mamma-mia/zh")).contents[0].text
    return found


def check_every_tool_and_resource(found: dict) -> None:
    assert set(found["tools"]) == {"search_rules", "ask_rules", "setup_game", "legal_moves", "adjudicate_move", "score_game"}
    for tool in found["tools"].values():
        assert tool.description and tool.input_schema["type"] == "object"
    assert found["tools"]["adjudicate_move"].input_schema["required"] == ["game", "state", "move"]
    assert "referee://rulebooks/mamma-mia/fr" in found["resources"] and "referee://rulebooks/moemmen/en" in found["resources"]
    assert set(found["templates"]) == {"referee://rulebooks/{game}/{lang}", "referee://passages/{passage_id}"}
    assert found["search"].structured_content["hits"][0]["game"] == "mamma-mia"
    assert found["ask"].structured_content["answer"]["lang"] == "fr"
    assert found["moves"].structured_content["moves"]
    verdict = found["verdict"].structured_content
    assert verdict["legal"] is False
    violation = verdict["violations"][0]
    assert violation["code"] == "mamma-mia/turn.out-of-turn" and violation["citations"][0]["quote"]
    assert found["score"].structured_content["players"]
    assert found["impossible"].is_error and "state" in found["impossible"].content[0].text
    assert json.loads(found["passage"])["passage_id"] == "mamma-mia.fr.special-pizzas.2"
    assert "[mamma-mia.zh.bombastica.1]" in found["rulebook"]


def test_mcp_client_over_http_calls_every_tool_and_reads_the_rulebooks(server):
    check_every_tool_and_resource(run(every_tool_and_resource, f"http://127.0.0.1:{server}/mcp"))


def test_mcp_client_over_stdio_calls_every_tool_and_reads_the_rulebooks(index_dir):
    target = StdioServerParameters(command=sys.executable, args=["-m", "service.mcp"], cwd=str(ROOT),
                                   env={**os.environ, "REFEREE_INDEX": str(index_dir)})
    check_every_tool_and_resource(run(every_tool_and_resource, target))


def test_a_missing_passage_is_an_error_not_a_crash(server):
    async def scenario(client):
        with pytest.raises(Exception, match="No passage"):
            await client.read_resource("referee://passages/mamma-mia.fr.nowhere.9")
        return True
    assert run(scenario, f"http://127.0.0.1:{server}/mcp")
