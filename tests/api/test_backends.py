"""The tantivy retriever against the Whoosh one on the same generation: the setting that chooses,
the plan's translation (phrases and their slop, quoted phrases, the game filter, facets), the stored
fields and the indexed terms. tests/api/test_search.py and test_ask.py run whole with each backend."""

import math
import random
import shutil
import threading

import pytest

from indexer.generation import section_field, text_field
from indexer.tantivy_index import FOLDER, tokens
from service import create_app
from service.library import IndexMissing, Library
from service.retrieval.plan import Facet, Form, QueryPlan
from service.retrieval.retriever import TantivyRetriever, WhooshRetriever, backend


@pytest.fixture(scope="module")
def engines(library):
    generation = library.index_dir.resolve()
    whoosh, tantivy = WhooshRetriever(generation), TantivyRetriever(generation)
    yield whoosh, tantivy
    whoosh.close()
    tantivy.close()


def ids(found) -> set[str]:
    return {f.fields["id"] for f in found}


def both(engines, plan, game=None, limit=500):
    whoosh, tantivy = engines
    return whoosh.search(plan, game, limit), tantivy.search(plan, game, limit)


def test_the_setting_chooses_the_backend_and_whoosh_is_the_default(index_dir, monkeypatch):
    monkeypatch.delenv("REFEREE_SEARCH_BACKEND", raising=False)
    assert backend() == "whoosh"
    monkeypatch.setenv("REFEREE_SEARCH_BACKEND", "tantivy")
    library = Library(index_dir)
    try:
        assert isinstance(library.retriever, TantivyRetriever) and library.backend == "tantivy"
    finally:
        library.close()


def test_an_unknown_backend_stops_the_start(index_dir, monkeypatch):
    with pytest.raises(ValueError, match="REFEREE_SEARCH_BACKEND='lucene'.*whoosh, tantivy"):
        create_app({"REFEREE_INDEX": str(index_dir), "REFEREE_SEARCH_BACKEND": "lucene"})
    monkeypatch.setenv("REFEREE_SEARCH_BACKEND", "elastic")
    with pytest.raises(ValueError, match="REFEREE_SEARCH_BACKEND"):
        Library(index_dir)


def test_a_generation_without_its_tantivy_index_is_missing_for_tantivy_alone(index_dir, tmp_path):
    older = tmp_path / "generation"  # as an index of format 5 was: Whoosh's files alone
    shutil.copytree(index_dir.resolve(), older, ignore=shutil.ignore_patterns(FOLDER))
    with pytest.raises(IndexMissing, match="make index"):
        Library(older, backend="tantivy")
    Library(older, backend="whoosh").close()


def test_a_hit_carries_the_same_stored_fields_from_either_engine(engines):
    plan = QueryPlan(clauses=[[Form("t_fr", ("pizz",))], [Form("t_en", ("card",))], [Form("t_zh", ("订单",))]])
    by_whoosh, by_tantivy = both(engines, plan)
    assert ids(by_whoosh) == ids(by_tantivy) and len(by_whoosh) > 50
    fields = {f.fields["id"]: f.fields for f in by_whoosh}
    for found in by_tantivy:
        assert found.fields == fields[found.fields["id"]]
    assert set(by_tantivy[0].fields) == {"id", "game", "lang", "kind", "order", "section", "section_path", "text"}


def test_one_word_scores_as_whooshs_bm25f(engines):
    """tantivy's idf is replaced by Whoosh's: a word's scores differ only where the engines round a
    passage's length differently (tantivy keeps it in 256 steps), by a few percent."""
    for form in (Form("t_en", ("card",)), Form("t_fr", ("ingredient",)), Form("t_zh", ("原料",)), Form("t_en", ("turn",))):
        by_whoosh, by_tantivy = both(engines, QueryPlan(clauses=[[form]]))
        scores = {f.fields["id"]: f.score for f in by_whoosh}
        assert by_tantivy and scores.keys() == ids(by_tantivy)
        same = sum(found.score == pytest.approx(scores[found.fields["id"]], rel=1e-3) for found in by_tantivy)
        assert same >= len(by_tantivy) / 3, form
        for found in by_tantivy:
            assert found.score == pytest.approx(scores[found.fields["id"]], rel=0.08), (form, found.fields["id"])


def _phrases(library, lang: str, gap: int, count: int):
    """(passage id, two stems ``gap`` positions apart in it) from real passages."""
    rng = random.Random(gap)
    passages = sorted((p for p in library.passages.values() if p["lang"] == lang), key=lambda p: p["id"])
    found = []
    for passage in rng.sample(passages, len(passages)):
        indexed = [(t, pos) for t, pos, _, _ in tokens(lang, passage["text"])]
        pairs = [(a, b) for (a, i), (b, j) in zip(indexed, indexed[1:] + indexed[2:]) if j - i == gap and a != b]
        if pairs:
            found.append((passage["id"], rng.choice(pairs)))
        if len(found) == count:
            return found
    return found


@pytest.mark.parametrize("lang", ["en", "fr", "zh"])
def test_a_phrase_matches_where_whooshs_does_slop_and_order_included(engines, library, lang):
    for gap in (1, 2):
        for passage, (a, b) in _phrases(library, lang, gap, 6):
            for slop in (1, 2, 3):
                for stems in ((a, b), (b, a)):
                    plan = QueryPlan(clauses=[[Form(text_field(lang), stems, slop=slop)]])
                    by_whoosh, by_tantivy = both(engines, plan)
                    assert ids(by_whoosh) == ids(by_tantivy), (passage, stems, slop)
                    if stems == (a, b):
                        assert (passage in ids(by_tantivy)) == (slop >= gap), (passage, stems, slop)


