"""POST /v1/games/{game}/score: who is winning or who won, one cited line per scoring rule."""

from __future__ import annotations

import random

import pytest

from service.engines import ENGINES
from tests.engines.test_moemmen import play_out


def score(client, game: str, state: dict, lang: str = "en", status: int = 200) -> dict:
    response = client.post(f"/v1/games/{game}/score", json={"state": state, "lang": lang})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def played_to_the_end(game: str, seed: int) -> dict:
    """A seeded game of uniformly random legal moves, to its end."""
    engine, rng = ENGINES[game], random.Random(seed)
    state = engine.setup(3, seed, {})
    for _ in range(5_000):
        moves = engine.legal_moves(state)
        if not moves:
            return state
        state = engine.apply(state, rng.choice(moves))
    raise AssertionError(f"{game}: the game did not end")


@pytest.mark.parametrize("game", list(ENGINES))
def test_every_player_gets_a_line_per_scoring_rule_quoting_the_rulebook(client, game):
    state = ENGINES[game].setup(3, 4, {})
    standings = score(client, game, state, lang="de")
    assert standings["final"] is False
    assert sorted(p["player"] for p in standings["players"]) == [0, 1, 2]
    assert standings["winners"] == [p["player"] for p in standings["players"] if p["rank"] == 1]
    for player in standings["players"]:
        assert player["lines"]
        for line in player["lines"]:
            assert line["code"].startswith(f"{game}/score.")
            for citation in line["citations"]:
                passage = client.get(f"/v1/passages/{citation['passage_id']}").get_json()
                assert citation["quote"] in passage["text"]


@pytest.mark.parametrize("game", ["mamma-mia", "mammut-mambo"])
def test_a_finished_game_names_the_engines_winners_and_the_tie_break_when_one_decided(client, game):
    state = played_to_the_end(game, seed=3)
    standings = score(client, game, state)
    result = ENGINES[game].result(state)
    assert standings["final"] is True
    assert standings["winners"] == result["winners"]
    assert (standings["tie_break"] is not None) == (result["tie_break"] is not None)


def test_mamma_mia_counts_completed_orders_then_ingredients_in_hand(client):
    state = played_to_the_end("mamma-mia", seed=5)
    standings = score(client, "mamma-mia", state, lang="fr")
    for player in standings["players"]:
        seat = state["players"][player["player"]]
        orders, held = player["lines"]
        assert orders["value"] == player["total"] == len(seat["completed"])
        assert held["value"] == sum(seat["hand"]["ingredients"].values())
        assert orders["message"].startswith(f"{orders['value']} commandes réussies")
    totals = [p["total"] for p in standings["players"]]
    assert totals == sorted(totals, reverse=True), "best first"


def test_mamma_scores_every_character_and_each_player_as_their_secret_character(client):
    from tests.engines.test_mamma import GAMES

    start, log, states = GAMES[4, 2]
    state = states[-1]
    standings = score(client, "mamma", state, lang="fr")
    assert standings["final"] is True and standings["winners"] == ENGINES["mamma"].result(state)["winners"]
    by_character = {c["character"]: c for c in standings["characters"]}
    assert len(by_character) == 6
    for player in standings["players"]:
        secret = state["cards"][state["players"][player["player"]]["secret"]]["character"]
        assert player["character"] == secret and player["total"] == by_character[secret]["total"]
        assert [line["code"] for line in player["lines"]] == [line["code"] for line in by_character[secret]["lines"]]
        assert sum(line["value"] for line in player["lines"]) == player["total"]
    assert standings["characters"][0]["lines"][0]["message"].startswith("Ingrédients")


def test_moemmen_lists_each_rounds_points_and_their_total(client):
    state = play_out(3, 1)
    standings = score(client, "moemmen", state)
    assert standings["final"] is True
    assert standings["winners"] == ENGINES["moemmen"].result(state)["winners"]
    for player in standings["players"]:
        *rounds, total = player["lines"]
        assert len(rounds) == len(state["history"])
        assert sum(line["value"] for line in rounds) == total["value"] == player["total"]


def test_a_rounds_colour_is_named_in_the_askers_language(client):
    state = play_out(3, 1)
    lines = [line["message"] for player in score(client, "moemmen", state, lang="de")["players"] for line in player["lines"]]
    colours = [line for line in lines if "Farbe" in line]
    assert colours and all(any(word in line for word in ("rot", "blau", "grün", "gelb")) for line in colours)
    assert not any(word in line for line in colours for word in ("red", "blue", "green", "yellow"))


def test_score_answers_404_without_an_engine_422_for_an_impossible_state_400_when_malformed(client):
    assert client.post("/v1/games/chess/score", json={"state": {}}).status_code == 404
    state = ENGINES["moemmen"].setup(3, 1, {})
    body = score(client, "moemmen", {**state, "turn": 7}, status=422)
    assert any(field.startswith("state.") for field in body["errors"])
    assert client.post("/v1/games/moemmen/score", json={"lang": "en"}).status_code == 400
