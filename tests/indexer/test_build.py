import os

import pytest
from whoosh.writing import SegmentWriter

from indexer.__main__ import main as indexer_main
from indexer.build import DEFAULT_CORPUS, build, is_stale
from indexer.generation import read_catalog
from service.library import Library
from tests.conftest import FIXTURES, seeded

GERMAN = FIXTURES / "corpus-de"


def test_build_reports_every_rulebook_and_writes_a_catalog(tmp_path, corpus_embeddings):
    report = build(seeded(tmp_path / "index", corpus_embeddings), DEFAULT_CORPUS)
    assert report["passages"] == sum(report["rulebooks"].values())
    assert set(report["rulebooks"]) == {"mamma/en", "mamma-mia/fr", "mamma-mia/zh", "mammut-mambo/en", "moemmen/en"}
    catalog = read_catalog(tmp_path / "index")
    assert [g["id"] for g in catalog["games"]] == ["mamma", "mamma-mia", "mammut-mambo", "moemmen"]


def test_passage_ids_do_not_change_between_builds(tmp_path, corpus_embeddings):
    build(seeded(tmp_path / "a", corpus_embeddings), DEFAULT_CORPUS)
    build(seeded(tmp_path / "b", corpus_embeddings), DEFAULT_CORPUS)
    assert Library(tmp_path / "a").passages.keys() == Library(tmp_path / "b").passages.keys()


def test_a_crash_mid_build_leaves_the_old_index_serving(tmp_path, monkeypatch, corpus_embeddings):
    index = seeded(tmp_path / "index", corpus_embeddings)
    build(index, DEFAULT_CORPUS)
    before = os.readlink(index)
    hits_before = [h.id for h in Library(index).search("pizza ratée").hits]

    calls = {"n": 0}
    original = SegmentWriter.add_document

    def crash_after_fifty(self, **fields):
        calls["n"] += 1
        if calls["n"] > 50:
            raise KeyboardInterrupt("power cut")
        return original(self, **fields)

    monkeypatch.setattr(SegmentWriter, "add_document", crash_after_fifty)
    with pytest.raises(KeyboardInterrupt):
        build(index, DEFAULT_CORPUS)
    monkeypatch.undo()

    assert os.readlink(index) == before
    assert [h.id for h in Library(index).search("pizza ratée").hits] == hits_before
    assert generations(tmp_path) == [before]


def generations(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.is_dir() and not p.is_symlink())


def test_a_generation_a_reader_holds_survives_any_number_of_rebuilds(tmp_path, corpus_embeddings):
    index = seeded(tmp_path / "index", corpus_embeddings)
    build(index, DEFAULT_CORPUS)
    first = os.readlink(index)
    old_library = Library(index)
    build(index, DEFAULT_CORPUS)
    build(index, DEFAULT_CORPUS)
    newest = os.readlink(index)
    assert generations(tmp_path) == sorted([first, newest])
    # A searcher opened only now, after two rebuilds, still reads the old generation's files.
    old_library.retriever._idle.clear()
    assert old_library.search("pizza ratée").hits

    old_library.close()
    build(index, DEFAULT_CORPUS)
    assert generations(tmp_path) == [os.readlink(index)]


def test_a_killed_builds_leftovers_are_removed_by_the_next_build(tmp_path, corpus_embeddings):
    index = seeded(tmp_path / "index", corpus_embeddings)
    build(index, DEFAULT_CORPUS)
    (tmp_path / "index.1").mkdir()  # what a build killed before its first file leaves
    (tmp_path / "index.2").mkdir()
    (tmp_path / "index.2" / ".readers").touch()  # ... or after it, with no reader
    build(index, DEFAULT_CORPUS)
    assert generations(tmp_path) == [os.readlink(index)]


def test_if_stale_builds_only_when_the_corpus_changed(tmp_path, capsys, corpus_embeddings):
    import shutil

    corpus = tmp_path / "corpus"
    shutil.copytree(DEFAULT_CORPUS, corpus)
    index = seeded(tmp_path / "index", corpus_embeddings)
    assert is_stale(index, corpus)
    indexer_main(["--corpus", str(corpus), "--index", str(index), "--if-stale"])
    assert "built" in capsys.readouterr().out
    indexer_main(["--corpus", str(corpus), "--index", str(index), "--if-stale"])
    assert "up to date" in capsys.readouterr().out

    moemmen = corpus / "moemmen" / "en.md"
    moemmen.write_text(moemmen.read_text(encoding="utf-8") + "\nA house rule.\n", encoding="utf-8")
    assert is_stale(index, corpus)
    indexer_main(["--corpus", str(corpus), "--index", str(index), "--if-stale"])
    assert "built" in capsys.readouterr().out
    assert any(p["text"] == "A house rule." for p in Library(index).passages.values())


def test_a_german_rulebook_is_found_by_inflected_forms(tmp_path):
    build(tmp_path / "index", GERMAN)
    library = Library(tmp_path / "index")

    def top(q):
        return library.search(q, limit=1).hits[0].id

    assert top("Zutat") == "ofenspiel.de.turn.1"  # the text says "Zutaten"
    assert top("Küchen") == "ofenspiel.de.setup.1"  # the text says "Küche"
    assert top("gemischte Karte") == "ofenspiel.de.setup.1"  # "gemischt", "Karten"
    assert top("Durchgang") == "ofenspiel.de.end.1"  # the text says "Durchgängen"
    assert top("hölzerne Öfen") == "ofenspiel.de.material.1"  # and "hoelzerne" would not be needed
    assert top("Bestellungen") in {"ofenspiel.de.turn.2", "ofenspiel.de.turn.3", "ofenspiel.de.end.1"}
    hit = library.search("Zutat", limit=1).hits[0]
    assert "<mark>Zutat</mark>" in hit.snippet
