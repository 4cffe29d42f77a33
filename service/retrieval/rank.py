"""The ranker: which of the engine's candidates answers the question, and how sure that is.

Two stages. First Referee's preferences over the engine's scores (the lexical order): rules over
tips and asides; the asker's own language among equals; for "how many" questions, passages that
put a number right before the thing asked about. Then a learned scorer reads each candidate's
traits (``FEATURES``): that lexical order, how close the passage, its closest sentence and the
three closest of the players' questions it answers (corpus/<game>/questions.yaml) are in meaning
to the question (indexer.vectors: across languages), how much of the question's words,
weighted by how telling they are, stand in the passage, in its headings, in one sentence of it
and in its players' questions written in the asker's language (``AskedWords``), whether it is a
rule, in the asker's language, how long, and how close the passages before and after it in its
section are (a question restating a rule's premise asks what the next passage says). The scorer
is a sum of regression trees (``Trees``: gradient-boosted for LambdaRank, which weighs traits
together, as a linear scorer cannot: a close players' question counts for more when the passage's
own words match too), fitted on the development questions by ``python -m benchmarks.fit_ranker``
(ranker.json says on what, and the cross-validated figures) and read here with numpy alone. A
softmax over the candidates' scores, at the temperature fitted beside the trees, gives each hit
its ``confidence``: the estimated chance that it is the passage that answers.

Whether the rulebooks answer at all is a second learned decision (``TOPIC_FEATURES``): from how
much of the question the rulebooks know, how well the best candidate matches it, how near it is
to the questions the candidates answer, to any players' question of the game and to any off-topic
question it was fitted on ("where do I get a replacement card?"), and what the question is about
(its sentence embedding: prices, real pizza ovens, jokes and real mammoths lie elsewhere than
rules, whatever words they share with them), a logistic regression gives the chance that the
question is one the rulebooks answer (``on_topic``). Its weights and threshold are fitted beside
the ranker's, on the development questions and off-topic questions; the off-topic questions'
embeddings are kept beside them (off_topic.npy).

Highlights cost an analysis of the passage, so they are worked out only for the hits returned
(and for all candidates of a "how many" question, which needs them to rank).
"""

from __future__ import annotations

import html
import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from indexer.analysis import sentences, spans, terms
from indexer.generation import section_field, text_field
from indexer.vectors import Vectors, embed
from service.retrieval.plan import Facet, Form, QueryPlan
from service.retrieval.question import Question
from service.retrieval.retriever import Found

KIND_FACTOR = {"rule": 1.0, "faq": 0.95, "example": 0.85, "tip": 0.8, "note": 0.8, "about": 0.7}
MENTIONED_GAME_FACTOR = 1.5  # a question naming several games: passages of those games first
ASKER_LANGUAGE_FACTOR = 1.25  # equally good passages: the one the asker can read comes first
COUNT_FACTOR = 1.5  # a "how many" question: passages that put a number before the thing asked about

# A count just before the words asked about: "60 Mambo cards", "2 à 5 joueurs", "2-5名10歲以上的玩家".
# "one" and 一 are left out: they are mostly articles ("one card", 一張), not answers to "how many".
_COUNT = re.compile(
    r"(\d+|\b(?:two|three|four|five|six|seven|eight|nine|ten|deux|trois|quatre|cinq|six|sept|huit|"
    r"zwei|drei|vier|fünf|sechs|sieben|acht)\b|(?<!第)[二三四五六七八九十兩两]+)[^.。;；,，\n]{0,8}$",
    re.IGNORECASE,
)


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
    score: float  # the learned scorer's: comparable within one search only
    confidence: float  # the estimated chance that this passage is the one that answers
    page: int | None = None  # the page it is printed on, in a rulebook with pages


def mark(text: str, highlights: list[tuple[int, int]]) -> str:
    """The passage as HTML-escaped text with each highlighted span wrapped in <mark>."""
    out, at = [], 0
    for start, end in highlights:
        out.append(html.escape(text[at:start], quote=False))
        out.append("<mark>" + html.escape(text[start:end], quote=False) + "</mark>")
        at = end
    out.append(html.escape(text[at:], quote=False))
    return "".join(out)


def merge(found: list[tuple[int, int]], text: str) -> list[tuple[int, int]]:
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


