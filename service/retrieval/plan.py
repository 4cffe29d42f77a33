"""The query plan: what to look for, independent of the search engine that looks.

A question reaches every rulebook language through the terminology base: each concept it
mentions becomes one clause whose alternatives are the concept's forms in every language (scored
as their best, so a concept with many synonyms counts once). Words that match no concept are
searched as they are in every language field (a Chinese word only in the Chinese ones); quoted
phrases are required.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from indexer.analysis import HAN, analyzer, terms, to_simplified, words
from indexer.generation import section_field, text_field
from indexer.corpus import LANGS
from indexer.lexicon import Lexicon
from indexer.terms import ELSEWHERE, Concept, TermBase
from indexer.vectors import embed
from service.retrieval.question import Question

MAX_QUERY_TERMS = 64
OTHER_LANGUAGE_WEIGHT = 0.5  # a word searched as-is in a language other than the asker's
NUMBER_FACET_WEIGHT = 1.5
DICTIONARY_WEIGHT = 0.5  # a word's translations from a general dictionary, as one synonym set


@dataclass(frozen=True)
class Form:
    """One thing to match in one field: a word (one stem) or a phrase (several, within ``slop``)."""

    field: str
    stems: tuple[str, ...]
    slop: int = 1
    boost: float = 1.0


@dataclass(frozen=True)
class Facet:
    """A kind of passage to prefer ("number": it states a quantity)."""

    name: str
    boost: float


@dataclass
class QueryPlan:
    clauses: list[list[Form] | Facet] = field(default_factory=list)  # optional; a list: alternatives
    # For each clause, the word or concept of the question it searches: a word searched in every
    # language's fields, or through a dictionary, is one thing asked, which the ranker weighs once.
    units: list[int] = field(default_factory=list)
    required: list[Form] = field(default_factory=list)  # quoted phrases: at least one must match
    wanted: dict[str, set[str]] = field(default_factory=lambda: {lang: set() for lang in LANGS})  # to highlight

    def __bool__(self) -> bool:
        return bool(self.clauses or self.required)

    def add(self, clause: list[Form] | Facet, unit: int) -> None:
        self.clauses.append(clause)
        self.units.append(unit)


def form(fieldname: str, lang: str, text: str, boost: float = 1.0) -> Form | None:
    """A text as the analyzer of its language reads it; stop words leave gaps the slop allows."""
    tokens = [(t.text, t.pos) for t in analyzer(lang)(text, positions=True, mode="query")][:MAX_QUERY_TERMS]
    if not tokens:
        return None
    slop = max((b[1] - a[1] for a, b in zip(tokens, tokens[1:])), default=1)
    return Form(fieldname, tuple(t for t, _ in tokens), slop=slop, boost=boost)


class Planner:
    """Turns analysed questions into plans; the concepts' forms are worked out once per index."""

    def __init__(self, terms_base: TermBase, langs: tuple[str, ...], dictionaries: dict | None = None,
                 lexicon: Lexicon | None = None, bilingual: dict | None = None):
        self.langs = langs  # languages some rulebook is written in: only their fields are worth querying
        self.dictionaries = dictionaries or {}  # "zh-en" -> word (Simplified) -> translations
        self.lexicon = lexicon or Lexicon()  # the words of the games without players' questions (indexer.lexicon)
        # "fr-de" -> a French word's stem -> German words of those games' rulebooks (indexer.wikdict)
        self.bilingual = bilingual or {}
        self._forms = {c.id: self._concept_forms(c) for c in terms_base.concepts.values()}
        self._stems = {c.id: self._concept_stems(c) for c in terms_base.concepts.values()}

    def _concept_forms(self, concept: Concept) -> list[Form]:
        """The concept's forms in every language, in text and section fields (alternatives)."""
        alternatives: dict[tuple, Form] = {}  # deduplicated: forms often share their stems
        for lang in self.langs:
            for text in concept.forms[lang]:
                found = form(text_field(lang), lang, text)
                # A phrase that its stop words reduce to one word ("game is over" -> game)
                # no longer says what the concept means.
                if found is None or (len(found.stems) == 1 and len(words(lang, text)) > 1):
                    continue
                for fieldname in (text_field(lang), section_field(lang)):  # the same words, read once
                    alternatives.setdefault((fieldname, found.stems), replace(found, field=fieldname))
        return list(alternatives.values())

    def _concept_stems(self, concept: Concept) -> dict[str, set[str]]:
        return {lang: {s for text in concept.forms[lang] for s in terms(lang, text)} for lang in LANGS}

    def plan(self, question: Question) -> QueryPlan:
        """The plan for a question: empty (falsy) when nothing in it can be searched."""
        plan = QueryPlan()
        # One clause per matched word: where a word means several concepts (回合: turn, round,
        # service), their forms are alternatives of one clause, so the word counts once.
        by_span: dict[tuple[int, int], list[Concept]] = {}
        for match in question.analysis.matches:
            if match.concept.facet == ELSEWHERE:  # a word of another domain: nothing to find
                continue
            if match.concept.facet:  # a kind of question ("how many"), not a word to find
                plan.add(Facet(match.concept.facet, NUMBER_FACET_WEIGHT), -1)
            else:
                by_span.setdefault((match.start, match.end), []).append(match.concept)
        seen: set[tuple[str, ...]] = set()
        for concepts in by_span.values():
            key = tuple(sorted(c.id for c in concepts))
            if key in seen:
                continue
            seen.add(key)
            alternatives = [a for c in concepts for a in self._forms[c.id]]
            if alternatives:
                plan.add(alternatives, len(plan.clauses))
            for concept in concepts:
                for lang, stems in self._stems[concept.id].items():
                    plan.wanted[lang].update(stems)

        searched = question.searched
        spans = [searched[start:end] for start, end in question.analysis.leftover]
        units = {text: len(plan.clauses) + k for k, text in enumerate(spans)}
        for text in spans:
            self._translations(plan, question.lang, text, units[text])
        self._bridged(plan, question, spans, units)
        for lang in self.langs:
            weight = 1.0 if question.lang in (None, lang) else OTHER_LANGUAGE_WEIGHT
            # a Chinese word is searched in Chinese text only: no other can hold it
            found = [(w, units[text]) for text in spans for w in terms(lang, text) if lang == "zh" or not HAN.search(w)]
            for word, unit in found[:MAX_QUERY_TERMS]:
                plan.wanted[lang].add(word)
                plan.add([Form(text_field(lang), (word,), boost=weight)], unit)
                plan.add([Form(section_field(lang), (word,), boost=weight)], unit)
        for lang in self.langs:
            for phrase in question.phrases:
                found = form(text_field(lang), lang, phrase)
                if found is not None:
                    plan.required.append(found)
                    plan.wanted[lang].update(found.stems)
        return plan

    def translates(self, word: str, lang: str | None) -> bool:
        """Whether a general dictionary gives ``word`` translations that some rulebook uses."""
        return any(to_simplified(word) in self.dictionaries.get(f"{lang}-{target}", {}) for target in self.langs)

    def _translations(self, plan: QueryPlan, lang: str | None, word: str, unit: int) -> None:
        """A word the term base does not know, translated by a general dictionary: one clause per
        target language, its translations as alternatives at a lower weight."""
        for target in self.langs:
            translations = self.dictionaries.get(f"{lang}-{target}", {}).get(to_simplified(word))
            if not translations:
                continue
            alternatives = [f for t in translations
                            if (f := form(text_field(target), target, t, boost=DICTIONARY_WEIGHT)) is not None]
            if alternatives:
                plan.add(alternatives, unit)
                for f in alternatives:
                    plan.wanted[target].update(f.stems)

    def _bridged(self, plan: QueryPlan, question: Question, spans: list[str], units: dict[str, int]) -> None:
        """The words the term base does not know, asked of a game without players' questions in
        another language than its rulebook's: each with the rulebook words nearest it in meaning
        (indexer.lexicon) and its translations in a bilingual dictionary (indexer.wikdict), one
        clause per rulebook language, at a dictionary's weight."""
        if not (question.game and question.lang):
            return
        targets = [lang for lang in self.lexicon.langs(question.game) if lang != question.lang]
        asked = list(dict.fromkeys(text for text in spans if terms(question.lang, text) and len(text) > 1))
        if not (targets and asked):
            return
        vectors = embed(asked)
        for lang in targets:
            dictionary = self.bilingual.get(f"{question.lang}-{lang}", {})
            for text, nearest in zip(asked, self.lexicon.nearest(vectors, question.game, lang)):
                said = [word for word, _ in nearest]
                said += [t for stem in terms(question.lang, text) for t in dictionary.get(stem, []) if t not in said]
                alternatives = [replace(f, field=fieldname) for word in said
                                if (f := form(text_field(lang), lang, word, boost=DICTIONARY_WEIGHT)) is not None
                                for fieldname in (text_field(lang), section_field(lang))]
                if alternatives:
                    plan.add(alternatives, units[text])
                    for f in alternatives:
                        plan.wanted[lang].update(f.stems)
