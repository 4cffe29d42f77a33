"""make bench: index build time and search latency, in-process and over HTTP, at 1x and 100x;
adjudication latency; the web app's answer time in Chromium; what the chat and MCP adapters add over
/v1/ask; and a load test of the production server.

Timings only; nothing here passes or fails. The questions are the dev questions in
benchmarks/eval/search_dev.jsonl (or --questions FILE). The 100x corpus is 100 synthetic copies of
every passage (ids suffixed), to see how search scales. `--only load` or `--only browser` runs one
part alone, as do `--only adapters`, `--only profile` (where a search's time goes, stage by stage)
and `--only backends` (Whoosh against tantivy at 1x, 10x and 100x, against a bare Whoosh query).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from indexer.build import DEFAULT_CORPUS, build
from benchmarks.evaluate import load_cases

ROOT = Path(__file__).resolve().parent.parent
DEV_QUESTIONS = ROOT / "benchmarks" / "eval" / "search_dev.jsonl"


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms" if seconds >= 1e-4 else f"{seconds * 1e6:.0f} µs"


def time_searches(search, cases, rounds: int, before=None, warm_up: bool = True) -> list[float]:
    """Each case searched ``rounds`` times, after a warm-up round unless ``warm_up`` is false (new
    questions to a server already warm); ``before()``, when given, runs untimed before each search
    (``forgetting``: to make each a new question)."""
    for case in cases if warm_up else ():  # caches, lazy loading
        search(case)
    samples = []
    for _ in range(rounds):
        for case in cases:
            if before is not None:
                before()
            started = time.perf_counter()
            search(case)
            samples.append(time.perf_counter() - started)
    return samples


def forgetting(library):
    """What makes the next search a new question's: the library's kept searches (a question asked
    again is answered from them) and the question embeddings forgotten."""
    from service.retrieval import rank

    def forget():
        library.forget()
        rank.question_embedding.cache_clear()
    return forget


def new_questions(count: int, asked=(), seed: int = 13) -> list:
    """Up to ``count`` distinct questions from every evaluation file of single questions (on-topic
    and off; not the follow-up conversations), none of the cases ``asked``, shuffled: for what a
    question costs the first time a server meets it."""
    import random

    seen, pool = {(case.q, case.game) for case in asked}, []
    for path in sorted((ROOT / "benchmarks" / "eval").glob("*.jsonl")):
        if path.name == "followups.jsonl":
            continue
        for case in load_cases(path):
            if (case.q, case.game) not in seen:
                seen.add((case.q, case.game))
                pool.append(case)
    random.Random(seed).shuffle(pool)
    return pool[:count]


def copies(times: int):
    """The corpus's passages and ``times - 1`` copies of each (ids suffixed ~1, ~2, ...), each copy
    put in its section too: the catalog lists what the index holds, as in a real library."""
    def passages(corpus):
        for book in corpus.rulebooks:
            for section in book.sections:
                section.passages = [dataclasses.replace(p, id=f"{p.id}~{k}") if k else p
                                    for p in section.passages for k in range(times)]
                yield from section.passages
    return passages


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(index: Path, **env: str):
    """gunicorn configured as `make run` does (``env``: more of its environment), on a free loopback
    port: yields (session, base URL)."""
    import requests

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:service.gunicorn_conf"],
        env=dict(os.environ, REFEREE_INDEX=str(index), PORT=str(port), REFEREE_LOG_LEVEL="warning", **env),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    session, base = requests.Session(), f"http://127.0.0.1:{port}"
    session.server_pid = server.pid  # for worker_memory
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if session.get(f"{base}/healthz", timeout=1).ok:
                    break
            except requests.RequestException:  # not listening yet, or still loading
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError("gunicorn did not start")
            time.sleep(0.1)
        yield session, base
    finally:
        server.terminate()
        server.wait(timeout=30)


def worker_memory(server_pid: int) -> list[tuple[str, int, int]]:
    """(process, RSS MB, PSS MB) of gunicorn's master and each worker: PSS counts each page shared by
    n processes as 1/n, what a worker really costs the machine."""
    children = subprocess.run(["pgrep", "-P", str(server_pid)], capture_output=True, text=True).stdout.split()
    rows = []
    for name, pid in [("master", str(server_pid))] + [(f"worker {i + 1}", c) for i, c in enumerate(children)]:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
            sizes = {line.split(":")[0]: int(line.split()[1]) // 1024 for line in rollup if line.startswith(("Rss:", "Pss:"))}
        rows.append((name, sizes["Rss"], sizes["Pss"]))
    return rows


def http_latency(index: Path, cases, rounds: int) -> tuple[list[float], list[float], list[float]]:
    """Search latencies over HTTP for new questions (each asked once, ``len(cases) * rounds`` of
    new_questions) and for ``cases`` asked again, then ask latencies for new questions."""
    fresh = new_questions(2 * len(cases) * rounds, asked=cases)
    first, second = fresh[: len(fresh) // 2], fresh[len(fresh) // 2 :]
    with serving(index) as (session, base):

        def search(case):
            params = {"q": case.q, "limit": 10}
            if case.game:
                params["game"] = case.game
            session.get(f"{base}/v1/search", params=params, timeout=10).raise_for_status()

        def ask(case):
            body = {"question": case.q, "game": case.game} if case.game else {"question": case.q}
            session.post(f"{base}/v1/ask", json=body, timeout=10).raise_for_status()

        again = time_searches(search, cases, rounds)  # first: it warms the server up
        return time_searches(search, first, 1, warm_up=False), again, time_searches(ask, second, 1, warm_up=False)


def adapters(cases, rounds: int) -> None:
    """What each adapter adds over /v1/ask, over HTTP on the production server, question by question:
    the OpenAI chat endpoint (whole and streamed, read to [DONE]) and MCP's ask_rules tool over
    /mcp (a JSON-RPC tools/call, as a remote assistant sends it)."""
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index"
        build(index, DEFAULT_CORPUS)
        with serving(index) as (session, base):
            mcp_headers = {"Accept": "application/json, text/event-stream"}

            def body(case) -> dict:
                return {"question": case.q, "game": case.game} if case.game else {"question": case.q}

            def chat(case, stream=False):
                model = f"referee-{case.game}" if case.game else "referee"
                response = session.post(f"{base}/v1/chat/completions", timeout=10, stream=stream, json={
                    "model": model, "stream": stream, "messages": [{"role": "user", "content": case.q}]})
                response.raise_for_status()
                if stream:
                    assert response.text.rstrip().endswith("data: [DONE]")

            def mcp(case):
                call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "ask_rules", "arguments": body(case)}}
                response = session.post(f"{base}/mcp", json=call, headers=mcp_headers, timeout=10)
                response.raise_for_status()
                assert "error" not in response.json()

            routes = {
                "/v1/ask": lambda c: session.post(f"{base}/v1/ask", json=body(c), timeout=10).raise_for_status(),
                "/v1/chat/completions": chat,
                "/v1/chat/completions, stream": lambda c: chat(c, stream=True),
                "/mcp tools/call ask_rules": mcp,
            }
            timed = {route: time_searches(run, cases, rounds) for route, run in routes.items()}
    base_p50 = percentile(timed["/v1/ask"], 50)
    print(f"Adapters over HTTP ({len(cases)} questions x {rounds}, one at a time): what each adds over /v1/ask")
    print("| route | p50 | p99 | p50 over /v1/ask |")
    print("|---|---|---|---|")
    for route, samples in timed.items():
        p50 = percentile(samples, 50)
        print(f"| {route} | {ms(p50)} | {ms(percentile(samples, 99))} | {'+' if p50 >= base_p50 else ''}{ms(p50 - base_p50)} |")


def search_profile(cases, rounds: int) -> None:
    """Where a search's time goes, stage by stage (benchmarks.profile), on a fresh 1x index."""
    from benchmarks.profile import profile
    from service.language import Detector
    from service.library import Library

    with tempfile.TemporaryDirectory() as tmp:
        build(Path(tmp) / "index", DEFAULT_CORPUS)
        library = Library(Path(tmp) / "index", detector=Detector())
        profile(library, cases, rounds)
        library.close()


