"""The ranker's two learned parts: the multilingual vectors built with the index, and the scorer's trees."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.generation import read_catalog
from indexer.corpus import Passage
from benchmarks.fit_ranker import cross_validated, figures, fit, temperature
from indexer.vectors import CROWD, VECTORS, EmbeddingCache, Vectors, crowding, embed, fit_adapter, write
from service.retrieval.rank import CURATED_FEATURES, FEATURES, WEIGHTS, Trees, load_scorer


def test_the_index_holds_a_vector_for_every_passage_and_sentence(index_dir):
    generation = index_dir.resolve()
    assert (generation / VECTORS).exists()
    vectors = Vectors.load(generation)
    catalog = read_catalog(generation)
    ids = {p["id"] for b in catalog["rulebooks"] for s in b["sections"] for p in s["passages"]}
    assert set(vectors.row) == ids
    assert vectors.passages.shape == (len(ids), 512)
    assert vectors.first[-1] == len(vectors.sentences) > len(ids)
    assert vectors.first_question[-1] == len(vectors.questions) > 4 * len(ids)
    assert np.allclose(np.linalg.norm(vectors.passages, axis=1), 1, atol=1e-3)
    assert vectors.adapter.shape == (512, 512)


def test_a_question_is_closest_to_the_sentence_that_answers_it_in_another_language(index_dir):
    """A German question about winning Mömmen and the English sentence that answers it."""
    vectors = Vectors.load(index_dir.resolve())
    ids = ["moemmen.en.game-end.1", "moemmen.en.tim.1", "mamma-mia.fr.turn.1"]
    whole, closest, asked = vectors.similarities(embed(["Wer gewinnt das Spiel?"])[0], ids)
    assert closest[0] == max(closest)
    assert whole[0] == max(whole)
    assert asked[0] == max(asked)


def test_the_passages_answering_the_nearest_players_questions_are_found_in_any_language(index_dir, library):
    """A German question, read as the service reads it (without the game's name, which routes it
    to the game's passages), meets the German questions written beside the English rule; a game
    filter keeps to that game's passages."""
    vectors = Vectors.load(index_dir.resolve())
    question = embed([library.read("Wer gewinnt bei Mömmen?").meant])[0]
    assert vectors.nearest(question, 3, lambda i: i.startswith("moemmen."))[0] == "moemmen.en.game-end.1"
    in_mamma = vectors.nearest(question, 3, lambda i: i.startswith("mamma."))
    assert len(in_mamma) == 3 and all(i.startswith("mamma.") for i in in_mamma)


def test_how_like_a_rules_question_a_question_is_reads_the_asked_games_players_questions_only():
    """The on-topic decision's likest_question: the highest cosine with any players' question, of
    the game asked about when there is one (-1 when that game has none)."""
    unit = np.eye(4, dtype=np.float32)
    questions = np.stack([unit[0], 0.6 * unit[0] + 0.8 * unit[1], unit[2]])
    first_question = np.array([0, 1, 2, 3, 3])  # one question each, none for the last passage
    vectors = Vectors(["pizza.en.a.1", "pizza.en.b.1", "mammoth.en.a.1", "dice.en.a.1"], np.zeros((4, 4)),
                      np.zeros((0, 4)), np.zeros(5, dtype=np.int64), questions, first_question,
                      np.eye(4, dtype=np.float32))
    question = unit[2]
    assert vectors.likest_question(question) == pytest.approx(1.0)
    assert vectors.likest_question(question, "pizza") == pytest.approx(0.0)
    assert vectors.likest_question(unit[1], "pizza") == pytest.approx(0.8)
    assert vectors.likest_question(question, "dice") == -1.0
    assert vectors.nearest(unit[1], 2, lambda i: True) == ["pizza.en.b.1", "pizza.en.a.1"]


def test_the_players_questions_cosines_are_worked_out_once_per_question_and_never_lent_to_another(index_dir):
    """The nearest questions, the ranker's traits and the on-topic decision all read the question's
    cosines with the players' questions: the last question's are kept, for that question only."""
    vectors = Vectors.load(index_dir.resolve())
    first, second = embed(["Wer gewinnt das Spiel?", "How many cards in a hand?"])
    expected = {}
    for question in (first, second):
        fresh = Vectors.load(index_dir.resolve())
        expected[question.tobytes()] = fresh.closest_asked(question)
    for question in (first, second, first, first, second):
        assert np.array_equal(vectors.closest_asked(question), expected[question.tobytes()])
    calls = []
    questions = vectors.questions

    class Counting(np.ndarray):
        def __matmul__(self, other):
            calls.append(1)
            return np.asarray(self) @ other

    object.__setattr__(vectors, "questions", questions.view(Counting))
    vectors.nearest(second, 3, lambda i: True)
    vectors.similarities(second, ["moemmen.en.game-end.1"])
    vectors.likest_question(second)
    assert calls == []  # the last question's: none worked out again
    vectors.likest_question(first)
    assert calls == [1]


def test_a_passage_is_as_near_a_question_as_its_three_nearest_players_questions():
    """One near players' question can be a chance likeness: the mean of the three nearest counts
    (all of them when a passage has fewer; -1 when it has none)."""
    unit = np.eye(4, dtype=np.float32)
    question = unit[0]
    questions = np.stack([unit[0], unit[1], 0.5 * unit[0] + 0.5 * unit[1], unit[2], 0.8 * unit[0], unit[3]])
    first_question = np.array([0, 5, 6, 6])  # passage a: rows 0-4, b: row 5, c: none
    vectors = Vectors(["a", "b", "c"], np.zeros((3, 4)), np.zeros((0, 4)), np.zeros(4, dtype=np.int64),
                      questions, first_question, np.eye(4, dtype=np.float32))
    _, _, asked = vectors.similarities(question, ["a", "b", "c"])
    assert asked == pytest.approx([(1.0 + 0.8 + 0.5) / 3, 0.0, -1.0])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 7), min_size=1, max_size=12), st.integers(1, 6), st.randoms(use_true_random=False))
