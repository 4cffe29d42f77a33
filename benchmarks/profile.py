"""python -m benchmarks --only profile: where a search's time goes, stage by stage (issue 13).

Each stage of Library.search is wrapped with a timer: reading the question (language, spelling,
game, concepts), planning the query, the retriever (Whoosh), the players' questions nearest in
meaning, and the ranker (its traits, the trees, the on-topic decision); the sentence encoder, which
embeds the question between the retriever and the nearest questions, is timed apart. Each search
is worked out (the searches the library keeps are forgotten before each), twice: with the question
embeddings cached and cold (their cache cleared too, as a new question meets it).
"""

from __future__ import annotations

import time
from collections import defaultdict

from service.retrieval import rank

STAGES = (
    ("read the question", "reader", "read"),
    ("plan the query", "planner", "plan"),
    ("retrieve", "retriever", "search"),
    ("nearest players' questions", "vectors", "nearest"),
    ("rank: traits", "ranker", "features"),
    ("rank: on-topic decision", "ranker", "on_topic"),
    ("rank: all (traits, trees, on-topic)", "ranker", "rank"),
)

ENCODER = "sentence encoder: the question (before the nearest questions, once per search)"


def stage_times(library, cases, rounds: int, cold: bool) -> tuple[dict[str, float], float]:
    """Mean ms per search in each stage, and per search in all, over ``rounds`` of ``cases``."""
    spent: dict[str, float] = defaultdict(float)
    owners = {"reader": library.reader, "planner": library.planner, "retriever": library.retriever,
              "vectors": library.ranker.vectors, "ranker": library.ranker}
    originals: list[tuple[object, str]] = []

    def timed(label, function):
        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent[label] += time.perf_counter() - started
        return wrapper

    for label, owner, name in STAGES:  # an instance attribute over the method (frozen dataclasses too)
        originals.append((owners[owner], name))
        object.__setattr__(owners[owner], name, timed(label, getattr(owners[owner], name)))
    embed = rank.embed
    rank.embed = timed(ENCODER, embed)
    try:
        for case in cases:  # warm up
            library.search(case.q, game=case.game, limit=10)
        spent.clear()
        started, searches = time.perf_counter(), 0
        for _ in range(rounds):
            for case in cases:
                library.forget()  # never the search kept from the round before
                if cold:
                    rank.question_embedding.cache_clear()
                library.search(case.q, game=case.game, limit=10)
                searches += 1
        total = time.perf_counter() - started
    finally:
        rank.embed = embed
        for owner, name in originals:
            object.__delattr__(owner, name)
    return {label: seconds * 1000 / searches for label, seconds in spent.items()}, total * 1000 / searches


def profile(library, cases, rounds: int) -> None:
    warm, warm_total = stage_times(library, cases, rounds, cold=False)
    cold, cold_total = stage_times(library, cases, rounds, cold=True)
    print(f"Where a search's time goes ({len(cases)} questions x {rounds}, in process, 1x, {library.backend}): ms per search")
    print("| stage | embeddings cached | cold |")
    print("|---|---|---|")
    for label in [s[0] for s in STAGES] + [ENCODER]:
        print(f"| {label} | {warm.get(label, 0):.2f} | {cold.get(label, 0):.2f} |")
    print(f"| **Library.search** | {warm_total:.2f} | {cold_total:.2f} |")
