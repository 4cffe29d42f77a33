"""python -m benchmarks.evaluate FILE [--offtopic FILE] [--split dev|test] [--url URL]: score search and ask.

FILE is JSON lines in the format of benchmarks/eval/README.md (id, lang, game, q, gold, and
optionally split). A case is answered at rank r when the r-th hit's whole passage text contains a
gold phrase, compared after NFKC, lower-casing, folding ’ and ‘ to ', and removing all white space.

Search: Recall@1, Recall@3, Recall@10, MRR@10 and the mean length of the returned passages, per
question language and overall. Ask (POST /v1/ask): how often the answer's passage holds a gold
phrase, how often the answer sentence itself does, and how often an on-topic question is refused
(answer null); how many answers are given as sure, and how often the passage is right when sure
and when not; with --offtopic, how often questions the rulebooks do not answer are refused.
Runs in-process on the built index, or over HTTP with --url.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

K = 10
_SPACE = re.compile(r"\s+")


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower().replace("’", "'").replace("‘", "'")
    return _SPACE.sub("", text)


@dataclass
class Case:
    id: str
    lang: str
    game: str | None
    q: str
    gold: list[str]
    split: str | None = None


@dataclass
class Outcome:
    case: Case
    rank: int | None  # 1-based rank of the first answering hit within the top K, or None
    lengths: list[int]  # character lengths of the returned passages


def load_cases(path: Path | str, split: str | None = None) -> list[Case]:
    """The cases of a file (off-topic files have no gold), only those of ``split`` when given."""
    cases = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            case = Case(item["id"], item["lang"], item.get("game"), item["q"], item.get("gold", []), item.get("split"))
            if split is None or case.split == split:
                cases.append(case)
    return cases


def contains_gold(text: str | None, gold: list[str]) -> bool:
    return text is not None and any(normalize(g) in normalize(text) for g in gold)


def first_answering_rank(texts: Iterable[str], gold: list[str]) -> int | None:
    wanted = [normalize(g) for g in gold]
    for rank, text in enumerate(texts, start=1):
        haystack = normalize(text)
        if any(g in haystack for g in wanted):
            return rank
    return None


def run(cases: list[Case], search: Callable[[Case], list[str]]) -> list[Outcome]:
    outcomes = []
    for case in cases:
        texts = search(case)[:K]
        outcomes.append(Outcome(case, first_answering_rank(texts, case.gold), [len(t) for t in texts]))
    return outcomes


def gold_langs(case: Case, passages: Iterable[tuple[str, str]]) -> set[str]:
    """The languages of the passages (lang, text) that answer a case."""
    wanted = [normalize(g) for g in case.gold]
    return {lang for lang, text in passages if any(g in normalize(text) for g in wanted)}


def summarize(outcomes: list[Outcome], passages: list[tuple[str, str]] | None = None) -> dict[str, dict[str, float]]:
    """Metrics per question language and overall ("all").

    With the corpus passages (lang, text), also per "same-language" case (an answer exists in the
    question's language) and "cross-language" case (only other languages answer it).
    """
    groups: dict[str, list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault(o.case.lang, []).append(o)
    groups = dict(sorted(groups.items()))
    if passages is not None:
        for o in outcomes:
            same = o.case.lang in gold_langs(o.case, passages)
            groups.setdefault("same-language" if same else "cross-language", []).append(o)
    groups["all"] = outcomes
    table = {}
    for name, group in groups.items():
        n = len(group)
        lengths = [length for o in group for length in o.lengths]
        table[name] = {
            "n": n,
            "recall@1": sum(1 for o in group if o.rank == 1) / n,
            "recall@3": sum(1 for o in group if o.rank and o.rank <= 3) / n,
            "recall@10": sum(1 for o in group if o.rank) / n,
            "mrr@10": sum(1 / o.rank for o in group if o.rank) / n,
            "mean_passage_chars": sum(lengths) / len(lengths) if lengths else 0.0,
        }
    return table


def format_table(table: dict[str, dict[str, float]]) -> str:
    lines = ["| lang | n | Recall@1 | Recall@3 | Recall@10 | MRR@10 | mean passage chars |", "|---|---|---|---|---|---|---|"]
    for name, m in table.items():
        lines.append(
            f"| {name} | {m['n']} | {m['recall@1']:.2f} | {m['recall@3']:.2f} | {m['recall@10']:.2f} "
            f"| {m['mrr@10']:.2f} | {m['mean_passage_chars']:.0f} |"
        )
    return "\n".join(lines)


@dataclass
class Asked:
    case: Case
    answer: dict | None  # the answer of POST /v1/ask, or None when it refused
    lang: str | None  # the asker's language as Referee took it


def ask_table(on_topic: list[Asked], off_topic: list[Asked]) -> dict[str, dict[str, float]]:
    """Per question language and overall: passage right, sentence right, refusals."""
    langs = sorted({a.case.lang for a in on_topic + off_topic})
    table = {}
    for name in langs + ["all"]:
        mine = [a for a in on_topic if name in ("all", a.case.lang)]
        sure = [a for a in mine if a.answer and a.answer.get("sure")]
        unsure = [a for a in mine if a.answer and not a.answer.get("sure")]
        other = [a for a in off_topic if name in ("all", a.case.lang)]
        n = len(mine) or 1
        table[name] = {
            "n": len(mine),
            "passage": sum(1 for a in mine if a.answer and contains_gold(a.answer["passage"], a.case.gold)) / n,
            "sentence": sum(1 for a in mine if a.answer and contains_gold(a.answer["text"], a.case.gold)) / n,
            "refused_on_topic": sum(1 for a in mine if a.answer is None) / n,
            "sure": len(sure) / n,
            "right_when_sure": sum(contains_gold(a.answer["passage"], a.case.gold) for a in sure) / (len(sure) or 1),
            "right_when_unsure": sum(contains_gold(a.answer["passage"], a.case.gold) for a in unsure) / (len(unsure) or 1),
            "lang_right": sum(1 for a in mine + other if a.lang == a.case.lang) / (len(mine + other) or 1),
            "n_off": len(other),
            "refused_off_topic": sum(1 for a in other if a.answer is None) / (len(other) or 1),
        }
    return table


def format_ask_table(table: dict[str, dict[str, float]]) -> str:
    lines = ["| lang | n | answer passage right | answer sentence right | on-topic refused | answered sure "
             "| passage right when sure | when not sure | language right | off-topic n | off-topic refused |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, m in table.items():
        lines.append(
            f"| {name} | {m['n']} | {m['passage']:.2f} | {m['sentence']:.2f} | {m['refused_on_topic']:.2f} "
            f"| {m['sure']:.2f} | {m['right_when_sure']:.2f} | {m['right_when_unsure']:.2f} "
            f"| {m['lang_right']:.2f} | {m['n_off']} | {m['refused_off_topic']:.2f} |"
        )
    return "\n".join(lines)


def in_process_ask(index_dir: Path | str) -> Callable[[Case], tuple[dict | None, str | None]]:
    from service.ask import ask
    from service.language import Detector
    from service.library import Library

    library = Library(index_dir, detector=Detector())

    def run_ask(case: Case):
        response = ask(library, case.q, game=case.game)
        return response["answer"], response["lang"]

    return run_ask


def http_ask(url: str) -> Callable[[Case], tuple[dict | None, str | None]]:
    import requests

    session = requests.Session()

    def run_ask(case: Case):
        body = {"question": case.q, "game": case.game} if case.game else {"question": case.q}
        response = session.post(f"{url.rstrip('/')}/v1/ask", json=body, timeout=30)
        response.raise_for_status()
        return response.json()["answer"], response.json()["lang"]

    return run_ask


def in_process_search(index_dir: Path | str) -> Callable[[Case], list[str]]:
    from service.library import Library

    from service.language import Detector

    library = Library(index_dir, detector=Detector())
    return lambda case: [h.text for h in library.search(case.q, game=case.game, limit=K, lang=case.lang).hits]


def http_search(url: str) -> Callable[[Case], list[str]]:
    import requests

    session = requests.Session()

    def search(case: Case) -> list[str]:
        params = {"q": case.q, "lang": case.lang, "limit": K}
        if case.game:
            params["game"] = case.game
        response = session.get(f"{url.rstrip('/')}/v1/search", params=params, timeout=30)
        response.raise_for_status()
        return [hit["text"] for hit in response.json()["hits"]]

    return search


def main(argv=None) -> int:
    from indexer.build import DEFAULT_CORPUS, DEFAULT_INDEX
    from indexer.corpus import load_corpus

    parser = argparse.ArgumentParser(prog="python -m benchmarks.evaluate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path)
    parser.add_argument("--offtopic", type=Path, help="questions the rulebooks do not answer (ask mode)")
    parser.add_argument("--split", choices=["dev", "test"], help="only the cases of this half")
    parser.add_argument("--url", help="search a running service instead of the index in-process")
    parser.add_argument("--index", type=Path, default=Path(os.environ.get("REFEREE_INDEX", DEFAULT_INDEX)))
    parser.add_argument("--misses", action="store_true", help="list the cases missed (search: not in the top 3)")
    args = parser.parse_args(argv)

    cases = load_cases(args.file, args.split)
    search = http_search(args.url) if args.url else in_process_search(args.index)
    outcomes = run(cases, search)
    corpus = load_corpus(DEFAULT_CORPUS)
    passages = [(p.lang, p.text) for book in corpus.rulebooks for p in book.passages]
    print(f"Search ({args.file.name}{', ' + args.split if args.split else ''})")
    print(format_table(summarize(outcomes, passages)))
    if args.misses:
        for o in outcomes:
            if not o.rank or o.rank > 3:
                print(f"miss {o.case.id} [{o.case.lang}] rank={o.rank} {o.case.q}")

    run_ask = http_ask(args.url) if args.url else in_process_ask(args.index)
    on_topic = [Asked(c, *run_ask(c)) for c in cases]
    off_topic = [Asked(c, *run_ask(c)) for c in load_cases(args.offtopic, args.split)] if args.offtopic else []
    print()
    print(f"Ask ({args.file.name}{' + ' + args.offtopic.name if args.offtopic else ''})")
    print(format_ask_table(ask_table(on_topic, off_topic)))
    if args.misses:
        for a in on_topic:
            if not (a.answer and contains_gold(a.answer["text"], a.case.gold)):
                got = "refused" if a.answer is None else (
                    "sentence wrong" if contains_gold(a.answer["passage"], a.case.gold) else a.answer["passage_id"])
                print(f"ask-miss {a.case.id} [{a.case.lang}/{a.lang}] {got}: {a.case.q}")
        for a in off_topic:
            if a.answer is not None:
                print(f"answered-off-topic {a.case.id} [{a.case.lang}] {a.answer['passage_id']}: {a.case.q}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
