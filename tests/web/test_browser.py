"""The web app as a person at the table uses it, on a 375 px phone in headless Chromium."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from service.web import strings

pytestmark = pytest.mark.browser

ENGLISH = strings()["en"]


def ask(page, question: str):
    """Type a question, press Enter, and return the new turn once its answer is drawn."""
    turns = page.locator(".chat-log > li")
    before = turns.count()
    page.fill("#question", question)
    page.press("#question", "Enter")
    page.wait_for_function(f"document.querySelectorAll('.chat-log > li').length > {before}")
    return turns.nth(before)


def test_a_german_question_about_mamma_mia_opens_the_french_rulebook_at_the_cited_sentence(open_page):
    page = open_page("/games/mamma-mia/chat", locale="de-DE")
    turn = ask(page, "Wie viele Zutatenkarten darf ich pro Zug ausspielen?")
    answer = turn.locator("blockquote").first
    assert answer.get_attribute("lang") == "fr"
    sentence = answer.locator("mark").inner_text()
    assert sentence
    assert "französischen Regelheft" in turn.locator(".msg").inner_text()
    gist = turn.locator(".gist")  # what the French rule says, in German, labelled as Referee's words
    assert gist.get_attribute("lang") == "de"
    assert gist.inner_text().startswith(strings()["de"]["gistWritten"]) and "Zutat" in gist.inner_text()

    turn.get_by_role("link", name=strings()["de"]["openInRulebook"]).click()
    page.wait_for_selector(".passage.cited")
    assert re.search(r"/games/mamma-mia/rulebook/fr\?mark=.+#mamma-mia\.fr\.", page.url)
    cited = page.locator(".passage.cited")
    assert cited.count() == 1
    assert cited.locator("mark").inner_text() == sentence
    assert cited.evaluate("el => el.id") == page.evaluate("decodeURIComponent(location.hash.slice(1))")
    box = cited.bounding_box()
    assert 0 <= box["y"] < page.viewport_size["height"], "the cited passage is scrolled into view"


def test_the_app_installs_and_opens_offline_once_loaded(open_page, client):
    manifest = client.get("/app/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    fields = manifest.get_json()
    assert fields["start_url"] == "/" and fields["display"] == "standalone" and fields["icons"]
    page = open_page("/games/mamma-mia/rulebook/fr")
    page.wait_for_selector(".passage")
    page.wait_for_function("navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller) || false")
    page.reload()  # now through the service worker, which keeps what the page reads
    page.wait_for_selector(".passage")
    page.context.set_offline(True)
    page.reload()
    page.wait_for_selector(".passage")
    assert "Mamma Mia" in page.locator("h1").inner_text()
    page.context.set_offline(False)


def test_an_answers_link_asks_the_same_question_on_another_phone(open_page):
    question = "Wie viele Zutaten braucht die Pizza Bombastica?"
    page = open_page("/games/mamma-mia/chat", locale="de-DE")
    turn = ask(page, question)
    link = turn.get_by_role("link", name=strings()["de"]["linkToAnswer"]).get_attribute("href")
    assert link.endswith("/games/mamma-mia/chat?q=" + quote(question, safe=""))
    other = open_page(link[link.index("/games"):], locale="fr-FR")
    other.wait_for_selector(".chat-log > li blockquote")
    assert other.locator(".chat-log > li .q").first.inner_text() == question
    assert "?" not in other.url, "the link asks once: a reload does not ask again"


def test_an_off_topic_question_is_shown_as_not_in_the_rulebooks(open_page):
    page = open_page("/games/mamma-mia/chat")
    turn = ask(page, "What is the best pizza recipe for dinner tonight?")
    assert turn.locator(".badge").inner_text() == ENGLISH["notInRulebooks"]
    assert turn.locator("mark").count() == 0, "no sentence is presented as the answer"
    assert turn.locator("blockquote").count() >= 1, "the closest passages are shown to check"


def test_an_answer_referee_is_not_sure_of_says_so_and_shows_the_passages_to_compare(open_page):
    page = open_page("/games/mamma-mia/chat", locale="zh-TW")
    turn = ask(page, "一回合可以打出幾張原料牌？")
    traditional = strings()["zh-Hant"]
    assert turn.locator(".badge").first.inner_text() == traditional["notSure"]
    assert turn.locator(".msg").inner_text().startswith("不確定")
    assert turn.locator("blockquote mark").count() == 1, "the closest rule's sentence is marked"
    assert traditional["checkAlso"] in turn.inner_text()
    assert turn.locator("blockquote").count() >= 2, "the other passages are shown whole"


def test_the_conversation_survives_a_reload_and_can_be_cleared(open_page):
    page = open_page("/games/moemmen/chat")
    ask(page, "Who wins Mömmen?")
    page.reload()
    page.wait_for_selector(".chat-log > li")
    assert page.locator(".chat-log .q").all_inner_texts() == ["Who wins Mömmen?"]
    page.get_by_role("button", name=ENGLISH["clear"]).click()
    assert page.locator(".chat-log > li").count() == 0
    page.reload()
    page.wait_for_selector(".suggestions")
    assert page.locator(".chat-log > li").count() == 0


def test_a_suggested_question_and_did_you_mean_are_one_click(open_page):
    page = open_page("/games/mamma-mia/chat", locale="fr-FR")
    first = strings()["fr"]["suggest.mamma-mia"].split("\n")[0]
    page.get_by_role("button", name=first).click()
    page.wait_for_selector(".chat-log > li .a")
    assert page.locator(".chat-log .q").first.inner_text() == first

    turn = ask(page, "pizza bombastca")
    offer = turn.get_by_role("button", name=re.compile("bombastica"))
    offer.click()
    page.wait_for_function("document.querySelectorAll('.chat-log > li').length === 3")
    assert page.locator(".chat-log .q").last.inner_text() == "pizza bombastica"


def test_where_the_mamma_mia_texts_disagree_the_answer_shows_both_sides(open_page):
    page = open_page("/games/mamma-mia/chat")
    turn = ask(page, "What is the Pizza Minimale?")
    sides = turn.locator(".sides blockquote")
    assert sorted(sides.evaluate_all("els => els.map(e => e.lang)")) == ["fr", "zh"]
    assert turn.locator(".badge").first.inner_text() == ENGLISH["disagree"]


def test_the_rulebook_has_contents_search_and_a_side_by_side_view(open_page):
    page = open_page("/games/mamma-mia/rulebook/fr")
    page.wait_for_selector(".passage")
    assert page.locator("details.toc li").count() >= 5
    total = page.locator(".passage").count()
    with page.expect_response(lambda response: "/v1/search" in response.url and "four" in response.url):
        page.fill("#rulebook-search", "four")  # the literal matches at once, Referee's search's after 250 ms
    # then the status says what is shown
    page.wait_for_function("template => document.querySelector('[role=status]').textContent === "
                           "template.replace('{n}', document.querySelectorAll('.passage:not(.hidden)').length)",
                           arg=ENGLISH["matches"])
    shown = page.locator(".passage:not(.hidden)")
    assert 0 < shown.count() < total
    texts = page.locator(".passage").evaluate_all("els => els.map(e => [e.dataset.text.toLowerCase(), !e.classList.contains('hidden')])")
    assert all(visible for text, visible in texts if "four" in text), "every passage that says it is shown"
    assert page.locator(".passage:not(.hidden) mark").first.inner_text().lower() == "four"
    assert page.get_by_role("status").first.inner_text() == ENGLISH["matches"].format(n=shown.count())

    page.fill("#rulebook-search", "oven")  # English, in the French rulebook: Referee's search finds "four"
    page.wait_for_function("document.querySelector('[role=status]').textContent.length > 0 && "
                           "document.querySelectorAll('.passage:not(.hidden)').length > 0")
    page.wait_for_load_state("networkidle")
    found = page.locator(".passage:not(.hidden)").evaluate_all("els => els.map(e => e.dataset.text.toLowerCase())")
    assert found and any("four" in text for text in found)

    page.get_by_role("link", name=re.compile(ENGLISH["sideBySide"])).click()
    page.wait_for_selector(".pair")
    assert page.url.endswith("/games/mamma-mia/rulebook/fr-zh")
    assert page.locator(".pair .passage .text[lang=fr]").count() > 0
    assert page.locator(".pair .passage .text[lang=zh]").count() > 0
    disputed = page.locator(".passage.disputed")
    assert disputed.count() >= 4, "both sides of each recorded disagreement are marked"
    assert page.locator("section.note li").count() >= 2


def _visible_english(page) -> list[str]:
    """English interface strings still visible on the page (or in a placeholder)."""
    # Not interface strings: the asker's own question, the rulebooks' words and Referee's words in
    # the asker's language (each marked with its language), JSON and moves in the engines' own
    # vocabulary, the language picker's endonyms.
    text = page.evaluate("""() => {
        const body = document.body.cloneNode(true);
        body.querySelectorAll('main [lang], .q, code, .move, textarea, #ui-lang').forEach(e => e.remove());
        document.body.append(body); body.style.position = 'absolute';
        const text = body.innerText + ' ' + [...body.querySelectorAll('[placeholder]')].map(e => e.placeholder).join(' ');
        body.remove();
        return text;
    }""")
    left = []
    chinese = strings()["zh-Hans"]
    for key, english in ENGLISH.items():
        if english == chinese.get(key):
            continue
        for piece in re.split(r"\{\w+\}|\n", english):
            piece = piece.strip(" :·()–")
            if len(piece) >= 4 and re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", text):
                left.append(piece)
    return left


@pytest.mark.parametrize("path", ["/", "/games/mamma-mia/chat", "/games/mamma-mia/rulebook/fr-zh",
                                  "/games/mamma-mia/dispute"])
def test_switching_the_interface_to_chinese_changes_every_visible_string(open_page, path):
    page = open_page(path)
    page.wait_for_selector("main h1")
    if path.endswith("/chat"):
        ask(page, "What is the Pizza Minimale?")  # an answer, its sources and a disagreement
    page.wait_for_load_state("networkidle")
    assert _visible_english(page), "the page starts in English"
    page.select_option("#ui-lang", "zh-Hans")
    page.wait_for_function("document.documentElement.lang === 'zh-Hans'")
    page.wait_for_load_state("networkidle")
    assert _visible_english(page) == []
    page.reload()
    page.wait_for_load_state("networkidle")
    assert page.evaluate("document.documentElement.lang") == "zh-Hans", "the choice is remembered"


def test_the_interface_follows_the_browser_language(open_page):
    page = open_page("/", locale="zh-TW")
    page.wait_for_selector(".card")
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    assert page.locator("h1").inner_text() == strings()["zh-Hant"]["games"]
    assert "媽媽咪呀" in page.locator(".cards").inner_text()


def _start(page, game: str, players: int = 3, seed: int = 7, lang: str = "en") -> dict:
    page.wait_for_selector(".moves, .error")
    page.select_option("#players", str(players))
    page.fill("#seed", str(seed))
    page.get_by_role("button", name=strings()[lang]["start"], exact=True).click()
    page.wait_for_function(f"JSON.parse(document.querySelector('#state').value).seed === {seed}")
    page.wait_for_selector(".moves")
    return json.loads(page.input_value("#state"))


def _paste_state(page, state, lang: str = "en") -> None:
    """A state pasted as JSON and loaded, as a player would: behind the page's "Advanced (JSON)" switch."""
    switch = page.locator("details.advanced")
    if switch.get_attribute("open") is None:
        switch.locator("summary").click()
    page.fill("#state", state if isinstance(state, str) else json.dumps(state))
    page.get_by_role("button", name=strings()[lang]["loadState"], exact=True).click()