WEIGHTS = Path(__file__).with_name("ranker.json")
UNCURATED = "uncurated"  # ranker.json's part for games without players' questions
# The cosine at which a players' question is the question asked again (spelling and spacing aside).
ASKED_BEFORE = 0.95
NOWHERE = "\x00"  # a stem no analyzer makes, so no passage holds it
OFF_TOPIC_FILE = "off_topic.npy"  # beside ranker.json: the embeddings of the off-topic questions the decision was fitted on
Preferred = tuple[float, dict, "list[tuple[int, int]] | None"]  # score, stored fields, highlights when worked out

# The traits the learned scorer reads, numbered as ranker.json's trees number them.
FEATURES = (
    "lexical",  # the preference score, as a share of the best candidate's
    "whole_passage",  # cosine of the question, through the adapter (indexer.vectors), with the passage under its headings
    "closest_sentence",  # cosine of the question with the passage's closest sentence
    "closest_questions",  # mean cosine of the question with its indexer.vectors.CLOSE_QUESTIONS closest questions
    "words_in_passage",  # share of the question's words (by how telling) in the passage
    "words_in_headings",  # ... in its section headings
    "words_in_one_sentence",  # ... in its best sentence
    "rarest_word",  # the question's most telling word is in the passage or its headings
    "asker_language",  # written in the asker's language
    "rule",  # a rule, not a tip, example or aside
    "length",  # log of its length in characters, / 7
    "words_in_questions",  # ... in its players' questions written in the asker's language
    "passage_before",  # whole_passage of the passage before it in its section (0 when none)
    "passage_after",  # ... of the one after it
    "asks_what_next",  # the question asks what follows a situation ("what happens", "was nun", "怎麼辦")
    # read by the scorer for games without players' questions (the curated games' reads those above)
    "whole_passage_plain",  # cosine of the question with the passage under its headings, without the adapter
    "whole_passage_behind",  # whole_passage less the most any candidate has of it
    "closest_sentence_behind",  # closest_sentence less the most any candidate has of it
    "words_in_passage_behind",  # words_in_passage less the most any candidate has of it
    "faq",  # an answer of the rulebook's questions and answers
    "e5_passage",  # cosine of the question with the passage as the second encoder reads both (indexer.vectors)
    "e5_passage_behind",  # e5_passage less the most any candidate has of it
    "whole_passage_uncrowded",  # whole_passage_plain less half the passage's density (indexer.vectors.crowding)
    "e5_passage_uncrowded",  # e5_passage less half the passage's density in the second encoder
    "e5_passage_uncrowded_behind",  # e5_passage_uncrowded less the most any candidate has of it
)

# A question that states a situation and asks what follows: its answer is often the passage after
# the one that states the situation ("Tim was played and Mömmen called" -> what the others do), so
# the trees weigh this with passage_before. Cross-validated Recall@1 0.888 -> 0.891; test half
# 0.894 -> 0.901, held-out 0.875 -> 0.906, thirteenth batch 0.894 -> 0.900, twelfth the same.
_WHAT_NEXT = re.compile(
    r"what (?:happens|now|do (?:i|we|you)|does|should|must)|then what|now what|how bad|who wins|who won|"
    r"what do(?:es)? .* (?:do|get)|"
    r"se passe quoi|qu'est-ce qui se passe|faire quoi|(?:on|ça|ca) fait quoi|qui gagne|et après|et apres|"
    r"was passiert|was nun|was jetzt|und jetzt|was muss|was mach|wer gewinnt|wer hat gewonnen|"
    r"怎麼辦|怎么办|會怎樣|会怎样|幹嘛|干嘛|怎麼處理|怎么处理|誰贏|谁赢|然後呢|然后呢",
    re.IGNORECASE,
)


CURATED_FEATURES = FEATURES[:15]  # what the curated games' scorer reads (fitted before the others were added)


# What the on-topic decision reads, besides the question's sentence embedding (EMBEDDING_SCALE x).
TOPIC_FEATURES = (
    "coverage",  # share of the question's content words that the rulebooks know
    "whole_passage",  # the best candidate's traits, as in FEATURES
    "closest_sentence",
    "closest_questions",
    "nearest_questions",  # the most any candidate has of closest_questions
    "likest_question",  # LIKEST_SCALE x the highest cosine with a players' question of the game asked about
    "likest_off_topic",  # LIKEST_SCALE x the highest cosine with an off-topic question the decision was fitted on
    "words_in_passage",
    "words_in_one_sentence",
    "rarest_word",
    "chinese",  # asked in Chinese (jieba's words are less often known ones)
)
EMBEDDING_SCALE = 3.0  # the embedding's 512 components are small: scaled to weigh like the traits
LIKEST_SCALE = 3.0  # cross-validated on dev (all games' questions), off-topic refused: 0.946 x 1, 0.964 x 3, 0.946 x 5