def bare_whoosh(library):
    """The least a search engine does for a question: an OR of its analysed words over every
    language's text field, the top 10, no game filter, no highlighting, no ranker."""
    from whoosh import index as whoosh_index
    from whoosh import query as Q

    from indexer.analysis import terms
    from indexer.generation import hold, text_field
    from indexer.corpus import LANGS

    lease = hold(library.index_dir)
    searcher = whoosh_index.open_dir(str(lease.path)).searcher()

    def search(case):
        words = [Q.Term(text_field(lang), stem) for lang in LANGS for stem in terms(lang, case.q)]
        return [hit.docnum for hit in searcher.search(Q.Or(words), limit=10)]

    def close():
        searcher.close()
        lease.release()

    return search, close


def backends(cases, rounds: int, scales=(1, 10, 100)) -> None:
    """Library.search with each backend (REFEREE_SEARCH_BACKEND), each retriever alone on the same
    plans (the 40 candidates), and a bare Whoosh query, at several copies of the corpus; each
    p50 also as a multiple of the bare query's. Rounds: ``rounds`` at 1x, rounds / sqrt(copies) (at least 5) above."""
    from service.language import Detector
    from service.library import CANDIDATES, Library

    detector = Detector()
    print(f"Search backends ({len(cases)} questions, one at a time; {rounds} rounds at 1x, fewer with more copies); "
          f"x: the p50 over the bare Whoosh query's (an OR of the question's words over the text fields, top 10)")
    print("search: a new question (the searches kept and the embeddings forgotten before each); again: the same question "
          "asked again (answered from the searches kept)")
    print("| corpus | passages | build | bare Whoosh p50 / p99 | Whoosh retriever p50 / p99 | tantivy retriever p50 / p99 "
          "| search, Whoosh p50 / p99 | again, Whoosh | search, tantivy p50 / p99 | again, tantivy |")
    print("|---" * 10 + "|")
    with tempfile.TemporaryDirectory() as tmp:
        for times in scales:
            label, repeat = f"{times}x", max(5, round(rounds / times ** 0.5)) if times > 1 else rounds
            index = Path(tmp) / f"index-{label}"
            report = build(index, DEFAULT_CORPUS, passages=copies(times) if times > 1 else None)
            timings = {}
            for backend in ("whoosh", "tantivy"):
                library = Library(index, detector=detector, backend=backend)
                if backend == "whoosh":
                    bare, close_bare = bare_whoosh(library)
                    timings["bare"] = time_searches(bare, cases, repeat)
                    close_bare()
                plans = {case.q: library.candidates(case.q, case.game)[:2] for case in cases}

                def retrieve(case, library=library, plans=plans):
                    question, plan = plans[case.q]
                    return library.retriever.search(plan, question.game, CANDIDATES) if plan else []

                timings[f"{backend} retriever"] = time_searches(retrieve, cases, repeat)

                def search(c, library=library):
                    return library.search(c.q, game=c.game, limit=10)

                timings[f"{backend} search"] = time_searches(search, cases, repeat, forgetting(library))
                timings[f"{backend} again"] = time_searches(search, cases, repeat)
                library.close()
            base = percentile(timings["bare"], 50)

            def cell(name):
                samples = timings[name]
                p50 = percentile(samples, 50)
                return f"{ms(p50)} / {ms(percentile(samples, 99))} ({p50 / base:.{1 if p50 >= 0.1 * base else 3}f}x)"

            print(f"| {label} | {report['passages']} | {report['seconds']:.1f} s | {ms(base)} / {ms(percentile(timings['bare'], 99))} "
                  f"| {cell('whoosh retriever')} | {cell('tantivy retriever')} | {cell('whoosh search')} | {cell('whoosh again')} "
                  f"| {cell('tantivy search')} | {cell('tantivy again')} |", flush=True)


