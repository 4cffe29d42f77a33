"""Adding a table's rulebook: the library folder, every build including it, and the command line."""

import re

import numpy as np
import pytest

from indexer import added
from indexer.__main__ import main as indexer_main
from indexer.build import DEFAULT_CORPUS, build, is_stale, uncurated_games
from indexer.analysis import terms
from indexer.generation import read_catalog, text_field
from indexer.lexicon import Lexicon
from indexer.corpus import load_corpus
from indexer.vectors import E5_WIDTH, Vectors
from service.gist import gist, glosses
from service.library import Library
from service.retrieval.plan import Facet
from tests.conftest import FIXTURES, seeded

PRINTED = FIXTURES / "rulebooks" / "pilzsammler.de.pdf"
SHIPPED = {g["id"]: g for g in load_corpus(DEFAULT_CORPUS).games}


def test_an_added_rulebook_is_kept_in_the_library_with_its_source(tmp_path):
    found = added.add(PRINTED.read_bytes(), "pilzsammler.de.pdf", "pilzsammler", "Pilzsammler", None, tmp_path, SHIPPED)
    assert (found.game, found.lang, found.format, found.pages, found.new_game) == ("pilzsammler", "de", "pdf", 2, True)
    assert found.sections == 8 and found.passages == 10
    assert (tmp_path / "pilzsammler" / "de.md").exists()
    assert (tmp_path / "pilzsammler" / "sources" / "de.pdf").read_bytes() == PRINTED.read_bytes()
    [game] = added.games(tmp_path)
    assert game["names"]["zh"] == "Pilzsammler" and game["players"]["stated"] is False
    assert game["rulebooks"][0]["pages"] == 2 and "pilzsammler.de.pdf" in game["rulebooks"][0]["provenance"]


def test_every_build_includes_the_library_and_a_change_to_it_makes_the_index_stale(tmp_path, corpus_embeddings):
    library, index = tmp_path / "library", seeded(tmp_path / "index", corpus_embeddings)
    build(index, DEFAULT_CORPUS, library=library)
    assert not is_stale(index, DEFAULT_CORPUS, library)
    assert Vectors.load(index.resolve()).e5.shape[1] == 0  # every game curated: no second encoder
    added.add(PRINTED.read_bytes(), "pilzsammler.de.pdf", "pilzsammler", None, None, library, SHIPPED)
    assert is_stale(index, DEFAULT_CORPUS, library)
    report = build(index, DEFAULT_CORPUS, library=library)
    assert report["rulebooks"]["pilzsammler/de"] == 10
    vectors = Vectors.load(index.resolve())  # every passage read by the second encoder too, L2-normalised
    assert vectors.e5.shape == (len(vectors.ids), E5_WIDTH)
    np.testing.assert_allclose(np.linalg.norm(vectors.e5, axis=1), 1.0, atol=1e-3)
    catalog = read_catalog(index)
    assert [g["id"] for g in catalog["games"]][-1] == "pilzsammler"
    pages = {p["text"][:8]: p["page"] for b in catalog["rulebooks"] if b["game"] == "pilzsammler"
             for s in b["sections"] for p in s["passages"]}
    assert pages["Darf ich"] == 2 and pages["Mischt a"] == 1


def test_a_shipped_game_gets_a_rulebook_in_a_new_language_but_never_a_replacement(tmp_path):
    german = ("# Mamma Mia!\n\nJeder Spieler erhält sechs Zutatenkarten und legt eine Pizza in den Ofen.\n").encode()
    found = added.add(german, "mamma-mia.de.md", "mamma-mia", None, "de", tmp_path, SHIPPED)
    assert not found.new_game
    corpus = load_corpus(DEFAULT_CORPUS, tmp_path)
    game = next(g for g in corpus.games if g["id"] == "mamma-mia")
    assert [b["lang"] for b in game["rulebooks"]] == ["fr", "zh", "de"]
    assert game["names"]["zh"] == "媽媽咪呀！"  # the shipped names stay
    with pytest.raises(added.Refused, match="shipped"):
        added.add(german, "mamma-mia.fr.md", "mamma-mia", None, "fr", tmp_path, SHIPPED)


def test_the_games_without_players_questions_are_the_ones_tables_added(tmp_path):
    assert uncurated_games(load_corpus(DEFAULT_CORPUS)) == set()
    added.add(PRINTED.read_bytes(), "pilzsammler.de.pdf", "pilzsammler", None, None, tmp_path, SHIPPED)
    german = "# Mamma Mia!\n\nJeder Spieler erhält sechs Zutatenkarten.\n".encode()
    added.add(german, "mamma-mia.de.md", "mamma-mia", None, "de", tmp_path, SHIPPED)
    # a shipped game keeps its players' questions whatever rulebook a table adds to it
    assert uncurated_games(load_corpus(DEFAULT_CORPUS, tmp_path)) == {"pilzsammler"}


def test_removing_the_last_rulebook_removes_the_game(tmp_path):
    added.add(PRINTED.read_bytes(), "p.pdf", "pilzsammler", None, None, tmp_path, SHIPPED)
    assert added.remove("pilzsammler", "de", tmp_path)
    assert added.games(tmp_path) == [] and not (tmp_path / "pilzsammler").exists()
    assert not added.remove("pilzsammler", "de", tmp_path)
    assert not added.remove("mamma", "en", tmp_path)  # a shipped rulebook is not the library's