def test_each_passages_closest_cosines_are_worked_out_together_as_one_at_a_time(lengths, k, rng):
    """similarities takes every candidate's cosines (with its sentences, with its players'
    questions) together, in one sort (indexer.vectors._segments, _closest): from the same cosines,
    the same figures, to the bit, as one passage at a time, in any order, for passages with none,
    fewer than k or many, a passage asked twice too."""
    from indexer.vectors import _closest, _segments

    first = np.r_[0, np.cumsum(lengths)].astype(np.int64)
    cosines = np.array([rng.uniform(-1, 1) for _ in range(first[-1])], dtype=np.float32)
    rows = np.array([rng.randrange(len(lengths)) for _ in range(rng.randrange(1, 2 * len(lengths) + 1))], dtype=np.intp)

    def one_at_a_time(r: int) -> float:
        mine = cosines[first[r] : first[r + 1]]
        if not len(mine):
            return -1.0
        return float(mine.max()) if k == 1 else float(np.mean(np.sort(mine)[-k:]))

    held, begins = _segments(first, rows)
    assert list(_closest(cosines[held], begins, k)) == [one_at_a_time(r) for r in rows]


def test_a_passages_figures_do_not_depend_on_the_other_candidates(index_dir):
    """Its cosine with the question, its closest sentence and its closest players' questions are
    the same, to the bit, searched alone or among any others."""
    vectors = Vectors.load(index_dir.resolve())
    question = embed(["Wer gewinnt bei Gleichstand?"])[0]
    ids = vectors.ids[::7]
    together = vectors.similarities(question, ids)
    for k, passage in enumerate(ids):
        alone = vectors.similarities(question, [passage])
        assert [figure[0] for figure in alone] == [figure[k] for figure in together], passage


def test_the_adapter_brings_each_players_question_nearest_the_passage_it_answers():
    """Two passages and questions that, as the encoder places them, lie nearer the wrong passage:
    after the fit, each is nearest its own; the fit is the same each time."""
    passages = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], dtype=np.float32)
    questions = np.array([[0.2, 0.9, 0.4], [0.3, 0.2, 0.9], [0.9, 0.3, 0.3]], dtype=np.float32)
    answered = np.array([0, 1, 0])
    assert list(np.argmax(questions @ passages.T, axis=1)) != list(answered)
    adapter = fit_adapter(questions, passages, answered)
    assert list(np.argmax(questions @ adapter @ passages.T, axis=1)) == list(answered)
    assert np.array_equal(adapter, fit_adapter(questions, passages, answered))


