"""The rulebook library the service serves: the catalog and the search index of one build.

One Library serves one index generation, which it holds a lease on (indexer.build.hold) until
``close``: no build deletes it meanwhile. service.librarian moves the service to a new generation.
Whoosh searchers are not shared between concurrent searches: each search borrows one from a pool.

A question reaches every rulebook language through the terminology base: its words are matched
to concepts in the asker's language, and each concept is searched with its forms in every
language (one DisjunctionMax per concept, so a concept with many synonyms counts once). Words
that match no concept are searched as they are, in every language field.
"""

from __future__ import annotations

import html
import re
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein
from whoosh import index as whoosh_index
from whoosh import query as Q

from indexer.analysis import analyzer, fold, spans, stoplist, terms, to_simplified, warm_up, words
from indexer.build import hold, read_catalog, section_field, text_field
from indexer.corpus import LANGS
from indexer.terms import Analysis, Concept, TermBase

MAX_QUERY_TERMS = 64
OTHER_LANGUAGE_WEIGHT = 0.5  # a word searched as-is in a language other than the asker's
NUMBER_FACET_WEIGHT = 1.5
MENTIONED_GAME_FACTOR = 1.5
KIND_FACTOR = {"rule": 1.0, "faq": 0.95, "example": 0.85, "tip": 0.8, "note": 0.8, "about": 0.7}
ASKER_LANGUAGE_FACTOR = 1.25  # equally good passages: the one the asker can read comes first
COUNT_FACTOR = 1.5  # a "how many" question: passages that put a number before the thing asked about
ELSEWHERE = "elsewhere"  # the facet of words that no rulebook here uses (other games, real cooking)
CANDIDATES = 40  # results fetched before the kind and game preferences re-rank them

# "..." “...” «...» 「...」 『...』: a quoted phrase must match as written.
_QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”|«\s*([^»]+?)\s*»|「([^」]+)」|『([^』]+)』')
_WORD = re.compile(r"[^\W\d_]{4,}", re.UNICODE)
# A count just before the words asked about: "60 Mambo cards", "2 à 5 joueurs", "2-5名10歲以上的玩家".
# "one" and 一 are left out: they are mostly articles ("one card", 一張), not answers to "how many".
_COUNT = re.compile(
    r"(\d+|\b(?:two|three|four|five|six|seven|eight|nine|ten|deux|trois|quatre|cinq|six|sept|huit|"
    r"zwei|drei|vier|fünf|sechs|sieben|acht)\b|(?<!第)[二三四五六七八九十兩两]+)[^.。;；,，\n]{0,8}$",
    re.IGNORECASE,
)


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


@dataclass
class SearchResult:
    hits: list[Hit]
    lang: str | None  # the asker's language, given or detected
    corrected: str | None = None  # the question with its spelling corrected, when it was
    coverage: float = 0.0  # share of the question's content words that the corpus knows
    elsewhere: list[str] = field(default_factory=list)  # words of other domains (chess, dough, weather)


@dataclass(frozen=True)
class ParsedQuery:
    phrases: list[str]
    words: str


def parse_query(q: str) -> ParsedQuery:
    """Split the quoted phrases off a question; the rest is matched word by word."""
    phrases = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(q)]
    return ParsedQuery(phrases=[p for p in phrases if p.strip()], words=_QUOTED.sub(" ", q))


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


_ARTICLES = {"the", "la", "le", "die", "der", "den", "dem", "des"}
_CARD_WORDS = {"card", "cards", "carte", "cartes", "karte", "karten"}


def _name_form(text: str) -> str:
    """How game names are compared: folded (no case, no accents), Simplified, punctuation as space."""
    return re.sub(r"[^\w\s]", " ", to_simplified(fold(text)))


def _game_names(games: dict) -> list[tuple[str, str]]:
    """(name form, game id), longest first: every name of every game, its id ("mammut mambo"), and
    the ö spelt oe ("moemmen")."""
    names = set()
    for game_id, game in games.items():
        for name in [*game["names"].values(), game_id.replace("-", " ")]:
            form = " ".join(_name_form(name).split())
            names.add((form, game_id))
            names.add((" ".join(_name_form(name.replace("ö", "oe").replace("Ö", "Oe")).split()), game_id))
    return sorted(names, key=lambda pair: -len(pair[0]))


