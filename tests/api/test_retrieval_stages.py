"""The retrieval stages one by one: what the question reader, the planner and the ranker decide."""

import pytest

from service.retrieval.plan import Facet


def test_the_reader_routes_a_named_game_and_keeps_the_name_out_of_the_words(library):
    question = library.read("Mömmen: who wins?")
    assert question.game == "moemmen" and question.lang == "en"
    assert "Mömmen" not in question.searched


def test_a_chinese_game_name_is_taken_out_of_the_words_though_chinese_has_no_spaces(library):
    question = library.read("猛犸曼波谁先当族长")
    assert question.game == "mammut-mambo"
    assert "猛犸" not in question.searched and "族长" in question.searched


def test_a_latin_game_name_written_straight_before_chinese_is_still_the_whole_name(library):
    """Python's \\w matches Han characters: "mamma mia要玩几轮" used to end the name at "mamma"
    and route the question to Mamma."""
    question = library.read("mamma mia要玩几轮 最后怎么算赢")
    assert question.game == "mamma-mia"
    assert question.meant.strip().startswith("要玩几轮")
    assert library.read("Mömmen算分的时候 别的颜色怎么算").game == "moemmen"


def test_the_meaning_is_read_without_the_names_that_only_route_the_question(library):
    """The sentence encoder takes 猛犸曼波 for the animal and Mamma Mia for a pizza: the question's
    embedding reads it without the name that only says which game it is about, as the index
    embeds the players' questions; a name that is a thing in its game stays."""
    assert library.read("猛犸曼波的目标是什么").meant == "的目标是什么"
    assert library.read("Mömmen: who wins?").meant == ": who wins?"
    assert library.read("When may I call Mömmen?").meant == "When may I call Mömmen?"
    assert library.read("Mömmen").meant == "Mömmen"


def test_a_question_naming_its_game_in_chinese_is_answered_as_one_that_does_not(client):
    for question in ("猛獁曼波的目標是什麼？", "What's the aim in Mammut Mambo?"):
        body = client.post("/v1/ask", json={"question": question}).get_json()
        assert body["answer"] is not None, question
        assert body["answer"]["passage_id"] == "mammut-mambo.en.object.1"


def test_a_chinese_word_outside_the_term_base_is_searched_through_cc_cedict(library):
    assert library.planner.translates("平手", "zh")
    plan = library.planner.plan(library.read("平手怎麼算", lang="zh"))
    alternatives = [{f.stems for f in clause} for clause in plan.clauses if not isinstance(clause, Facet)]
    assert any(("tie",) in clause for clause in alternatives)


def test_a_chinese_word_the_term_base_does_not_know_is_searched_in_chinese_text_only(library):
    plan = library.planner.plan(library.read("長毛象要放幾隻？", lang="zh"))
    clauses = [clause for clause in plan.clauses if not isinstance(clause, Facet)]
    fields = {f.field for clause in clauses for f in clause if f.stems == ("要放",)}
    assert fields == {"t_zh", "s_zh"}


def test_words_of_other_domains_are_read_but_never_searched(library):
    question = library.read("how many points is a queen worth in chess")
    assert question.elsewhere == ["other-games"]
    plan = library.planner.plan(question)
    assert all("chess" not in f.stems for clause in plan.clauses if not isinstance(clause, Facet) for f in clause)


def test_a_word_of_the_players_questions_counts_as_known_though_no_rulebook_of_its_language_has_it(library):
    """No rulebook is German: "dauert" (how long a game lasts) stands in the German players'
    questions beside Mamma Mia!'s overview, so the rulebooks know it in a German question."""
    assert not library._in_corpus("dauert")
    assert library.ranker.asked_words.knows("dauert", "de")
    assert not library.ranker.asked_words.knows("Pizzateig", "de")
    assert library.read("wie lange dauert eine Partie?", lang="de").coverage == 1.0


def _hit(text: str, words: list[str]):
    from service.retrieval.rank import Hit

    highlights, at = [], 0
    for word in words:  # each listed word, found in order
        at = text.index(word, at)
        highlights.append((at, at + len(word)))
        at += len(word)
    return Hit(id="g.en.a.1", game="g", lang="en", section="s", section_path=["s"], kind="rule", text=text, confidence=1.0,
               snippet=text, highlights=highlights, score=1.0)


