"""python -m indexer.fit_ranker [FILE ...]: fit the ranker's weights on the development questions.

Each question's candidates (the retriever's 40, as POST /v1/ask gets them) are described by the
ranker's traits (service.retrieval.rank.FEATURES) and labelled by whether the passage holds a gold
phrase. The weights are a listwise softmax regression: they make the passages that answer take
the most of each question's probability (ListNet with one-hot targets, L2-regularised, plain
gradient descent; the data are a few thousand rows). Only the ``dev`` half of a split file is
read: the ``test`` half stays unseen. The figures written beside the weights are k-fold
cross-validated on the same questions, next to the lexical order's.

Writes service/retrieval/ranker.json; `make fit-ranker` runs it after a corpus or trait change.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from indexer.eval import Case, contains_gold, load_cases

L2 = 0.1
STEPS = 2000
STEP_SIZE = 0.5
FOLDS = 6
PROJECT = Path(__file__).resolve().parent.parent
TRAINING = [PROJECT / "benchmarks" / "eval" / "players.jsonl", PROJECT / "benchmarks" / "eval" / "search_dev.jsonl"]

Question = tuple[np.ndarray, np.ndarray]  # a question's candidates' traits, and which of them answer


def described(library, cases: list[Case]) -> list[Question]:
    """Each case's candidates as traits and labels, in the lexical order."""
    out = []
    for case in cases:
        question, plan, found = library.candidates(case.q, game=case.game)
        preferred, traits = library.ranker.features(found, plan, question)
        labels = np.array([float(contains_gold(fields["text"], case.gold)) for _, fields, _ in preferred])
        out.append((traits, labels))
    return out


def fit(questions: list[Question], l2: float = L2) -> np.ndarray:
    """Weights that put each question's probability on its answering passages."""
    usable = [(x, y / y.sum()) for x, y in questions if len(y) and y.sum() > 0]
    weights = np.zeros(usable[0][0].shape[1])
    for _ in range(STEPS):
        gradient = l2 * weights
        for traits, target in usable:
            scores = traits @ weights
            chances = np.exp(scores - scores.max())
            chances /= chances.sum()
            gradient += traits.T @ (chances - target)
        weights -= STEP_SIZE * gradient / len(usable)
    return weights


def figures(questions: list[Question], order) -> dict[str, float]:
    """Recall@1, Recall@3 and MRR@10 over all questions (those with no candidate count as missed)."""
    r1 = r3 = mrr = 0.0
    for traits, labels in questions:
        ranked = [labels[k] for k in order(traits)] if len(labels) else []
        first = next((place for place, label in enumerate(ranked, start=1) if label), None)
        r1 += first == 1
        r3 += bool(first and first <= 3)
        mrr += 1 / first if first and first <= 10 else 0
    n = len(questions) or 1
    return {"recall@1": round(r1 / n, 3), "recall@3": round(r3 / n, 3), "mrr@10": round(mrr / n, 3)}


def cross_validated(questions: list[Question]) -> dict[str, float]:
    folds = [questions[k::FOLDS] for k in range(FOLDS)]
    totals = {"recall@1": 0.0, "recall@3": 0.0, "mrr@10": 0.0}
    for k, held in enumerate(folds):
        weights = fit([q for j, fold in enumerate(folds) if j != k for q in fold])
        for name, value in figures(held, lambda x: np.argsort(-(x @ weights), kind="stable")).items():
            totals[name] += value * len(held) / len(questions)
    return {name: round(value, 3) for name, value in totals.items()}


def main(argv=None) -> int:
    from indexer.build import DEFAULT_INDEX
    from service.language import Detector
    from service.library import Library
    from service.retrieval.rank import FEATURES, WEIGHTS

    parser = argparse.ArgumentParser(prog="python -m indexer.fit_ranker", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", type=Path, nargs="*", default=TRAINING)
    parser.add_argument("--index", type=Path, default=Path(os.environ.get("REFEREE_INDEX", DEFAULT_INDEX)))
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args(argv)

    library = Library(args.index, detector=Detector(), weights=np.zeros(len(FEATURES)))  # traits need no weights
    cases = [c for f in args.files for c in load_cases(f) if c.split in (None, "dev")]
    questions = described(library, cases)
    weights = fit(questions)
    report = {
        "features": list(FEATURES),
        "weights": [round(float(w), 4) for w in weights],
        "fitted": time.strftime("%Y-%m-%d", time.gmtime()),
        "trained_on": {"files": [f.name for f in args.files], "split": "dev", "questions": len(cases), "l2": L2},
        "cross_validated": {"folds": FOLDS, "lexical_order": figures(questions, lambda x: range(len(x))),
                            "learned": cross_validated(questions)},
    }
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report["cross_validated"]))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
