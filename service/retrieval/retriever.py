"""The retriever: the search engine behind a small interface, so another can take its place.

A retriever runs a QueryPlan over one index generation and answers whether a term is indexed.
WhooshRetriever is the default: each plan clause becomes a DisjunctionMax of its alternatives (a
Term, or a Phrase for several stems), the clauses an Or, and quoted phrases an AndMaybe around them.
Whoosh searchers are not shared between concurrent searches: each search borrows one from a pool.
TantivyRetriever runs the same plan over the generation's tantivy index (indexer.tantivy_index);
REFEREE_SEARCH_BACKEND chooses between them (``open_retriever``).
"""

from __future__ import annotations

import itertools
import json
import math
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import tantivy
from whoosh import index as whoosh_index
from whoosh import query as Q

from indexer import tantivy_index
from indexer.generation import SECTION_BOOST
from service.config import Settings
from service.retrieval.plan import Facet, Form, QueryPlan


@dataclass(frozen=True)
class Found:
    """A passage the engine found: its stored fields and the engine's score."""

    fields: dict
    score: float


class Retriever(Protocol):
    def search(self, plan: QueryPlan, game: str | None, limit: int) -> list[Found]:
        """The best ``limit`` passages for the plan, in the game when one is given, best first."""

    def doc_frequency(self, fieldname: str, stem: str) -> int:
        """In how many passages ``stem`` stands in ``fieldname``."""

    def close(self) -> None:
        """Let go of the index's files."""


def _form(form: Form) -> Q.Query:
    if len(form.stems) == 1:
        return Q.Term(form.field, form.stems[0], boost=form.boost)
    return Q.Phrase(form.field, list(form.stems), slop=form.slop, boost=form.boost)


def whoosh_query(plan: QueryPlan) -> Q.Query | None:
    optional = []
    for clause in plan.clauses:
        if isinstance(clause, Facet):
            optional.append(Q.Term("facets", clause.name, boost=clause.boost))
        elif len(clause) == 1:
            optional.append(_form(clause[0]))
        else:
            optional.append(Q.DisjunctionMax([_form(f) for f in clause]))
    required = [_form(f) for f in plan.required]
    if required:
        return Q.AndMaybe(Q.Or(required), Q.Or(optional)) if optional else Q.Or(required)
    return Q.Or(optional) if optional else None


class WhooshRetriever:
    """Whoosh over one generation folder (opened by its own path, so a rebuild cannot swap files)."""

    def __init__(self, generation: Path):
        self._index = whoosh_index.open_dir(str(generation))
        self._idle: list = []

    @contextmanager
    def _searcher(self):
        """A searcher for this search alone, taken from the pool (list.pop and append are atomic)."""
        try:
            searcher = self._idle.pop()
        except IndexError:
            searcher = self._index.searcher()
        try:
            yield searcher
        finally:
            self._idle.append(searcher)

    def search(self, plan: QueryPlan, game: str | None, limit: int) -> list[Found]:
        query = whoosh_query(plan)
        if query is None:
            return []
        with self._searcher() as searcher:
            hits = searcher.search(query, limit=limit, filter=Q.Term("game", game) if game else None)
            return [Found(hit.fields(), hit.score) for hit in hits]

    def doc_frequency(self, fieldname: str, stem: str) -> int:
        with self._searcher() as searcher:
            return searcher.reader().doc_frequency(fieldname, stem)

    def close(self) -> None:
        while self._idle:
            self._idle.pop().close()


# A phrase of n stems whose neighbours may stand 1 to ``slop`` positions apart (Whoosh's Phrase)
# becomes the exact tantivy phrases of every such spacing, when there are no more than this many;
# past it, one tantivy phrase with the whole slack (which also allows other spacings).
MAX_SPACINGS = 16


def _boosted(query: tantivy.Query, boost: float) -> tantivy.Query:
    return query if boost == 1.0 else tantivy.Query.boost_query(query, boost)


def _should(queries: list[tantivy.Query]) -> tantivy.Query:
    if len(queries) == 1:
        return queries[0]
    return tantivy.Query.boolean_query([(tantivy.Occur.Should, q) for q in queries])