def test_the_answer_sentence_is_the_one_with_the_most_telling_words_each_counted_once():
    from service.ask import extract

    text = ("Cards go into the oven one by one as the round goes on. The cards and more cards stay on the "
            "table until the end. In case of a tie, the cards in hand decide who wins the game.")
    hit = _hit(text, ["Cards", "cards", "cards", "tie", "cards"])
    table = {"card": 0.5, "tie": 3.0}
    rarity = lambda lang, stem: table.get(stem, 0.0)  # noqa: E731 - as Library.rarity: (lang, stem) -> weight
    assert extract(hit).text.startswith("The cards and more cards")  # most matched characters
    assert extract(hit, rarity=rarity).text.startswith("In case of a tie")


def test_a_neighbour_nearly_as_telling_joins_the_answer():
    """Where the rule and its condition sit in two sentences, the answer is both; a sentence that
    only shares a common word stays out."""
    from service.ask import extract

    text = ("Each player draws a card at the start. If nobody errs for a full round, every player has a "
            "face-up card. The newly turned card covers the face-up card. Play then goes on.")
    hit = _hit(text, ["card", "round", "face-up card", "turned", "face-up card"])
    table = {"card": 0.5, "round": 1.5, "face": 1.0, "up": 0.0, "turn": 1.2}
    answer = extract(hit, rarity=lambda lang, stem: table.get(stem, 0.0))
    assert answer.text.startswith("If nobody errs for a full round, every player has a face-up card. The newly turned card covers the face-up card.")


def test_the_next_sentence_joins_when_it_is_closer_in_meaning_than_the_one_whose_words_match():
    """A lead-in names the thing asked about; the sentence after it states the rule, and the
    answer then goes on a sentence further, as any answer does while it is short."""
    from service.ask import extract

    text = ("The taxi stands at the corner. If the Wife is next to the taxi card, she can take the taxi. "
            "She moves three spaces for each coin she pays. The taxi then stays where it is.")
    hit = _hit(text, ["taxi", "Wife", "taxi", "taxi"])
    rarity = lambda lang, stem: 1.0 if stem in ("taxi", "wife") else 0.0  # noqa: E731
    lead_in = "If the Wife is next to the taxi card, she can take the taxi."
    rule = " She moves three spaces for each coin she pays."
    assert extract(hit, rarity=rarity).text == lead_in + rule
    assert extract(hit, rarity=rarity, closeness=[0.2, 0.4, 0.3, 0.1]).text == lead_in + rule  # the rule is no closer
    assert extract(hit, rarity=rarity, closeness=[0.2, 0.4, 0.6, 0.1]).text == (
        lead_in + rule + " The taxi then stays where it is.")


def test_the_sentence_after_the_answer_joins_it_while_both_are_short_but_not_the_next_line():
    """A rule's consequence is often the sentence after the one that names the situation; a list's
    next line is another case, not the answer's."""
    from service.ask import WITH_NEXT_CHARS, extract

    premise = "If the Son is run over by the schoolbus, he goes to the Hospital."
    consequence = " In addition, the current player removes half of the Son's ingredients from the game."
    text = "The schoolbus moves like any card. " + premise + consequence
    hit = _hit(text, ["Son", "run over", "schoolbus"])
    rarity = lambda lang, stem: 1.0 if stem in ("son", "run", "schoolbus") else 0.0  # noqa: E731
    assert extract(hit, rarity=rarity).text == premise + consequence

    long_consequence = " In addition" + ", and then" * WITH_NEXT_CHARS + "."
    hit = _hit("The schoolbus moves like any card. " + premise + long_consequence, ["Son", "run over", "schoolbus"])
    assert extract(hit, rarity=rarity).text == premise  # the two would be too long

    hit = _hit("The schoolbus moves like any card. " + premise + "\nIf the Wife is run over, she goes too.",
               ["Son", "run over", "schoolbus"])
    assert extract(hit, rarity=rarity).text == premise  # the next line is another case


def test_a_number_the_question_names_picks_its_sentence():
    from service.ask import extract

    text = ("Matching ingredients on 5 cards gives 15 vp.\nMatching ingredients on 4 cards gives 10 vp.\n"
            "Matching ingredients on 3 cards gives 6 vp.\nMatching ingredients on 2 cards gives 1 vp.")
    hit = _hit(text, ["cards", "cards", "cards", "cards"])
    answer = extract(hit, rarity=lambda lang, stem: 0.5 if stem == "card" else 0.0, numbers=frozenset({"3"}))
    assert answer.text == "Matching ingredients on 3 cards gives 6 vp."


