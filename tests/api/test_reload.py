"""A running service follows index rebuilds: no error while they happen, the new generation served after."""

import os
import signal
import subprocess
import sys
import threading
import time

from indexer.build import DEFAULT_CORPUS, build
from service import create_app
from tests.conftest import ROOT, seeded


def test_rebuilds_and_a_killed_build_while_searching_give_no_error_and_the_new_index_is_served(tmp_path, corpus_embeddings):
    index = seeded(tmp_path / "index", corpus_embeddings)
    build(index, DEFAULT_CORPUS)
    app = create_app({"REFEREE_INDEX": str(index), "TESTING": True, "REFEREE_INDEX_CHECK_SECONDS": 0})
    first = os.readlink(index)
    failures, served, stop = [], set(), threading.Event()

    def ask_again_and_again(q):
        client = app.test_client()
        while not stop.is_set():
            for response in (client.get("/v1/search", query_string={"q": q}),
                             client.post("/v1/ask", json={"question": q})):
                if response.status_code != 200:
                    failures.append((response.status_code, response.get_data(as_text=True)[:200]))
                served.add(response.headers["X-Referee-Index"])

    threads = [threading.Thread(target=ask_again_and_again, args=(q,)) for q in ("pizza ratée", "Wer gewinnt?", "烤箱")]
    for thread in threads:
        thread.start()
    try:
        build(index, DEFAULT_CORPUS)
        before = set(tmp_path.iterdir())
        killed = subprocess.Popen([sys.executable, "-m", "indexer", "--index", str(index)], cwd=ROOT)
        while not any(p.name.startswith("index.") for p in set(tmp_path.iterdir()) - before):
            time.sleep(0.01)  # killed once it has started writing its generation
        killed.send_signal(signal.SIGKILL)
        killed.wait()
        build(index, DEFAULT_CORPUS)
        newest = os.readlink(index)
        time.sleep(0.5)
    finally:
        stop.set()
        for thread in threads:
            thread.join()

    assert failures == []
    assert first in served and newest in served
    health = app.test_client().get("/healthz")
    assert health.json["index"] == newest
    assert health.headers["X-Referee-Index"] == newest
    assert app.test_client().get("/v1/search", query_string={"q": "four"}).headers["X-Referee-Index"] == newest


def test_a_server_keeps_its_generation_until_it_checks_again(tmp_path, corpus_embeddings):
    index = seeded(tmp_path / "index", corpus_embeddings)
    build(index, DEFAULT_CORPUS)
    app = create_app({"REFEREE_INDEX": str(index), "TESTING": True, "REFEREE_INDEX_CHECK_SECONDS": 3600})
    first = os.readlink(index)
    build(index, DEFAULT_CORPUS)
    build(index, DEFAULT_CORPUS)
    response = app.test_client().get("/v1/search", query_string={"q": "oven"})
    assert response.status_code == 200 and response.json["hits"]
    assert response.headers["X-Referee-Index"] == first
    assert (tmp_path / first).is_dir()  # leased: no build deleted it