@dataclass(frozen=True)
class Topic:
    """The on-topic decision's fitted logistic regression and the chance below which Referee refuses."""

    weights: np.ndarray  # TOPIC_FEATURES, then the question embedding's components
    bias: float
    threshold: float
    off_topic: np.ndarray  # the embeddings of the off-topic questions it was fitted on, one row each

    def chance(self, described: np.ndarray) -> float:
        """The chance for a question as ``Ranker.topic_input`` describes it."""
        return float(1 / (1 + np.exp(-(described @ self.weights + self.bias))))


class Trees:
    """The learned scorer: a sum of regression trees over FEATURES (gradient-boosted for LambdaRank
    by benchmarks.fit_ranker), and the temperature that turns scores into chances.

    Each tree is stored flat, as LightGBM numbers it: internal node k sends a candidate left when
    ``traits[feature[k]] <= threshold[k]``, a child ``c >= 0`` is another internal node and
    ``c < 0`` the leaf ``~c``, whose value the tree adds; leaves are numbered left to right. Scoring
    does not walk the trees (a Python loop a level deep: 2.5 ms for 40 candidates and 300 trees):
    every split is tested at once, a split sending a candidate right rules out the leaves of its
    left subtree, and the leaf reached is the leftmost one that no split rules out (QuickScorer's
    bit vectors, Lucchese et al., SIGIR 2015; a leaf a bit of a 16-bit word): 0.5 ms."""

    def __init__(self, trees: list[dict], temperature: float = 1.0):
        self.temperature = temperature
        feature, threshold, remaining, starts = [], [], [], []
        for tree in trees:
            if len(tree["value"]) > 16:
                raise ValueError("a tree of more than 16 leaves: fit with num_leaves <= 16")
            starts.append(len(feature))
            for k in range(len(tree["feature"])):
                feature.append(tree["feature"][k])
                threshold.append(tree["threshold"][k])
                remaining.append(0xFFFF & ~_leaves(tree, tree["left"][k]))
            if not tree["feature"]:  # a single leaf: a split that never sends right
                feature.append(0)
                threshold.append(np.inf)
                remaining.append(0xFFFF)
        self.feature = np.array(feature, dtype=np.intp)
        self.threshold = np.array(threshold)
        self.remaining = np.array(remaining, dtype=np.uint16)  # the leaves still reachable after going right
        self.starts = np.array(starts, dtype=np.intp)
        self.value = np.array([t["value"] + [0.0] * (16 - len(t["value"])) for t in trees]).reshape(len(trees), 16)
        self._trees = np.arange(len(trees))

    def score(self, traits: np.ndarray) -> np.ndarray:
        """Each candidate's score (one row of ``traits`` each)."""
        if not len(self.starts):
            return np.zeros(len(traits))
        left = traits[:, self.feature] <= self.threshold
        words = self.remaining | (left.astype(np.uint16) * np.uint16(0xFFFF))
        reached = _LOWEST_BIT[np.bitwise_and.reduceat(words, self.starts, axis=1)]
        return self.value[self._trees, reached].sum(axis=1)

    def chances(self, scores: np.ndarray) -> np.ndarray:
        """A softmax of the scores at the fitted temperature: each candidate's chance to be the answer."""
        scaled = scores / self.temperature
        chances = np.exp(scaled - scaled.max())
        return chances / chances.sum()


def _leaves(tree: dict, node: int) -> int:
    """The bits of the leaves under ``node`` of a flat tree."""
    if node < 0:
        return 1 << ~node
    return _leaves(tree, tree["left"][node]) | _leaves(tree, tree["right"][node])


# The index of each 16-bit word's lowest set bit.
_LOWEST_BIT = np.array([0] + [(w & -w).bit_length() - 1 for w in range(1, 1 << 16)], dtype=np.uint8)


@lru_cache(maxsize=4)
def _fitted(path: Path, changed: int) -> dict:
    """ranker.json as read, once a version of it (``changed``: its mtime): each index generation's
    Ranker reads both scorers and both decisions from it."""
    return json.loads(path.read_text(encoding="utf-8"))


