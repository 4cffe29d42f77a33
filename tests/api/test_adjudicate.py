"""The adjudicator over HTTP: the same routes for every game."""

import marshmallow as ma
import pytest

from service.engines import GAMES


def post(client, path, body, status=200):
    response = client.post(path, json=body)
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


@pytest.fixture()
def new_game(client):
    return post(client, "/v1/games/mamma-mia/setup", {"players": 3, "seed": 1})["state"]


def test_setup_gives_a_state_shuffled_from_the_seed(client):
    one = post(client, "/v1/games/mamma-mia/setup", {"players": 3, "seed": 1})["state"]
    again = post(client, "/v1/games/mamma-mia/setup", {"players": 3, "seed": 1})["state"]
    other = post(client, "/v1/games/mamma-mia/setup", {"players": 3, "seed": 2, "options": {"ruleset": "zh"}})["state"]
    assert one == again and one != other
    assert other["ruleset"] == "zh" and one["ruleset"] == "fr"
    assert "not the publisher" in one["deck"]


def test_legal_moves_lists_moves_until_the_game_is_over(client, new_game):
    body = post(client, "/v1/games/mamma-mia/legal-moves", {"state": new_game})
    assert body["moves"] and body["result"] is None
    assert all(m["kind"] == "turn" for m in body["moves"])


def test_an_illegal_move_is_a_200_verdict_naming_every_rule_in_the_askers_language(client, new_game):
    move = {"kind": "turn", "ingredients": {"salami": 1, "olive": 1}, "orders": [], "draw": {"kitchen": 2}}
    verdict = post(client, "/v1/games/mamma-mia/adjudicate", {"state": new_game, "move": move, "lang": "fr"})
    assert verdict["legal"] is False and verdict["state"] is None
    codes = [v["code"] for v in verdict["violations"]]
    assert "mamma-mia/turn.same-kind" in codes
    same_kind = next(v for v in verdict["violations"] if v["code"] == "mamma-mia/turn.same-kind")
    assert same_kind["message"].startswith("Vous avez posé")
    assert same_kind["citations"][0]["lang"] == "fr"  # the asker's language first
    assert "plusieurs seulement s’ils sont identiques" in same_kind["citations"][0]["quote"]


def test_every_citation_quotes_its_passage_exactly(client, new_game, library):
    move = {"kind": "pass", "orders": ["green-1", "green-2"], "draw": {"kitchen": 1, "server_pile": 1}}
    verdict = post(client, "/v1/games/mamma-mia/adjudicate", {"state": new_game, "move": move})
    assert verdict["violations"]
    for violation in verdict["violations"]:
        for citation in violation["citations"]:
            assert citation["quote"] in library.passages[citation["passage_id"]]["text"]


def test_a_legal_move_comes_with_the_state_after_it(client, new_game):
    move = post(client, "/v1/games/mamma-mia/legal-moves", {"state": new_game})["moves"][0]
    verdict = post(client, "/v1/games/mamma-mia/adjudicate", {"state": new_game, "move": move})
    assert verdict == {"legal": True, "violations": [], "state": verdict["state"]}
    assert verdict["state"]["turn"] == 1


def test_replay_reports_the_first_illegal_move_and_the_state_before_it(client, new_game):
    first = post(client, "/v1/games/mamma-mia/legal-moves", {"state": new_game})["moves"][0]
    bad = {"kind": "pass", "draw": {}}
    body = post(client, "/v1/games/mamma-mia/replay", {"state": new_game, "moves": [first, bad, first], "lang": "de"})
    assert body["legal"] is False and body["checked"] == 2
    illegal = body["first_illegal"]
    assert illegal["index"] == 1 and illegal["move"] == bad
    assert illegal["state_before"]["turn"] == 1
    assert illegal["verdict"]["violations"][0]["message"].startswith("Du hast")


def test_an_impossible_state_is_422_naming_the_field_and_the_invariant(client, new_game):
    new_game["players"][0]["hand"]["ingredients"]["salami"] += 1  # a 14th salami
    response = client.post("/v1/games/mamma-mia/legal-moves", json={"state": new_game})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["errors"] == {"state.ingredients.salami": ["14 salami cards are accounted for; the game has 13"]}


def test_an_unknown_colour_is_422(client, new_game):
    new_game["orders"]["green-1"]["colour"] = "orange"
    body = post(client, "/v1/games/mamma-mia/legal-moves", {"state": new_game}, status=422)
    assert "state.orders.green-1.colour" in body["errors"]