def test_a_build_fits_the_adapter_on_the_passages_that_have_players_questions(tmp_path):
    """A passage without players' questions (like make bench's synthetic copies) has its vectors
    written; the adapter is fitted on the others' questions and brings each nearest its own."""
    def passage(id_, text):
        return Passage(id_, "g", "en", id_, id_, (id_,), "rule", text, 0)

    docs = [passage("oven", "Open the oven when the order pile runs out."),
            passage("dance", "Dance the gesture on the card as fast as you can."),
            passage("copy", "Open the oven when the order pile runs out.")]
    write(tmp_path, docs, {"oven": {"en": ("when is the oven opened?",)},
                           "dance": {"en": ("what do I do with a gesture card?",)}})
    vectors = Vectors.load(tmp_path)
    assert list(vectors.first_question) == [0, 1, 2, 2]
    assert vectors.adapter.shape == (512, 512)
    for question, answer in (("when is the oven opened?", "oven"), ("what do I do with a gesture card?", "dance")):
        adapted = vectors.adapt(embed([question])[0])
        assert vectors.ids[int(np.argmax(vectors.passages[:2] @ adapted))] == answer


@pytest.mark.parametrize("question, answer", [
    ("Wer wird Häuptling?", "mammut-mambo.en.setup.3"),  # "... That player is the tribal leader."
    ("Was macht der Hund Benny?", "moemmen.en.benny.1"),  # "The player discards the \"Benny\" card ..."
])
def test_through_the_adapter_a_german_question_is_nearest_the_english_rule_as_a_whole(index_dir, question, answer):
    """The encoder alone puts other passages nearer these questions whole (Mammut Mambo's end of
    game; a Mamma Mia! FAQ); through the adapter the rule is nearest."""
    vectors = Vectors.load(index_dir.resolve())
    embedded = embed([question])[0]
    adapted = vectors.adapt(embedded)
    assert np.linalg.norm(adapted) == pytest.approx(1, abs=1e-5)
    assert vectors.ids[int(np.argmax(vectors.passages @ embedded))] != answer
    assert vectors.ids[int(np.argmax(vectors.passages @ adapted))] == answer


def test_chinese_is_embedded_in_one_script():
    traditional, simplified = embed(["誰贏了遊戲？", "谁赢了游戏？"])
    assert float(traditional @ simplified) > 0.99


def test_the_shipped_scorer_is_for_the_rankers_features():
    fitted = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    assert tuple(fitted["features"]) == CURATED_FEATURES == FEATURES[:len(CURATED_FEATURES)]
    scorer = load_scorer()
    assert len(fitted["trees"]) == fitted["trained_on"]["boosting"]["num_iterations"]
    assert {f for tree in fitted["trees"] for f in tree["feature"]} <= set(range(len(CURATED_FEATURES)))
    uncurated = fitted["uncurated"]
    assert tuple(uncurated["features"]) == FEATURES and load_scorer(part="uncurated").temperature > 0
    assert {f for tree in uncurated["trees"] for f in tree["feature"]} <= set(range(len(FEATURES)))
    assert set(uncurated["cross_validated"]["by_game"]) == {"mamma", "mamma-mia", "mammut-mambo", "moemmen"}
    assert 0 < scorer.temperature
    assert fitted["trained_on"]["split"] == "dev"
    learned, lexical = fitted["cross_validated"]["learned"], fitted["cross_validated"]["lexical_order"]
    assert learned["recall@1"] >= lexical["recall@1"], "the learned order is kept only if it does better"


def test_a_scorer_fitted_on_other_features_is_refused(tmp_path):
    path = tmp_path / "ranker.json"
    path.write_text(json.dumps({"features": ["lexical"], "trees": [], "temperature": 1.0}), encoding="utf-8")
    with pytest.raises(ValueError, match="fit_ranker"):
        load_scorer(path)


# A tree as LightGBM numbers it: the root tests trait 0 (left: leaf 0), its right child trait 1.
TREE = {"feature": [0, 1], "threshold": [0.5, 2.0], "left": [~0, ~1], "right": [1, ~2], "value": [1.0, 2.0, 3.0]}
LEAF = {"feature": [], "threshold": [], "left": [], "right": [], "value": [0.25]}