def _read(path: Path) -> dict:
    return _fitted(path, path.stat().st_mtime_ns)


def load_scorer(path: Path = WEIGHTS, part: str | None = None) -> Trees:
    """The fitted scorer, checked against FEATURES; ``part`` "uncurated": the one for games without
    players' questions (None when it is not fitted)."""
    fitted = _read(path)
    if part is not None:
        fitted = fitted.get(part)
        if fitted is None:
            return None
    # the curated games' scorer reads the first of FEATURES (its trees number them so), the other all
    if tuple(fitted["features"]) != (FEATURES if part else CURATED_FEATURES) or "trees" not in fitted:
        raise ValueError(f"{path} was fitted on other features: run `python -m benchmarks.fit_ranker`")
    return Trees(fitted["trees"], fitted["temperature"])


def load_topic(path: Path = WEIGHTS, part: str | None = None) -> Topic | None:
    """The fitted on-topic decision, checked against TOPIC_FEATURES (None before the first fit);
    ``part`` as for load_scorer."""
    fitted = _read(path)
    if part is not None:
        fitted = fitted.get(part) or {}
    fitted = fitted.get("topic")
    if fitted is None:
        return None
    off_topic = np.load(path.with_name(OFF_TOPIC_FILE)).astype(np.float32)
    if tuple(fitted["features"]) != TOPIC_FEATURES:
        raise ValueError(f"{path} was fitted on other topic features: run `python -m benchmarks.fit_ranker`")
    if len(off_topic) != fitted["trained_on"]["off_topic"]:
        raise ValueError(f"{OFF_TOPIC_FILE} is not the one {path} was fitted with: run `python -m benchmarks.fit_ranker`")
    return Topic(np.array(fitted["weights"], dtype=np.float64), float(fitted["bias"]), float(fitted["threshold"]),
                 off_topic)


class AskedWords:
    """The words of the players' questions beside each passage, by language: a German question's
    own words meet those of the German questions a passage answers ("Häuptling", "Klo", "Oma"),
    words that reach the English rule only through the term base, if at all."""

    def __init__(self, question_terms: dict[str, dict[str, list[str]]]):
        self._terms: dict[str, dict[str, frozenset[str]]] = {}  # language -> passage id -> terms
        for passage, by_lang in question_terms.items():
            for lang, found in by_lang.items():
                self._terms.setdefault(lang, {})[passage] = frozenset(found)
        # How telling a term is among one language's questions: log(1 + passages / (1 + passages using it)).
        self._weight: dict[str, dict[str, float]] = {}
        for lang, passages in self._terms.items():
            used = Counter(t for found in passages.values() for t in found)
            self._weight[lang] = {t: math.log(1 + len(passages) / (1 + n)) for t, n in used.items()}

    def knows(self, word: str, lang: str | None) -> bool:
        """Whether a word stands in some players' question written in ``lang``."""
        vocabulary = self._weight.get(lang or "")
        return bool(vocabulary) and any(t in vocabulary for t in terms(lang, word))

    def shares(self, question: Question, ids: list[str]) -> list[float]:
        """For each passage: the share of the question's words, weighted by how telling they are,
        among its players' questions in the asker's language (0 when the language is unknown)."""
        passages = self._terms.get(question.lang or "")
        if not passages:
            return [0.0] * len(ids)
        weights = self._weight[question.lang]
        unseen = math.log(1 + len(passages))  # a word no question uses is as telling as can be
        asked = {t: weights.get(t, unseen) for t in terms(question.lang, question.text)}
        total = sum(asked.values())
        if not total:
            return [0.0] * len(ids)
        return [sum(w for t, w in asked.items() if t in passages.get(i, ())) / total for i in ids]


@dataclass(frozen=True)
class _Stems:
    """A passage's indexed stems: in its text, its headings, and each sentence."""

    text: frozenset[str]
    headings: frozenset[str]
    sentences: tuple[frozenset[str], ...]