def test_a_sentence_that_opens_a_list_is_answered_with_the_whole_list_items_sentences_included():
    """A passage is one list with its lead-in: the answer to "when does it end?" is every case,
    including an item that runs over several sentences (it used to stop after the first one)."""
    from service.ask import extract

    text = ("The game ends immediately if either of the following occurs:\n"
            "a) A player has turned over the last card of their pile. This player becomes the Neanderthal of the Month.\n"
            "or\n"
            "b) After the 7th mammoth hunt the stone reaches the last space.")
    hit = _hit(text, ["game", "ends"])
    assert extract(hit).text == text


def test_a_sentence_that_announces_the_following_list_is_answered_with_the_list_and_its_stem():
    """"... the following three things." ends with a full stop, yet the three things are the rule,
    and "A player ..." is the stem each item completes."""
    from service.ask import extract

    text = ("If one of you makes a mistake in the choreography, they are punished! A mistake counts as any "
            "of the following three things. A player ...\n- makes the wrong gesture or the wrong shout,\n"
            "- makes a shout even though the card is shown more than once (Step 3),\n"
            "- lags too far behind the rest of the tribe (or does nothing at all).")
    hit = _hit(text, ["A mistake counts"])
    assert extract(hit).text == text[text.index("A mistake counts"):]


@pytest.mark.parametrize("question, asks", [
    ("grandma missed the bus, what happens now?", True),
    ("qqn a joué tim et crié mömmen, on fait quoi", True),
    ("Oma hat die falsche Nummer gesagt, was passiert jetzt?", True),
    ("老婆被校車撞了怎麼辦", True),
    ("how many cards do we deal?", False),
    ("combien de mammouths au milieu ?", False),
    ("Wie viele Karten auf der Hand?", False),
    ("一回合可以打出幾張原料牌？", False),
])
def test_a_question_asking_what_follows_a_situation_is_told_from_one_asking_for_a_fact(question, asks):
    """The ranker's asks_what_next trait: its answer is often the passage after the situation's."""
    from service.retrieval.rank import _WHAT_NEXT

    assert bool(_WHAT_NEXT.search(question)) is asks


def test_a_question_asked_again_is_answered_from_the_searches_kept(library, monkeypatch):
    """The same question, game, language and limit: the same hits, and nothing searched again; a
    caller changing its result leaves the kept one as it was."""
    question = "combien de cartes en main au début ?"
    first = library.search(question, game="mamma-mia", limit=5)
    searched = []
    monkeypatch.setattr(library, "candidates", lambda *args, **kwargs: searched.append(args) or 1 / 0)
    again = library.search(question, game="mamma-mia", limit=5)
    assert searched == []
    assert [(h.id, h.score, h.confidence) for h in again.hits] == [(h.id, h.score, h.confidence) for h in first.hits]
    assert again.on_topic == first.on_topic and again.question.lang == first.question.lang == "fr"
    again.hits.clear()
    again.question.game = None
    kept = library.search(question, game="mamma-mia", limit=5)
    assert [h.id for h in kept.hits] == [h.id for h in first.hits] and kept.question.game == "mamma-mia"


def test_a_search_differing_in_game_language_hint_or_limit_is_its_own(library):
    question = "wer gewinnt?"
    game = library.search(question, game="moemmen", limit=3)
    other_game = library.search(question, game="mamma", limit=3)
    assert {h.game for h in game.hits} == {"moemmen"} and {h.game for h in other_game.hits} == {"mamma"}
    assert len(library.search(question, game="moemmen", limit=1).hits) == 1
    assert library.search("Mömmen", hint="fr").question.lang == "fr"
    assert library.search("Mömmen", hint="de").question.lang == "de"
    assert library.search("Mömmen", lang="zh").question.lang == "zh"
    assert library.search("Mömmen", lang="en").question.lang == "en"


def test_forgetting_the_searches_kept_works_a_question_out_again(library, monkeypatch):
    library.search("how do I win Mömmen?")
    library.forget()
    searched = []
    real = library.candidates
    monkeypatch.setattr(library, "candidates", lambda *args, **kwargs: searched.append(args) or real(*args, **kwargs))
    assert library.search("how do I win Mömmen?").hits
    assert len(searched) == 1