def _form_query(fieldname: str, lang: str, text: str, boost: float = 1.0) -> tuple[Q.Query | None, list[str]]:
    """A word as a Term, several as a Phrase (stop words leave gaps, so the slop allows them)."""
    tokens = [(t.text, t.pos) for t in analyzer(lang)(text, positions=True, mode="query")][:MAX_QUERY_TERMS]
    if not tokens:
        return None, []
    stems = [t for t, _ in tokens]
    if len(stems) == 1:
        return Q.Term(fieldname, stems[0], boost=boost), stems
    slop = max(b[1] - a[1] for a, b in zip(tokens, tokens[1:]))
    return Q.Phrase(fieldname, stems, slop=slop, boost=boost), stems


class Library:
    """Games, rulebooks, passages and search over one built index."""

    def __init__(self, index_dir: Path | str, detector=None):
        index_dir = Path(index_dir)
        try:
            self._lease = hold(index_dir)
        except FileNotFoundError:
            raise IndexMissing(f"no index at {index_dir}: run `make index` (python -m indexer)") from None
        generation = self._lease.path
        catalog = read_catalog(generation)
        if catalog is None or not whoosh_index.exists_in(str(generation)):
            self._lease.release()
            raise IndexMissing(f"no index at {index_dir}: run `make index` (python -m indexer)")
        self.index_dir = index_dir
        self.generation = generation.name
        self.built_at = catalog["built_at"]
        self.games = {g["id"]: g for g in catalog["games"]}
        self.rulebooks = {(b["game"], b["lang"]): b for b in catalog["rulebooks"]}
        self.disagreements = catalog["disagreements"]
        self.passages = {
            p["id"]: p for b in catalog["rulebooks"] for s in b["sections"] for p in s["passages"]
        }
        # Languages some rulebook is written in: only their fields are worth querying.
        self.langs = tuple(lang for lang in LANGS if any(p["lang"] == lang for p in self.passages.values()))
        self.terms = TermBase(catalog.get("concepts", []))
        self._concept_queries = {c.id: self._concept_query(c) for c in self.terms.concepts.values()}
        self._concept_stems = {c.id: self._stems(c) for c in self.terms.concepts.values()}
        self._game_names = _game_names(self.games)
        self._known = self._vocabulary()
        self._spelling = sorted(self.terms.surface)
        # Open the leased generation folder itself, so a later rebuild cannot swap files under us.
        self._index = whoosh_index.open_dir(str(generation))
        self._idle_searchers: list = []
        self.detector = detector
        warm_up()

    # ---- catalog ----------------------------------------------------------------------------

    def rulebook_langs(self, game: str) -> list[str]:
        return [lang for (g, lang) in self.rulebooks if g == game]

    def disagreements_for(self, game: str) -> list[dict]:
        return [d for d in self.disagreements if d["game"] == game]

    # ---- query building ---------------------------------------------------------------------

    @contextmanager
    def _searcher(self):
        """A searcher for this search alone, taken from the pool (list.pop and append are atomic)."""
        try:
            searcher = self._idle_searchers.pop()
        except IndexError:
            searcher = self._index.searcher()
        try:
            yield searcher
        finally:
            self._idle_searchers.append(searcher)

    def close(self) -> None:
        """Close the searchers and give up the lease: a later build may delete the generation."""
        while self._idle_searchers:
            self._idle_searchers.pop().close()
        self._lease.release()

    def _concept_query(self, concept: Concept) -> list[Q.Query]:
        """The concept's forms in every language, in text and section fields (alternatives)."""
        alternatives: dict[tuple, Q.Query] = {}  # deduplicated: forms often share their stems
        for lang in self.langs:
            for form in concept.forms[lang]:
                for fieldname in (text_field(lang), section_field(lang)):
                    query, stems = _form_query(fieldname, lang, form)
                    # A phrase that its stop words reduce to one word ("game is over" -> game)
                    # no longer says what the concept means.
                    if query is not None and (len(stems) > 1 or len(words(lang, form)) == 1):
                        alternatives.setdefault((fieldname, tuple(stems)), query)
        return list(alternatives.values())

    def _stems(self, concept: Concept) -> dict[str, set[str]]:
        return {lang: {s for form in concept.forms[lang] for s in terms(lang, form)} for lang in LANGS}

    def _vocabulary(self) -> set[str]:
        """Folded words of the corpus, the term base and the stop lists: words not worth correcting."""
        known = set(self.terms.surface)
        for passage in self.passages.values():
            known.update(fold(w) for w in _WORD.findall(passage["text"]))
        for lang in ("en", "fr", "de"):
            known.update(stoplist(lang))
        return known

    def detect_lang(self, q: str) -> str | None:
        """The asker's language, told from the question without its game names and quoted words."""
        if not self.detector:
            return None
        return self.detector.detect(self._without_names(_QUOTED.sub(" ", q)))

    def _routing_names_removed(self, q: str) -> str:
        """The question without the game names that only say which game it is about ("Mömmen:
        who wins", "wann ist mamma zu ende"); a name that is a thing in its game stays ("the Mamma
        pays less", "the Mamma Mia card"). The blanks keep every offset."""
        folded = _name_form(q)
        if len(folded) != len(q):
            return q
        out = list(q)
        for name, _ in self._game_names:
            for match in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", folded):
                before, after = folded[:match.start()].split()[-1:], folded[match.end():].split()[:1]
                if (before and before[0] in _ARTICLES) or (after and after[0] in _CARD_WORDS):
                    continue
                out[match.start():match.end()] = " " * (match.end() - match.start())
        return "".join(out)

    def _without_names(self, q: str) -> str:
        """The question with the games' names taken out (they are the same in every language)."""
        folded = _name_form(q)
        keep = [True] * len(q)
        if len(folded) == len(q):  # folding kept the offsets: cut the names out of the original
            for name, _ in self._game_names:
                for match in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", folded):
                    keep[match.start():match.end()] = [False] * (match.end() - match.start())
        return "".join(c if k else " " for c, k in zip(q, keep))

    def correct(self, q: str, lang: str | None = None) -> str | None:
        """The question with misspelt game words corrected ("mamoth" -> "mammoth"), or None.

        Only a word that is neither in the rulebooks nor a word of the asker's language (``lang``,
        or any language when unknown) is corrected: "capital" stays "capital".
        """
        corrected, changed = q, False
        for match in reversed(list(_WORD.finditer(q))):
            word = fold(match.group())
            if word in self._known or self._recognised(match.group()):
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

    def mentioned_games(self, q: str) -> set[str]:
        """Games the question names ("règles du Mömmen", "mamma mia pizza game", "猛犸曼波");
        the longest name wins where names overlap ("Mamma Mia" is not "Mamma")."""
        folded = _name_form(q)
        found: set[str] = set()
        for name, game_id in self._game_names:
            pattern = rf"(?<!\w){re.escape(name)}(?!\w)" if name.isascii() else re.escape(name)
            if re.search(pattern, folded):
                found.add(game_id)
                folded = re.sub(pattern, " ", folded)
        return found

    def build_query(self, q: str, lang: str | None, game: str | None = None):
        """The Whoosh query for a question, the terms to highlight per language, and the analysis."""
        parsed = parse_query(unicodedata.normalize("NFKC", q))
        langs = (lang,) if lang else LANGS
        analysis = self.terms.analyse(parsed.words, langs, game)
        wanted: dict[str, set[str]] = {lang_: set() for lang_ in LANGS}
        optional, required = [], []

        # One clause per matched word: where a word means several concepts (回合: turn, round,
        # service), their forms are alternatives of one DisjunctionMax, so the word counts once.
        by_span: dict[tuple[int, int], list[Concept]] = {}
        for match in analysis.matches:
            if match.concept.facet == ELSEWHERE:  # a word of another domain: nothing to find
                continue
            if match.concept.facet:  # a kind of question ("how many"), not a word to find
                optional.append(Q.Term("facets", match.concept.facet, boost=NUMBER_FACET_WEIGHT))
            else:
                by_span.setdefault((match.start, match.end), []).append(match.concept)
        seen: set[tuple[str, ...]] = set()
        for concepts in by_span.values():
            key = tuple(sorted(c.id for c in concepts))
            if key in seen:
                continue
            seen.add(key)
            alternatives = [a for c in concepts for a in self._concept_queries[c.id]]
            if alternatives:
                optional.append(Q.DisjunctionMax(alternatives))
            for concept in concepts:
                for lang_, stems in self._concept_stems[concept.id].items():
                    wanted[lang_].update(stems)

        leftover = " ".join(parsed.words[s:e] for s, e in analysis.leftover)
        for lang_ in self.langs:
            weight = 1.0 if lang in (None, lang_) else OTHER_LANGUAGE_WEIGHT
            for word in terms(lang_, leftover)[:MAX_QUERY_TERMS]:
                wanted[lang_].add(word)
                optional.append(Q.Term(text_field(lang_), word, boost=weight))
                optional.append(Q.Term(section_field(lang_), word, boost=weight))
            for phrase in parsed.phrases:
                query, stems = _form_query(text_field(lang_), lang_, phrase)
                if query is not None:
                    required.append(query)
                    wanted[lang_].update(stems)

        if required:
            query = Q.AndMaybe(Q.Or(required), Q.Or(optional)) if optional else Q.Or(required)
        elif optional:
            query = Q.Or(optional)
        else:
            query = None
        return query, wanted, analysis

    # ---- search -----------------------------------------------------------------------------

    def search(self, q: str, game: str | None = None, limit: int = 10, lang: str | None = None,
               hint: str | None = None) -> SearchResult:
        """Rulebook passages of every language for a question in any language, best first.

        ``lang`` is the asker's language when known; otherwise it is detected from the question,
        and ``hint`` (the client's Accept-Language) decides when the question cannot tell.
        """
        asker = lang or self.detect_lang(q) or hint
        corrected = self.correct(q, asker)
        mentioned = set() if game else self.mentioned_games(q)
        if len(mentioned) == 1:  # a question that names its game is about that game alone
            game, = mentioned
        query, wanted, analysis = self.build_query(self._routing_names_removed(corrected or q), asker, game)
        if query is None:  # the question is the game's name and nothing else
            query, wanted, analysis = self.build_query(corrected or q, asker, game)
        result = SearchResult(hits=[], lang=asker, corrected=corrected,
                              coverage=self._coverage(corrected or q, analysis),
                              elsewhere=[m.concept.id for m in analysis.matches if m.concept.facet == ELSEWHERE])
        if query is None:
            return result
        counting = any(c.facet == "number" for c in analysis.concepts)
        with self._searcher() as searcher:
            found = searcher.search(query, limit=max(limit, CANDIDATES), filter=Q.Term("game", game) if game else None)
            scored = self._rerank(found, asker, mentioned, counting, wanted)
        scored.sort(key=lambda item: -item[0])
        for score, r, text, highlights in scored[:limit]:
            if highlights is None:
                highlights = _merge(spans(r["lang"], text, wanted[r["lang"]]), text)
            result.hits.append(
                Hit(
                    id=r["id"], game=r["game"], lang=r["lang"], section=r["section"],
                    section_path=r["section_path"], kind=r["kind"], text=text,
                    snippet=mark(text, highlights), highlights=highlights, score=round(score, 4),
                )
            )
        return result

    def _rerank(self, found, asker, mentioned, counting, wanted) -> list[tuple]:
        """Scores after the preferences (kind, mentioned game, asker's language, counts)."""
        scored = []
        for r in found:
            text = r["text"]
            # Highlights are worked out only where needed: they cost an analysis of the passage.
            highlights = _merge(spans(r["lang"], text, wanted[r["lang"]]), text) if counting else None
            score = r.score * KIND_FACTOR.get(r["kind"], 1.0)
            if r["game"] in mentioned:
                score *= MENTIONED_GAME_FACTOR
            if r["lang"] == asker:
                score *= ASKER_LANGUAGE_FACTOR
            if counting and any(_COUNT.search(text[max(0, s - 12) : s]) for s, _ in highlights):
                score *= COUNT_FACTOR
            scored.append((score, r.fields(), text, highlights))
        return scored

    def _recognised(self, word: str) -> bool:
        """An inflection of a known word: its stem, in some language, is a concept form or indexed."""
        return any(self.terms.knows(lang, stem) for lang in LANGS for stem in terms(lang, word)) or self._in_corpus(word)

    def _in_corpus(self, word: str) -> bool:
        """Whether a word, read in any language, stands in some passage."""
        with self._searcher() as searcher:
            reader = searcher.reader()
            return any(
                reader.doc_frequency(text_field(lang), stem) > 0 for lang in self.langs for stem in terms(lang, word)
            )

    def _coverage(self, q: str, analysis: Analysis) -> float:
        """Share of the question's content words that are concepts or stand in the corpus."""
        matched = {(m.start, m.end) for m in analysis.matches if m.concept.facet != ELSEWHERE}
        elsewhere = {(m.start, m.end) for m in analysis.matches if m.concept.facet == ELSEWHERE} - matched
        total = len(analysis.leftover) + len(matched) + len(elsewhere)
        if total == 0:
            return 0.0
        known = sum(1 for s, e in analysis.leftover if self._in_corpus(q[s:e]))
        return (len(matched) + known) / total