class Ranker:
    """Orders the engine's candidates for a question; one per index generation.

    Two fitted scorers and on-topic decisions: the curated games' (whose passages have players'
    questions, corpus/<game>/questions.yaml), and the one for a game a table added, which has none
    (``uncurated``: fitted with each shipped game's questions and own concepts left out in turn,
    benchmarks.fit_ranker). A question is weighed by the second when it is about such a game, or when
    asked of every game and some candidate is of such a game."""

    def __init__(self, vectors: Vectors, rarity: Callable[[str, str], float], scorer: Trees | None = None,
                 question_terms: dict[str, dict[str, list[str]]] | None = None,
                 uncurated: tuple[Trees, Topic | None] | None = None, added: Iterable[str] = ()):
        """``scorer``: a refit's, used for every game, which decides nothing about topics
        (fit_ranker fits that next). ``question_terms``: passage id -> language -> the terms of its
        players' questions. ``uncurated``: the scorer and on-topic decision for games without
        players' questions, when not ranker.json's. ``added``: the games tables added, which are
        never curated, whatever questions tables confirmed of them."""
        self.vectors = vectors
        self.rarity = rarity  # (lang, stem) -> how telling the stem is in its language's passages
        self.scorer = load_scorer() if scorer is None else scorer
        self.topic = load_topic() if scorer is None else None
        self.uncurated_scorer = (load_scorer(part=UNCURATED) if scorer is None else None) or self.scorer
        self.uncurated_topic = load_topic(part=UNCURATED) if scorer is None else None
        if uncurated is not None:
            self.uncurated_scorer, self.uncurated_topic = uncurated
        # the games whose passages have players' questions written for them
        self.curated = frozenset(vectors.answering_in) - frozenset(added)
        self._stems: dict[str, _Stems] = {}
        self._unheld_rarity: dict[str, float] = {}
        self.asked_words = AskedWords(question_terms or {})

    def stems(self, fields: dict) -> _Stems:
        key = fields["id"]
        if key not in self._stems:
            lang, text = fields["lang"], fields["text"]
            self._stems[key] = _Stems(
                frozenset(terms(lang, text, mode="index")),
                frozenset(terms(lang, " ".join(fields["section_path"]), mode="index")),
                tuple(frozenset(terms(lang, text[s:e], mode="index")) for s, e in sentences(text)),
            )
        return self._stems[key]

    def _weight(self, clause: list[Form], held: bool = False) -> float:
        """How telling a clause is: its most telling text form, a phrase as telling as its commonest
        stem; ``held``: of the forms that some passage holds (0 when none does)."""
        best = 0.0
        for form in clause:
            lang = form.field.removeprefix(text_field(""))
            if form.field == text_field(lang):
                rarities = [self.rarity(lang, stem) for stem in form.stems]
                if not held or max(rarities) < self._unheld(lang):
                    best = max(best, min(rarities))
        return best

    def _unheld(self, lang: str) -> float:
        """The rarity of a stem no passage of ``lang`` holds: the most telling a stem can be."""
        if lang not in self._unheld_rarity:
            self._unheld_rarity[lang] = self.rarity(lang, NOWHERE)
        return self._unheld_rarity[lang]

    def _units(self, plan: QueryPlan, by_word: bool) -> list[tuple[float, list[list[Form]]]]:
        """The question's words and concepts as the plan searches them, each with how telling it is
        and its clauses. ``by_word``: a word is searched in every language's fields and through its
        translations, but it is one thing asked: it weighs as its most telling form that some
        passage holds (a German word in a German rulebook weighs as German, not as the English word
        no passage holds), or, when no passage holds any, as its most telling form. Otherwise
        (the curated games' scorer, fitted so) each clause weighs on its own."""
        clauses = [(clause, unit) for clause, unit in zip(plan.clauses, plan.units) if not isinstance(clause, Facet)]
        if not by_word:
            return [(self._weight(clause), [clause]) for clause, _ in clauses]
        grouped: dict[int, list[list[Form]]] = {}
        for clause, unit in clauses:
            grouped.setdefault(unit, []).append(clause)
        return [(max(self._weight(c, held=True) for c in found) or max(self._weight(c) for c in found), found)
                for found in grouped.values()]

    def features(self, found: list[Found], plan: QueryPlan, question: Question) -> tuple[list[Preferred], np.ndarray]:
        """The candidates in the lexical order, and their traits (one row each, as FEATURES)."""
        preferred = prefer(found, plan, question)
        if not preferred:
            return preferred, np.zeros((0, len(FEATURES)))
        games = {fields["game"] for _, fields, _ in preferred}
        curated = self.curated_question(question, games)
        units = self._units(plan, by_word=not curated)
        weights = [weight for weight, _ in units]
        total = sum(weights) or 1.0
        rarest = max(range(len(units)), key=weights.__getitem__) if units else None
        by_field = [_by_field([form for clause in clauses for form in clause]) for _, clauses in units]

        ids = [fields["id"] for _, fields, _ in preferred]
        embedding = question_embedding(question.meant)
        whole, closest, asked = self.vectors.similarities(embedding, ids)
        before, after = self.vectors.neighbours(embedding, ids)
        top = preferred[0][0] or 1.0
        in_questions = self.asked_words.shares(question, ids)
        asks_next = float(bool(_WHAT_NEXT.search(question.text)))
        plain = self.vectors.plain_whole(embedding, ids)
        # read by the scorer for games without players' questions alone (for_question): the others skip its cost
        e5 = np.zeros(len(ids)) if curated else self.vectors.e5_whole(question.meant, ids)
        crowded, crowded_e5 = self.vectors.crowded(ids)
        rows = []
        for place, (score, fields, _) in enumerate(preferred):
            stems, lang = self.stems(fields), fields["lang"]
            in_text, in_headings = text_field(lang), section_field(lang)
            text = [_holds(forms.get(in_text), stems.text) for forms in by_field]
            headings = [_holds(forms.get(in_headings), stems.headings) for forms in by_field]
            rows.append([
                score / top,
                whole[place],
                closest[place],
                asked[place],
                sum(w for w, hit in zip(weights, text) if hit) / total,
                sum(w for w, hit in zip(weights, headings) if hit) / total,
                max((sum(w for forms, w, hit in zip(by_field, weights, text)
                         if hit and _holds(forms[in_text], sentence)) for sentence in stems.sentences),
                    default=0.0) / total,
                float(rarest is not None and (text[rarest] or headings[rarest])),
                float(lang == question.lang),
                float(fields["kind"] == "rule"),
                math.log(len(fields["text"])) / 7,
                in_questions[place],
                before[place],
                after[place],
                asks_next,
                plain[place],
                0.0, 0.0, 0.0,  # worked out below, once every candidate's are known
                float(fields["kind"] == "faq"),
                e5[place],
                0.0,
                plain[place] - crowded[place] / 2,
                e5[place] - crowded_e5[place] / 2,
                0.0,
            ])
        traits = np.array(rows, dtype=np.float64)
        for behind, of in (("whole_passage_behind", "whole_passage"), ("closest_sentence_behind", "closest_sentence"),
                           ("words_in_passage_behind", "words_in_passage"), ("e5_passage_behind", "e5_passage"),
                           ("e5_passage_uncrowded_behind", "e5_passage_uncrowded")):
            column = traits[:, FEATURES.index(of)]
            traits[:, FEATURES.index(behind)] = column - column.max()
        return preferred, traits

    def on_topic(self, question: Question, traits: np.ndarray, best: int, topic: Topic | None = None) -> float | None:
        """The chance that the rulebooks answer the question, given its candidates' traits and
        which is best (None when no decision is fitted)."""
        topic = topic or self.topic
        if topic is None:
            return None
        return topic.chance(self.topic_input(question, traits, best, topic=topic))

    def curated_question(self, question: Question, games: set[str]) -> bool:
        """Whether the curated games' scorer weighs a question whose candidates are of ``games``:
        it is about such a game, or asked of every game and all its candidates are of such games."""
        return ({question.game} if question.game else games) <= self.curated

    def for_question(self, question: Question, games: set[str]) -> tuple[Trees, Topic | None]:
        """The scorer and on-topic decision for a question whose candidates are of ``games``."""
        if self.curated_question(question, games):
            return self.scorer, self.topic
        return self.uncurated_scorer, self.uncurated_topic or self.topic

    def topic_input(self, question: Question, traits: np.ndarray, best: int,
                    off_topic: np.ndarray | None = None, topic: Topic | None = None) -> np.ndarray:
        """What the on-topic decision reads: TOPIC_FEATURES, then the question's embedding.
        ``off_topic``: the known off-topic questions' embeddings, when not the fitted decision's
        (fit_ranker gives its own, leaving a question's own out)."""
        embedding = question_embedding(question.meant)
        at = {name: traits[best, k] for k, name in enumerate(FEATURES)}
        nearest_questions = traits[:, FEATURES.index("closest_questions")].max()
        likest = self.vectors.likest_question(embedding, question.game)
        known = (topic or self.topic).off_topic if off_topic is None else off_topic
        likest_off_topic = float((known @ embedding).max()) if len(known) else -1.0
        described = [question.coverage, at["whole_passage"], at["closest_sentence"], at["closest_questions"],
                     nearest_questions, LIKEST_SCALE * likest, LIKEST_SCALE * likest_off_topic, at["words_in_passage"],
                     at["words_in_one_sentence"], at["rarest_word"], float(question.lang == "zh")]
        return np.concatenate([described, EMBEDDING_SCALE * embedding])

    def rank(self, found: list[Found], plan: QueryPlan, question: Question,
             limit: int) -> tuple[list[Hit], float | None, float | None]:
        """The best ``limit`` hits, with their highlights and confidence, the chance that the
        rulebooks answer the question at all (``on_topic``), and the chance under which they are
        taken not to (the threshold of the decision that weighed it)."""
        preferred, traits = self.features(found, plan, question)
        if not preferred:
            return [], None, None
        scorer, topic = self.for_question(question, {fields["game"] for _, fields, _ in preferred})
        scores = scorer.score(traits)
        if scorer is self.uncurated_scorer and scorer is not self.scorer:
            # A question a table confirmed a passage answers (POST /v1/feedback), asked again: that
            # passage, whatever the scorer fitted without players' questions makes of it.
            again = traits[:, FEATURES.index("closest_questions")] >= ASKED_BEFORE
            if again.any():
                scores = np.where(again, scores.max() + 1.0 + scores - scores.min(), scores)
        chances = scorer.chances(scores)
        hits = []
        for k in sorted(range(len(preferred)), key=lambda k: (-scores[k], k))[:limit]:
            _, fields, marked = preferred[k]
            marked = marked if marked is not None else _highlights(fields, plan)
            hits.append(Hit(
                id=fields["id"], game=fields["game"], lang=fields["lang"], section=fields["section"],
                section_path=fields["section_path"], kind=fields["kind"], text=fields["text"],
                snippet=mark(fields["text"], marked), highlights=marked,
                score=round(float(scores[k]), 4), confidence=round(float(chances[k]), 3),
                page=fields.get("page"),
            ))
        chance = self.on_topic(question, traits, int(np.argmax(scores)), topic)
        return hits, chance, (topic.threshold if topic is not None else None)


