import pytest

from indexer.build import DEFAULT_CORPUS
from indexer.terms import TermBase, load_concepts

ENTRIES = load_concepts(DEFAULT_CORPUS / "terms.yaml")
TERMS = TermBase(ENTRIES)


def concept_ids(text, lang, game=None):
    return [c.id for c in TERMS.analyse(text, (lang,), game).concepts]


def test_every_concept_has_words_in_every_language():
    for entry in ENTRIES:
        for lang in ("en", "fr", "de", "zh"):
            assert entry.get(lang) or entry.get("names"), (entry["id"], lang)


def test_every_game_has_its_vocabulary():
    games = {g for entry in ENTRIES for g in entry.get("games", [])}
    assert games == {"mamma", "mamma-mia", "mammut-mambo", "moemmen"}


def test_simplified_forms_are_added_to_the_traditional_ones():
    order = next(e for e in ENTRIES if e["id"] == "order")
    assert "訂單" in order["zh"] and "订单" in order["zh"]


@pytest.mark.parametrize("text, lang, expected", [
    ("Wie viele Zutaten braucht die Pizza Bombastica?", "de", ["quantity", "ingredient", "require", "bombastica"]),
    ("que se passe-t-il quand une pizza est ratée ?", "fr", ["happen", "pizza", "failed-order"]),
    ("超級豪華什錦披薩", "zh", ["bombastica"]),
    ("超级豪华什锦披萨", "zh", ["bombastica"]),
    ("how many cards", "en", ["quantity", "card"]),
    ("Wann endet das Spiel?", "de", ["game-ends"]),
])
def test_questions_are_read_as_concepts(text, lang, expected):
    assert concept_ids(text, lang) == expected


def test_the_longest_form_wins():
    assert concept_ids("the pink mammoth", "en") == ["pink-mammoth"]


def test_where_stems_collide_the_exact_word_decides():
    # German "Spieler" and "spielen" share the stem "spiel": the player is meant, not playing.
    assert concept_ids("Spieler", "de") == ["player"]


def test_concepts_of_another_game_are_ignored_when_the_game_is_given():
    assert "oven" not in concept_ids("oven", "en", game="mamma")
    assert "oven" in concept_ids("oven", "en", game="mamma-mia")


def test_a_word_jieba_keeps_whole_is_searched_inside():
    assert "bus" in concept_ids("奶奶坐公車", "zh")


@pytest.mark.parametrize("text, expected", [
    ("wann darf man die Tischkarten austauschen", ["table", "card", "swap"]),  # Tisch + Karten
    ("krieg ich Wechselgeld", ["money"]),  # a kind of Geld
])
def test_a_german_compound_the_term_base_lacks_is_read_through_its_words(text, expected):
    assert concept_ids(text, "de") == expected


def test_a_word_ending_like_another_domains_word_is_no_kind_of_it():
    """"schnappen" ends in "appen" (stem of App): snatching a mammoth is not asking for an app,
    and a question refused for it would be an on-topic question lost."""
    assert concept_ids("darf ich zwei Mammuts schnappen", "de") == ["mammoth"]
    assert "real-world" in concept_ids("gibt es eine Mömmen-App", "de")



def test_colloquial_grad_is_not_a_temperature_but_wie_viel_grad_is():
    """"grad" is spoken German for "gerade" (just now); only "wie viel Grad" asks about an oven."""
    assert "real-cooking" not in concept_ids("darf ich den opa nochmal schicken wenn er grad rauskommt", "de")
    assert "real-cooking" in concept_ids("bei wie viel Grad muss der Ofen sein", "de")
