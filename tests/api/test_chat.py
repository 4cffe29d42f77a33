"""/v1/chat/completions and /v1/models: the OpenAI Chat Completions API, answered from the rulebooks."""

from __future__ import annotations

import json

import pytest

from service import chat

BOMBASTICA = "Wie viele Zutaten braucht die Pizza Bombastica?"


def complete(client, messages, model="referee", status=200, headers=None, **options):
    response = client.post("/v1/chat/completions", json={"model": model, "messages": messages, **options}, headers=headers)
    assert response.status_code == status, response.get_data(as_text=True)
    return response


def user(*said: str) -> list[dict]:
    """A conversation of the user's messages, with Referee's replies between them as a client sends them."""
    messages = []
    for text in said:
        if messages:
            messages.append({"role": "assistant", "content": "(Referee's reply)"})
        messages.append({"role": "user", "content": text})
    return messages


def test_the_models_are_referee_and_one_per_game(client, library):
    listed = client.get("/v1/models").get_json()
    assert listed["object"] == "list"
    ids = [m["id"] for m in listed["data"]]
    assert ids == ["referee"] + [f"referee-{game}" for game in library.games]
    assert all(m["object"] == "model" and isinstance(m["created"], int) for m in listed["data"])
    one = client.get("/v1/models/referee-mamma-mia").get_json()
    assert one["game"] == "mamma-mia" and one["names"]["zh"] == library.games["mamma-mia"]["names"]["zh"]


def test_a_german_question_gets_the_french_and_chinese_rules_quoted_and_linked(client, library):
    completion = complete(client, user(BOMBASTICA)).get_json()
    assert completion["object"] == "chat.completion" and completion["model"] == "referee"
    (choice,) = completion["choices"]
    assert choice["finish_reason"] == "stop" and choice["message"]["role"] == "assistant"
    content = choice["message"]["content"]
    referee = completion["referee"]
    answer = referee["answer"]
    assert answer["lang"] == "fr" and answer["sure"]
    assert content.startswith(referee["message"])  # Referee's words, in German
    assert "> " + answer["text"] in content  # the rule, quoted exactly
    cited = {c["lang"]: c for c in referee["citations"]}
    assert {"fr", "zh"} <= set(cited)
    assert "> " + cited["zh"]["quote"] in content  # the Chinese rule's words too
    for citation in referee["citations"]:  # every citation, linked to its place in the rulebook page
        assert f"/games/mamma-mia/rulebook/{citation['lang']}" in content
        assert "#" + citation["passage_id"] + ")" in content
    assert "Regel auf Französisch" in content and "Regel auf Chinesisch" in content
    # and what the French rule says, in German: Referee's words, labelled as such, after the quote
    gist = answer["gist"]
    assert gist["lang"] == "de" and "Bombastica" in gist["text"]
    assert content.index("> " + answer["text"]) < content.index("_Mit Referees Worten (nicht der Wortlaut des Regelhefts):_ ")
    assert content.index("_Mit Referees Worten") < content.index("mindestens 15 beliebige Zutaten")


def test_a_link_marks_the_quoted_sentence_and_opens_the_web_apps_rulebook_page(client):
    referee = complete(client, user(BOMBASTICA)).get_json()["referee"]
    first = referee["citations"][0]
    link = chat.passage_link("http://table.local/", first)
    assert link.startswith("http://table.local/games/mamma-mia/rulebook/fr?mark=")
    page = client.get(link.removeprefix("http://table.local").split("#")[0])
    assert page.status_code == 200 and page.mimetype == "text/html"


def test_an_off_topic_question_is_refused_honestly(client):
    completion = complete(client, user("What is the capital of France?")).get_json()
    content = completion["choices"][0]["message"]["content"]
    assert completion["referee"]["answer"] is None
    assert content.startswith("The rulebooks do not answer this.")
    assert ">" not in content  # no rule is quoted as if it answered


