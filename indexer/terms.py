"""The terminology base (corpus/terms.yaml): concepts with their words in en, fr, de and zh.

A question's words are matched to concepts in the asker's language (longest forms first, stop
words allowed inside a form, so "how many" and "wie viele" match). Each matched concept is then
searched with its forms in every rulebook language: the cross-lingual bridge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from indexer.analysis import fold, to_simplified, words
from indexer.corpus import LANGS

MAX_FORM_WORDS = 8
ELSEWHERE = "elsewhere"  # the facet of words that no rulebook here uses (other games, real cooking)
MIN_COMPOUND_PART = 3  # letters of each part of a German compound read as two words
MIN_COMPOUND_TAIL = 4  # letters of the last part when it alone is a concept's form


@dataclass(frozen=True)
class Concept:
    id: str
    games: tuple[str, ...]  # empty: general vocabulary
    facet: str | None
    forms: dict[str, tuple[str, ...]]  # lang -> forms as written (names included in every lang)

    def applies_to(self, game: str | None) -> bool:
        return game is None or not self.games or game in self.games


@dataclass(frozen=True)
class Match:
    concept: Concept
    lang: str
    start: int  # character offsets of the matched words in the question
    end: int


@dataclass
class Analysis:
    """What the term base found in a question."""

    matches: list[Match] = field(default_factory=list)
    leftover: list[tuple[int, int]] = field(default_factory=list)  # spans of unmatched content words

    @property
    def concepts(self) -> list[Concept]:
        seen: dict[str, Concept] = {}
        for m in self.matches:
            seen.setdefault(m.concept.id, m.concept)
        return list(seen.values())


def load_concepts(path: Path | str) -> list[dict]:
    """Raw entries of terms.yaml, with Simplified forms added to the Traditional zh ones."""
    entries = yaml.safe_load(Path(path).read_text(encoding="utf-8"))["concepts"]
    ids = set()
    for entry in entries:
        if entry["id"] in ids:
            raise ValueError(f"terms.yaml: concept {entry['id']} is listed twice")
        ids.add(entry["id"])
        zh = list(entry.get("zh", []))
        entry["zh"] = list(dict.fromkeys(zh + [to_simplified(f) for f in zh]))
    return entries


def _surface(text: str) -> str:
    return " ".join(fold(text).replace("-", " ").split())


class TermBase:
    """Concepts indexed by the stems of their forms, per language."""

    def __init__(self, entries: list[dict]):
        self.concepts: dict[str, Concept] = {}
        # lang -> tuple of stems -> [(concept id, folded surface of the form)]
        self._forms: dict[str, dict[tuple[str, ...], list[tuple[str, str]]]] = {lang: {} for lang in LANGS}
        self.surface: set[str] = set()  # folded single words of every form, for spelling
        self._zh_forms: dict[str, list[str]] = {}  # Simplified form -> concept ids
        for entry in entries:
            names = entry.get("names", [])
            forms = {lang: tuple(dict.fromkeys(list(entry.get(lang, [])) + names)) for lang in LANGS}
            concept = Concept(entry["id"], tuple(entry.get("games", [])), entry.get("facet"), forms)
            self.concepts[concept.id] = concept
            for lang, lang_forms in forms.items():
                for form in lang_forms:
                    stems = tuple(w.stem for w in words(lang, form))
                    if stems and len(stems) <= MAX_FORM_WORDS:
                        entry = (concept.id, _surface(form))
                        known = self._forms[lang].setdefault(stems, [])
                        if entry not in known:
                            known.append(entry)
                    if lang == "zh" and len(form) >= 2:
                        self._zh_forms.setdefault(to_simplified(form).lower(), []).append(concept.id)
                    if lang != "zh":
                        self.surface.update(fold(w) for w in form.replace("-", " ").split() if len(w) > 3)

    def knows(self, lang: str, stem: str) -> bool:
        """Whether some form of some concept, read in ``lang``, is this one stem."""
        return (stem,) in self._forms[lang]

    def _match_inside(self, text, token, game, analysis: Analysis, covered: list) -> None:
        """jieba keeps some phrases whole (坐公車): find concept forms inside such a word."""
        word = token.stem
        for form, ids in self._zh_forms.items():
            at = word.find(form)
            if at < 0:
                continue
            for cid in ids:
                if self.concepts[cid].applies_to(game):
                    start = token.start + at
                    analysis.matches.append(Match(self.concepts[cid], "zh", start, start + len(form)))
                    covered.append((token.start, token.end))

    def _match_compound(self, text, token, game, analysis: Analysis, covered: list) -> None:
        """A German compound the term base lacks, read as two of its words ("Tischkarten": Tisch +
        Karten; "Zutatenkarte": Zutaten + Karte), a linking s or e between them allowed. When only
        the last word is a concept's form, the compound is a kind of it ("Wechselgeld": money),
        and the whole word is searched too."""
        word = text[token.start : token.end]
        kind_of = None
        for cut in range(len(word) - MIN_COMPOUND_PART, MIN_COMPOUND_PART - 1, -1):  # the longest head first
            tail = self._single(word[cut:], game)
            if not tail:
                continue
            for head_text in (word[:cut], word[:cut].removesuffix("s"), word[:cut].removesuffix("e")):
                head = self._single(head_text, game) if len(head_text) >= MIN_COMPOUND_PART else []
                if head:
                    head_end = token.start + len(head_text)
                    for cid in head:
                        analysis.matches.append(Match(self.concepts[cid], "de", token.start, head_end))
                    for cid in tail:
                        analysis.matches.append(Match(self.concepts[cid], "de", token.start + cut, token.end))
                    covered.append((token.start, token.end))
                    return
            if kind_of is None and len(word) - cut >= MIN_COMPOUND_TAIL:
                kinds = [cid for cid in tail if self.concepts[cid].facet != ELSEWHERE]  # "schnappen" is no kind of App
                if kinds:
                    kind_of = (cut, kinds)
        if kind_of:
            cut, tail = kind_of
            for cid in tail:
                analysis.matches.append(Match(self.concepts[cid], "de", token.start + cut, token.end))

    def _single(self, word: str, game: str | None) -> list[str]:
        """The concepts of which ``word`` alone, read in German, is a form."""
        stems = tuple(w.stem for w in words("de", word))
        if len(stems) != 1:
            return []
        return list(dict.fromkeys(c for c, _ in self._forms["de"].get(stems, ()) if self.concepts[c].applies_to(game)))

    def analyse(self, text: str, langs: tuple[str, ...], game: str | None = None) -> Analysis:
        """Match concept forms in ``text`` read as each of ``langs``; longest match wins."""
        analysis = Analysis()
        covered: list[tuple[int, int]] = []
        for lang in langs:
            tokens = words(lang, text)
            forms = self._forms[lang]
            i = 0
            while i < len(tokens):
                for length in range(min(MAX_FORM_WORDS, len(tokens) - i), 0, -1):
                    key = tuple(t.stem for t in tokens[i : i + length])
                    found = [(c, f) for c, f in forms.get(key, ()) if self.concepts[c].applies_to(game)]
                    if found and not (length == 1 and tokens[i].stop):
                        start, end = tokens[i].start, tokens[i + length - 1].end
                        # Stems can join words that differ (German Spieler / spielen): where some
                        # concept has the very word asked, it alone is meant.
                        exact = [c for c, f in found if f == _surface(text[start:end])]
                        ids = list(dict.fromkeys(exact or [c for c, _ in found]))
                        for cid in ids:
                            analysis.matches.append(Match(self.concepts[cid], lang, start, end))
                        covered.append((start, end))
                        i += length
                        break
                else:
                    if lang == "zh" and len(tokens[i].stem) > 2:
                        self._match_inside(text, tokens[i], game, analysis, covered)
                    elif lang == "de" and tokens[i].end - tokens[i].start >= 2 * MIN_COMPOUND_PART:
                        self._match_compound(text, tokens[i], game, analysis, covered)
                    i += 1
        lang = langs[0]
        for token in words(lang, text):
            if token.stop or any(s <= token.start and token.end <= e for s, e in covered):
                continue
            analysis.leftover.append((token.start, token.end))
        return analysis
