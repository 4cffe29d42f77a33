"""The ranker's two learned parts: the multilingual vectors built with the index, and the weights."""

import json

import numpy as np
import pytest

from indexer.build import read_catalog
from indexer.fit_ranker import figures, fit
from indexer.vectors import VECTORS, Vectors, embed
from service.retrieval.rank import FEATURES, WEIGHTS, load_weights


def test_the_index_holds_a_vector_for_every_passage_and_sentence(index_dir):
    generation = index_dir.resolve()
    assert (generation / VECTORS).exists()
    vectors = Vectors.load(generation)
    catalog = read_catalog(generation)
    ids = {p["id"] for b in catalog["rulebooks"] for s in b["sections"] for p in s["passages"]}
    assert set(vectors.row) == ids
    assert vectors.passages.shape == (len(ids), 512)
    assert vectors.first[-1] == len(vectors.sentences) > len(ids)
    assert np.allclose(np.linalg.norm(vectors.passages, axis=1), 1, atol=1e-3)


def test_a_question_is_closest_to_the_sentence_that_answers_it_in_another_language(index_dir):
    """A German question about winning Mömmen and the English sentence that answers it."""
    vectors = Vectors.load(index_dir.resolve())
    ids = ["moemmen.en.game-end.1", "moemmen.en.tim.1", "mamma-mia.fr.turn.1"]
    whole, closest = vectors.similarities(embed(["Wer gewinnt das Spiel?"])[0], ids)
    assert closest[0] == max(closest)
    assert whole[0] == max(whole)


def test_the_shipped_weights_are_for_the_rankers_features():
    fitted = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    assert tuple(fitted["features"]) == FEATURES
    assert len(load_weights()) == len(FEATURES)
    assert fitted["trained_on"]["split"] == "dev"
    learned, lexical = fitted["cross_validated"]["learned"], fitted["cross_validated"]["lexical_order"]
    assert learned["recall@1"] >= lexical["recall@1"], "the learned order is kept only if it does better"


def test_weights_fitted_on_other_features_are_refused(tmp_path):
    path = tmp_path / "ranker.json"
    path.write_text(json.dumps({"features": ["lexical"], "weights": [1.0]}), encoding="utf-8")
    with pytest.raises(ValueError, match="fit_ranker"):
        load_weights(path)


def test_fitting_learns_which_trait_marks_the_answer():
    """Questions whose answering candidate is marked by the second trait, never first in the given
    order: the fitted weights put it first."""
    rng = np.random.default_rng(7)
    questions = []
    for _ in range(60):
        traits = rng.normal(size=(10, 3))
        labels = np.zeros(10)
        answer = rng.integers(1, 10)
        traits[answer, 1] += 3
        labels[answer] = 1
        questions.append((traits, labels))
    weights = fit(questions)
    assert figures(questions, lambda x: range(len(x)))["recall@1"] == 0
    assert figures(questions, lambda x: np.argsort(-(x @ weights)))["recall@1"] >= 0.9
    assert abs(weights[1]) > abs(weights[0]) + abs(weights[2])
