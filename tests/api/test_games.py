from service.engines import ENGINES, GAMES
from service.engines.registry import move_shapes


def test_healthz_says_ok_once_the_index_is_loaded(client, library):
    body = client.get("/healthz").get_json()
    assert body["status"] == "ok"
    assert body["passages"] == len(library.passages) > 200
    assert body["rulebooks"] == 5


def test_games_lists_the_four_games_with_names_and_rulebook_languages(client):
    games = {g["id"]: g for g in client.get("/v1/games").get_json()["games"]}
    assert list(games) == ["mamma", "mamma-mia", "mammut-mambo", "moemmen"]
    assert games["mamma-mia"]["rulebooks"] == ["fr", "zh"]
    assert games["mamma"]["rulebooks"] == ["en"]
    assert set(games["moemmen"]["names"]) == {"en", "fr", "de", "zh"}
    assert games["mamma-mia"]["players"] == {"min": 2, "max": 5, "stated": True}
    assert games["mammut-mambo"]["players"]["stated"] is False


def test_a_game_has_the_outline_of_each_rulebook(client):
    game = client.get("/v1/games/mamma-mia").get_json()
    outlines = {o["lang"]: o for o in game["outlines"]}
    assert set(outlines) == {"fr", "zh"}
    fr = [s["anchor"] for s in outlines["fr"]["sections"]]
    assert fr[:4] == ["overview", "components", "rules", "setup"]
    oven = next(s for s in outlines["zh"]["sections"] if s["anchor"] == "oven")
    assert oven["editorial"] is True and oven["passages"] == 6
    assert "Oya" in outlines["fr"]["provenance"]


def test_a_game_serves_where_its_rulebooks_disagree(client, library):
    disagreements = client.get("/v1/games/mamma-mia").get_json()["disagreements"]
    minimale = next(d for d in disagreements if d["id"] == "minimale-fewest")
    for side in minimale["sides"]:
        assert side["quote"] in library.passages[side["passage"]]["text"]
    assert client.get("/v1/games/moemmen").get_json()["disagreements"] == []


def test_a_rulebook_has_its_sections_in_order_with_whole_passages(client):
    book = client.get("/v1/rulebooks/mamma-mia/zh").get_json()
    assert book["game"] == "mamma-mia" and book["lang"] == "zh"
    setup = next(s for s in book["sections"] if s["anchor"] == "setup")
    assert [p["id"] for p in setup["passages"]][:2] == ["mamma-mia.zh.setup.1", "mamma-mia.zh.setup.2"]
    assert "訂單牌堆" in setup["passages"][0]["text"]


def test_a_passage_has_its_game_language_section_and_exact_text(client):
    body = client.get("/v1/passages/mammut-mambo.en.mambo-dud.1").get_json()
    assert body["game"] == "mammut-mambo" and body["lang"] == "en"
    assert body["section"] == "Mambo Dud: One dancer steps out of line!"
    assert "makes the wrong gesture or the wrong shout," in body["text"]


def test_unknown_game_rulebook_and_passage_are_404_problems(client):
    for url, words in [
        ("/v1/games/chess", "Known games: mamma, mamma-mia"),
        ("/v1/rulebooks/mamma-mia/en", "Its rulebooks: fr, zh"),
        ("/v1/rulebooks/chess/en", "No game 'chess'"),
        ("/v1/passages/mamma-mia.fr.oven.99", "No passage"),
    ]:
        response = client.get(url)
        assert response.status_code == 404
        assert response.mimetype == "application/problem+json"
        body = response.get_json()
        assert body["status"] == 404 and body["title"] == "Not Found"
        assert words in body["detail"]


def test_each_game_says_what_its_adjudicator_offers(client):
    games = {g["id"]: g for g in client.get("/v1/games").get_json()["games"]}
    assert set(ENGINES) == set(games)  # every game of the corpus can be adjudicated
    assert games["mamma"]["adjudicator"]["players"] == [3, 6]
    mamma_mia = games["mamma-mia"]["adjudicator"]
    assert mamma_mia["rulesets"] == ["fr", "zh"] and "ruleset" in mamma_mia["setup_options"]
    for game_id in ENGINES:
        offered = games[game_id]["adjudicator"]
        low, high = offered["players"]
        setup = next(r for r in offered["routes"] if r.endswith("/setup"))
        assert client.post(setup, json={"players": low, "seed": 1}).status_code == 200
        assert client.post(setup, json={"players": high + 1, "seed": 1}).status_code == 422
    assert client.get("/v1/games/moemmen").get_json()["adjudicator"] == games["moemmen"]["adjudicator"]


def test_mammas_readings_are_listed_with_both_readings_and_the_rulebooks_words(client, library):
    offered = {g["id"]: g for g in client.get("/v1/games").get_json()["games"]}["mamma"]["adjudicator"]
    readings = {r["option"]: r for r in offered["readings"]}
    assert list(readings) == ["sideways_first_space", "arcade_at_dinner", "money_paid", "must_buy", "wc_return", "wc_exit",
                             "matching", "six_matching"]
    sideways = readings["sideways_first_space"]
    assert sideways["default"] == "as-forwards" and [r["value"] for r in sideways["readings"]] == ["as-forwards", "one-mp"]
    assert set(sideways["readings"][1]["meaning"]) == {"en", "fr", "de", "zh"}
    for reading in readings.values():
        assert reading["option"] in offered["setup_options"] and reading["default"] in offered["setup_options"][reading["option"]]
        for citation in reading["citations"]:
            assert citation["quote"] in library.passages[citation["passage_id"]]["text"]
    assert client.post("/v1/games/mamma/setup", json={"players": 3, "seed": 1, "options": {"wc_exit": "maybe"}}).status_code == 422
    others = {g["id"]: g["adjudicator"]["readings"] for g in client.get("/v1/games").get_json()["games"]}
    assert others["mamma-mia"] == [] and others["moemmen"] == []


def test_the_games_list_offers_each_games_move_shapes(client):
    games = {g["id"]: g for g in client.get("/v1/games").get_json()["games"]}
    for game in GAMES:
        assert games[game]["adjudicator"]["moves"] == move_shapes(GAMES[game].move_schema)
    mamma = {s["kind"]: s for s in games["mamma"]["adjudicator"]["moves"]}
    assert mamma["move"]["path"] == "to"  # a movement, space by space
    pay = next(f for f in mamma["buy"]["fields"] if f["name"] == "pay")
    assert pay["shape"] == "some" and pay["choices"][0] == "@characters.{turn_state.moving.piece}.money"
    dance = {s["kind"]: s for s in games["mammut-mambo"]["adjudicator"]["moves"]}["dance"]
    assert [f["shape"] for f in dance["fields"]] == ["steps", "some", "some"]
