from tests.api.each_backend import app, library  # noqa: F401  (every test here runs with each search backend)


def search(client, **params):
    response = client.get("/v1/search", query_string=params)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def test_hits_carry_the_whole_passage_a_marked_snippet_and_offsets(client):
    body = search(client, q="pizza ratée", game="mamma-mia")
    hit = body["hits"][0]
    assert hit["id"] == "mamma-mia.fr.common-mistakes.4"
    assert hit["text"].startswith("- une pizza ratée n’est jamais perdue")
    assert "<mark>pizza ratée</mark>" in hit["snippet"]
    start, end = hit["highlights"][0]
    assert hit["text"][start:end] == "pizza ratée"
    assert body["query"] == {"q": "pizza ratée", "lang": "fr", "game": "mamma-mia"}  # detected


def test_missing_accents_still_find_the_french_rule(client):
    hits = search(client, q="pizza ratee")["hits"]
    assert hits[0]["id"] == "mamma-mia.fr.common-mistakes.4"


def test_simplified_chinese_finds_the_traditional_rulebook(client):
    body = search(client, q="订单牌堆")
    assert body["query"]["lang"] == "zh"
    assert any("訂單牌堆" in h["text"] for h in body["hits"][:3])
    first_chinese = next(h for h in body["hits"] if h["lang"] == "zh")
    assert "<mark>訂單牌堆</mark>" in first_chinese["snippet"]


def test_a_quoted_phrase_must_match_as_written(client):
    hits = search(client, q='"訂單牌堆"')["hits"]
    assert hits and all("訂單牌堆" in h["text"] for h in hits)
    hits = search(client, q='"ratée pizza"')["hits"]  # the words, not in that order
    assert hits == []
    hits = search(client, q='"pizza est ratée"')["hits"]  # the stop word's gap is kept
    assert hits and all("pizza" in h["text"].lower() for h in hits)


def test_game_filter_keeps_other_games_out(client):
    hits = search(client, q="card", game="moemmen", limit=50)["hits"]
    assert hits and {h["game"] for h in hits} == {"moemmen"}


def test_hits_come_from_every_rulebook_language_at_once(client):
    hits = search(client, q="Pizza Bombastica", limit=10)["hits"]
    assert {"fr", "zh"} <= {h["lang"] for h in hits}


def test_limit_caps_the_hits_and_defaults_to_ten(client):
    assert len(search(client, q="card")["hits"]) == 10
    assert len(search(client, q="card", limit=3)["hits"]) == 3


def test_a_question_of_only_stop_words_finds_nothing_rather_than_everything(client):
    assert search(client, q="the and of")["hits"] == []


def test_a_snippet_escapes_html_in_the_rulebook_text(client, library):
    from service.library import mark

    assert mark("a <b> & c", [(0, 1)]) == "<mark>a</mark> &lt;b&gt; &amp; c"


def test_search_rejects_bad_parameters_with_400_naming_the_field(client):
    for params, field in [
        ({}, "q"),
        ({"q": ""}, "q"),
        ({"q": "   "}, "q"),
        ({"q": "x" * 501}, "q"),
        ({"q": "a\x00b"}, "q"),
        ({"q": "x", "limit": "ten"}, "limit"),
        ({"q": "x", "limit": 0}, "limit"),
        ({"q": "x", "limit": 51}, "limit"),
        ({"q": "x", "game": "Chess!"}, "game"),
        ({"q": "x", "lang": "it"}, "lang"),
    ]:
        response = client.get("/v1/search", query_string=params)
        assert response.status_code == 400, params
        assert response.mimetype == "application/problem+json"
        assert field in response.get_json()["errors"], params


def test_a_well_formed_game_id_of_no_game_is_404_naming_the_known_games(client):
    response = client.get("/v1/search", query_string={"q": "x", "game": "chess"})
    assert response.status_code == 404 and response.mimetype == "application/problem+json"
    assert "No game 'chess'" in response.get_json()["detail"] and "mamma-mia" in response.get_json()["detail"]
