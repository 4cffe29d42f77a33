"""Each passage's gist (corpus/<game>/gists.yaml): Referee's statement of it in four languages, shown
beside the quote to an asker of another language (service.gist). Held to its passage: every passage
of the shipped games has one in en, fr, de and zh (Simplified, as written; Traditional by OpenCC),
short, with no number the passage does not state and no term of the game the passage does not name."""

from __future__ import annotations

import re

import pytest

from indexer.analysis import to_simplified
from indexer.build import DEFAULT_CORPUS
from indexer.corpus import LANGS, load_corpus
from indexer.terms import TermBase, load_concepts

CORPUS = load_corpus(DEFAULT_CORPUS)
TERMS = TermBase(load_concepts(DEFAULT_CORPUS / "terms.yaml"))
PASSAGES = [p for book in CORPUS.rulebooks for p in book.passages]
LONGEST = {"en": 300, "fr": 300, "de": 300, "zh": 110}  # characters: a sentence or two
# Numbers as words: "two" in a gist is a number its passage must state ("one", "un", "ein" are articles too).
NUMBER_WORDS = {
    "en": "zero one two three four five six seven eight nine ten eleven twelve".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf dix onze douze".split(),
    "de": "null ein zwei drei vier fünf sechs sieben acht neun zehn elf zwölf".split(),
    "zh": list("零一二三四五六七八九十"),
}
# and as ordinals: "the third service", "le troisième service", "der dritte Durchgang" state 3 (第三 is 三)
ORDINALS = {
    "en": "_ first second third fourth fifth sixth seventh eighth ninth tenth".split(),
    "fr": "_ premier deuxième troisième quatrième cinquième sixième septième huitième neuvième dixième".split(),
    "de": "_ erst zweit dritt viert fünft sechst siebt _ neunt zehnt".split(),  # not "acht": "achte darauf"
}


def numbers(text: str) -> set[str]:
    """The numbers a text states, in digits or as words of any of the four languages."""
    found = set(re.findall(r"\d+", text))
    for lang, said in NUMBER_WORDS.items():
        for n, word in enumerate(said):
            if lang == "zh" and word in text or lang != "zh" and n > 1 and re.search(rf"\b{word}\b", text.lower()):
                found.add(str(n))
    for lang, said in ORDINALS.items():
        for n, word in enumerate(said):
            ending = r"(?:e[nmrs]?)?" if lang == "de" else ""
            if n > 1 and word not in ("_", "second") and re.search(rf"\b{word}{ending}\b", text.lower()):
                found.add(str(n))
    if "两" in text or "兩" in text or re.search(r"\btwice\b", text.lower()):
        found.add("2")
    return found


@pytest.mark.parametrize("passage", PASSAGES, ids=lambda p: p.id)
def test_every_passage_has_a_gist_held_to_its_words(passage):
    gist = CORPUS.gists.get(passage.id)
    assert gist and set(gist) == set(LANGS), f"{passage.id}: a gist in {', '.join(LANGS)}"
    where = passage.text + " " + " ".join(passage.section_path)
    stated = numbers(where) | {"0", "1"}
    named = {c.id for c in TERMS.analyse(where, (passage.lang,), passage.game).concepts}
    for lang, text in gist.items():
        assert len(text) <= LONGEST[lang], f"{passage.id} {lang}: {len(text)} characters"
        assert lang != "zh" or to_simplified(text) == text, f"{passage.id}: zh in Simplified script"
        assert numbers(text) <= stated, f"{passage.id} {lang}: numbers {numbers(text) - stated} the passage does not state"
        terms = {c.id for c in TERMS.analyse(text, (lang,), passage.game).concepts if c.games}
        assert terms <= named, f"{passage.id} {lang}: names {terms - named}, which the passage does not"


def test_a_gist_checks_what_it_is_held_to():
    """The checks above catch what they are for: a made-up number, a term of the game the passage
    does not name (Mömmen's Tim in its Benny passage)."""
    benny = next(p for p in PASSAGES if p.id == "moemmen.en.benny.1")
    assert "7" in numbers("The table gets 7 new cards.") - numbers(benny.text)
    assert "tim" in {c.id for c in TERMS.analyse("Play Tim and call out.", ("en",), "moemmen").concepts} \
        - {c.id for c in TERMS.analyse(benny.text, ("en",), "moemmen").concepts}