def test_trees_add_the_value_of_the_leaf_each_candidate_reaches():
    traits = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 5.0], [0.5, 9.0], [0.6, 2.0]])
    assert Trees([TREE, LEAF]).score(traits).tolist() == [1.25, 2.25, 3.25, 1.25, 2.25]
    assert Trees([]).score(traits).tolist() == [0.0] * 5


def walk(tree: dict, row: np.ndarray) -> float:
    """A tree walked from its root, split by split: what Trees.score computes all at once."""
    node = 0 if tree["feature"] else ~0
    while node >= 0:
        node = tree["left"][node] if row[tree["feature"][node]] <= tree["threshold"][node] else tree["right"][node]
    return tree["value"][~node]


@st.composite
def trees(draw, features=3, max_leaves=16):
    """A random flat tree of up to ``max_leaves`` leaves, numbered as LightGBM numbers them."""
    tree = {"feature": [], "threshold": [], "left": [], "right": [], "value": []}
    leaves = draw(st.integers(1, max_leaves))

    def grow(n: int) -> int:  # a subtree of n leaves; its id
        if n == 1:
            tree["value"].append(draw(st.floats(-5, 5)))
            return ~(len(tree["value"]) - 1)
        k = len(tree["feature"])
        tree["feature"].append(draw(st.integers(0, features - 1)))
        tree["threshold"].append(draw(st.floats(-3, 3)))
        tree["left"].append(0)
        tree["right"].append(0)
        on_left = draw(st.integers(1, n - 1))
        tree["left"][k] = grow(on_left)
        tree["right"][k] = grow(n - on_left)
        return k

    grow(leaves)
    return tree


@settings(max_examples=60, deadline=None)
@given(st.lists(trees(), min_size=1, max_size=8),
       st.lists(st.lists(st.floats(-4, 4), min_size=3, max_size=3), min_size=1, max_size=12))
def test_trees_score_as_walking_each_tree_does(forest, rows):
    traits = np.array(rows)
    expected = [sum(walk(tree, row) for tree in forest) for row in traits]
    assert Trees(forest).score(traits) == pytest.approx(expected, abs=1e-9)


def test_a_tree_of_more_leaves_than_a_word_holds_is_refused():
    deep = {"feature": list(range(16)), "threshold": [0.0] * 16, "left": [~k for k in range(16)],
            "right": list(range(1, 16)) + [~16], "value": [0.0] * 17}
    with pytest.raises(ValueError, match="16 leaves"):
        Trees([deep])


def test_the_temperature_is_low_when_scores_tell_the_answer_and_high_when_they_do_not():
    labels = np.array([1.0, 0.0, 0.0])
    telling = [(None, labels)] * 4
    assert temperature(telling, [np.array([1.0, 0.0, 0.0])] * 4) < 0.2
    misleading = [np.array([1.0, 0.0, 0.0])] + [np.array([0.0, 1.0, 0.0])] * 3  # the answer first once in four
    assert temperature(telling, misleading) > 2


def test_an_on_topic_decision_without_its_own_off_topic_questions_is_refused(tmp_path):
    """ranker.json and off_topic.npy are written together: a copy of one without the other is refused."""
    from service.retrieval.rank import OFF_TOPIC_FILE, load_topic

    path = tmp_path / "ranker.json"
    path.write_text(WEIGHTS.read_text(encoding="utf-8"), encoding="utf-8")
    np.save(tmp_path / OFF_TOPIC_FILE, np.zeros((3, 512), np.float16))
    with pytest.raises(ValueError, match="fit_ranker"):
        load_topic(path)


def test_fitting_learns_which_trait_marks_the_answer():
    """Questions whose answering candidate is marked by the second trait, never first in the given
    order: the fitted trees put it first, splitting on that trait most."""
    rng = np.random.default_rng(7)
    questions = []
    for _ in range(60):
        traits = rng.normal(size=(10, 3))
        labels = np.zeros(10)
        answer = rng.integers(1, 10)
        traits[answer, 1] += 3
        labels[answer] = 1
        questions.append((traits, labels))
    fitted = fit(questions)
    scorer = Trees(fitted)
    assert figures(questions, lambda x: range(len(x)))["recall@1"] == 0
    assert figures(questions, lambda x: np.argsort(-scorer.score(x)))["recall@1"] >= 0.9
    splits = np.bincount([f for tree in fitted for f in tree["feature"]], minlength=3)
    assert splits[1] > splits[0] + splits[2]