def test_the_dispute_page_shows_an_illegal_moves_violation_with_its_quote(open_page, client):
    page = open_page("/games/moemmen/dispute")
    state = _start(page, "moemmen")
    assert page.get_by_role("status").first.locator("strong").inner_text() == ENGLISH["turnOf"].format(n=state["turn"] + 1)
    hand = state["players"][state["turn"]]["hand"]
    not_in_hand = next(card for card in state["cards"] if card not in hand and card not in state["table"])
    page.fill("#move", json.dumps({"kind": "swap", "give": not_in_hand, "take": state["table"][0]}))
    page.get_by_role("button", name=ENGLISH["check"]).click()
    page.wait_for_selector(".violation")

    verdict = page.locator(".verdict")
    assert ENGLISH["illegal"] in verdict.locator(".badge").inner_text()
    assert "moemmen/card.in-hand" in verdict.locator(".violation code").all_inner_texts()
    rule = client.get("/v1/passages/moemmen.en.swap.1").get_json()["text"]
    quote = verdict.locator(".violation blockquote").first.inner_text()
    assert quote and quote in rule, "the quote is the rulebook's exact words"

    verdict.get_by_role("link", name=re.compile(ENGLISH["openInRulebook"])).first.click()
    page.wait_for_selector(".passage.cited")
    assert page.locator(".passage.cited mark").inner_text() == quote