def test_a_follow_up_keeps_the_game_and_the_topic_of_the_question_before(client):
    first, then = "Wie viele Karten bekommt jeder bei Mammut Mambo?", "und mit drei Spielern?"
    alone = complete(client, user(then)).get_json()["referee"]
    assert alone["answer"] is None or alone["answer"]["game"] != "mammut-mambo"
    followed = complete(client, user(first, then)).get_json()
    referee = followed["referee"]
    assert referee["question"] == f"{first} {then}"  # asked together, and said so
    assert referee["answer"]["game"] == "mammut-mambo" and referee["answer"]["section"] == "Setup"
    assert f"_Gefragt als: {first} {then}_" in followed["choices"][0]["message"]["content"]


def test_a_follow_up_that_names_another_game_starts_a_new_topic(client):
    followed = complete(client, user("Wie viele Zutaten braucht die Pizza Bombastica?",
                                     "and in Mömmen, how many cards do I hold?")).get_json()["referee"]
    assert followed["answer"]["game"] == "moemmen"
    assert followed["question"] == "and in Mömmen, how many cards do I hold?"


def test_a_game_model_answers_from_that_games_rulebooks_only(client):
    referee = complete(client, user("how does the game end?"), model="referee-moemmen").get_json()["referee"]
    assert referee["game"] == "moemmen"
    assert {c["game"] for c in referee["citations"]} == {"moemmen"}


def test_content_parts_system_messages_and_sampling_fields_are_read_or_ignored(client):
    messages = [{"role": "system", "content": "You are a helpful assistant."},
                {"role": "user", "content": [{"type": "text", "text": BOMBASTICA}, {"type": "image_url", "image_url": {"url": "x"}}]}]
    completion = complete(client, messages, temperature=0.3, top_p=0.9, max_tokens=5, seed=7, user="u1",
                          response_format={"type": "text"}, tools=[]).get_json()
    assert completion["referee"]["question"] == BOMBASTICA
    assert len(completion["choices"][0]["message"]["content"]) > 5  # max_tokens does not cut a rule


def test_n_gives_that_many_identical_choices(client):
    choices = complete(client, user(BOMBASTICA), n=3).get_json()["choices"]
    assert [c["index"] for c in choices] == [0, 1, 2]
    assert len({c["message"]["content"] for c in choices}) == 1


def test_a_stream_is_server_sent_chunks_ending_with_done(client):
    response = complete(client, user(BOMBASTICA), stream=True)
    assert response.mimetype == "text/event-stream"
    events = [e for e in response.get_data(as_text=True).split("\n\n") if e]
    assert all(e.startswith("data: ") for e in events)
    assert events[-1] == "data: [DONE]"
    chunks = [json.loads(e.removeprefix("data: ")) for e in events[:-1]]
    assert {c["object"] for c in chunks} == {"chat.completion.chunk"} and len({c["id"] for c in chunks}) == 1
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop" and chunks[-1]["referee"]["answer"]["lang"] == "fr"
    streamed = "".join(c["choices"][0]["delta"].get("content", "") for c in chunks)
    whole = complete(client, user(BOMBASTICA)).get_json()["choices"][0]["message"]["content"]
    assert streamed == whole and len(chunks) > 4


@pytest.mark.parametrize("body, status, param, code", [
    ({"model": "gpt-4o", "messages": [{"role": "user", "content": "x"}]}, 404, "model", "model_not_found"),
    ({"model": "referee"}, 400, "messages", None),
    ({"model": "referee", "messages": []}, 400, "messages", None),
    ({"model": "referee", "messages": [{"role": "wizard", "content": "x"}]}, 400, "messages[0].role", None),
    ({"model": "referee", "messages": [{"role": "user", "content": 5}]}, 400, "messages[0].content", None),
    ({"model": "referee", "messages": [{"role": "system", "content": "be brief"}]}, 400, "messages", None),
    ({"model": "referee", "messages": [{"role": "user", "content": "  "}]}, 400, "messages", None),
    ({"model": "referee", "messages": [{"role": "user", "content": [{"type": "image_url"}]}]}, 400, "messages", None),
    ({"model": "referee", "messages": [{"role": "user", "content": "x"}], "n": 0}, 400, "n", None),
])
def test_bad_requests_get_openai_errors_inside_problem_json(client, app, body, status, param, code):
    response = client.post("/v1/chat/completions", json=body)
    assert response.status_code == status
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["status"] == status and problem["detail"]
    error = problem["error"]
    assert error["type"] == "invalid_request_error" and error["param"] == param and error["code"] == code
    assert error["message"] == problem["detail"]
    if param == "messages":  # refused as the OpenAPI description says it would be
        import jsonschema

        from service.openapi import spec_dict

        messages = spec_dict(app)["components"]["schemas"]["ChatCompletionIn"]["properties"]["messages"]
        without_items = {key: value for key, value in messages.items() if key != "items"}  # the $ref
        assert not jsonschema.Draft202012Validator(without_items).is_valid(body.get("messages"))


