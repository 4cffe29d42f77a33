"""The evaluation questions' keys: every gold phrase stands in some passage of the corpus, so a
question can be answered right at all, and the ids are unique across files. A file holds questions
(``q``, read by benchmarks.evaluate) or conversations (``turns``: followups.jsonl, benchmarks.evaluate_followups)."""

import json
from pathlib import Path

import pytest

from indexer.corpus import load_corpus
from benchmarks.evaluate import normalize

EVAL = Path(__file__).resolve().parents[2] / "benchmarks" / "eval"
FILES = sorted(EVAL.glob("*.jsonl"))


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def passages() -> list[str]:
    corpus = load_corpus(Path(__file__).resolve().parents[2] / "corpus")
    return [normalize(p.text) for book in corpus.rulebooks for p in book.passages]


@pytest.mark.parametrize("path", [f for f in FILES if "offtopic" not in f.name], ids=lambda f: f.name)
def test_every_gold_phrase_stands_in_a_passage(path, passages):
    cases = rows(path)
    missing = [(c["id"], g) for c in cases for g in c["gold"] if not any(normalize(g) in p for p in passages)]
    assert cases and all(c["gold"] and (c.get("q") or c.get("turns")) for c in cases)
    assert missing == []


def test_question_ids_are_unique_across_files():
    ids = [c["id"] for path in FILES for c in rows(path)]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert duplicates == []
