"""The retriever: the search engine behind a small interface, so another can take its place.

A retriever runs a QueryPlan over one index generation and answers whether a term is indexed.
WhooshRetriever is the one Referee ships: each plan clause becomes a DisjunctionMax of its
alternatives (a Term, or a Phrase for several stems), the clauses an Or, and quoted phrases an
AndMaybe around them. Whoosh searchers are not shared between concurrent searches: each search
borrows one from a pool.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from whoosh import index as whoosh_index
from whoosh import query as Q

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
