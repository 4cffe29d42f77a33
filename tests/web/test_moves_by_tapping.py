"""Moves entered by tapping on the Dispute page (issue 36, item 3), on a 390 px phone: the legal
moves as buttons, a move built from the game's own components and checked (legal or not), Mamma's
path space by space, and a Mammut Mambo round told as what each dancer did. No JSON is typed."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from service.engines import ENGINES
from service.web import strings
from tests.web.test_browser import _paste_state, _start

pytestmark = pytest.mark.browser

WIDTH = 390


def _words(client, game: str, lang: str) -> dict[str, str]:
    games = {g["id"]: g for g in client.get("/v1/games").get_json()["games"]}
    return games[game]["adjudicator"]["words"][lang]


def _quoted(client, verdict) -> list[str]:
    """Each quote of the verdict, checked to be the rulebook's exact words."""
    quotes = verdict.locator("blockquote").all_inner_texts()
    links = verdict.locator("blockquote + p a").evaluate_all("els => els.map(a => decodeURIComponent(a.hash.slice(1)))")
    assert quotes and len(quotes) == len(links)
    for quote, passage in zip(quotes, links):
        text = " ".join(client.get(f"/v1/passages/{passage}").get_json()["text"].split())
        assert " ".join(quote.split()) in text, f"{quote!r} is not in {passage}"
    return quotes


def _typed_nothing(page) -> None:
    assert page.evaluate("document.activeElement?.tagName") != "TEXTAREA"


def test_a_german_player_taps_a_mamma_mia_turn_and_reads_the_german_verdict_with_the_rule_quoted(open_page, client):
    german, words = strings()["de"], _words(client, "mamma-mia", "de")
    page = open_page("/games/mamma-mia/dispute", locale="de-DE", width=WIDTH)
    state = _start(page, "mamma-mia", players=3, seed=7, lang="de")
    tap = page.locator(".tap")
    expect(tap.locator("h2").first).to_have_text(german["moves.now"])

    # what can I do now: a legal move, tapped, is checked and can be played
    tap.locator(".moves .move-tap").first.click()
    expect(tap.locator(".tap-verdict .badge")).to_contain_text(german["legal"])
    expect(tap.get_by_role("button", name=german["moves.play"], exact=True)).to_be_visible()

    # is my move allowed: two kinds of ingredient into the oven, tapped
    hand = state["players"][state["turn"]]["hand"]["ingredients"]
    two = [kind for kind, n in hand.items() if n][:2]
    assert len(two) == 2, hand
    tap.locator(".kinds").get_by_role("button", name=words["turn"], exact=True).click()
    for kind in two:
        tap.get_by_role("button", name=f"{german['moves.more']}: {words[kind]}", exact=True).click()
    tap.get_by_role("button", name=german["moves.check"], exact=True).click()
    verdict = tap.locator(".tap-verdict")
    expect(verdict.locator(".badge")).to_contain_text(german["illegal"])
    move = {"kind": "turn", "ingredients": {kind: 1 for kind in two}}
    expected = [v.message for v in ENGINES["mamma-mia"].check(state, move, "de")]
    assert "mamma-mia/turn.same-kind" in verdict.locator(".violation code").all_inner_texts()
    assert verdict.locator(".violation strong").all_inner_texts() == expected
    assert any(re.search(r"\b(der|die|das|und|nicht)\b", m) for m in expected), "the verdict is German"
    assert _quoted(client, verdict)
    assert tap.get_by_role("button", name=german["moves.play"], exact=True).count() == 0, "an illegal move is not played"
    assert json.loads(page.input_value("#move"))["ingredients"] == move["ingredients"], "the JSON follows the taps"
    _typed_nothing(page)


def test_a_mamma_path_with_a_crossing_is_tapped_space_by_space_and_checked_in_chinese(open_page, client):
    """The rulebook's stealing: the Wife crosses the Grandpa and the Grandma, taking a vertical
    ingredient from each (tests/engines/test_mamma.py's situation), tapped on the city's spaces."""
    from tests.engines.test_mamma import MP, arrange

    chinese, words = strings()["zh-Hans"], _words(client, "mamma", "zh-Hans")
    state = arrange(ingredients={"grandpa": ["ing-1"], "grandma": ["ing-2"]}, pieces={"grandpa": "4", "grandma": "3"}, turn=MP(3))
    page = open_page("/games/mamma/dispute", locale="zh-CN", width=WIDTH)
    _start(page, "mamma", lang="zh-Hans")
    _paste_state(page, state, "zh-Hans")  # the position of the dispute, as a table would load it
    page.wait_for_function("JSON.parse(document.querySelector('#state').value).pieces.grandpa === '4'")
    tap = page.locator(".tap")
    tap.locator(".kinds").get_by_role("button", name=words["move"], exact=True).click()
    tap.get_by_role("button", name=words["wife"], exact=True).click()
    board = tap.locator(".path-board")
    expect(board.locator(".chip[data-space='4']")).to_contain_text(words["grandpa"])  # who stands where
    for space, stolen in (("4", "1"), ("3", "2"), ("2", None)):
        board.locator(f".chip[data-space='{space}']").click()
        if stolen:
            extras = tap.locator(".step-extras")
            expect(extras).to_have_attribute("open", "")  # a crossing: what the rules offer there, at once
            extras.get_by_role("button", name=f"{words['ingredient']} {stolen}", exact=True).click()
    expect(tap.locator(".path li")).to_have_count(3)
    tap.get_by_role("button", name=chinese["moves.checkPath"], exact=True).click()
    verdict = tap.locator(".tap-verdict")
    expect(verdict.locator(".badge")).to_contain_text(chinese["legal"])
    assert chinese["moves.wholePath"].format(n=3) in verdict.inner_text()

    tap.get_by_role("button", name=chinese["moves.play"], exact=True).click()
    page.wait_for_function("JSON.parse(document.querySelector('#state').value).pieces.wife === '2'")
    after = json.loads(page.input_value("#state"))
    assert sorted(i["card"] for i in after["characters"]["wife"]["ingredients"]) == ["ing-1", "ing-2"]
    assert [m["to"] for m in json.loads(page.input_value("#log"))] == ["4", "3", "2"]

    # the same way without the second theft is still judged, step by step
    tap.locator(".kinds").get_by_role("button", name=words["move"], exact=True).click()
    tap.get_by_role("button", name=words["grandma"], exact=True).click()
    tap.locator(".path-board .chip[data-space='9']").click()
    tap.get_by_role("button", name=chinese["moves.checkPath"], exact=True).click()
    expect(verdict.locator(".badge")).to_be_visible()
    assert chinese["moves.stepOf"].split("{")[0].strip() in verdict.inner_text()
    _typed_nothing(page)


