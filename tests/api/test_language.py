"""The asker's language, told reliably, and spelling corrected only where a word is no word at all."""

import pytest


def ask(client, question, **extra):
    headers = extra.pop("headers", {})
    response = client.post("/v1/ask", json={"question": question, **extra}, headers=headers)
    assert response.status_code == 200
    return response.get_json()


@pytest.mark.parametrize("question, lang", [
    ("Who wins Mömmen?", "en"),  # the game's name carries no language
    ("Wer gewinnt bei Mömmen?", "de"),
    ("Quand peut-on crier Mömmen ?", "fr"),
    ("who wins", "en"),
    ("wer gewinnt", "de"),
    ("qui gagne", "fr"),
    ("一回合可以打出幾張原料牌？", "zh"),
    ("一回合可以打出几张原料牌？", "zh"),
    ('what does "Mamma Mia" mean', "en"),
])
def test_the_askers_language_is_told_from_the_question(client, question, lang):
    assert ask(client, question)["lang"] == lang


def test_a_question_with_no_language_evidence_is_answered_in_english_not_german(client):
    body = ask(client, "pizza bombastika")
    assert body["lang"] is None
    assert body["did_you_mean"]["text"] == "pizza bombastica"
    assert body["did_you_mean"]["message"].startswith("Did you mean")


def test_accept_language_decides_when_the_question_cannot(client):
    body = ask(client, "pizza bombastika", headers={"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.5"})
    assert body["lang"] == "fr"
    assert body["did_you_mean"]["message"].startswith("Vouliez-vous dire")
    # ... but the question's own language wins over the header
    assert ask(client, "Wer gewinnt bei Mömmen?", headers={"Accept-Language": "fr"})["lang"] == "de"


@pytest.mark.parametrize("question", ["capital", "Geste mache", "What is the capital of France?",
                                      "What happens to my pizza if the ingredients aren't there?"])
def test_real_words_are_not_corrected_into_rulebook_words(client, question):
    assert ask(client, question)["did_you_mean"] is None


@pytest.mark.parametrize("question, corrected", [("mamoth hunt", "mammoth hunt"), ("pizza bombastika", "pizza bombastica")])
def test_misspelt_game_words_are_corrected(client, question, corrected):
    assert ask(client, question)["did_you_mean"]["text"] == corrected


def test_search_takes_the_hint_too(client):
    response = client.get("/v1/search", query_string={"q": "bombastica"}, headers={"Accept-Language": "de"})
    assert response.json["query"]["lang"] == "de"


@pytest.mark.parametrize("question, headers, simplified", [
    ("一回合可以打出几张原料牌？", {}, True),  # written in Simplified script
    ("一回合可以打出幾張原料牌？", {}, False),  # in Traditional
    ("一百分", {"Accept-Language": "zh-CN"}, True),  # the same in both scripts: the header tells
    ("一百分", {"Accept-Language": "zh-Hant"}, False),
    ("一百分", {}, False),
])
def test_a_chinese_asker_reads_referees_words_in_their_own_script(client, question, headers, simplified):
    message = ask(client, question, headers=headers)["message"]
    assert ("规则" in message, "規則" in message) == (simplified, not simplified), message
