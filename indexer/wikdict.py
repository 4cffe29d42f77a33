"""French and German words to each other, from FreeDict's WikDict dictionaries, cut to what the
rulebooks of games without players' questions use.

A table brings a game whose rulebook the term base knows no word of, and a French player asks about
a German rulebook: the sentence encoder carries few single words across ("corde" is nearest
"legst", "traîneau" nearest "stapeln"; indexer.lexicon). A bilingual dictionary does: corde ->
Seil, traîneau -> Schlitten, crevasse -> Spalte, tampon -> Stempel. FreeDict's français-Deutsch and
Deutsch-français dictionaries (Karl Bartel, built by WikDict from Wiktionary via DBnary; CC BY-SA
3.0; Debian's dict-freedict-fra-deu and dict-freedict-deu-fra 2022.12.07-2) are kept in
``indexer/data/`` as ``word<TAB>translation|translation...`` (``convert`` made them; see
``indexer/data/README.md``). A build keeps, for each word, the translations of one or two words
whose every word stands in a rulebook of the other language that a table added, by the word's stem
(``Planner`` looks a question's word up by its stems: "crevasses", "glisse").
"""

from __future__ import annotations

import gzip
import re
from functools import lru_cache
from pathlib import Path

from indexer.analysis import terms

DATA = Path(__file__).resolve().parent / "data"
PAIRS = ("fr-de", "de-fr")
MAX_TRANSLATIONS = 6
_SENSE = re.compile(r"^\d+\.\s+(.*)$")
_HOMONYM = re.compile(r"\s+\d+\.?$")  # "Seil 2." : Wiktionary's homonym number
_HEADWORD = re.compile(r"^(.+?)(?:\s+/|\s+<|$)")  # "corde /kɔʁd/ <n, fem>"


def convert(dictionary: bytes, index: str) -> list[tuple[str, list[str]]]:
    """A dictd dictionary (its .dict.dz unpacked, its .index) as (headword, translations): the
    lines of an entry's numbered senses, or its first line when it has one sense; the lines between
    them are definitions in the headword's own language."""
    digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    def number(text: str) -> int:
        value = 0
        for ch in text:
            value = value * 64 + digits.index(ch)
        return value

    found: dict[str, list[str]] = {}
    for line in index.splitlines():
        key, offset, length = line.split("\t")[:3]
        if key.startswith("00"):  # the dictionary's own description
            continue
        lines = [l.strip() for l in dictionary[number(offset):number(offset) + number(length)].decode("utf-8").splitlines()]
        word = _HEADWORD.match(lines[0]).group(1) if lines and _HEADWORD.match(lines[0]) else ""
        if not word or " " in word:  # the index keys are folded ("seil"): the entry's first line has the word
            continue
        body = [l for l in lines[1:] if l]
        senses = [m.group(1) for l in body if (m := _SENSE.match(l))] or body[:1]
        for sense in senses:
            for translation in sense.split(","):
                translation = _HOMONYM.sub("", translation.strip())
                if translation and translation not in found.setdefault(word, []):
                    found[word].append(translation)
    return [(word, translations) for word, translations in found.items() if translations]


@lru_cache(maxsize=None)
def _entries(pair: str) -> tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...]:
    """The pair's words of one stem, each with its translations of one or two words and their stems:
    read and stemmed once per process (about a second a pair), then cut to each build's rulebooks."""
    source, target = pair.split("-")
    entries = []
    with gzip.open(DATA / f"wikdict-{pair}.tsv.gz", "rt", encoding="utf-8") as rows:
        for word, found in (row.rstrip("\n").split("\t") for row in rows):
            stems = terms(source, word)
            said = tuple((t, tuple(wanted)) for t in found.split("|")
                         if len(t.split()) <= 2 and (wanted := terms(target, t)))
            if len(stems) == 1 and said:
                entries.append((stems[0], said))
    return tuple(entries)


def translations(pair: str, vocabulary: set[str]) -> dict[str, list[str]]:
    """For the pair ("fr-de": French to German), each word's stem -> its translations of one or
    two words that ``vocabulary`` (the stems of the target language's rulebooks) holds whole."""
    table: dict[str, list[str]] = {}
    for stem, said in _entries(pair):
        for translation, wanted in said:
            if all(s in vocabulary for s in wanted):
                kept = table.setdefault(stem, [])
                if translation not in kept and len(kept) < MAX_TRANSLATIONS:
                    kept.append(translation)
    return table


def meanings(pair: str, stems: set[str], most: int = 2) -> dict[str, list[str]]:
    """For the pair ("de-fr": German to French), each of ``stems`` (a rulebook's words) -> its first
    translations of one or two words, whatever the other language's rulebooks hold: what a word
    means to an asker of that language (the glossary beside an answer, indexer.glossary)."""
    table: dict[str, list[str]] = {}
    for stem, said in _entries(pair):
        if stem in stems:
            kept = table.setdefault(stem, [])
            kept.extend(t for t, _ in said if t not in kept and len(kept) < most)
    return table
