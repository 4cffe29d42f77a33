"""python -m benchmarks.uncurated: how well Referee answers a game it has no players' questions for.

Two measures, both part of ``make eval``:

* **Each shipped game left out in turn** (indexer.leave_out: its players' questions and its own
  concepts in the term base taken out), asked the judges' questions about it on its page (the
  twelfth to seventeenth batches, never tuned on; their off-topic questions too), with the scorer
  and on-topic decision for uncurated games fitted on the three other games only.
* **Games nobody on the team had seen** (benchmarks/eval/new-games: rulebooks written for the
  purpose as printed PDFs, and questions in four languages written by someone else from the
  rulebook alone; never tuned on), added with the same path as ``python -m indexer add`` and asked
  on their page, with ranker.json as shipped.

Per asker language: Recall@1 and @3 of /v1/search, how often /v1/ask's answer passage holds the
answer, how often it refuses on-topic and off-topic questions, how often an answer marked sure is
right, and how many citations carry their page.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

from indexer.build import DEFAULT_CORPUS, DEFAULT_INDEX, build
from benchmarks.evaluate import (Asked, Case, ask_table, contains_gold, format_ask_table, format_table, load_cases, run,
                          summarize)

EVAL = Path(__file__).resolve().parent / "eval"
NEW_GAMES = EVAL / "new-games"
DEV_GAMES = EVAL / "dev-games"  # written as the new games were, to be tuned on
JUDGES = sorted(EVAL.glob("players-*-judge-*.jsonl"))  # never fitted on (benchmarks/eval/README.md)
OFF_JUDGES = sorted(EVAL.glob("offtopic-*-judge-*.jsonl"))


def measure(library, cases: list[Case], off_topic: list[Case]) -> tuple[str, str, float]:
    """The search and ask tables for these questions, and the share of citations with a page
    (of those from rulebooks with pages)."""
    from service.ask import ask

    outcomes = run(cases, lambda c: [h.text for h in library.search(c.q, game=c.game, limit=10).hits])
    responses = [ask(library, c.q, game=c.game) for c in cases]
    on = [Asked(c, r["answer"], r["lang"]) for c, r in zip(cases, responses)]
    off = [Asked(c, (r := ask(library, c.q, game=c.game))["answer"], r["lang"]) for c in off_topic]
    paged = [c for r in responses for c in r["citations"]
             if any(p.get("page") for p in library.passages.values() if p["game"] == c["game"])]
    with_page = sum(1 for c in paged if c.get("page")) / len(paged) if paged else float("nan")
    return format_table(summarize(outcomes)), format_ask_table(ask_table(on, off)), with_page


def left_out(work: Path) -> None:
    from benchmarks.fit_ranker import OFF_TOPIC, TRAINING, fit_models, game_of, left_out_indexes, read_left_out
    from indexer.corpus import load_corpus
    from service.language import Detector
    from service.library import Library
    from service.retrieval.rank import OFF_TOPIC_FILE, WEIGHTS, Topic

    indexes = left_out_indexes(work)
    training = [c for f in TRAINING for c in load_cases(f) if c.split in (None, "dev")]
    training_off = [c for f in OFF_TOPIC for c in load_cases(f) if c.split in (None, "dev")]
    known = np.load(WEIGHTS.with_name(OFF_TOPIC_FILE))
    print("reading the training questions in each left-out index", file=sys.stderr)
    games = read_left_out(indexes, training, training_off)
    passages = [(p.game, p.text) for b in load_corpus(DEFAULT_CORPUS).rulebooks for p in b.passages]
    judges = [c for path in JUDGES for c in load_cases(path)]
    off_judges = [c for path in OFF_JUDGES for c in load_cases(path)]
    detector = Detector()
    for left in games:
        _, scorer, topic = fit_models([g for g in games if g.game != left.game], known, [c.q for c in training_off])
        decision = Topic(np.array(topic["weights"]), float(topic["bias"]), float(topic["threshold"]),
                         known.astype(np.float32))
        library = Library(indexes[left.game], detector=detector, uncurated=(scorer, decision))
        mine = [_on(c, left.game) for c in judges if game_of(c, passages) == left.game]
        off = [_on(c, left.game) for c in off_judges if c.game in (None, left.game)]
        search, asked, _ = measure(library, mine, off)
        print(f"\n### {left.game}, left out (its questions and own concepts), fitted on the other three\n")
        print(search, "\n")
        print(asked)
        library.close()


def _on(case: Case, game: str) -> Case:
    return Case(case.id, case.lang, game, case.q, case.gold, case.split)


def added_games(folder: Path, work: Path, kind: str) -> None:
    from indexer import added
    from indexer.corpus import shipped_games
    from service.language import Detector
    from service.library import Library

    library_dir = work / "library"
    shipped = {g["id"]: g for g in shipped_games()}
    games = []
    for pdf in sorted(folder.glob("*.pdf")):
        game = pdf.name.split(".")[0]
        found = added.add(pdf.read_bytes(), pdf.name, game, None, None, library_dir, shipped)
        print(f"added {pdf.name}: {found.lang}, {found.pages} pages, {found.sections} sections, "
              f"{found.passages} passages", file=sys.stderr)
        games.append(game)
    index = work / "index"
    build(index, DEFAULT_CORPUS, library=library_dir, embeddings=work / ".embeddings")
    library = Library(index, detector=Detector())
    for game in games:
        cases = load_cases(folder / f"{game}.questions.jsonl")
        off = load_cases(folder / f"{game}.offtopic.jsonl")
        texts = [p["text"] for p in library.passages.values() if p["game"] == game]
        findable = sum(1 for c in cases if any(contains_gold(t, c.gold) for t in texts))
        search, asked, with_page = measure(library, cases, off)
        print(f"\n### {game}, a new game added from its PDF ({kind})\n")
        print(f"gold phrases found in the passages as read: {findable} of {len(cases)} questions; "
              f"citations with their page: {with_page:.2f}\n")
        print(search, "\n")
        print(asked)
    library.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.uncurated", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=["left-out", "new-games", "dev-games"])
    parser.add_argument("--work", type=Path, default=Path(os.environ.get("REFEREE_INDEX", DEFAULT_INDEX)).parent / "left-out",
                        help="where the left-out indexes are (shared with make fit-ranker)")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    for part, folder, kind in (("new-games", NEW_GAMES, "never tuned on"), ("dev-games", DEV_GAMES, "development")):
        if args.only in (None, part):
            with tempfile.TemporaryDirectory(prefix=f"referee-{part}-") as work:
                added_games(folder, Path(work), kind)
    if args.only in (None, "left-out"):
        left_out(args.work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
