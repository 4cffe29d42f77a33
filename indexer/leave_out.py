"""A copy of the corpus with one game left uncurated: its players' questions and its own concepts in
the term base taken out, as a game a table adds has none of them.

Fitting the ranker for such games (benchmarks.fit_ranker) and measuring them (make eval) read each
shipped game as if it had been added this way, one game at a time: what the ranker learns must come
from a passage's own words and meaning, since the next game will bring nothing else.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from indexer.build import DEFAULT_CORPUS
from indexer.corpus import shipped_games


def leave_out(game: str, destination: Path, corpus_dir: Path = DEFAULT_CORPUS) -> Path:
    """Write the corpus to ``destination`` with ``game`` uncurated; return the copy's folder."""
    destination = Path(destination)
    if destination.exists():
        shutil.rmtree(destination)
    shutil.copytree(corpus_dir, destination)
    (destination / game / "questions.yaml").unlink(missing_ok=True)
    path = destination / "terms.yaml"
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    kept = []
    for concept in document["concepts"]:
        games = concept.get("games")
        if games and game in games:
            games = [g for g in games if g != game]
            if not games:
                continue  # the game's own concept: a table's game would not have it
            concept = {**concept, "games": games}
        kept.append(concept)
    document["concepts"] = kept
    path.write_text(yaml.safe_dump(document, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return destination


def shipped_game_ids(corpus_dir: Path = DEFAULT_CORPUS) -> list[str]:
    return [g["id"] for g in shipped_games(corpus_dir)]
