"""The table, drawn (issue 36, item 1): each game's state on the Dispute page as it lies on the
table, named in the players' language, on a 390 px phone; what one player alone may see folded
behind that player's "show" control."""

from __future__ import annotations

import json
import random
import re

import pytest
from playwright.sync_api import expect

from service.engines import ENGINES, adjudicate
from service.web import strings
from tests.web.test_browser import _paste_state, _start

pytestmark = pytest.mark.browser

PHONE_390 = {"width": 390, "height": 844}
LOCALES = {"en": "en-US", "fr": "fr-FR", "de": "de-DE", "zh-Hans": "zh-CN", "zh-Hant": "zh-TW"}


def _played(game: str, state: dict, moves: int, seed: int = 1) -> dict:
    """``state`` after up to ``moves`` legal moves chosen at random."""
    engine, rng = ENGINES[game], random.Random(seed)
    for _ in range(moves):
        legal = engine.legal_moves(state)
        if not legal or engine.result(state) is not None:
            break
        state = adjudicate(engine, state, rng.choice(legal), "en")["state"]
    return state


def _words(client, game: str, lang: str) -> dict:
    games = client.get("/v1/games").get_json()["games"]
    return next(g for g in games if g["id"] == game)["adjudicator"]["words"][lang]


def _open(open_page, game: str, lang: str, seed: int = 7):
    page = open_page(f"/games/{game}/dispute", locale=LOCALES[lang])
    page.set_viewport_size(PHONE_390)
    state = _start(page, game, seed=seed, lang=lang)
    return page, state


def _load(page, game: str, state: dict, lang: str) -> None:
    _paste_state(page, state, lang)
    page.locator(".table").wait_for()  # drawn as the state loads, before its moves and standings
    page.wait_for_load_state("networkidle")


