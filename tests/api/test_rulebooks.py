"""A table adds its game's rulebook over HTTP: read at once, served within seconds without a restart,
found by search, ask and the game list with its pages; removed again; refused with the reason."""

import io
import time

import pytest

from indexer.build import DEFAULT_CORPUS, build
from service import create_app
from tests.conftest import FIXTURES, finish_rebuilds, seeded

BOOKS = FIXTURES / "rulebooks"
PRINTED = (BOOKS / "pilzsammler.de.pdf").read_bytes()


@pytest.fixture(scope="module")
def table(tmp_path_factory, corpus_embeddings):
    """An app over its own index and library, switching to a new generation as soon as one is built."""
    root = tmp_path_factory.mktemp("table")
    build(seeded(root / "index" / "index", corpus_embeddings), DEFAULT_CORPUS)
    app = create_app({"REFEREE_INDEX": str(root / "index" / "index"), "REFEREE_LIBRARY": str(root / "library"),
                      "REFEREE_INDEX_CHECK_SECONDS": 0.0, "TESTING": True})
    yield app
    finish_rebuilds()
    app.extensions["referee.librarian"].current().close()


def upload(client, data=PRINTED, filename="pilzsammler.de.pdf", game="pilzsammler", **form):
    return client.post(f"/v1/games/{game}/rulebooks", data={"file": (io.BytesIO(data), filename), **form},
                       content_type="multipart/form-data")


def wait_ready(client, location: str) -> dict:
    for _ in range(600):
        job = client.get(location).get_json()
        if job["status"] != "building":
            return job
        time.sleep(0.1)
    raise AssertionError("the upload did not finish")


def test_an_added_rulebook_is_answered_with_its_pages_and_then_removed(table):
    client = table.test_client()
    response = upload(client, name="Pilzsammler")
    assert response.status_code == 202, response.get_json()
    job = response.get_json()
    assert (job["game"], job["lang"], job["format"], job["pages"], job["new_game"]) == ("pilzsammler", "de", "pdf", 2, True)
    assert job["sections"] == 8 and job["passages"] == 10 and job["status"] == "building"
    assert response.headers["Location"] == job["links"]["upload"]
    assert wait_ready(client, response.headers["Location"])["status"] == "ready"

    games = {g["id"]: g for g in client.get("/v1/games").get_json()["games"]}
    assert games["pilzsammler"]["names"]["de"] == "Pilzsammler" and games["pilzsammler"]["rulebooks"] == ["de"]
    assert "referee-pilzsammler" in {m["id"] for m in client.get("/v1/models").get_json()["data"]}
    hits = client.get("/v1/search", query_string={"q": "Gleichstand", "game": "pilzsammler"}).get_json()["hits"]
    assert hits[0]["game"] == "pilzsammler" and hits[0]["page"] == 1
    book = client.get("/v1/rulebooks/pilzsammler/de").get_json()
    assert {p["page"] for s in book["sections"] for p in s["passages"]} == {1, 2}
    answer = client.post("/v1/ask", json={"question": "Darf ich auf einem Feld mit einer anderen Figur stehen?",
                                          "game": "pilzsammler"}).get_json()
    assert all("page" in c for c in answer["citations"])

    removal = client.delete("/v1/games/pilzsammler/rulebooks/de")
    assert removal.status_code == 202
    assert wait_ready(client, removal.headers["Location"])["status"] == "ready"
    assert client.get("/v1/games/pilzsammler").status_code == 404
    assert client.get("/v1/search", query_string={"q": "Pilz", "game": "pilzsammler"}).status_code == 404


@pytest.mark.parametrize("name, data, status, said", [
    ("scan.pdf", (BOOKS / "scan.pdf").read_bytes(), 422, "no text layer"),
    ("encrypted.pdf", (BOOKS / "encrypted.pdf").read_bytes(), 422, "encrypted"),
    ("rules.pdf", b"%PDF-1.4\n%%EOF garbage", 422, "PDF"),
    ("rules.docx", b"PK\x03\x04 not read", 415, "PDF, Markdown"),
    ("empty.txt", b"", 422, "no text"),
])
def test_a_file_that_cannot_be_read_is_refused_with_the_reason_and_nothing_is_added(table, name, data, status, said):
    client = table.test_client()
    response = upload(client, data, name, game="unlesbar")
    assert response.status_code == status
    assert response.mimetype == "application/problem+json" and said in response.get_json()["detail"]
    assert client.get("/v1/games/unlesbar").status_code == 404


