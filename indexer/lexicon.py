"""The words of the games without players' questions, embedded: their own vocabulary across languages.

A game a table adds has no concepts of its own in the term base, so its words (Föhn, Moräne,
Laterne, Glühwürmchen) meet a question in another language only through the encoders' reading of
whole sentences. The sentence encoder (indexer.vectors) also places a single word near its
translation: 奶酪 nearest Käse (cosine 0.84), Käufer nearest Buyer (0.85), tailwind nearest
Rückenwind (0.86), brouillard nearest Nebel (0.68), 雪桥 nearest Schneebrücke (0.80), among the
words of those rulebooks. So a build embeds each language's words of those rulebooks once
(``lexicon.npz`` in the generation, beside ``vectors.npz``), and a question's words that the term
base does not know are searched with their nearest rulebook words in the game's other languages
(``Lexicon.nearest``; service.retrieval.plan), as one word.

The shipped games' words are not in it: their concepts are in the term base.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable

import numpy as np

from indexer.analysis import terms
from indexer.corpus import Passage

FILE = "lexicon.npz"
# A word: three letters or more (Latin script; a Chinese rulebook's words are jieba's, as indexed).
_WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
# What a question's word brings: rulebook words at this cosine or more (the sentence encoder's), at
# most NEAREST of them, each within SPREAD of the nearest. On the development games' questions
# (benchmarks/eval/dev-games), search Recall@1 0.37 -> 0.39 and 0.50 -> 0.54 at 0.68 with the
# scorer as it was (0.42 and 0.56 refitted); 0.60 lets in wrong words (rope -> stapeln 0.60) and
# gains nothing, 0.72 loses words (tempête -> Sturm 0.68).
CLOSE = 0.68
NEAREST = 3
SPREAD = 0.06


def rulebook_words(passages: Iterable[Passage]) -> dict[str, dict[str, set[str]]]:
    """Each language's words in these passages, as written (a capital makes another word: the
    encoder reads "Brouillard" and "brouillard" apart), and the games using each."""
    found: dict[str, dict[str, set[str]]] = {}
    for p in passages:
        written = _WORD.findall(p.text) if p.lang != "zh" else terms("zh", p.text, mode="index")
        for word in written:
            if terms(p.lang, word):  # a stop word says nothing of the game
                found.setdefault(p.lang, {}).setdefault(word, set()).add(p.game)
    return found


def write(generation: Path, passages: Iterable[Passage], embed) -> None:
    """Embed the words of these passages (with ``embed``: texts -> L2-normalised rows) into the
    generation's lexicon file."""
    arrays: dict[str, np.ndarray] = {}
    for lang, by_word in rulebook_words(passages).items():
        words = sorted(by_word)
        games = sorted({g for used in by_word.values() for g in used})
        column = {game: k for k, game in enumerate(games)}
        arrays[f"{lang}.words"] = np.array(words)
        arrays[f"{lang}.vectors"] = embed(words).astype(np.float16)
        arrays[f"{lang}.games"] = np.array(games)
        # (word row, game column) pairs: a word used by several games is embedded once
        arrays[f"{lang}.used"] = np.array([(r, column[g]) for r, w in enumerate(words) for g in sorted(by_word[w])],
                                          dtype=np.int32).reshape(-1, 2)
    np.savez(generation / FILE, **arrays)


class Lexicon:
    """A generation's embedded rulebook words, by language and game (empty when it has none)."""

    def __init__(self, by_lang: dict[str, tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]] | None = None):
        self._by_lang = by_lang or {}  # language -> (words, vectors, game -> its word rows)

    @classmethod
    def load(cls, generation: Path) -> "Lexicon":
        path = Path(generation) / FILE
        if not path.exists():
            return cls()
        by_lang = {}
        with np.load(path) as saved:
            for lang in {name.split(".", 1)[0] for name in saved.files}:
                used = saved[f"{lang}.used"]
                games = saved[f"{lang}.games"]
                rows = {str(g): used[used[:, 1] == k, 0] for k, g in enumerate(games)}
                by_lang[lang] = (saved[f"{lang}.words"], saved[f"{lang}.vectors"].astype(np.float32), rows)
        return cls(by_lang)

    def langs(self, game: str) -> list[str]:
        """The languages in which ``game`` has embedded words."""
        return [lang for lang, (_, _, rows) in self._by_lang.items() if game in rows]

    def nearest(self, vectors: np.ndarray, game: str, lang: str) -> list[list[tuple[str, float]]]:
        """For each embedded question word (a row of ``vectors``): the words of ``game``'s rulebook
        in ``lang`` nearest it, with their cosines (CLOSE, NEAREST, SPREAD)."""
        words, embedded, rows = self._by_lang.get(lang, (None, None, {}))
        mine = rows.get(game)
        if mine is None or not len(mine):
            return [[] for _ in vectors]
        cosines = embedded[mine] @ vectors.T  # one column per question word
        found = []
        for column in cosines.T:
            best = np.argsort(-column, kind="stable")[:NEAREST]
            top = column[best[0]]
            found.append([(str(words[mine[k]]), float(column[k])) for k in best
                          if column[k] >= CLOSE and column[k] >= top - SPREAD])
        return found
