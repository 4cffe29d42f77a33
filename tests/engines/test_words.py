"""Each game's own words (rules/<game>.yaml's ``words``): every move kind and move field named in
en, fr, de and zh, so that neither a verdict nor the web app shows a player the engine's keys."""

import pytest

from indexer.corpus import LANGS
from service.engines import ENGINES, GAMES, adjudicate
from service.engines.base import load_words


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_move_kind_and_field_has_a_word_in_every_language(game):
    words = load_words(game).table
    shape = GAMES[game].move_schema
    keys = set(shape.KINDS) | (set(shape._declared_fields) - {"kind"})
    missing = sorted(k for k in keys if k not in words)
    assert not missing, f"{game}: no words for {missing}"
    untranslated = sorted(k for k, names in words.items() if set(names) != set(LANGS) or not all(names.values()))
    assert not untranslated, f"{game}: words missing a language: {untranslated}"


def test_a_verdict_names_the_move_kind_and_what_the_moment_takes_in_the_askers_words():
    engine = ENGINES["mamma"]
    state = engine.setup(4, 1, {})  # the draft: cards are taken
    verdict = adjudicate(engine, state, {"kind": "taxi", "card": "money-1"}, "de")
    assert verdict["violations"][0]["message"] == "Ein Zug Taxi passt nicht in diesen Moment des Spiels; möglich sind: Karte nehmen."
    verdict = adjudicate(ENGINES["mammut-mambo"], ENGINES["mammut-mambo"].setup(4, 1, {}),
                         {"kind": "hunt", "pink": 0, "empty_handed": 1}, "fr")
    assert "pas de chasse à juger" in verdict["violations"][0]["message"]


def test_a_list_of_words_is_joined_in_the_askers_way():
    words = load_words("mamma")
    assert words.said(["take", "end-turn"], "zh") == "拿牌、結束回合"
    assert words.said(["take", "end-turn"], "en") == "take a card, end the turn"
    assert words.say("14", "de") == "14", "a key without a word is shown as it is"
