"""What the words of an added rulebook mean in the other languages: the glossary beside an answer.

An answer quotes the rulebook in its own language. For the four shipped games each passage has a
gist in four languages (corpus/<game>/gists.yaml); a rulebook a table added has none, so an asker
of another language gets at least its key words glossed (service.gist): the term base's general
concepts (card, draw, turn, in four languages), and for the rulebook's other words a general
dictionary: FreeDict's WikDict between French and German (indexer.wikdict), CC-CEDICT between
Chinese and English (indexer.cedict). Not every word: a rulebook's key words, those it uses far
more often than the language at large does (pyspellchecker's word frequencies; jieba's for
Chinese): Korb, Pilz, Würfel in a mushroom game, not "folgenden" or "legen". A build keeps, for
each game without players' questions, each rulebook's key words with their keyness, and for each
pair its rulebooks need the first translations of those that have any. Glosses are words for
words, never a rule restated.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache, partial

from indexer.analysis import fold, words
from indexer.cedict import en_zh, zh_en_words
from indexer.corpus import Corpus
from indexer.wikdict import PAIRS, meanings

# pair -> how its table is made from a rulebook's terms: word (its stem; a Chinese word) -> translations
_DICTIONARIES = {pair: partial(meanings, pair) for pair in PAIRS} | {
    "en-zh": en_zh,
    "zh-en": zh_en_words,
}
KEY_WORDS = 60  # a rulebook's key words, at most
PER_MILLION = 1.0  # added to a word's frequency per million words: a word the lists lack is rare, not infinitely


@lru_cache(maxsize=None)
def _frequencies(lang: str):
    """(a word's count in the language at large, the count of all words), from pyspellchecker's
    lists (en, fr, de) or jieba's dictionary (zh)."""
    if lang == "zh":
        import jieba

        jieba.initialize()
        return jieba.dt.FREQ.get, jieba.dt.total
    from spellchecker import SpellChecker

    counts = SpellChecker(language=lang, distance=1).word_frequency
    return (lambda word: counts[word]), counts.total_words


def key_words(lang: str, texts: list[str]) -> dict[str, float]:
    """A rulebook's key words (their stems; Chinese words as indexed) -> keyness: how many times the
    rulebook says them over how many times a million words of the language do."""
    frequency, total = _frequencies(lang)
    said: Counter = Counter()
    written: dict[str, str] = {}
    for text in texts:
        for word in words(lang, text):
            if not word.stop:
                said[word.stem] += 1
                written.setdefault(word.stem, fold(text[word.start:word.end]))
    keyness = {stem: count / ((frequency(written[stem]) or 0) * 1e6 / total + PER_MILLION)
               for stem, count in said.items() if count > 1 and len(written[stem]) > 1 and not stem.isdigit()}
    return dict(sorted(keyness.items(), key=lambda item: -item[1])[:KEY_WORDS])


def glossary(corpus: Corpus, games: set[str]) -> dict[str, dict[str, dict]]:
    """game -> "keys" -> a rulebook's language -> its key words and their keyness; and game -> pair
    ("de-fr") -> a key word of its rulebook in the first language -> its translations."""
    table: dict[str, dict[str, dict]] = {}
    for book in corpus.rulebooks:
        if book.game not in games:
            continue
        keys = key_words(book.lang, [p.text for p in book.passages])
        entry = table.setdefault(book.game, {"keys": {}})
        entry["keys"][book.lang] = keys
        for pair, translate in _DICTIONARIES.items():
            if pair.startswith(book.lang + "-") and (found := translate(set(keys))):
                entry[pair] = found
    return table
