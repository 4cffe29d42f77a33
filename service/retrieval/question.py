"""Question analysis: the asker's language, the game asked about, the words meant, and how much
of the question the rulebooks know. Nothing here searches; it reads the question."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Callable

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from indexer import names
from indexer.analysis import fold, stoplist, terms
from indexer.corpus import LANGS
from indexer.terms import ELSEWHERE, Analysis, TermBase

# "..." “...” «...» 「...」 『...』: a quoted phrase must match as written.
_QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”|«\s*([^»]+?)\s*»|「([^」]+)」|『([^』]+)』')
_WORD = re.compile(r"[^\W\d_]{4,}", re.UNICODE)


@dataclass
class Question:
    """A question as Referee reads it."""

    text: str  # as asked
    lang: str | None  # the asker's language: given, detected, or the client's hint
    corrected: str | None  # the question with its spelling corrected, when it was
    game: str | None  # the game asked about: given, or named in the question
    mentioned: set[str]  # the games the question names (when no game was given)
    searched: str  # the words searched: corrected, quoted phrases and routing names taken out
    phrases: list[str]  # quoted phrases, to match as written
    analysis: Analysis  # the term base's concepts in ``searched``
    meant: str = ""  # what its sentence embedding reads: without the game names that only route it
    coverage: float = 0.0  # share of the content words that the rulebooks know
    elsewhere: list[str] = field(default_factory=list)  # concepts of other domains (chess, dough)

    @property
    def facets(self) -> set[str]:
        """Kinds of question asked ("number": how many)."""
        return {c.facet for c in self.analysis.concepts if c.facet and c.facet != ELSEWHERE}


class Reader:
    """Reads questions against one index's games, term base and vocabulary.

    ``in_corpus(word)`` tells whether a word, read in any language, stands in some passage (the
    retriever answers it); ``detector`` tells languages and real words (service.language);
    ``translates(word, lang)`` whether a general dictionary gives it rulebook words, and
    ``asked(word, lang)`` whether it stands in some players' question written in ``lang``.
    """

    def __init__(self, games: dict, terms_base: TermBase, passages: dict, in_corpus: Callable[[str], bool],
                 detector=None, translates: Callable[[str, str | None], bool] = lambda word, lang: False,
                 asked: Callable[[str, str | None], bool] = lambda word, lang: False):
        self.terms = terms_base
        self._translates = translates
        self._asked = asked
        self.detector = detector
        self._in_corpus = in_corpus
        self._game_names = names.name_forms(games)
        self._known = self._vocabulary(passages)
        self._spelling = sorted(terms_base.surface)

    def _vocabulary(self, passages: dict) -> set[str]:
        """Folded words of the corpus, the term base and the stop lists: words not worth correcting."""
        known = set(self.terms.surface)
        for passage in passages.values():
            known.update(fold(w) for w in _WORD.findall(passage["text"]))
        for lang in ("en", "fr", "de"):
            known.update(stoplist(lang))
        return known

    def read(self, q: str, game: str | None = None, lang: str | None = None, hint: str | None = None) -> Question:
        """The question read: ``lang`` when given, else detected, else ``hint`` (Accept-Language)."""
        asker = lang or self.detect_lang(q) or hint
        corrected = self.correct(q, asker)
        mentioned = set() if game else self.mentioned_games(q)
        if len(mentioned) == 1:  # a question that names its game is about that game alone
            game, = mentioned
        question = self._analysed(q, asker, corrected, game, mentioned, self.routing_names_removed(corrected or q))
        if not (question.analysis.matches or question.analysis.leftover or question.phrases):
            # the question is the game's name and nothing else: search the name
            question = self._analysed(q, asker, corrected, game, mentioned, corrected or q)
        question.coverage = self._coverage(question.searched, question.analysis, asker)
        question.meant = names.meant(corrected or q, self._game_names)
        return question

    def _analysed(self, q, asker, corrected, game, mentioned, text) -> Question:
        text = unicodedata.normalize("NFKC", text)
        phrases = [p for p in (next(g for g in m.groups() if g) for m in _QUOTED.finditer(text)) if p.strip()]
        searched = _QUOTED.sub(" ", text)
        analysis = self.terms.analyse(searched, (asker,) if asker else LANGS, game)
        return Question(text=q, lang=asker, corrected=corrected, game=game, mentioned=mentioned,
                        searched=searched, phrases=phrases,
                        analysis=analysis,
                        elsewhere=[m.concept.id for m in analysis.matches if m.concept.facet == ELSEWHERE])

    # ---- language ---------------------------------------------------------------------------

    def detect_lang(self, q: str) -> str | None:
        """The asker's language, told from the question without its game names and quoted words."""
        if not self.detector:
            return None
        return self.detector.detect(names.without_names(_QUOTED.sub(" ", q), self._game_names))

    # ---- games ------------------------------------------------------------------------------

    def mentioned_games(self, q: str) -> set[str]:
        """Games the question names (indexer.names.mentioned)."""
        return names.mentioned(q, self._game_names)

    def routing_names_removed(self, q: str) -> str:
        """The question without the game names that only say which game it is about (indexer.names)."""
        return names.routing_names_removed(q, self._game_names)

    # ---- words ------------------------------------------------------------------------------

    def correct(self, q: str, lang: str | None = None) -> str | None:
        """The question with misspelt game words corrected ("mamoth" -> "mammoth"), or None.

        Only a word that is neither in the rulebooks nor a word of the asker's language (``lang``,
        or any language when unknown) is corrected: "capital" stays "capital". Nor is the first part
        of a contraction: "aren't" is not "area't", "gibt's" not "gilt's".
        """
        corrected, changed = q, False
        for match in reversed(list(_WORD.finditer(q))):
            word = fold(match.group())
            if word in self._known or self._recognised(match.group()) or q[match.end():match.end() + 1] in ("'", "’"):
                continue
            if self.detector and self.detector.is_word(match.group(), lang):
                continue  # a real word of the asker's language, only not a rulebook word
            limit = 1 if len(word) < 7 else 2
            best = process.extractOne(word, self._spelling, scorer=Levenshtein.distance, score_cutoff=limit)
            if best is not None:
                replacement = best[0]
                if match.group()[0].isupper():
                    replacement = replacement[0].upper() + replacement[1:]
                corrected = corrected[: match.start()] + replacement + corrected[match.end() :]
                changed = True
        return corrected if changed else None

    def _recognised(self, word: str) -> bool:
        """An inflection of a known word: its stem, in some language, is a concept form or indexed."""
        return any(self.terms.knows(lang, stem) for lang in LANGS for stem in terms(lang, word)) or self._in_corpus(word)

    def _coverage(self, q: str, analysis: Analysis, lang: str | None) -> float:
        """Share of the question's content words that are concepts, stand in the corpus, translate
        into words that do, or stand in the players' questions of the asker's language ("dauert",
        "Variante": words of questions the rulebooks answer, though no German rulebook has them)."""
        matched = {(m.start, m.end) for m in analysis.matches if m.concept.facet != ELSEWHERE}
        elsewhere = {(m.start, m.end) for m in analysis.matches if m.concept.facet == ELSEWHERE} - matched
        total = len(analysis.leftover) + len(matched) + len(elsewhere)
        if total == 0:
            return 0.0
        known = sum(1 for s, e in analysis.leftover
                    if self._in_corpus(q[s:e]) or self._translates(q[s:e], lang) or self._asked(q[s:e], lang))
        return (len(matched) + known) / total