def test_moemmens_tim_is_tapped_refused_then_played_in_french(open_page, client):
    french, words = strings()["fr"], _words(client, "moemmen", "fr")
    page = open_page("/games/moemmen/dispute", locale="fr-FR", width=WIDTH)
    state = _start(page, "moemmen", players=3, seed=5, lang="fr")
    hand = state["players"][state["turn"]]["hand"]
    assert "tim-2" in hand and "green+7" in hand and {"green+4", "yellow-3"} <= set(state["table"])
    tap = page.locator(".tap")
    tap.locator(".kinds").get_by_role("button", name=words["tim"], exact=True).click()
    fields = tap.locator(".field")
    fields.nth(0).get_by_role("button", name=words["tim"], exact=True).click()  # the Tim of the hand
    fields.nth(1).get_by_role("button", name=f"{words['green']} +7", exact=True).click()
    fields.nth(2).get_by_role("button", name=f"{words['yellow']} -3", exact=True).click()
    tap.get_by_role("button", name=french["moves.check"], exact=True).click()
    verdict = tap.locator(".tap-verdict")
    expect(verdict.locator(".badge")).to_contain_text(french["illegal"])
    assert verdict.locator(".violation code").all_inner_texts() == ["moemmen/tim.exchange"]
    assert verdict.locator(".violation strong").inner_text().startswith("Après Tim, on échange")
    assert _quoted(client, verdict)

    fields.nth(2).get_by_role("button", name=f"{words['green']} +4", exact=True).click()
    tap.get_by_role("button", name=french["moves.check"], exact=True).click()
    expect(verdict.locator(".badge")).to_contain_text(french["legal"])
    tap.get_by_role("button", name=french["moves.play"], exact=True).click()
    page.wait_for_function("JSON.parse(document.querySelector('#state').value).phase === 'mommen'")
    assert json.loads(page.input_value("#log")) == [{"kind": "tim", "card": "tim-2", "give": "green+7", "take": "green+4"}]
    # the others must answer Mömmen: the page offers that, and only that, at once
    expect(tap.locator(".kinds .chip[aria-pressed=true]")).to_have_text(words["respond"])
    _typed_nothing(page)


def test_a_mammut_mambo_round_is_told_and_the_verdict_names_the_dancer_who_erred(open_page, client):
    english, words = strings()["en"], _words(client, "mammut-mambo", "en")
    page = open_page("/games/mammut-mambo/dispute", width=WIDTH)
    _start(page, "mammut-mambo", players=3, seed=7)
    tap = page.locator(".tap")
    tap.locator(".moves .move-tap").first.click()  # the only move: turn a card over
    expect(tap.locator(".tap-verdict .badge")).to_contain_text(english["legal"])
    tap.get_by_role("button", name=english["moves.play"], exact=True).click()
    page.wait_for_function("JSON.parse(document.querySelector('#state').value).phase === 'dance'")
    state = json.loads(page.input_value("#state"))
    expect(tap.locator(".kinds .chip[aria-pressed=true]")).to_have_text(words["dance"])

    dancers = tap.locator(".dancer")
    expect(dancers).to_have_count(3)
    assert english["moves.due"] in tap.inner_text()
    second = dancers.nth(1)
    second.get_by_role("button", name=english["moves.mistake"], exact=True).click()
    second.locator("select").nth(1).select_option("")  # no shout where one was due
    assert english["moves.dancedOtherwise"].format(names="Player 2") in tap.locator(".preview").inner_text()
    tap.get_by_role("button", name=english["moves.check"], exact=True).click()

    verdict = tap.locator(".tap-verdict")
    expect(verdict.locator(".badge")).to_contain_text(english["legal"])  # a dance is never illegal: mistakes are judged
    assert verdict.locator("h3").inner_text() == english["mistakes"]
    mistakes = verdict.locator(".violation")
    expect(mistakes).to_have_count(1)
    assert mistakes.locator("strong").inner_text().startswith("Player 2: ")
    assert mistakes.locator("code").inner_text() == "mammut-mambo/dance.wrong-shout"
    assert "makes the wrong gesture or the wrong shout," in _quoted(client, mistakes)

    tap.get_by_role("button", name=english["moves.play"], exact=True).click()
    page.wait_for_function("JSON.parse(document.querySelector('#state').value).phase === 'turn'")
    after = json.loads(page.input_value("#state"))
    played = sum(len(p["played"]) for p in state["players"])
    assert len(after["players"][1]["pile"]) == len(state["players"][1]["pile"]) + played, "the dancer who erred takes the cards"
    _typed_nothing(page)