@lru_cache(maxsize=64)
def question_embedding(text: str) -> np.ndarray:
    """A question's sentence embedding, cached: the ranker and the on-topic decision both read it
    (the same array each time: never to be modified)."""
    return embed([text])[0]


@dataclass(frozen=True)
class _Forms:
    """A clause's forms in one field: its words (one stem each) and its phrases (several)."""

    words: frozenset[str]
    phrases: tuple[tuple[str, ...], ...]


def _by_field(clause: list[Form]) -> dict[str, _Forms]:
    """A clause's forms as the stems to find, by the field they are to be found in."""
    found: dict[str, list[tuple[str, ...]]] = {}
    for form in clause:
        found.setdefault(form.field, []).append(form.stems)
    return {name: _Forms(frozenset(f[0] for f in forms if len(f) == 1), tuple(f for f in forms if len(f) > 1))
            for name, forms in found.items()}


def _holds(forms: _Forms | None, stems: frozenset[str]) -> bool:
    """Whether one of the forms has all its stems among ``stems``."""
    return forms is not None and (not forms.words.isdisjoint(stems) or any(stems.issuperset(p) for p in forms.phrases))


def _highlights(fields: dict, plan: QueryPlan) -> list[tuple[int, int]]:
    return merge(spans(fields["lang"], fields["text"], plan.wanted[fields["lang"]]), fields["text"])


def prefer(found: list[Found], plan: QueryPlan, question: Question) -> list[Preferred]:
    """The engine's candidates after Referee's preferences, best first: (score, fields, highlights
    when a "how many" question needed them)."""
    counting = "number" in question.facets
    scored = []
    for candidate in found:
        fields, text = candidate.fields, candidate.fields["text"]
        marked = _highlights(fields, plan) if counting else None
        score = candidate.score * KIND_FACTOR.get(fields["kind"], 1.0)
        if fields["game"] in question.mentioned:
            score *= MENTIONED_GAME_FACTOR
        if fields["lang"] == question.lang:
            score *= ASKER_LANGUAGE_FACTOR
        if counting and any(_COUNT.search(text[max(0, s - 12) : s]) for s, _ in marked):
            score *= COUNT_FACTOR
        scored.append((score, fields, marked))
    scored.sort(key=lambda item: -item[0])
    return scored