def test_cross_validation_counts_a_question_without_candidates_as_missed_and_no_other():
    """Each question is ranked by the scores of the fold that held it out, also when questions
    without candidates (nothing to rank) sit between them."""
    rng = np.random.default_rng(7)
    questions = []
    for n in range(60):
        if n % 7 == 3:
            questions.append((np.zeros((0, 3)), np.zeros(0)))
            continue
        traits, labels = rng.normal(size=(10, 3)), np.zeros(10)
        answer = rng.integers(1, 10)
        traits[answer, 1] += 3
        labels[answer] = 1
        questions.append((traits, labels))
    learned, scores = cross_validated(questions)
    answerable = sum(1 for _, labels in questions if len(labels))
    assert [len(s) for s in scores] == [len(labels) for _, labels in questions]
    assert learned["recall@1"] * len(questions) >= 0.9 * answerable


def test_the_shipped_on_topic_decision_reads_its_features_and_keeps_on_topic_refusals_rare():
    from benchmarks.fit_ranker import MAX_ON_TOPIC_REFUSED
    from service.retrieval.rank import TOPIC_FEATURES, load_topic

    fitted = json.loads(WEIGHTS.read_text(encoding="utf-8"))["topic"]
    topic = load_topic()
    assert tuple(fitted["features"]) == TOPIC_FEATURES
    assert len(topic.weights) == len(TOPIC_FEATURES) + 512
    assert fitted["cross_validated"]["on_topic_refused"] <= MAX_ON_TOPIC_REFUSED
    assert 0 < topic.threshold < 1
    assert topic.off_topic.shape == (fitted["trained_on"]["off_topic"], 512)
    assert np.allclose(np.linalg.norm(topic.off_topic, axis=1), 1, atol=1e-2)


def test_an_off_topic_question_is_fitted_on_as_compared_with_the_others_only():
    """Compared with itself, every known off-topic question would be sure to be one: fit_ranker
    leaves it and its word-for-word twins out."""
    from benchmarks.fit_ranker import others

    known = np.eye(3, dtype=np.float32)
    leave_out = others(["Tell me a joke?", "pizza dough recipe", "tell me a joke ?"], known)
    assert leave_out(0).tolist() == [[0.0, 1.0, 0.0]]
    assert leave_out(1).tolist() == [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]


def test_the_on_topic_decision_reads_how_close_the_question_is_to_known_off_topic_ones(library):
    """likest_off_topic: the highest cosine with the off-topic questions the decision was fitted
    on (LIKEST_SCALE x), from the fitted decision's or from those given."""
    from service.retrieval.rank import LIKEST_SCALE, TOPIC_FEATURES, question_embedding

    question, plan, found = library.candidates("where can we buy a replacement money card?", lang="en")
    _, traits = library.ranker.features(found, plan, question)
    at = TOPIC_FEATURES.index("likest_off_topic")
    itself = question_embedding(question.text)[None, :]
    assert library.ranker.topic_input(question, traits, 0, itself)[at] == pytest.approx(LIKEST_SCALE, abs=1e-4)
    assert library.ranker.topic_input(question, traits, 0, itself[:0])[at] == -LIKEST_SCALE
    known = library.ranker.topic_input(question, traits, 0)[at]
    assert known == pytest.approx(LIKEST_SCALE * float((library.ranker.topic.off_topic @ itself[0]).max()))


def test_the_on_topic_threshold_is_the_highest_that_refuses_few_development_questions():
    """Two groups of points told apart by their first component: the fitted decision separates
    them, and its threshold refuses at most the allowed share of the positive ones."""
    from benchmarks.fit_ranker import MAX_ON_TOPIC_REFUSED, fit_topic

    rng = np.random.default_rng(3)
    on = [(np.r_[rng.normal(2, 1), rng.normal(size=3)], False) for _ in range(120)]
    off = [(np.r_[rng.normal(-2, 1), rng.normal(size=3)], False) for _ in range(120)]
    fitted = fit_topic(on, off, [f"g{k}" for k in range(240)])
    assert fitted["cross_validated"]["on_topic_refused"] <= MAX_ON_TOPIC_REFUSED
    assert fitted["cross_validated"]["off_topic_refused"] >= 0.8
    assert fitted["weights"][0] > 0