@pytest.mark.parametrize("game, lang, locale, words, engine_words", [
    ("mamma-mia", "de", "de-DE", ["Zug", "Zutaten", "ziehen"], ["turn", "ingredients", "draw", "kitchen"]),
    ("mamma", "fr", "fr-FR", ["prendre une carte", "pioche"], ["take", "deck", "movement"]),
    ("moemmen", "de", "de-DE", ["tauschen", "abgeben", "nehmen"], ["swap", "give", "take", "red", "blue", "green"]),
])
def test_the_legal_moves_are_named_in_the_players_language(open_page, game, lang, locale, words, engine_words):
    page = open_page(f"/games/{game}/dispute", locale=locale)
    _start(page, game, lang=lang)
    listed = page.locator(".moves").inner_text()
    for word in words:
        assert word in listed
    for word in engine_words:
        assert not re.search(rf"\b{word}\b", listed), f"{word!r} is the engine's word, not the player's"


def test_a_legal_move_that_rests_on_the_tables_reading_says_so_in_the_players_language(open_page):
    """A table that reads a sideways first step at dinner as 1 mp sees the Son's step judged legal,
    and that the other reading of the rulebook's words would refuse it, quoted."""
    from tests.engines.test_mamma import read, son_sideways_at_dinner, step

    french = strings()["fr"]
    page = open_page("/games/mamma/dispute", locale="fr-FR")
    _start(page, "mamma", lang="fr")
    _paste_state(page, read(son_sideways_at_dinner(), sideways_first_space="one-mp"), "fr")
    page.fill("#move", json.dumps(step("son", "10")))
    page.get_by_role("button", name=french["check"], exact=True).click()
    page.wait_for_selector(".verdict .violation")
    verdict = page.locator(".verdict")
    assert french["legal"] in verdict.locator(".badge").inner_text()
    assert french["otherReading"] in verdict.locator("h3").all_inner_texts()
    note = verdict.locator(".violation").first
    assert "mamma/move.mp" in note.locator("code").inner_text()
    assert "Permis selon la lecture" in note.inner_text()  # the reading the table chose, and the other, in French
    assert "If the first space is forwards" in " ".join(note.locator("blockquote").all_inner_texts())


