"""The rulebook library the service serves: the catalog and the search of one index generation.

One Library serves one index generation, which it holds a lease on (indexer.generation.hold) until
``close``: no build deletes it meanwhile. service.librarian moves the service to a new generation.
A search runs the stages of service.retrieval: question analysis -> query plan -> retriever ->
ranker.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from indexer.analysis import terms, warm_up
from indexer.generation import hold, read_catalog, text_field
from indexer.corpus import LANGS
from indexer.lexicon import Lexicon
from indexer.terms import TermBase
from indexer.vectors import Vectors, embed
from service.retrieval.plan import Planner, QueryPlan
from service.retrieval.question import Question, Reader
from service.retrieval.rank import Hit, Ranker, mark, question_embedding
from service.retrieval.retriever import Found, Retriever, backend as search_backend, index_exists, open_retriever

CANDIDATES = 40  # passages fetched from the retriever before the ranker's preferences
NEAREST = 10  # and the passages answering the players' questions closest in meaning, when not among them
# and, for a game without players' questions (one a table added), its passages closest in meaning
CLOSEST = 10
# Searches kept, the latest asked: a question asked again (the same words, game, language,
# Accept-Language hint and limit) is answered from them. Tables ask the same things ("how many
# cards do I draw?"), the Rulebook tab searches as a player types, and the chat endpoint asks a
# conversation's earlier questions again at each turn. A search is a pure function of those and the
# index generation, and each Library serves one generation, so what is kept is never stale. About
# 20 KB a search of 10 hits, 47 KB of 50 (the most /v1/search gives): 20 to 48 MB a worker when full.
SEARCHES_KEPT = 1024

__all__ = ["CANDIDATES", "Hit", "IndexMissing", "Library", "SearchResult", "mark"]


class IndexMissing(RuntimeError):
    """No complete index at the configured place: run `python -m indexer` (make index)."""


@dataclass
class SearchResult:
    question: Question  # as Referee read it: the asker's language, spelling, game, concepts
    hits: list[Hit] = field(default_factory=list)
    on_topic: float | None = None  # the chance that the rulebooks answer it (None: not decided)
    threshold: float | None = None  # the on-topic chance under which the rulebooks are taken not to answer


class Library:
    """Games, rulebooks, passages and search over one built index."""

    def __init__(self, index_dir: Path | str, detector=None, scorer=None, backend: str | None = None,
                 uncurated=None):
        """``scorer``: the ranker's, when not the one of service/retrieval/ranker.json (a refit);
        ``backend``: whoosh or tantivy, by default $REFEREE_SEARCH_BACKEND (whoosh when unset);
        ``uncurated``: the scorer and on-topic decision for games without players' questions, when
        not ranker.json's (an evaluation's, fitted without the game it measures)."""
        self.backend = search_backend(backend)  # ValueError for an unknown one, before anything is opened
        index_dir = Path(index_dir)
        try:
            self._lease = hold(index_dir)
        except FileNotFoundError:
            raise IndexMissing(f"no index at {index_dir}: run `make index` (python -m indexer)") from None
        generation = self._lease.path
        catalog = read_catalog(generation)
        if catalog is None or not index_exists(generation, self.backend):
            self._lease.release()
            raise IndexMissing(f"no index at {index_dir}: run `make index` (python -m indexer)")
        self.index_dir = index_dir
        self.generation = generation.name
        self.built_at = catalog["built_at"]
        self.games = {g["id"]: g for g in catalog["games"]}
        self.rulebooks = {(b["game"], b["lang"]): b for b in catalog["rulebooks"]}
        self.disagreements = catalog["disagreements"]
        self.gists = catalog.get("gists", {})  # passage id -> language -> Referee's statement of it
        self.glossary = catalog.get("glossary", {})  # game -> pair -> word -> translations
        self.passages = {
            p["id"]: p for b in catalog["rulebooks"] for s in b["sections"] for p in s["passages"]
        }
        # Languages some rulebook is written in: only their fields are worth querying.
        self.langs = tuple(lang for lang in LANGS if any(p["lang"] == lang for p in self.passages.values()))
        self._passages_in = Counter(p["lang"] for p in self.passages.values())
        self._rarity: dict[tuple[str, str], float] = {}
        self.terms = TermBase(catalog.get("concepts", []))
        self.retriever: Retriever = open_retriever(generation, self.backend)
        added = [g["id"] for g in catalog["games"] if all(b.get("added") for b in g.get("rulebooks", []))]
        self.ranker = Ranker(Vectors.load(generation), self.rarity, scorer, catalog.get("question_terms", {}),
                             uncurated, added)
        self.planner = Planner(self.terms, self.langs, catalog.get("dictionaries"), Lexicon.load(generation),
                               catalog.get("bilingual"))
        self.reader = Reader(self.games, self.terms, self.passages, self._in_corpus, detector, self.planner.translates,
                             self.ranker.asked_words.knows)
        self._searched = lru_cache(maxsize=SEARCHES_KEPT)(self._search)
        warm_up()
        embed(["warm up"])  # load the sentence encoder now rather than on the first question

    def close(self) -> None:
        """Let go of the index and give up the lease: a later build may delete the generation."""
        self.forget()
        self.retriever.close()
        self._lease.release()

    # ---- catalog ----------------------------------------------------------------------------

    def rulebook_langs(self, game: str) -> list[str]:
        return [lang for (g, lang) in self.rulebooks if g == game]

    def games_named(self, q: str) -> set[str]:
        """The games a question names ("... in Mamma Mia?")."""
        return self.reader.mentioned_games(q)

    def sentence_closeness(self, meant: str, passage_id: str):
        """How close in meaning each sentence of a passage is to a question as Referee reads it
        (``Question.meant``): one cosine per sentence, in order."""
        return self.ranker.vectors.sentence_cosines(question_embedding(meant), passage_id)

    def answers_surely(self, game: str) -> bool:
        """Whether an answer about ``game`` may be marked sure. A game without players' questions is
        never: with each shipped game left out in turn, its top passage's chance never told right
        from wrong beyond 0.77 (at 0.5: 0.71 right of 42 % of questions; 0.7: 0.77 of 20 %; 0.9:
        0.71 of 6 %)."""
        return game in self.ranker.curated

    def disagreements_for(self, game: str) -> list[dict]:
        return [d for d in self.disagreements if d["game"] == game]

    # ---- search -----------------------------------------------------------------------------

    def read(self, q: str, game: str | None = None, lang: str | None = None, hint: str | None = None) -> Question:
        """The question as Referee reads it (language, game, concepts, spelling)."""
        return self.reader.read(q, game=game, lang=lang, hint=hint)

    def search(self, q: str, game: str | None = None, limit: int = 10, lang: str | None = None,
               hint: str | None = None) -> SearchResult:
        """Rulebook passages of every language for a question in any language, best first.

        ``lang`` is the asker's language when known; otherwise it is detected from the question,
        and ``hint`` (the client's Accept-Language) decides when the question cannot tell. A
        question asked again is answered from the searches kept (SEARCHES_KEPT). Each caller gets
        its own result, list of hits and Question; the hits (frozen) and the Question's own lists
        and sets are shared with the kept search, and are never to be changed.
        """
        kept = self._searched(q, game, limit, lang, hint)
        return SearchResult(replace(kept.question), list(kept.hits), kept.on_topic, kept.threshold)

    def forget(self) -> None:
        """Drop the searches kept: the next search of each question works it out again."""
        self._searched.cache_clear()

    def _search(self, q: str, game: str | None, limit: int, lang: str | None, hint: str | None) -> SearchResult:
        question, plan, found = self.candidates(q, game, lang, hint, max(limit, CANDIDATES))
        hits, on_topic, threshold = self.ranker.rank(found, plan, question, limit)
        return SearchResult(question, hits, on_topic, threshold)

    def candidates(self, q: str, game: str | None = None, lang: str | None = None, hint: str | None = None,
                   limit: int = CANDIDATES) -> tuple[Question, QueryPlan, list[Found]]:
        """The question as read, its plan, and the candidates for the ranker: the retriever's, then
        the passages whose players' questions are closest in meaning that it did not find (a
        question whose words the term base cannot carry into the rulebook's language)."""
        question = self.read(q, game=game, lang=lang, hint=hint)
        plan = self.planner.plan(question)
        if not plan:
            return question, plan, []
        found = self.retriever.search(plan, question.game, limit)
        if plan.required:  # a quoted phrase: only passages that hold it
            return question, plan, found
        held = {candidate.fields["id"] for candidate in found}
        embedding = question_embedding(question.meant)
        near = self.ranker.vectors.nearest(
            embedding, NEAREST, lambda i: i not in held and question.game in (None, self.passages[i]["game"]))
        held.update(near)
        uncurated = [g for g in ([question.game] if question.game else self.games) if g not in self.ranker.curated]
        close = [i for i in self.ranker.vectors.closest_passages(embedding, CLOSEST + len(held), uncurated)
                 if i not in held][:CLOSEST]
        return question, plan, found + [Found(self.passages[i], 0.0) for i in near + close]

    def rarity(self, lang: str, stem: str) -> float:
        """How telling a stem is in its language's passages: log(1 + passages / (1 + passages
        holding it)); "égalité" says more than "carte". Kept only for stems some passage holds, so
        that the words askers make up cannot fill the memory."""
        key = (lang, stem)
        rarity = self._rarity.get(key)
        if rarity is None:
            held = self.retriever.doc_frequency(text_field(lang), stem)
            rarity = math.log(1 + self._passages_in[lang] / (1 + held))
            if held:
                self._rarity[key] = rarity
        return rarity

    def _in_corpus(self, word: str) -> bool:
        """Whether a word, read in any language, stands in some passage."""
        return any(self.retriever.doc_frequency(text_field(lang), stem) > 0
                   for lang in self.langs for stem in terms(lang, word))