def test_a_move_of_an_unknown_kind_is_422(client, new_game):
    body = post(client, "/v1/games/mamma-mia/adjudicate", {"state": new_game, "move": {"kind": "castle"}}, status=422)
    assert "move.kind" in body["errors"]


def test_a_malformed_state_or_move_is_400(client, new_game):
    del new_game["kitchen"]
    body = post(client, "/v1/games/mamma-mia/adjudicate", {"state": new_game, "move": {"kind": "pass"}}, status=400)
    assert "state.kitchen" in body["errors"]
    body = post(client, "/v1/games/mamma-mia/setup", {"players": "three", "seed": 1}, status=400)
    assert "players" in body["errors"]
    body = post(client, "/v1/games/mamma-mia/setup", {"players": 3}, status=400)
    assert "seed" in body["errors"]


def test_setup_refuses_an_impossible_player_count_with_422(client):
    body = post(client, "/v1/games/mamma-mia/setup", {"players": 7, "seed": 1}, status=422)
    assert "players" in body["errors"]


def test_games_without_an_adjudicator_and_unknown_games_are_404(client, library, monkeypatch):
    # Every game of the corpus has an engine now; a rulebook added without one reads like this.
    monkeypatch.setitem(library.games, "tiny-epic", {**library.games["mamma"], "id": "tiny-epic"})
    body = post(client, "/v1/games/tiny-epic/setup", {"players": 3, "seed": 1}, status=404)
    assert "cannot adjudicate" in body["detail"] and "mamma" in body["detail"]
    body = post(client, "/v1/games/chess/setup", {"players": 2, "seed": 1}, status=404)
    assert "No game 'chess'" in body["detail"]


