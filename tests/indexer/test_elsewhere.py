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