def _fits_a_390_px_phone(page) -> None:
    """Nothing scrolls sideways, and no text of the drawing is under 14 px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_390["width"]
    small = page.evaluate("""() => [...document.querySelectorAll('.table *')]
        .filter((el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
        .filter((el) => parseFloat(getComputedStyle(el).fontSize) < 14)
        .map((el) => `${el.className}: ${el.textContent.slice(0, 30)}`)""")
    assert small == [], small


def _cards(n: int, lang: str) -> str:
    """"{n} cards" as the page says it: the singular for 1 (and for 0 in French)."""
    one = n == 1 or (lang == "fr" and n == 0)
    return strings()[lang]["table.cards.one" if one else "table.cards.other"].format(n=n)


def _region(page, lang: str, player: int):
    return page.get_by_role("region", name=re.compile("^" + re.escape(strings()[lang]["player"].format(n=player + 1))))


def test_mammas_city_shows_every_character_where_it_stands_in_french(open_page, client):
    say, words = strings()["fr"], _words(client, "mamma", "fr")
    page, state = _open(open_page, "mamma", "fr")
    state = _played("mamma", state, 60)
    _load(page, "mamma", state, "fr")
    city = page.get_by_role("list", name=say["table.mamma.city"])
    spaces = state["board"]["spaces"]
    on_spaces = {piece: space for piece, space in state["pieces"].items() if space in spaces}
    assert any(piece in words for piece in on_spaces), "a character or the schoolbus stands in the city"
    for piece, space in on_spaces.items():
        cell = city.get_by_role("listitem", name=re.compile(
            "^" + re.escape(say["table.mamma.space"].format(n=space) + say["colon"]) + ".* · " + re.escape(words.get(piece, piece)) + "( ·|$)"))
        expect(cell).to_have_count(1)
    for character in (c for c, place in state["pieces"].items() if place == "seat"):
        expect(city.get_by_role("listitem", name=f"{words['seat']}{say['colon']}{words[character]} · {words[character]}")).to_have_count(1)
    # the W.C. track, and each character's money as it lies beside the reference card
    expect(page.get_by_role("list", name=re.compile("^" + re.escape(words["wc"])))).to_have_count(1)
    money = " + ".join(str(state["cards"][m]["value"]) for m in state["characters"]["husband"]["money"]) or "0"
    family = page.get_by_role("list", name=say["table.mamma.family"])
    expect(family.locator(".member.husband")).to_contain_text(f"{words['money']}{say['colon']}{money}")
    # the bus cards lie face down: their count, never their order
    bus = page.get_by_role("img", name=re.compile("^" + re.escape(say["table.mamma.busDeck"])))
    assert bus.get_attribute("aria-label") == " · ".join([say["table.mamma.busDeck"], _cards(5, "fr"), say["table.faceDown"]])
    _fits_a_390_px_phone(page)


def test_mammas_secret_characters_are_folded_until_their_player_shows_them(open_page, client):
    say, words = strings()["de"], _words(client, "mamma", "de")
    page, state = _open(open_page, "mamma", "de")
    state = _played("mamma", state, 20)
    _load(page, "mamma", state, "de")
    first = _region(page, "de", 0)
    secret = words[state["cards"][state["players"][0]["secret"]]["character"]]
    shown = first.locator("strong", has_text=say["table.mamma.secret"])
    expect(shown).to_be_hidden()
    first.locator("summary").click()
    expect(shown).to_be_visible()
    assert secret in first.locator("details.secret").inner_text()
    hand = first.get_by_role("list", name=say["table.handOf"].format(n=1))
    expect(hand.get_by_role("listitem")).to_have_count(len(state["players"][0]["hand"]))
    first.locator("summary").click()
    expect(shown).to_be_hidden()
    expect(_region(page, "de", 1).locator("strong", has_text=say["table.mamma.secret"])).to_be_hidden()


def test_mamma_mias_pizza_stack_shows_its_count_and_top_card_only_in_german(open_page, client):
    say, words = strings()["de"], _words(client, "mamma-mia", "de")
    page, state = _open(open_page, "mamma-mia", "de")
    state = _played("mamma-mia", state, 5)
    assert state["oven"], "cards lie in the oven"
    _load(page, "mamma-mia", state, "de")
    in_oven = sum(1 if entry.get("order") else entry["count"] for entry in state["oven"])
    stack = page.get_by_role("img", name=re.compile("^" + re.escape(f"{say['table.mia.oven']} · {_cards(in_oven, 'de')} · {say['table.faceDown']}")))
    expect(stack).to_have_count(1)
    top = state["oven"][-1]
    if top.get("ingredient"):
        assert stack.get_attribute("aria-label").endswith(say["table.onTop"].format(card=words[top["ingredient"]]))
    kitchen = page.get_by_role("img", name=re.compile("^" + re.escape(f"{words['kitchen']} · {_cards(len(state['kitchen']), 'de')}")))
    expect(kitchen).to_have_count(1)
    # each player's server pile: a count; their hand folded until shown
    for n, player in enumerate(state["players"]):
        region = _region(page, "de", n)
        expect(region.get_by_role("img", name=re.compile("^" + re.escape(f"{words['server_pile']} · {_cards(len(player['server_pile']), 'de')}")))).to_have_count(1)
        expect(region.get_by_role("list", name=say["table.handOf"].format(n=n + 1))).to_be_hidden()
    _fits_a_390_px_phone(page)


def test_mammut_mambos_mammoths_piles_and_round_are_drawn_in_chinese(open_page, client):
    say, words = strings()["zh-Hans"], _words(client, "mammut-mambo", "zh-Hans")
    page, state = _open(open_page, "mammut-mambo", "zh-Hans")
    state = _played("mammut-mambo", state, 4)
    _load(page, "mammut-mambo", state, "zh-Hans")
    players = len(state["players"])
    expect(page.get_by_role("img", name=say["table.mambo.herd"].format(n=players - 1, brown=players - 2))).to_have_count(1)
    expect(page.get_by_role("img", name=say["table.mambo.hunts"].format(n=state["hunts"], total=7))).to_have_count(1)
    for n, player in enumerate(state["players"]):
        region = _region(page, "zh-Hans", n)
        pile = f"{say['table.mambo.pile']} · {_cards(len(player['pile']), 'zh-Hans')}"
        expect(region.get_by_role("img", name=re.compile("^" + re.escape(pile)))).to_have_count(1)
        if player["played"]:
            card = state["cards"][player["played"][-1]]
            face = say["table.mambo.huntCard"] if card["type"] == "hunt" else words[card["gesture"]]
            expect(region.locator(".card-face")).to_contain_text(face)
    leader = _region(page, "zh-Hans", state["tribal_leader"])
    expect(leader.locator(".marks")).to_contain_text(say["table.mambo.leader"])
    _fits_a_390_px_phone(page)


def test_moemmens_table_cards_are_named_and_a_hand_shows_only_when_tapped(open_page, client):
    say, words = strings()["fr"], _words(client, "moemmen", "fr")
    page, state = _open(open_page, "moemmen", "fr")

    def named(card_id: str) -> str:
        card = state["cards"][card_id]
        if card["kind"] in ("tim", "benny"):
            return words[card["kind"]]
        return f"{say['colour.' + card['colour']]} {card['value']:+d}"

    on_table = page.get_by_role("list", name=say["table.onTable"]).get_by_role("listitem")
    expect(on_table).to_have_text([named(c) for c in state["table"]])
    expect(page.get_by_role("img", name=f"{say['table.deck']} · {_cards(len(state['deck']), 'fr')} · {say['table.faceDown']}")).to_have_count(1)

    first = _region(page, "fr", 0)
    hand = first.get_by_role("list", name=say["table.handOf"].format(n=1))
    expect(hand).to_be_hidden()
    assert named(state["players"][0]["hand"][0]) not in first.inner_text()
    first.get_by_text(say["table.hand.show"], exact=True).click()
    expect(hand.get_by_role("listitem")).to_have_text([named(c) for c in state["players"][0]["hand"]])
    first.get_by_text(say["table.hand.hide"], exact=True).click()
    expect(hand).to_be_hidden()
    expect(_region(page, "fr", 1).get_by_role("list", name=say["table.handOf"].format(n=2))).to_be_hidden()
    _fits_a_390_px_phone(page)


def test_every_hand_lies_open_once_the_game_is_over(open_page):
    page, state = _open(open_page, "mamma-mia", "en")
    state = _played("mamma-mia", state, 400)
    assert state["phase"] == "over"
    _load(page, "mamma-mia", state, "en")
    expect(page.locator(".table details.secret")).to_have_count(0)
    for n in range(len(state["players"])):
        expect(page.get_by_role("list", name=strings()["en"]["table.handOf"].format(n=n + 1))).to_be_visible()


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_json_state_waits_behind_the_advanced_switch(open_page, dark):
    page = open_page("/games/mamma-mia/dispute", dark=dark)
    page.set_viewport_size(PHONE_390)
    page.locator(".table").wait_for()
    expect(page.locator("#state")).to_be_hidden()
    page.get_by_text(strings()["en"]["table.advanced"]).click()
    expect(page.locator("#state")).to_be_visible()
    assert json.loads(page.input_value("#state"))["game"] == "mamma-mia"
    _fits_a_390_px_phone(page)