def test_each_games_routes_document_that_games_own_state_and_move(app):
    from service.openapi import spec_dict

    spec = spec_dict(app)
    for game in GAMES.values():
        body = spec["paths"][f"/v1/games/{game.id}/adjudicate"]["post"]["requestBody"]["content"]["application/json"]["schema"]
        schema = spec["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
        assert schema["properties"]["state"]["$ref"] == f"#/components/schemas/{game.state_schema.__name__}"
        assert schema["properties"]["move"]["$ref"] == f"#/components/schemas/{game.move_schema.__name__}"
        assert "oneOf" not in str(schema)


def test_a_state_of_one_game_posted_to_another_games_route_is_a_400_naming_the_field(client):
    state = post(client, "/v1/games/moemmen/setup", {"players": 3, "seed": 1})["state"]
    body = post(client, "/v1/games/mammut-mambo/legal-moves", {"state": state}, status=400)
    assert any(field.startswith("state.") for field in body["errors"])


def test_the_worked_examples_in_openapi_give_the_verdicts_they_describe(client, app):
    from service.openapi import spec_dict

    legal = {}
    for game in GAMES:
        path = f"/v1/games/{game}/adjudicate"
        examples = spec_dict(app)["paths"][path]["post"]["requestBody"]["content"]["application/json"]["examples"]
        for name, example in examples.items():
            legal[name] = post(client, path, example["value"])["legal"]
    assert legal == {
        "mamma-mia/turn": True, "mamma-mia/turn-illegal": False, "mamma-mia/pass": False,
        "mamma-mia/serve": True, "mamma-mia/fail": True,
        "mammut-mambo/turn": True, "mammut-mambo/dance": True, "mammut-mambo/hunt": True,
        "moemmen/swap": True, "moemmen/pass": True, "moemmen/exchange-table": False,
        "moemmen/benny": True, "moemmen/tim": True, "moemmen/respond": True,
        "mamma/take": True, "mamma/play": True, "mamma/move": True, "mamma/move-illegal": False, "mamma/end-turn": True,
    }


def test_a_mammut_mambo_dance_is_judged_over_http(client):
    state = post(client, "/v1/games/mammut-mambo/setup", {"players": 3, "seed": 4})["state"]
    state = post(client, "/v1/games/mammut-mambo/adjudicate", {"state": state, "move": {"kind": "turn"}})["state"]
    if state["phase"] == "dance":
        card = state["cards"][state["last"]["card"]]
        wrong = [{"gesture": card["gesture"], "shout": "Hula"}]
        right = [{"gesture": card["gesture"], "shout": card["gesture"]}]
        move = {"kind": "dance", "performances": [right, wrong, right]}
        verdict = post(client, "/v1/games/mammut-mambo/adjudicate", {"state": state, "move": move, "lang": "fr"})
        assert verdict["legal"] is True
        assert [(m["player"], m["code"]) for m in verdict["outcome"]["mistakes"]] == [(1, "mammut-mambo/dance.wrong-shout")]
        assert verdict["outcome"]["mistakes"][0]["message"].startswith("Joueur 1")
        assert verdict["state"]["turn"] == 1
    else:
        assert state["phase"] == "hunt"


@pytest.mark.parametrize("game, kind, field", [(game.id, kind, field) for game in GAMES.values()
                                               for kind, needed in game.move_schema.KINDS.items() for field in needed])
def test_a_move_missing_a_field_its_kind_needs_is_a_400_naming_it(client, game, kind, field):
    shape = GAMES[game].move_schema().fields
    placeholder = {"kind": kind} | {f: [] if isinstance(shape[f], ma.fields.List) else 0 if isinstance(shape[f], ma.fields.Integer) else "x"
                                    for f in GAMES[game].move_schema.KINDS[kind]}  # a kind without a worked example
    example = next((m for _, _, _, m in GAMES[game].engine.examples() if m["kind"] == kind), placeholder)
    state = post(client, f"/v1/games/{game}/setup", {"players": 3, "seed": 1})["state"]
    move = {k: v for k, v in example.items() if k != field}
    body = post(client, f"/v1/games/{game}/adjudicate", {"state": state, "move": move}, status=400)
    assert list(body["errors"]) == [f"move.{field}"]


def test_each_move_kind_is_documented_with_the_fields_it_needs(app):
    from service.openapi import spec_dict

    schemas = spec_dict(app)["components"]["schemas"]
    swap = schemas["MoemmenSwapMove"]
    assert swap["properties"]["kind"]["enum"] == ["swap"] and swap["required"] == ["kind", "give", "take"]
    assert schemas["MoemmenMove"]["discriminator"]["mapping"]["swap"] == "#/components/schemas/MoemmenSwapMove"


def test_a_simplified_chinese_asker_reads_the_verdict_in_simplified_script_and_the_quote_as_written(client):
    state = client.post("/v1/games/mammut-mambo/setup", json={"players": 4, "seed": 1}).get_json()["state"]
    body = {"state": state, "move": {"kind": "hunt", "pink": 0, "empty_handed": 1}, "lang": "zh"}
    traditional = client.post("/v1/games/mammut-mambo/adjudicate", json=body).get_json()["violations"][0]
    simplified = client.post("/v1/games/mammut-mambo/adjudicate", json=body,
                             headers={"Accept-Language": "zh-Hans"}).get_json()["violations"][0]
    assert "還沒有翻開" in traditional["message"] and "还没有翻开" in simplified["message"]
    assert "狩猎" in simplified["message"], "the game's own word in Simplified script too"
    assert simplified["citations"] == traditional["citations"], "the rulebook's words stay as written"


def test_the_games_words_come_in_both_chinese_scripts(client):
    words = next(g for g in client.get("/v1/games").get_json()["games"] if g["id"] == "mamma")["adjudicator"]["words"]
    assert (words["de"]["wife"], words["zh"]["take"], words["zh-Hans"]["take"]) == ("Ehefrau", "拿牌", "拿牌")
    assert (words["zh"]["release"], words["zh-Hans"]["release"]) == ("出院", "出院")
    assert (words["zh"]["bus"], words["zh-Hans"]["bus"]) == ("公車", "公车")


def test_a_verdict_resting_on_the_tables_reading_names_it_and_the_other_over_http(client):
    from tests.engines.test_mamma import read, son_sideways_at_dinner, step

    state, move = son_sideways_at_dinner(), step("son", "10")
    refused = post(client, "/v1/games/mamma/adjudicate", {"state": state, "move": move, "lang": "de"})
    violation = refused["violations"][0]
    assert violation["reading"] == {"option": "sideways_first_space", "value": "as-forwards", "other": "one-mp"}
    said = violation["interpretation"]
    assert said.startswith("Das beruht auf der Lesart") and "kostet 1 Bewegungspunkt" in said, "the other reading, in words"
    assert "one-mp" not in said, "not by its id, which is in reading"
    legal = post(client, "/v1/games/mamma/adjudicate", {"state": read(state, sideways_first_space="one-mp"), "move": move})
    assert legal["legal"] and legal["notes"][0]["reading"]["value"] == "one-mp" and legal["notes"][0]["code"] == "mamma/move.mp"
    broken = post(client, "/v1/games/mamma/adjudicate", {"state": {**state, "readings": {"sideways_first_space": "two"}}, "move": move}, 422)
    assert "state.readings.sideways_first_space" in broken["errors"]