def _cases(engine, count: int) -> list[tuple[dict, dict]]:
    """(state, move) pairs met in seeded random play, legal moves and the worked (some illegal) ones."""
    import random

    rng = random.Random(1)
    cases = [(state, move) for _, _, state, move in engine.examples()]
    state = engine.setup(3, 1, {})
    while len(cases) < count:
        moves = engine.legal_moves(state)
        if not moves:
            state = engine.setup(3, len(cases), {})
            continue
        move = rng.choice(moves)
        cases.append((state, move))
        state = engine.apply(state, move)
    return cases


def _play_rate(engine, seconds: float) -> tuple[float, float]:
    """Random play: (moves per second, full games per second; 0 when none finished)."""
    import random

    started, moves, games, seed = time.perf_counter(), 0, 0, 0
    state, rng = engine.setup(3, 0, {}), random.Random(0)
    while time.perf_counter() - started < seconds:
        legal = engine.legal_moves(state)
        if not legal:
            games, seed = games + 1, seed + 1
            low, high = engine.players
            state, rng = engine.setup(low + seed % (min(high, 4) - low + 1), seed, {}), random.Random(seed)
            continue
        state = engine.apply(state, rng.choice(legal))
        moves += 1
    elapsed = time.perf_counter() - started
    return moves / elapsed, games / elapsed