class TantivyRetriever:
    """tantivy over one generation's ``tantivy`` subfolder, fed with Referee's own analysis.

    The plan is translated as ``whoosh_query`` translates it: a clause is a DisjunctionMax of its
    forms (a term for one stem, phrases for several), a facet a term on ``facets``, the clauses
    should-match, quoted forms must-match (at least one), the game a filter that adds no score.
    tantivy's searcher reads an immutable index here and is shared by concurrent searches.

    Scores are put on Whoosh's scale, which the ranker was fitted on: each form is boosted by
    Whoosh's idf over tantivy's (log(N / (df + 1)) + 1 against log(1 + (N - df + .5) / (df + .5)));
    the rest of BM25 (k1 1.2, b 0.75, lengths over every passage) is the same in both, so a word
    scores as in Whoosh but where the engines round a passage's length differently (a few
    percent). A facet scores its boost, as Whoosh scores a keyword. Still different: headings
    weigh SECTION_BOOST times a word in the text (Whoosh halves their term frequency instead);
    a phrase scores by how often the phrase stands (Whoosh: by its words' scores); and a clause
    scores as its best alternative that matches, where Whoosh's DisjunctionMax (whoosh3 3.54.0)
    also counts alternatives standing on a later passage.
    """

    def __init__(self, generation: Path):
        self._index = tantivy.Index.open(str(Path(generation) / tantivy_index.FOLDER))
        self._schema = self._index.schema
        self._searcher = self._index.searcher()
        self._count = self._searcher.num_docs
        self._idfs: dict[tuple[str, str], tuple[float, float]] = {}

    def _idf(self, fieldname: str, stem: str) -> tuple[float, float]:
        """(Whoosh's idf, tantivy's) of a stem: log(N / (df + 1)) + 1 and log(1 + (N - df + .5) / (df + .5)).
        Kept only for stems some passage holds, so that the words askers make up cannot fill the memory."""
        key = (fieldname, stem)
        idfs = self._idfs.get(key)
        if idfs is None:
            held, count = self.doc_frequency(fieldname, stem), self._count
            idfs = (math.log(count / (held + 1)) + 1, math.log(1 + (count - held + 0.5) / (held + 0.5)))
            if held:
                self._idfs[key] = idfs
        return idfs

    def _form(self, form: Form) -> tantivy.Query:
        stems, slop = form.stems, max(1, form.slop)
        idfs = [self._idf(form.field, stem) for stem in stems]
        # Whoosh's weight of the words (its BM25F idf) in place of tantivy's: the rest of BM25 is the same
        boost = form.boost * sum(w for w, _ in idfs) / sum(t for _, t in idfs)
        if form.field.startswith("s_"):
            boost *= SECTION_BOOST
        if len(stems) == 1:
            return _boosted(tantivy.Query.term_query(self._schema, form.field, stems[0]), boost)
        if slop ** (len(stems) - 1) <= MAX_SPACINGS:
            phrases = []
            for gaps in itertools.product(range(1, slop + 1), repeat=len(stems) - 1):
                offsets = itertools.accumulate(gaps, initial=0)
                phrases.append(tantivy.Query.phrase_query(self._schema, form.field, list(zip(offsets, stems)), 0))
            phrase = phrases[0] if len(phrases) == 1 else tantivy.Query.disjunction_max_query(phrases)
        else:
            phrase = tantivy.Query.phrase_query(self._schema, form.field, list(stems), (slop - 1) * (len(stems) - 1))
        return _boosted(phrase, boost)

    def query(self, plan: QueryPlan, game: str | None = None) -> tantivy.Query | None:
        """The tantivy query for a plan (None when it has nothing to look for)."""
        optional = []
        for clause in plan.clauses:
            if isinstance(clause, Facet):
                facet = tantivy.Query.term_query(self._schema, "facets", clause.name)
                optional.append(tantivy.Query.const_score_query(facet, clause.boost))  # Whoosh's score of a keyword
            elif len(clause) == 1:
                optional.append(self._form(clause[0]))
            else:
                optional.append(tantivy.Query.disjunction_max_query([self._form(f) for f in clause]))
        required = [self._form(f) for f in plan.required]
        if required:
            query = tantivy.Query.boolean_query(
                [(tantivy.Occur.Must, _should(required))] + [(tantivy.Occur.Should, q) for q in optional])
        elif optional:
            query = _should(optional)
        else:
            return None
        if game:
            only = tantivy.Query.const_score_query(tantivy.Query.term_query(self._schema, "game", game), 0.0)
            query = tantivy.Query.boolean_query([(tantivy.Occur.Must, query), (tantivy.Occur.Must, only)])
        return query

    def search(self, plan: QueryPlan, game: str | None, limit: int) -> list[Found]:
        query = self.query(plan, game)
        if query is None:
            return []
        searcher = self._searcher
        hits = searcher.search(query, limit, count=False).hits
        return [Found(json.loads(bytes(searcher.doc(address)["stored"][0])), score) for score, address in hits]

    def doc_frequency(self, fieldname: str, stem: str) -> int:
        return self._searcher.doc_freq(fieldname, stem)

    def close(self) -> None:
        self._searcher = None
        self._index = None


BACKENDS = ("whoosh", "tantivy")
BACKEND_SETTING = "REFEREE_SEARCH_BACKEND"


def backend(name: str | None = None) -> str:
    """The search backend: ``name``, else $REFEREE_SEARCH_BACKEND, else whoosh; ValueError for another."""
    chosen = (name if name is not None else Settings.read().search_backend).strip().lower() or "whoosh"
    if chosen not in BACKENDS:
        raise ValueError(f"{BACKEND_SETTING}={chosen!r} is not a search backend: use one of {', '.join(BACKENDS)}")
    return chosen


def index_exists(generation: Path, name: str | None = None) -> bool:
    """Whether the generation holds a complete index for the chosen backend."""
    if backend(name) == "tantivy":
        folder = Path(generation) / tantivy_index.FOLDER  # tantivy raises on a folder that is not there
        return folder.is_dir() and tantivy.Index.exists(str(folder))
    return whoosh_index.exists_in(str(generation))


def open_retriever(generation: Path, name: str | None = None) -> Retriever:
    """The retriever of the chosen backend (see ``backend``) over one generation folder."""
    return TantivyRetriever(generation) if backend(name) == "tantivy" else WhooshRetriever(generation)
