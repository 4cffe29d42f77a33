"""Whatever a client sends, the answer is never a 500, and every error is problem+json."""

from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.engines import ENGINES
from service.engines import GAMES

ROUTES = ["/healthz", "/v1/games", "/v1/games/{}", "/v1/rulebooks/{}/{}", "/v1/passages/{}", "/v1/search"]

junk_text = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x1F), max_size=20),
    st.sampled_from(["..", "../..", "%00", "%2e%2e%2f", "mamma-mia", "zh", "fr", "null", "[]", "{}", "-1",
                     "9" * 40, "mamma-mia.fr.oven.1", "\u202e", "💥", "訂單", " ", "x" * 3000]),
)


def assert_sane(response):
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code >= 400:
        assert response.mimetype == "application/problem+json"
        body = response.get_json()
        assert body["status"] == response.status_code and body["title"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(ROUTES), parts=st.lists(junk_text, min_size=2, max_size=2),
       params=st.dictionaries(st.sampled_from(["q", "game", "lang", "limit", "other"]), junk_text, max_size=4))
def test_junk_in_paths_and_parameters_never_gives_a_500(client, route, parts, params):
    url = route.format(*(quote(p, safe="") for p in parts))
    assert_sane(client.get(url, query_string=params))


@pytest.mark.parametrize("method", ["post", "put", "delete", "patch"])
@pytest.mark.parametrize("url", ["/v1/games", "/v1/search?q=x", "/healthz", "/v1/passages/x"])
def test_wrong_methods_are_405_problems_that_say_what_is_allowed(client, method, url):
    response = getattr(client, method)(url, data=b"{}", content_type="application/json")
    assert response.status_code == 405
    assert_sane(response)
    assert "GET" in {m.strip() for m in response.headers["Allow"].split(",")}


def test_trace_is_405_with_allow(client):
    response = client.open("/healthz", method="TRACE")
    assert response.status_code == 405
    assert {m.strip() for m in response.headers["Allow"].split(",")} == {"GET", "HEAD", "OPTIONS"}


@pytest.mark.parametrize("url", [
    "/v1/passages/..%2F..%2Fetc%2Fpasswd", "/v1/passages/../../etc/passwd", "/v1/rulebooks/mamma-mia/..%2Fzh",
    "/v1/rulebooks/mamma-mia/zh%00", "/v1/games/%C0%AE%C0%AE", "/V1/GAMES",
])
def test_path_tricks_are_404_problems(client, url):
    response = client.get(url)
    assert response.status_code == 404
    assert_sane(response)


def test_a_body_over_the_size_limit_is_413(client, app):
    too_big = b"x" * (app.config["MAX_CONTENT_LENGTH"] + 1)
    response = client.get("/v1/games", data=too_big)
    assert response.status_code == 413
    assert_sane(response)
    assert "limit" in response.get_json()["detail"]


def chunked(client, url, body: bytes):
    """A request whose body has no Content-Length, as a server hands on Transfer-Encoding: chunked."""
    import io

    return client.post(url, input_stream=io.BytesIO(body), environ_overrides={"wsgi.input_terminated": True},
                       headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"})


def test_a_chunked_body_over_the_size_limit_is_413_too(client, app):
    body = b'{"question": "' + b"a" * app.config["MAX_CONTENT_LENGTH"] + b'"}'
    response = chunked(client, "/v1/ask", body)
    assert response.status_code == 413
    assert_sane(response)


def test_a_chunked_body_within_the_limit_is_read_whole(client):
    response = chunked(client, "/v1/ask", '{"question": "Combien de cartes ?", "lang": "fr"}'.encode())
    assert response.status_code == 200
    assert response.get_json()["lang"] == "fr"


@pytest.mark.parametrize("url", ["/v1/ask"] + [f"/v1/games/{game}/{route}" for game in ENGINES
                                              for route in ("setup", "legal-moves", "adjudicate", "replay")])
@pytest.mark.parametrize("depth", [33, 1000, 100_000])
def test_json_nested_too_deeply_is_a_400_naming_the_limit(client, url, depth):
    response = client.post(url, data="[" * depth + "]" * depth, content_type="application/json")
    assert response.status_code == 400
    assert_sane(response)
    assert response.get_json()["errors"] == {"json": ["JSON nested more than 32 levels deep."]}


JSON_ROUTES = ["/v1/ask", "/v1/chat/completions", "/v1/feedback"] + [
    f"/v1/games/{game}/{route}" for game in ENGINES for route in ("setup", "legal-moves", "adjudicate", "replay")]


@pytest.mark.parametrize("url", JSON_ROUTES)
def test_a_number_of_more_than_4300_digits_is_a_400_not_a_failure_of_int(client, url):
    response = client.post(url, data='{"question": "x", "players": %s}' % ("9" * 5000), content_type="application/json")
    assert response.status_code == 400
    assert_sane(response)
    assert "more than 4300 digits" in response.get_json()["detail"]


@pytest.mark.parametrize("url", JSON_ROUTES)
@pytest.mark.parametrize("body", ['{"question": "\\ud800 cards"}', '{"\\udfff": 1}',
                                  '{"model": "referee", "messages": [{"role": "user", "content": "a\\udc00"}]}'])
def test_a_lone_surrogate_is_a_400_not_a_failure_of_the_chinese_conversion(client, url, body):
    response = client.post(url, data=body, content_type="application/json")
    assert response.status_code == 400
    assert_sane(response)
    assert "lone surrogate" in response.get_json()["detail"]


def test_a_surrogate_pair_is_a_character_like_any_other(client):
    response = client.post("/v1/ask", data='{"question": "\\ud83c\\udf55 how many cards?"}', content_type="application/json")
    assert response.status_code == 200


@pytest.mark.parametrize("helpful", [1, 0, "yes", "on", "true", "0"])
def test_booleans_are_true_or_false_and_nothing_else(client, helpful):
    response = client.post("/v1/feedback", json={"question": "how many cards?", "passage_id": "mamma.en.material.1",
                                                 "helpful": helpful})
    assert response.status_code == 400
    assert_sane(response)
    assert response.get_json()["errors"] == {"helpful": ["Not a valid boolean."]}


@pytest.mark.parametrize("q", ["   ", "\u3000\t", "a\x00b", "ok\x1b[31m"])
def test_blank_or_control_character_questions_are_400s_as_the_openapi_pattern_says(client, app, q):
    import re

    from service.openapi import spec_dict

    pattern = spec_dict(app)["components"]["schemas"]["AskIn"]["properties"]["question"]["pattern"]
    assert re.search(pattern, q) is None
    for response in (client.get("/v1/search", query_string={"q": q}), client.post("/v1/ask", json={"question": q})):
        assert response.status_code == 400
        assert_sane(response)


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "text/plain"])
def test_a_body_that_is_not_json_is_a_400_that_says_to_send_json(client, content_type):
    """curl -d sends a form: the question is there, but not as JSON."""
    response = client.post("/v1/ask", data="question=who wins", content_type=content_type)
    assert response.status_code == 400
    assert response.mimetype == "application/problem+json"
    assert "Content-Type: application/json" in response.json["detail"]


