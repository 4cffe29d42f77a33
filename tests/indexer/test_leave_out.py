"""A shipped game read as a table's game: its players' questions and own concepts left out."""

import yaml

from indexer.corpus import load_corpus
from indexer.leave_out import leave_out, shipped_game_ids


def test_a_left_out_game_keeps_its_rulebooks_but_not_its_questions_or_own_concepts(tmp_path):
    copy = leave_out("mammut-mambo", tmp_path / "corpus")
    corpus = load_corpus(copy)
    assert {b.game for b in corpus.rulebooks} == set(shipped_game_ids())
    assert not any(p.startswith("mammut-mambo.") for p in corpus.questions)
    assert any(p.startswith("mamma-mia.") for p in corpus.questions)
    concepts = yaml.safe_load((copy / "terms.yaml").read_text(encoding="utf-8"))["concepts"]
    assert not any("mammut-mambo" in c.get("games", ()) for c in concepts)
    assert any(c["id"] == "card" for c in concepts)  # the general vocabulary stays