def test_mammas_secret_characters_points_stay_folded_on_the_shared_screen(open_page):
    page = open_page("/games/mamma/dispute")
    _start(page, "mamma", players=4)
    secrets = page.locator(".standings details")
    expect(secrets).to_have_count(4)
    assert not secrets.first.locator("ul").is_visible(), "a player's secret character's points are folded"
    secrets.first.locator("summary").click()
    assert secrets.first.locator("ul").is_visible()


def test_a_legal_move_is_played_and_a_replayed_log_jumps_to_its_first_illegal_move(open_page):
    page = open_page("/games/mamma-mia/dispute")
    state = _start(page, "mamma-mia", players=2, seed=11)
    standings = page.locator(".standings > ol > li")
    # who is winning: both players, from POST /score (which answers after the state is drawn)
    expect(standings).to_have_count(2)
    assert "0 completed orders" in standings.first.inner_text()
    assert standings.first.get_by_role("link").count() >= 1, "each line links its rule"
    page.locator(".moves button").first.click()
    legal_move = json.loads(page.input_value("#move"))
    page.get_by_role("button", name=ENGLISH["check"]).click()
    page.wait_for_selector(".verdict .badge.ok")
    page.get_by_role("button", name=ENGLISH["apply"]).click()
    page.wait_for_function(f"JSON.parse(document.querySelector('#state').value).turn !== {state['turn']}")
    assert json.loads(page.input_value("#log")) == [legal_move]

    page.fill("#log", json.dumps([legal_move, {"kind": "pass"}, {"kind": "pass"}]))
    page.get_by_role("button", name=ENGLISH["replay"], exact=True).click()
    page.wait_for_selector(".badge.bad")
    headline = page.locator(".badge.bad").first.inner_text()
    index = int(re.search(r"\d+", headline).group())
    assert headline == ENGLISH["firstIllegal"].format(i=index) and index >= 2
    page.get_by_role("button", name=ENGLISH["jump"]).click()
    page.wait_for_selector(".verdict .violation")
    assert json.loads(page.input_value("#move")) == {"kind": "pass"}


