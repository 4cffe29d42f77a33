"""The retrieval stages one by one: what the question reader, the planner and the ranker decide."""

from service.retrieval.plan import Facet


def test_the_reader_routes_a_named_game_and_keeps_the_name_out_of_the_words(library):
    question = library.read("Mömmen: who wins?")
    assert question.game == "moemmen" and question.lang == "en"
    assert "Mömmen" not in question.searched


def test_a_chinese_word_outside_the_term_base_is_searched_through_cc_cedict(library):
    assert library.planner.translates("平手", "zh")
    plan = library.planner.plan(library.read("平手怎麼算", lang="zh"))
    alternatives = [{f.stems for f in clause} for clause in plan.clauses if not isinstance(clause, Facet)]
    assert any(("tie",) in clause for clause in alternatives)


def test_words_of_other_domains_are_read_but_never_searched(library):
    question = library.read("how many points is a queen worth in chess")
    assert question.elsewhere == ["other-games"]
    plan = library.planner.plan(question)
    assert all("chess" not in f.stems for clause in plan.clauses if not isinstance(clause, Facet) for f in clause)