def test_a_body_that_is_not_json_is_a_400_that_says_so(client):
    response = client.post("/v1/chat/completions", data="model=referee", content_type="text/plain")
    assert response.status_code == 400 and response.get_json()["error"]["type"] == "invalid_request_error"
    assert "Content-Type: application/json" in response.get_json()["detail"]


def test_stream_is_a_boolean_not_a_word(client):
    response = client.post("/v1/chat/completions", json={"model": "referee", "stream": "yes",
                                                         "messages": [{"role": "user", "content": BOMBASTICA}]})
    assert response.status_code == 400 and response.get_json()["error"]["param"] == "stream"


def test_a_follow_up_keeps_the_game_the_question_before_named_even_when_it_was_not_answered(client):
    first = "Wie viele Spieler können Mammut Mambo spielen?"
    followed = complete(client, user(first, "und ab welchem Alter?")).get_json()["referee"]
    assert followed["citations"] and {c["game"] for c in followed["citations"]} == {"mammut-mambo"}


def test_an_unknown_model_is_404_on_its_own_route(client):
    response = client.get("/v1/models/gpt-4o")
    assert response.status_code == 404 and response.get_json()["error"]["code"] == "model_not_found"


def test_a_key_is_asked_for_only_when_one_is_set(client, monkeypatch):
    assert client.get("/v1/models").status_code == 200
    monkeypatch.setenv("REFEREE_API_KEY", "sesame, other")
    refused = client.get("/v1/models")
    assert refused.status_code == 401 and refused.get_json()["error"]["code"] == "invalid_api_key"
    assert refused.headers["WWW-Authenticate"].startswith("Bearer")
    assert client.get("/v1/models", headers={"Authorization": "Bearer nope"}).status_code == 401
    assert client.get("/v1/models", headers={"Authorization": "Bearer other"}).status_code == 200
    assert complete(client, user(BOMBASTICA), status=401).get_json()["error"]["code"] == "invalid_api_key"
    assert client.post("/v1/ask", json={"question": BOMBASTICA}).status_code == 200  # the API itself stays open


@pytest.mark.parametrize("url", ["/v1/chat/completions", "/v1/models"])
def test_a_browser_on_another_origin_may_ask_first_when_a_key_is_set(client, monkeypatch, url):
    """The CORS preflight carries no Authorization header: a 401 to it locks every browser client out."""
    monkeypatch.setenv("REFEREE_API_KEY", "sesame")
    preflight = client.options(url, headers={"Origin": "https://chat.example", "Access-Control-Request-Method": "POST",
                                             "Access-Control-Request-Headers": "authorization, content-type"})
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == "*"
    assert "authorization" in preflight.headers["Access-Control-Allow-Headers"].lower()
    assert client.get("/v1/models", headers={"Origin": "https://chat.example"}).status_code == 401  # the request itself


def test_links_never_follow_the_host_a_client_sends_and_an_echoed_question_stays_text(app, client, monkeypatch):
    """A client chooses the Host header and the question: neither may put a host or an image in the reply."""
    first, then = BOMBASTICA, "und wenn ![x](http://evil.example/t.png) <img src=x> *dann*?"
    reply = complete(client, user(first, then), headers={"Host": "evil.example"})
    content = reply.get_json()["choices"][0]["message"]["content"]
    assert "evil.example/games" not in content and "](/games/mamma-mia/rulebook/" in content
    assert r"\!\[x\]\(http://evil.example/t.png\) \<img src=x\> \*dann\*?_" in content
    monkeypatch.setitem(app.config, "REFEREE_PUBLIC_URL", "https://referee.example")
    content = complete(client, user(first), headers={"Host": "evil.example"}).get_json()["choices"][0]["message"]["content"]
    assert "](https://referee.example/games/mamma-mia/rulebook/" in content and "evil.example" not in content
