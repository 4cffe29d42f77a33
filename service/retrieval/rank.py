"""The ranker: Referee's preferences over the engine's scores, and the hits with their highlights.

Preferences: rules over tips and asides; the asker's own language among equals; for "how many"
questions, passages that put a number right before the thing asked about. Highlights cost an
analysis of the passage, so they are worked out only for the hits returned (and for all
candidates of a "how many" question, which needs them to rank).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from indexer.analysis import spans
from service.retrieval.plan import QueryPlan
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
    score: float


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


def rank(found: list[Found], plan: QueryPlan, question: Question, limit: int) -> list[Hit]:
    """The best ``limit`` hits after the preferences, with their highlights."""

    def highlights(fields: dict) -> list[tuple[int, int]]:
        return merge(spans(fields["lang"], fields["text"], plan.wanted[fields["lang"]]), fields["text"])

    counting = "number" in question.facets
    scored = []
    for candidate in found:
        fields, text = candidate.fields, candidate.fields["text"]
        marked = highlights(fields) if counting else None
        score = candidate.score * KIND_FACTOR.get(fields["kind"], 1.0)
        if fields["game"] in question.mentioned:
            score *= MENTIONED_GAME_FACTOR
        if fields["lang"] == question.lang:
            score *= ASKER_LANGUAGE_FACTOR
        if counting and any(_COUNT.search(text[max(0, s - 12) : s]) for s, _ in marked):
            score *= COUNT_FACTOR
        scored.append((score, fields, marked))
    scored.sort(key=lambda item: -item[0])
    hits = []
    for score, fields, marked in scored[:limit]:
        marked = marked if marked is not None else highlights(fields)
        hits.append(Hit(
            id=fields["id"], game=fields["game"], lang=fields["lang"], section=fields["section"],
            section_path=fields["section_path"], kind=fields["kind"], text=fields["text"],
            snippet=mark(fields["text"], marked), highlights=marked, score=round(score, 4),
        ))
    return hits
