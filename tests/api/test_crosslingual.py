"""Asking across languages: the promise of the product."""


def search(client, **params):
    response = client.get("/v1/search", query_string=params)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def test_a_german_question_finds_the_french_and_chinese_rule(client):
    hits = search(client, q="Wie viele Zutaten braucht die Pizza Bombastica?", limit=3)["hits"]
    langs = {h["lang"] for h in hits}
    assert {"fr", "zh"} <= langs
    french = next(h for h in hits if h["lang"] == "fr")
    assert "au moins 15 ingrédients" in french["text"]
    assert "<mark>ingrédients</mark>" in french["snippet"]  # the translated word is marked


def test_a_simplified_chinese_question_finds_the_english_mamma_rule(client):
    hits = search(client, q="校车撞到人会怎样", game="mamma", limit=3)["hits"]
    assert any("the schoolbus runs over the Wife or the Son" in h["text"] for h in hits)


def test_a_french_question_finds_the_english_mammut_mambo_rule(client):
    hits = search(client, q="que se passe-t-il pendant la chasse au mammouth ?", game="mammut-mambo", limit=3)["hits"]
    assert any("mammoth hunt" in h["text"] for h in hits)


def test_a_question_naming_a_game_prefers_that_game(client):
    hits = search(client, q="règles du Mömmen : cartes moins", limit=5)["hits"]
    assert {h["game"] for h in hits} == {"moemmen"}
    assert "Minus cards count the indicated minus value" in " ".join(h["text"] for h in hits)


def test_the_language_is_detected_when_not_given(client):
    assert search(client, q="Wer gewinnt?")["query"]["lang"] == "de"
    assert search(client, q="qui gagne la partie ?")["query"]["lang"] == "fr"
    assert search(client, q="订单")["query"]["lang"] == "zh"
    assert search(client, q="Wer gewinnt?", lang="fr")["query"]["lang"] == "fr"  # given wins


def test_a_misspelt_game_word_is_corrected_and_said(client):
    body = search(client, q="mamoth hunt", lang="en")
    assert body["did_you_mean"] == {"text": "mammoth hunt", "message": "Did you mean: mammoth hunt"}
    assert "mammoth" in body["hits"][0]["text"].lower()
    body = search(client, q="Pizza Bombastika", lang="de")
    assert body["did_you_mean"]["message"] == "Meinten Sie: Pizza Bombastica"


def test_missing_diacritics_need_no_correction(client):
    for q, words in [("Mommen", "Mömmen"), ("pizza ratee", "ratée")]:
        body = search(client, q=q)
        assert body["did_you_mean"] is None
        assert words in " ".join(h["text"] for h in body["hits"]) or words in body["hits"][0]["section"]


def test_an_inflected_word_is_not_corrected(client):
    assert search(client, q="Was passiert mit einer misslungenen Pizza?")["did_you_mean"] is None
