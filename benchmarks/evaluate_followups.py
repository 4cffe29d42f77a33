"""python -m benchmarks.evaluate_followups [FILE] [--index DIR]: score the chat endpoint's follow-ups.

FILE (benchmarks/eval/followups.jsonl) holds conversations: id, lang, game, turns (the user's
messages), gold (phrases of every passage that answers the last turn as meant in context). A
conversation is answered right when the passage of service.chat.answer's answer holds a gold phrase
(benchmarks.evaluate's comparison); the last turn asked alone, with no context, is scored beside it. The
figures are given for the 1st, 3rd, ... conversations (the rule was chosen on them) and the 2nd,
4th, ... (never tuned on), by the asker's language.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from benchmarks.evaluate import contains_gold
from indexer.corpus import LANGS

FOLLOWUPS = Path(__file__).resolve().parent / "eval" / "followups.jsonl"


def main(argv=None) -> int:
    from indexer.build import DEFAULT_INDEX
    from service.ask import ask
    from service.chat import answer
    from service.language import Detector
    from service.library import Library

    parser = argparse.ArgumentParser(prog="python -m benchmarks.evaluate_followups", description=__doc__)
    parser.add_argument("file", type=Path, nargs="?", default=FOLLOWUPS)
    parser.add_argument("--index", type=Path, default=Path(os.environ.get("REFEREE_INDEX", DEFAULT_INDEX)))
    args = parser.parse_args(argv)
    library = Library(args.index, detector=Detector())
    rows = [json.loads(line) for line in args.file.read_text(encoding="utf-8").splitlines() if line.strip()]

    def right(answered: dict, gold: list[str]) -> bool:
        found = answered["answer"]
        return found is not None and contains_gold(library.passages[found["passage_id"]]["text"], gold)

    print(f"{len(rows)} conversations from {args.file.name}: answer passage right")
    print("| conversations | how | all | " + " | ".join(LANGS) + " |")
    print("|---" * (3 + len(LANGS)) + "|")
    for label, part in (("1st, 3rd, ... (chosen on)", rows[0::2]), ("2nd, 4th, ... (never tuned on)", rows[1::2])):
        for how, answered in (
            ("last turn alone", lambda r: ask(library, r["turns"][-1])),
            ("in context (service.chat)", lambda r: answer(library, [{"role": "user", "content": t} for t in r["turns"]])[1]),
        ):
            scored = [(r["lang"], right(answered(r), r["gold"])) for r in part]
            by_lang = [[ok for lang, ok in scored if lang == want] for want in LANGS]
            cells = [f"{sum(ok for _, ok in scored) / len(scored):.3f}"] + [f"{sum(s) / len(s):.2f}" if s else "-" for s in by_lang]
            print(f"| {label} | {how} | " + " | ".join(cells) + " |")
    library.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