def adjudication(rounds: int) -> list[tuple]:
    """Per engine: adjudication latency in-process and over HTTP, random play rates."""
    from service.engines import ENGINES, adjudicate

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index"
        build(index, DEFAULT_CORPUS)
        with serving(index) as (session, base):
            for game, engine in ENGINES.items():
                cases = _cases(engine, 200)
                in_process = []
                for _ in range(max(1, rounds // 4)):
                    for state, move in cases:
                        started = time.perf_counter()
                        adjudicate(engine, state, move, "en")
                        in_process.append(time.perf_counter() - started)
                over_http = []
                for state, move in cases:
                    started = time.perf_counter()
                    session.post(f"{base}/v1/games/{game}/adjudicate", json={"state": state, "move": move},
                                 timeout=10).raise_for_status()
                    over_http.append(time.perf_counter() - started)
                moves_per_s, games_per_s = _play_rate(engine, 4)
                rows.append((game, ms(percentile(in_process, 50)), ms(percentile(in_process, 99)),
                             ms(percentile(over_http, 50)), ms(percentile(over_http, 99)),
                             f"{moves_per_s:.0f}", f"{games_per_s:.1f}" if games_per_s else "none finished"))
    return rows


def load_test(cases, seconds: float, clients: int) -> None:
    """Saturate the production server with a mix of routes, then with healthz alone and search alone
    (its rate limits off: one client here measures what the server can do); then, with the limits
    as shipped, one client flooding /v1/ask while another checks /healthz and asks."""
    from benchmarks.load import MIX, Requests, flood, saturate
    from service.engines import ENGINES

    adjudications = [(game, state, move) for game, engine in ENGINES.items() for state, move in _cases(engine, 100)]
    requests = Requests(cases, adjudications, new_questions(10_000, asked=cases))
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index"
        build(index, DEFAULT_CORPUS)
        with serving(index) as (_, base):
            port = int(base.rsplit(":", 1)[1])
            saturate(port, requests, [("healthz", 1)], 2, clients)  # both workers up
            flooded = flood(port, requests, max(10.0, seconds / 2), clients)
        with serving(index, REFEREE_RATE_LIMIT="off") as (session, base):
            port = int(base.rsplit(":", 1)[1])
            saturate(port, requests, MIX, 3, clients)  # warm up both workers
            mixed = saturate(port, requests, MIX, seconds, clients)
            alone = {route: saturate(port, requests, [(route, 1)], max(5.0, seconds / 3), clients)
                     for route in ("healthz", "search", "new search", "new ask")}
            memory = worker_memory(session.server_pid)

    def throughput(run, route=None) -> float:
        count = sum(len(s) for r, s in run["latencies"].items() if route in (None, r))
        return count / run["seconds"]

    print(f"Load: {clients} clients for {mixed['seconds']:.0f} s, mix {', '.join(f'{r} {w}' for r, w in MIX)} "
          f"(weights); uvicorn workers as make run starts them")
    print("| route | requests | throughput | p50 | p95 | p99 | errors |")
    print("|---|---|---|---|---|---|---|")
    for route, _ in MIX + (("all", 0),):
        samples = [x for r, s in mixed["latencies"].items() if route in ("all", r) for x in s]
        errors = sum(n for r, n in mixed["errors"].items() if route in ("all", r))
        print(f"| {route} | {len(samples)} | {len(samples) / mixed['seconds']:.0f}/s | {ms(percentile(samples, 50))} "
              f"| {ms(percentile(samples, 95))} | {ms(percentile(samples, 99))} | {errors} |")
    healthz, search, new, new_ask = (throughput(alone[route]) for route in ("healthz", "search", "new search", "new ask"))
    errors = sum(sum(run["errors"].values()) for run in alone.values())
    print(f"Saturated alone: healthz {healthz:.0f}/s; search {search:.0f}/s over the {len(cases)} questions asked again "
          f"and again ({search / healthz:.3f} of healthz's), {new:.0f}/s over questions each asked once "
          f"({new / healthz:.3f}); /v1/ask {new_ask:.0f}/s over questions each asked once; {errors} errors")
    print("Memory after the load (MB): " + "; ".join(f"{name} RSS {rss}, PSS {pss}" for name, rss, pss in memory))
    health = flooded["healthz"]
    print(f"One client flooding /v1/ask ({clients} connections, the rate limits as shipped): its answers by status "
          f"{dict(sorted(flooded['flood'].items()))}; another client's /healthz p50 {ms(percentile(health, 50))}, "
          f"p99 {ms(percentile(health, 99))} ({len(health)} checks), its questions answered {flooded['answered']} "
          f"of {flooded['asked']}")


def browser_test(cases) -> None:
    """The Chat page on a 375 px phone in Chromium, served as make run serves it."""
    from benchmarks.browser import answer_latency

    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index"
        build(index, DEFAULT_CORPUS)
        with serving(index) as (_, base):
            answer_latency(base, new_questions(5, asked=cases))  # warm up (workers, the browser) on other questions
            run = answer_latency(base, cases)
    samples = run["samples"]
    print(f"Web app (Chromium, 375 px): {len(samples)} questions typed and sent with Enter; answer drawn after "
          f"p50 {ms(percentile(samples, 50))}, p95 {ms(percentile(samples, 95))}, max {ms(max(samples))}; "
          f"first load of a game page {run['first_load_bytes'] / 1024:.1f} KB")


def main(argv=None) -> int:
    from service.ask import ask
    from service.language import Detector
    from service.library import Library

    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--questions", type=Path, default=DEV_QUESTIONS)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--scale", type=int, default=100, help="copies of the corpus for the large run")
    parser.add_argument("--load-seconds", type=float, default=30, help="length of the load test's mixed run")
    parser.add_argument("--clients", type=int, default=16, help="concurrent connections in the load test")
    parser.add_argument("--only", choices=["load", "browser", "adapters", "profile", "backends"], help="run one part alone")
    args = parser.parse_args(argv)
    cases = load_cases(args.questions)
    if args.only == "load":
        load_test(cases, args.load_seconds, args.clients)
        return 0
    if args.only == "browser":
        browser_test(cases)
        return 0
    if args.only == "adapters":
        adapters(cases, args.rounds)
        return 0
    if args.only == "profile":
        search_profile(cases, args.rounds)
        return 0
    if args.only == "backends":
        backends(cases, args.rounds)
        return 0
    rows = []

    with tempfile.TemporaryDirectory() as tmp:
        for label, times, rounds in (("1x", 1, args.rounds), (f"{args.scale}x", args.scale, max(2, args.rounds // 10))):
            index = Path(tmp) / f"index-{label}"
            builds = [build(index, DEFAULT_CORPUS, passages=copies(times) if times > 1 else None)
                      for _ in range(3 if times == 1 else 1)]
            build_s = statistics.median(b["seconds"] for b in builds)
            library = Library(index, detector=Detector())
            forget = forgetting(library)
            searches = time_searches(lambda c: library.search(c.q, game=c.game, limit=10), cases, rounds, forget)
            again = time_searches(lambda c: library.search(c.q, game=c.game, limit=10), cases, rounds)
            asks = time_searches(lambda c: ask(library, c.q, game=c.game), cases, rounds, forget)
            http_search, http_again, http_ask = http_latency(index, cases, rounds)
            rows.append((label, builds[0]["passages"], f"{build_s:.2f} s", f"{builds[0]['bytes'] / 2**20:.1f} MiB",
                         ms(percentile(searches, 50)), ms(percentile(searches, 99)), ms(percentile(again, 50)),
                         ms(percentile(asks, 50)), ms(percentile(asks, 99)),
                         ms(percentile(http_search, 50)), ms(percentile(http_search, 99)), ms(percentile(http_again, 50)),
                         ms(percentile(http_ask, 50)), ms(percentile(http_ask, 99))))

    print(f"{len(cases)} questions from {args.questions.name}; {os.cpu_count()} cores; Python {sys.version.split()[0]}")
    print("New questions (in process: the searches kept and the embeddings forgotten before each; over HTTP: "
          "distinct questions of every evaluation file, each asked once); again: the same question asked again")
    print("| corpus | passages | build | index | search p50 | search p99 | search again p50 | ask p50 | ask p99 "
          "| HTTP search p50 | HTTP search p99 | HTTP search again p50 | HTTP ask p50 | HTTP ask p99 |")
    print("|---" * 14 + "|")
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")
    print()
    print("| adjudicator | in-process p50 | in-process p99 | HTTP p50 | HTTP p99 | random moves/s | random full games/s |")
    print("|---|---|---|---|---|---|---|")
    for row in adjudication(args.rounds):
        print("| " + " | ".join(row) + " |")
    print("(Mömmen's rounds rarely end under uniform random play; its tests use a goal-seeking player.)")
    print()
    browser_test(cases)
    print()
    search_profile(cases, max(2, args.rounds // 4))
    print()
    backends(cases, args.rounds)
    print()
    adapters(cases, max(2, args.rounds // 4))
    print()
    load_test(cases, args.load_seconds, args.clients)
    return 0


if __name__ == "__main__":
    sys.exit(main())
