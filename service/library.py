"""The rulebook library the service serves: the catalog and the search index of one build.

Opened once per process by create_app. Searchers are per thread (Whoosh searchers are not
shared across threads); the index generation never changes under an open library.
"""

from __future__ import annotations

import html
import re
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from whoosh import index as whoosh_index
from whoosh import query as Q

from indexer.analysis import analyzer, spans, terms, warm_up
from indexer.build import read_catalog, section_field, text_field
from indexer.corpus import LANGS

MAX_QUERY_TERMS = 64

# "..." “...” «...» 「...」 『...』: a quoted phrase must match as written.
_QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”|«\s*([^»]+?)\s*»|「([^」]+)」|『([^』]+)』')
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


class IndexMissing(RuntimeError):
    """No complete index at the configured place: run `python -m indexer` (make index)."""


@dataclass(frozen=True)
class Hit:
    id: str
    game: str
    lang: str
    section: str
    section_path: list[str]
    kind: str
    text: str
    snippet: str
    highlights: list[tuple[int, int]]
    score: float


@dataclass(frozen=True)
class ParsedQuery:
    phrases: list[str]
    words: str


def parse_query(q: str) -> ParsedQuery:
    """Split the quoted phrases off a question; the rest is matched word by word."""
    phrases = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(q)]
    return ParsedQuery(phrases=[p for p in phrases if p.strip()], words=_QUOTED.sub(" ", q))


def guess_lang(q: str) -> str | None:
    """The asker's language where the script alone tells it (Chinese); otherwise unknown."""
    return "zh" if _CJK.search(q) else None


def mark(text: str, highlights: list[tuple[int, int]]) -> str:
    """The passage as HTML-escaped text with each highlighted span wrapped in <mark>."""
    out, at = [], 0
    for start, end in highlights:
        out.append(html.escape(text[at:start], quote=False))
        out.append("<mark>" + html.escape(text[start:end], quote=False) + "</mark>")
        at = end
    out.append(html.escape(text[at:], quote=False))
    return "".join(out)


def _merge(found: list[tuple[int, int]], text: str) -> list[tuple[int, int]]:
    """Sort spans, drop those inside others, and join spans separated only by white space."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(found):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        elif merged and not text[merged[-1][1] : start].strip():
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


class Library:
    """Games, rulebooks, passages and search over one built index."""

    def __init__(self, index_dir: Path | str):
        index_dir = Path(index_dir)
        catalog = read_catalog(index_dir)
        if catalog is None or not whoosh_index.exists_in(str(index_dir)):
            raise IndexMissing(f"no index at {index_dir}: run `make index` (python -m indexer)")
        self.index_dir = index_dir
        self.generation = index_dir.resolve().name
        self.built_at = catalog["built_at"]
        self.games = {g["id"]: g for g in catalog["games"]}
        self.rulebooks = {(b["game"], b["lang"]): b for b in catalog["rulebooks"]}
        self.disagreements = catalog["disagreements"]
        self.passages = {
            p["id"]: p for b in catalog["rulebooks"] for s in b["sections"] for p in s["passages"]
        }
        # Open the generation folder itself, so a later rebuild cannot swap files under us.
        self._index = whoosh_index.open_dir(str(index_dir.resolve()))
        self._local = threading.local()
        warm_up()

    def _searcher(self):
        searcher = getattr(self._local, "searcher", None)
        if searcher is None:
            searcher = self._local.searcher = self._index.searcher()
        return searcher

    def rulebook_langs(self, game: str) -> list[str]:
        return [lang for (g, lang) in self.rulebooks if g == game]

    def disagreements_for(self, game: str) -> list[dict]:
        return [d for d in self.disagreements if d["game"] == game]

    def build_query(self, q: str) -> tuple[Q.Query | None, dict[str, set[str]]]:
        """The Whoosh query for a question, and the terms to highlight in each language."""
        parsed = parse_query(unicodedata.normalize("NFKC", q))
        wanted: dict[str, set[str]] = {lang: set() for lang in LANGS}
        word_queries, phrase_queries = [], []
        for lang in LANGS:
            words = terms(lang, parsed.words)[:MAX_QUERY_TERMS]
            wanted[lang].update(words)
            for word in words:
                word_queries.append(Q.Term(text_field(lang), word))
                word_queries.append(Q.Term(section_field(lang), word))
            for phrase in parsed.phrases:
                tokens = [(t.text, t.pos) for t in analyzer(lang)(phrase, positions=True, mode="query")]
                tokens = tokens[:MAX_QUERY_TERMS]
                if not tokens:
                    continue
                words = [text for text, _ in tokens]
                wanted[lang].update(words)
                if len(words) == 1:
                    phrase_queries.append(Q.Term(text_field(lang), words[0]))
                else:
                    # Stop words leave gaps in positions, in the index as in the phrase.
                    slop = max(b[1] - a[1] for a, b in zip(tokens, tokens[1:]))
                    phrase_queries.append(Q.Phrase(text_field(lang), words, slop=slop))
        if phrase_queries:
            required = Q.Or(phrase_queries)
            query = Q.AndMaybe(required, Q.Or(word_queries)) if word_queries else required
        elif word_queries:
            query = Q.Or(word_queries)
        else:
            query = None
        return query, wanted

    def search(self, q: str, game: str | None = None, limit: int = 10) -> list[Hit]:
        """Rulebook passages of every language, best first (BM25F)."""
        query, wanted = self.build_query(q)
        if query is None:
            return []
        results = self._searcher().search(
            query, limit=limit, filter=Q.Term("game", game) if game else None
        )
        hits = []
        for result in results:
            text = result["text"]
            highlights = _merge(spans(result["lang"], text, wanted[result["lang"]]), text)
            hits.append(
                Hit(
                    id=result["id"],
                    game=result["game"],
                    lang=result["lang"],
                    section=result["section"],
                    section_path=result["section_path"],
                    kind=result["kind"],
                    text=text,
                    snippet=mark(text, highlights),
                    highlights=highlights,
                    score=round(result.score, 4),
                )
            )
        return hits