def test_invalid_utf8_in_the_query_string_is_not_a_500(client):
    assert_sane(client.get("/v1/search?q=%ff%fe%fd"))
    assert_sane(client.get("/v1/search?q=%E8%A8"))


def test_an_unexpected_failure_is_a_500_problem_without_internals_and_one_log_line(app, monkeypatch, caplog):
    import json

    library = app.extensions["referee.librarian"].current()
    monkeypatch.setattr(library, "search", lambda *a, **k: 1 / 0)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    caplog.clear()
    try:
        response = app.test_client().get("/v1/search?q=pizza", headers={"X-Request-ID": "failing-1"})
    finally:
        app.config["PROPAGATE_EXCEPTIONS"] = None
    assert response.status_code == 500
    assert response.mimetype == "application/problem+json"
    assert "ZeroDivision" not in response.get_data(as_text=True)
    logged = [r for r in caplog.records if r.name == "referee.errors"]
    assert len(logged) == 1 and logged[0].exc_info is None  # the traceback only at debug level
    errors = [json.loads(logged[0].getMessage())]
    assert errors[0]["request_id"] == "failing-1" and errors[0]["error"].startswith("ZeroDivisionError")
    assert errors[0]["path"] == "/v1/search" and errors[0]["at"].endswith(".py:" + errors[0]["at"].rsplit(":", 1)[1])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | junk_text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
ask_bodies = st.one_of(
    json_values,
    st.fixed_dictionaries({"question": junk_text}, optional={"game": junk_text, "lang": junk_text}),
    st.fixed_dictionaries({"question": json_values}, optional={"game": json_values}),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=ask_bodies)
def test_junk_json_to_ask_never_gives_a_500(client, body):
    response = client.post("/v1/ask", json=body)
    assert_sane(response)
    if response.status_code == 200:
        answer = response.get_json()["answer"]
        assert answer is None or answer["passage"][answer["start"]:answer["end"]] == answer["text"]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=200))
def test_raw_bytes_to_ask_never_give_a_500(client, raw):
    assert_sane(client.post("/v1/ask", data=raw, content_type="application/json"))


def _paths(value, prefix=()):
    """Every path into a JSON value."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


def _mutate(value, path, new):
    import copy

    value = copy.deepcopy(value)
    if not path:
        return new
    target = value
    for key in path[:-1]:
        target = target[key]
    if new is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = new
    return value


_DELETE = object()


def _examples():
    return [(game, state, move) for game, engine in ENGINES.items() for _, _, state, move in engine.examples()]


EXAMPLES = _examples()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), new=st.one_of(json_values, st.just(_DELETE), st.integers(-3, 70), st.sampled_from(
    ["salami", "olive", "mamma-mia", "green-1", "red-8", "oven", "play", "over", "zh", "fr", "dance", "hunt",
     "g01", "h1", "Bunga", "cave", "mommen", "tim-1", "red-1", "red+1"])))
def test_mutated_states_never_give_a_500(client, data, new):
    game, state, move = data.draw(st.sampled_from(EXAMPLES))
    path = data.draw(st.sampled_from([p for p in _paths(state) if p]))
    mutated = _mutate(state, path, new)
    other_move = data.draw(st.sampled_from([m for g, _, m in EXAMPLES if g == game]))
    for route, body in [("legal-moves", {"state": mutated}), ("adjudicate", {"state": mutated, "move": other_move}),
                        ("replay", {"state": mutated, "moves": [move, other_move]})]:
        assert_sane(client.post(f"/v1/games/{game}/{route}", json=body))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_moves_never_give_a_500(client, data):
    game, state, move = data.draw(st.sampled_from(EXAMPLES))
    path = data.draw(st.sampled_from([p for p in _paths(move) if p] or [("kind",)]))
    mutated = _mutate(move, path, data.draw(st.one_of(json_values, st.just(_DELETE), st.integers(-3, 70))))
    assert_sane(client.post(f"/v1/games/{game}/adjudicate", json={"state": state, "move": mutated}))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=json_values, route=st.sampled_from(["setup", "legal-moves", "adjudicate", "replay"]),
       game=st.sampled_from(sorted(GAMES)))
def test_junk_to_the_adjudicator_never_gives_a_500(client, body, route, game):
    assert_sane(client.post(f"/v1/games/{game}/{route}", json=body))