def test_a_shipped_rulebook_is_never_replaced_nor_removed(table):
    client = table.test_client()
    markdown = b"# Mamma\n\nEach player takes five cards.\n"
    response = upload(client, markdown, "mamma.md", game="mamma", lang="en")
    assert response.status_code == 409 and "shipped" in response.get_json()["detail"]
    assert client.delete("/v1/games/mamma/rulebooks/en").status_code == 409
    assert client.delete("/v1/games/pilzsammler/rulebooks/fr").status_code == 404


def test_malformed_uploads_are_400(table):
    client = table.test_client()
    assert upload(client, game="Pilz Sammler").status_code == 400
    missing = client.post("/v1/games/pilz/rulebooks", data={"name": "Pilz"}, content_type="multipart/form-data")
    assert missing.status_code == 400 and "file" in missing.get_json()["errors"]
    assert upload(client, lang="it").status_code == 400


def test_only_this_machine_adds_without_a_key_and_with_a_key_only_its_holders(table, monkeypatch):
    client = table.test_client()
    far = client.post("/v1/games/pilz/rulebooks", data={"file": (io.BytesIO(PRINTED), "p.pdf")},
                      content_type="multipart/form-data", environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert far.status_code == 403
    monkeypatch.setenv("REFEREE_API_KEY", "secret")
    assert upload(client, game="pilz").status_code == 401
    assert client.delete("/v1/games/pilz/rulebooks/de").status_code == 401


def test_an_upload_may_be_larger_than_other_bodies_but_not_without_limit(table):
    client = table.test_client()
    big = b"%PDF-1.4\n" + b"0" * (table.config["MAX_CONTENT_LENGTH"] + 10)
    assert upload(client, big, "big.pdf", game="gross").status_code == 422  # read, not refused for its size
    table.config["REFEREE_MAX_UPLOAD_BYTES"], limit = 1024, table.config["REFEREE_MAX_UPLOAD_BYTES"]
    try:
        assert upload(client, big, "big.pdf", game="gross").status_code == 413
    finally:
        table.config["REFEREE_MAX_UPLOAD_BYTES"] = limit


def test_an_unknown_upload_is_404(table):
    client = table.test_client()
    assert client.get("/v1/uploads/0123456789ab").status_code == 404
    assert client.get("/v1/uploads/..%2f..%2fgames").status_code == 404


def test_a_confirmed_answer_joins_the_games_questions_and_can_be_removed(table):
    client = table.test_client()
    assert wait_ready(client, upload(client, name="Pilzsammler").headers["Location"])["status"] == "ready"
    passage = "pilzsammler.de.spielvorbereitung.2"
    given = client.post("/v1/feedback", json={"question": "who starts the mushroom game?", "passage_id": passage})
    assert given.status_code == 201
    item = given.get_json()
    assert (item["game"], item["lang"], item["helpful"], item["confirmed"]) == ("pilzsammler", "en", True, True)
    assert wait_ready(client, item["rebuild"])["status"] == "ready"
    listed = client.get("/v1/feedback", query_string={"game": "pilzsammler"}).get_json()["feedback"]
    assert [f["id"] for f in listed] == [item["id"]] and listed[0]["date"] == item["date"]
    library = table.extensions["referee.librarian"].current()
    assert library.ranker.vectors.first_question[-1] > 0  # the question is embedded beside its passage
    hits = client.get("/v1/search", query_string={"q": "who starts the mushroom game?", "game": "pilzsammler"}).get_json()
    assert hits["hits"][0]["passage_id"] == passage

    removed = client.delete(f"/v1/feedback/{item['id']}")
    assert removed.status_code == 200
    assert wait_ready(client, removed.get_json()["rebuild"])["status"] == "ready"
    assert client.get("/v1/feedback").get_json()["feedback"] == []
    assert client.delete(f"/v1/feedback/{item['id']}").status_code == 404


def test_feedback_from_another_machine_is_kept_unconfirmed_and_an_unknown_passage_is_404(table):
    client = table.test_client()
    far = client.post("/v1/feedback", json={"question": "wer fängt an?", "passage_id": "moemmen.en.goal.1"},
                      environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert far.status_code == 201 and far.get_json()["confirmed"] is False and "rebuild" not in far.get_json()
    assert client.delete(f"/v1/feedback/{far.get_json()['id']}", environ_base={"REMOTE_ADDR": "192.0.2.7"}).status_code == 403
    assert client.post("/v1/feedback", json={"question": "x", "passage_id": "nope.en.x.1"}).status_code == 404
    assert client.post("/v1/feedback", json={"question": "x", "passage_id": "moemmen.en.goal.1",
                                             "game": "mamma"}).status_code == 404
    assert client.post("/v1/feedback", json={"passage_id": "moemmen.en.goal.1"}).status_code == 400