def test_a_questions_own_words_meet_those_of_the_players_questions_in_its_language(library):
    """German words that reach the English W.C. rule through no term base ("Klo") stand in the
    German questions written beside it; a question whose language is unknown weighs nothing."""
    wc = ["mamma.en.wc.1", "mamma.en.wc.2"]
    others = ["mamma.en.bench.1", "mamma.en.grandma.1"]
    asked = library.read("wie lange muss die oma aufs klo", lang="de")
    shares = library.ranker.asked_words.shares(asked, wc + others)
    assert all(0.0 <= share <= 1.0 for share in shares)
    assert max(shares[:2]) > max(shares[2:])
    unknown = library.read("wie lange muss die oma aufs klo", lang="de")
    unknown.lang = None
    assert library.ranker.asked_words.shares(unknown, wc) == [0.0, 0.0]


def test_a_passage_knows_how_close_the_question_is_to_its_neighbours_in_its_section():
    """The traits passage_before and passage_after: the cosine with the passage before and after
    in the same section, 0 across a section's edge."""
    unit = np.eye(4, dtype=np.float32)
    ids = ["g.en.tim.1", "g.en.tim.2", "g.en.tim.3", "g.en.benny.1"]
    vectors = Vectors(ids, unit, np.zeros((0, 4)), np.zeros(5, dtype=np.int64), np.zeros((0, 4)),
                      np.zeros(5, dtype=np.int64), np.eye(4, dtype=np.float32))
    question = 0.6 * unit[0] + 0.8 * unit[3]
    before, after = vectors.neighbours(question, ["g.en.tim.2", "g.en.tim.1", "g.en.tim.3", "g.en.benny.1"])
    assert before == pytest.approx([0.6, 0.0, 0.0, 0.0])
    assert after == pytest.approx([0.0, 0.0, 0.0, 0.0])
    before, after = vectors.neighbours(unit[1], ["g.en.tim.1", "g.en.tim.3"])
    assert after == pytest.approx([1.0, 0.0]) and before == pytest.approx([0.0, 1.0])


def test_an_earlier_builds_embeddings_are_reused_only_when_the_same_encoder_made_them(tmp_path):
    made = []

    def encode(texts):
        made.extend(texts)
        return np.ones((len(texts), 4), dtype=np.float32)

    path = tmp_path / "embeddings.npz"
    first = EmbeddingCache(path, encode, 4, encoder="one")
    first.embed(["a rule"])
    first.save()
    EmbeddingCache(path, encode, 4, encoder="one").embed(["a rule"])
    assert made == ["a rule"]
    EmbeddingCache(path, encode, 4, encoder="another").embed(["a rule"])
    assert made == ["a rule", "a rule"]



def test_a_passage_near_many_players_questions_is_crowded_and_a_curated_games_is_not_read():
    """A game without players' questions has each passage's density: the mean cosine with its CROWD
    nearest players' questions (the first encoder) and passages with players' questions (the
    second). A hub, near every question, is crowded; a passage about one thing is not."""
    rng = np.random.default_rng(7)
    asked = rng.normal(size=(40, 8))
    asked[:, 0] = 3.0  # every players' question leans one way
    asked /= np.linalg.norm(asked, axis=1, keepdims=True)
    hub, apart = np.eye(8)[0], np.eye(8)[7]
    passages = np.stack([asked[0], hub, apart]).astype(np.float32)
    e5 = np.stack([hub, hub, apart]).astype(np.float32)
    crowded = crowding(["curated", "added", "added"], passages, asked.astype(np.float32), e5, np.array([0]))
    assert crowded[0].tolist() == [0.0, 0.0]  # the curated game's passage: its scorer reads none of it
    expected = np.sort(asked @ hub)[-CROWD:].mean()
    assert crowded[1, 0] == pytest.approx(expected, abs=1e-5) and crowded[1, 0] > crowded[2, 0] + 0.5
    assert crowded[1, 1] == pytest.approx(1.0) and crowded[2, 1] == pytest.approx(0.0)