@pytest.mark.parametrize("game", ["Pilz Sammler", "", "-x", "a" * 41, "../etc"])
def test_a_game_id_is_lower_case_words_joined_by_hyphens(tmp_path, game):
    with pytest.raises(added.Refused) as refused:
        added.add(PRINTED.read_bytes(), "p.pdf", game, None, None, tmp_path, SHIPPED)
    assert refused.value.status == 400


def test_the_command_adds_reports_what_it_found_and_rebuilds(tmp_path, capsys, corpus_embeddings):
    index, library = seeded(tmp_path / "index", corpus_embeddings), tmp_path / "library"
    code = indexer_main(["add", str(PRINTED), "--game", "pilzsammler", "--name", "Pilzsammler",
                         "--index", str(index), "--library", str(library)])
    out = capsys.readouterr()
    assert code == 0
    assert "as the de rulebook of 'pilzsammler' (Pilzsammler): pdf, 2 pages, 8 sections, 10 passages" in out.out
    assert "pilzsammler/de: 10 passages" in out.out
    assert "read page 2/2" in out.err and "embedding" in out.err  # progress on the long work
    assert "pilzsammler" in {g["id"] for g in read_catalog(index)["games"]}
    assert indexer_main(["remove", "pilzsammler", "de", "--index", str(index), "--library", str(library)]) == 0
    assert "pilzsammler" not in {g["id"] for g in read_catalog(index)["games"]}


def test_the_command_says_why_a_file_is_not_added(tmp_path, capsys):
    code = indexer_main(["add", str(FIXTURES / "rulebooks" / "scan.pdf"), "--game", "scanned",
                         "--index", str(tmp_path / "index"), "--library", str(tmp_path / "library")])
    assert code == 1
    assert "not added: The PDF has no text layer" in capsys.readouterr().err
    assert not (tmp_path / "library" / "scanned").exists()


def test_a_question_in_another_language_meets_an_added_games_own_words(tmp_path, corpus_embeddings):
    library_dir, index = tmp_path / "library", seeded(tmp_path / "index", corpus_embeddings)
    added.add(PRINTED.read_bytes(), "pilzsammler.de.pdf", "pilzsammler", None, None, library_dir, SHIPPED)
    build(index, DEFAULT_CORPUS, library=library_dir)
    lexicon = Lexicon.load(index.resolve())  # the added game's words alone: the shipped games' are concepts
    assert lexicon.langs("pilzsammler") == ["de"] and lexicon.langs("mamma") == []
    library = Library(index)
    try:
        for question, lang, word in (("how many mushrooms fit in one basket?", "en", "mushrooms"),
                                     ("一个篮子能放几个蘑菇？", "zh", "蘑菇")):
            read = library.read(question, game="pilzsammler", lang=lang)
            plan = library.planner.plan(read)
            unit = next(u for c, u in zip(plan.clauses, plan.units)
                        if not isinstance(c, Facet) and any(f.stems == tuple(terms(lang, word)) for f in c))
            bridged = {f.stems for c, u in zip(plan.clauses, plan.units) if u == unit and not isinstance(c, Facet)
                       for f in c if f.field == text_field("de")}
            assert ("pilz",) in bridged  # Pilze: one word asked, searched as written and as the rulebook says it
            hits = library.search(question, game="pilzsammler", lang=lang).hits
            assert any("<mark>Pilze</mark>" in hit.snippet for hit in hits)  # and shown where it stands
        # "panier" lies far from "Korb" for the encoder (0.47): the bilingual dictionary carries it
        read = library.read("combien de champignons dans un panier ?", game="pilzsammler", lang="fr")
        plan = library.planner.plan(read)
        unit = next(u for c, u in zip(plan.clauses, plan.units)
                    if not isinstance(c, Facet) and any(f.stems == ("pani",) for f in c))
        assert ("korb",) in {f.stems for c, u in zip(plan.clauses, plan.units) if u == unit and not isinstance(c, Facet)
                             for f in c if f.field == text_field("de")}
        plan = library.planner.plan(library.read("how many mushrooms fit in one basket?", game="mamma", lang="en"))
        assert "pilz" not in plan.wanted["de"]  # a shipped game's question is searched as before
    finally:
        library.close()


def test_an_added_games_answer_glosses_its_key_words_for_an_asker_of_another_language(tmp_path, corpus_embeddings):
    library_dir, index = tmp_path / "library", seeded(tmp_path / "index", corpus_embeddings)
    added.add(PRINTED.read_bytes(), "pilzsammler.de.pdf", "pilzsammler", None, None, library_dir, SHIPPED)
    build(index, DEFAULT_CORPUS, library=library_dir)
    library = Library(index)
    try:
        basket = next(p for p in library.passages.values() if p["game"] == "pilzsammler" and re.search(r"\bKorb\b", p["text"]))
        said = gist(library, basket, "fr", simplified=False)
        assert said["source"] == "glossary" and said["lang"] == "fr"
        assert "Korb → panier" in said["text"]  # FreeDict's WikDict, German to French
        assert gist(library, basket, "de", simplified=False) is None  # the asker reads the rulebook
        for asker in ("en", "zh"):  # the term base's general words in every language: Karte, card, 卡
            glossed = dict(glosses(library, basket, asker))
            assert glossed and all(word in basket["text"] for word in glossed)
        print({asker: gist(library, basket, asker, simplified=True)["text"] for asker in ("en", "fr", "zh")})
    finally:
        library.close()