@pytest.mark.parametrize("path", ["/games/chess/chat", "/nowhere", "/games/mamma-mia/scores"])
def test_an_unknown_page_is_a_404_page_in_the_interface_language_with_a_way_back(open_page, base_url, path):
    page = open_page("/", locale="fr-FR")
    response = page.goto(base_url + path)
    assert response.status == 404
    page.wait_for_selector("main h1")
    assert page.locator("h1").inner_text() == strings()["fr"]["noGame"]
    page.get_by_role("link", name=strings()["fr"]["backHome"]).click()
    page.wait_for_selector(".card")


def test_a_refusal_without_close_passages_shows_nothing_stray(open_page):
    page = open_page("/games/moemmen/chat")
    turn = ask(page, "What's the weather tomorrow?")
    assert turn.locator(".badge").inner_text() == ENGLISH["notInRulebooks"]
    lines = [line.strip() for line in turn.locator(".a").inner_text().split("\n") if line.strip()]
    assert all(not line.isdigit() for line in lines), lines


def test_an_impossible_state_gets_a_headline_in_the_interface_language(open_page):
    page = open_page("/games/mamma-mia/dispute", locale="de-DE")
    page.wait_for_selector(".moves")
    state = json.loads(page.input_value("#state"))
    _paste_state(page, {**state, "turn": 9}, "de")  # a player who is not at the table
    error = page.locator(".error")
    error.wait_for()
    assert error.locator("strong").inner_text() == strings()["de"]["error.422"]
    error.locator("summary").click()
    assert "turn" in error.locator("details").inner_text(), "the broken field is named under the headline"
    page.fill("#move", "{kind: pass")
    page.get_by_role("button", name=strings()["de"]["check"]).click()
    assert page.locator(".verdict .error strong").inner_text() == strings()["de"]["badJson"]


def _visit_every_page(open_page, dark: bool = False):
    """Each page once, with an answer, a disagreement and a verdict on screen; yields the page."""
    page = open_page("/", dark=dark)
    page.wait_for_selector(".card")
    yield page
    page.goto(page.url + "games/mamma-mia/chat")
    ask(page, "What is the Pizza Minimale?")
    ask(page, "What is the best pizza recipe for dinner tonight?")
    yield page
    for path in ("/games/mamma-mia/rulebook/fr#mamma-mia.fr.turn.1", "/games/mamma-mia/rulebook/fr-zh",
                 "/games/mamma/rulebook/en"):
        page.goto(page.url.split("/games/")[0] + path)
        page.wait_for_selector(".passage")
        yield page
    page.goto(page.url.split("/games/")[0] + "/games/moemmen/dispute")
    page.wait_for_selector(".moves")
    page.fill("#move", json.dumps({"kind": "swap", "give": "nothing", "take": "nothing"}))
    page.get_by_role("button", name=ENGLISH["check"]).click()
    page.wait_for_selector(".verdict .badge, .verdict .error")
    yield page
    page.goto(page.url.split("/games/")[0] + "/games/mamma/dispute")
    page.wait_for_selector("main h1")
    yield page


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_axe_finds_no_serious_or_critical_violation_on_any_page(open_page, axe_source, dark):
    for page in _visit_every_page(open_page, dark):
        page.wait_for_load_state("networkidle")
        page.evaluate(axe_source)
        found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .filter(v => ['serious', 'critical'].includes(v.impact))
            .map(v => `${v.id}: ${v.help} (${v.nodes.map(n => n.target.join(' ')).slice(0, 3).join('; ')})`)""")
        assert found == [], f"{page.url}: {found}"


def test_nothing_scrolls_sideways_on_a_375_px_phone(open_page):
    for page in _visit_every_page(open_page):
        page.wait_for_load_state("networkidle")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"{page.url} is {width} px wide"


def test_a_game_page_first_load_transfers_under_150_kb(open_page):
    page = open_page("/games/mamma-mia/chat")
    page.wait_for_selector("#question")
    page.wait_for_load_state("networkidle")
    transferred = page.evaluate("""() => performance.getEntriesByType('navigation')[0].transferSize +
        performance.getEntriesByType('resource').reduce((sum, r) => sum + r.transferSize, 0)""")
    assert 0 < transferred < 150 * 1024, transferred


def test_the_api_documentation_page_renders_the_openapi_31_description(open_page):
    page = open_page("/docs")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "Referee" in page.locator(".swagger-ui .info .title").inner_text()
    assert "Unable to render" not in page.inner_text("body")
    assert page.locator(".opblock-tag-section").count() >= 5  # health, games, search, ask, adjudicate
