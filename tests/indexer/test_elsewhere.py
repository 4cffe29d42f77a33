"""The words of other domains (facet: elsewhere) never stand in a rulebook: they cannot refuse a rule."""

import pytest

from indexer.build import DEFAULT_CORPUS
from indexer.corpus import load_corpus
from indexer.terms import TermBase, load_concepts

CORPUS = load_corpus(DEFAULT_CORPUS)
TERMS = TermBase(load_concepts(DEFAULT_CORPUS / "terms.yaml"))


@pytest.mark.parametrize("book", CORPUS.rulebooks, ids=lambda b: f"{b.game}/{b.lang}")
def test_no_rulebook_passage_uses_a_word_of_another_domain(book):
    for passage in book.passages:
        for text in (passage.text, " ".join(passage.section_path)):
            found = [text[m.start:m.end] for m in TERMS.analyse(text, (book.lang,)).matches
                     if m.concept.facet == "elsewhere"]
            assert found == [], f"{passage.id}: {found}"


OTHER_GAMES = {name.lower() for entry in load_concepts(DEFAULT_CORPUS / "terms.yaml")
               if entry["id"] == "other-games" for name in entry["names"]}


def test_no_players_question_uses_a_word_of_another_domain():
    """The players' questions beside the passages (corpus/<game>/questions.yaml) are all rules
    questions: a word of another domain in one ("价格" of an ingredient card, "cheese" on a
    Mamma ingredient card, "se lever du banc") would refuse a rules question."""
    found = []
    for passage, by_lang in CORPUS.questions.items():
        for lang, questions in by_lang.items():
            for question in questions:
                words = [question[m.start:m.end] for m in TERMS.analyse(question, (lang,)).matches
                         if m.concept.facet == "elsewhere"]
                # Naming another game in a comparison ("comme au Uno") still refuses: a known limit.
                if words and not {w.lower() for w in words} <= OTHER_GAMES:
                    found.append((passage, question, words))
    assert found == []