def test_a_three_word_phrase_with_slop_matches_where_whooshs_does(engines, library):
    for passage in sorted(library.passages.values(), key=lambda p: p["id"])[:40]:
        indexed = [t for t, _, _, _ in tokens(passage["lang"], passage["text"])]
        if len(indexed) < 5:
            continue
        stems = (indexed[0], indexed[2], indexed[4])
        if len(set(stems)) < 3:
            continue
        for slop in (1, 2, 3):
            plan = QueryPlan(clauses=[[Form(text_field(passage["lang"]), stems, slop=slop)]])
            by_whoosh, by_tantivy = both(engines, plan)
            assert ids(by_whoosh) == ids(by_tantivy), (passage["id"], stems, slop)


def test_a_quoted_phrase_is_required_and_the_other_clauses_only_add(engines):
    required = Form("t_fr", ("pizz", "rate"))
    optional = [[Form("t_en", ("card",))], [Form("t_fr", ("ingredient",))]]
    by_whoosh, by_tantivy = both(engines, QueryPlan(clauses=optional, required=[required]))
    only_phrase = ids(both(engines, QueryPlan(clauses=[[required]]))[1])
    assert by_tantivy and ids(by_tantivy) == ids(by_whoosh) == only_phrase
    assert all("raté" in f.fields["text"].lower() for f in by_tantivy)
    # At least one of several quoted forms must match.
    either = QueryPlan(clauses=optional, required=[required, Form("t_zh", ("订单", "牌堆"))])
    by_whoosh, by_tantivy = both(engines, either)
    assert ids(by_tantivy) == ids(by_whoosh) and {f.fields["lang"] for f in by_tantivy} == {"fr", "zh"}


def test_the_game_filter_keeps_other_games_out_and_leaves_scores_alone(engines):
    plan = QueryPlan(clauses=[[Form("t_en", ("card",)), Form(section_field("en"), ("card",))], Facet("number", 1.5)])
    _, everywhere = both(engines, plan)
    scores = {f.fields["id"]: f.score for f in everywhere}
    for game in ("mamma", "moemmen"):
        by_whoosh, by_tantivy = both(engines, plan, game)
        assert by_tantivy and {f.fields["game"] for f in by_tantivy} == {game}
        assert ids(by_tantivy) == ids(by_whoosh) == {i for i in scores if i.startswith(f"{game}.")}
        for found in by_tantivy:
            assert found.score == pytest.approx(scores[found.fields["id"]])


def test_a_facet_adds_its_boost_as_whoosh_scores_a_keyword(engines):
    by_whoosh, by_tantivy = both(engines, QueryPlan(clauses=[Facet("number", 1.5)]))
    assert ids(by_tantivy) == ids(by_whoosh)
    assert {f.score for f in by_tantivy} == {f.score for f in by_whoosh} == {1.5}


def test_doc_frequency_agrees_with_whoosh_on_real_stems(engines, library):
    whoosh, tantivy = engines
    checked = 0
    for passage in list(library.passages.values())[::3]:
        lang = passage["lang"]
        for stem in {t for t, _, _, _ in tokens(lang, passage["text"])}:
            assert tantivy.doc_frequency(text_field(lang), stem) == whoosh.doc_frequency(text_field(lang), stem), stem
            checked += 1
        for stem in {t for t, _, _, _ in tokens(lang, " ".join(passage["section_path"]))}:
            assert tantivy.doc_frequency(section_field(lang), stem) == whoosh.doc_frequency(section_field(lang), stem)
    assert checked > 1000
    assert tantivy.doc_frequency("t_en", "no-such-stem") == 0 == whoosh.doc_frequency("t_en", "no-such-stem")
    assert tantivy.doc_frequency("facets", "number") == whoosh.doc_frequency("facets", "number") > 0


def test_concurrent_searches_share_the_tantivy_searcher(engines):
    _, tantivy = engines
    plans = [QueryPlan(clauses=[[Form("t_en", (word,))]]) for word in ("card", "turn", "player", "pizza", "order")]
    expected = [[f.fields["id"] for f in tantivy.search(plan, None, 40)] for plan in plans]
    failures = []

    def run():
        for _ in range(20):
            for plan, want in zip(plans, expected):
                if [f.fields["id"] for f in tantivy.search(plan, None, 40)] != want:
                    failures.append(plan)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures


def test_made_up_words_are_weighed_but_not_remembered(engines, library):
    """A server meets words no rulebook holds without end: weighing them must not grow its memory."""
    _, tantivy = engines
    made_up = ["".join(random.Random(n).choices("bcdfghjklmnpqrstvwxz", k=12)) for n in range(200)]
    rarities, idfs = dict(library._rarity), dict(tantivy._idfs)
    for word in made_up:
        assert library.rarity("en", word) == pytest.approx(math.log(1 + library._passages_in["en"]))
        assert tantivy.search(QueryPlan(clauses=[[Form("t_en", (word,))]]), None, 10) == []
    assert library._rarity == rarities and tantivy._idfs == idfs
    assert library.rarity("en", "card") < library.rarity("en", made_up[0])
    assert ("en", "card") in library._rarity
    tantivy.search(QueryPlan(clauses=[[Form("t_en", ("card",))]]), None, 10)
    assert ("t_en", "card") in tantivy._idfs
