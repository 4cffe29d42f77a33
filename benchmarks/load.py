"""A load test: the production server (gunicorn, service.gunicorn_conf) at saturation.

Client threads on loopback, each with its own kept-alive connection, send requests back to back
for a fixed time: a mix of search, ask, adjudicate and healthz; then healthz alone and search
alone, for their saturated throughputs. The client shares the machine's cores with the server, so
the figures are a floor for what the server alone would do.
"""

from __future__ import annotations

import http.client
import itertools
import json
import random
import threading
import time
from collections import defaultdict
from urllib.parse import urlencode

MIX = (("search", 4), ("ask", 3), ("adjudicate", 2), ("healthz", 1))


class Requests:
    """The requests of the mix, built once: real questions and real (state, move) pairs. ``new``:
    questions for the route "new search", each sent once (none of ``questions``: the server has
    not met them), in turn across the clients."""

    def __init__(self, questions, adjudications, new=()):
        self.questions = questions
        self.adjudications = adjudications
        self.new = list({case.q: case for case in new}.values())  # a search is sent without its game: one per question
        self._next_new = itertools.count()  # next() is atomic: no two clients send the same question

    def make(self, route: str, rng: random.Random) -> tuple[str, str, bytes | None]:
        if route == "healthz":
            return "GET", "/healthz", None
        if route == "adjudicate":
            game, state, move = rng.choice(self.adjudications)
            return "POST", f"/v1/games/{game}/adjudicate", json.dumps({"state": state, "move": move}).encode()
        # search, ask: a question of the set; new search, new ask: one never sent before
        case = self.new[next(self._next_new) % len(self.new)] if route.startswith("new ") else rng.choice(self.questions)
        if route.endswith("search"):
            return "GET", "/v1/search?" + urlencode({"q": case.q, "limit": 10}), None
        return "POST", "/v1/ask", json.dumps({"question": case.q}).encode()


def saturate(port: int, requests: Requests, mix, seconds: float, clients: int = 16) -> dict:
    """Send ``mix`` (route, weight) pairs back to back from ``clients`` threads for ``seconds``."""
    routes = [route for route, weight in mix for _ in range(weight)]
    latencies: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def client(number: int):
        rng = random.Random(number)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine, failed = defaultdict(list), defaultdict(int)
        while time.monotonic() < deadline:
            route = rng.choice(routes)
            method, path, body = requests.make(route, rng)
            started = time.perf_counter()
            try:
                connection.request(method, path, body=body, headers={"Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                ok = False
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            mine[route].append(time.perf_counter() - started)
            if not ok:
                failed[route] += 1
        with lock:
            for route, samples in mine.items():
                latencies[route].extend(samples)
            for route, count in failed.items():
                errors[route] += count

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    return {"seconds": elapsed, "latencies": dict(latencies), "errors": dict(errors)}


def flood(port: int, requests: Requests, seconds: float, clients: int = 16) -> dict:
    """One client floods /v1/ask with questions never asked before (the expensive path) over
    ``clients`` connections from 127.0.0.1 while a table, from
    127.0.0.2 (another client to the rate limits), checks /healthz every 50 ms and asks a question
    every second. The flood's statuses, the table's /healthz latencies and how many of its
    questions were answered."""
    deadline = time.monotonic() + seconds
    flooded: dict[int, int] = defaultdict(int)
    lock = threading.Lock()

    def flooder(number: int):
        rng = random.Random(number)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.0.1", 0))
        mine: dict[int, int] = defaultdict(int)
        while time.monotonic() < deadline:
            method, path, body = requests.make("new ask", rng)
            try:
                connection.request(method, path, body=body, headers={"Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                mine[response.status] += 1
            except (OSError, http.client.HTTPException):
                mine[0] += 1
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.0.1", 0))
        with lock:
            for status, count in mine.items():
                flooded[status] += count

    health, asked, answered = [], 0, 0
    threads = [threading.Thread(target=flooder, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    time.sleep(1)  # the flood under way
    table = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.0.2", 0))
    rng, next_question = random.Random(99), time.monotonic()
    while time.monotonic() < deadline:
        started = time.perf_counter()
        table.request("GET", "/healthz")
        table.getresponse().read()
        health.append(time.perf_counter() - started)
        if time.monotonic() >= next_question:
            method, path, body = requests.make("ask", rng)
            table.request(method, path, body=body, headers={"Content-Type": "application/json"})
            response = table.getresponse()
            response.read()
            asked, answered = asked + 1, answered + (response.status == 200)
            next_question += 1
        time.sleep(0.05)
    for thread in threads:
        thread.join()
    return {"flood": dict(flooded), "healthz": health, "asked": asked, "answered": answered}
