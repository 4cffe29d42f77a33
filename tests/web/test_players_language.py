"""Every word of a dispute page in the players' language (issue 36): no English, and in Chinese no
character of the other script, on the dispute pages in French, German, Simplified and Traditional
Chinese; and none in the strings and the engines' words and messages those pages are drawn from.

What may stay as it is: the rulebooks' quotes (their exact words, shown as quotes in the rulebook's
language and checked against it here), the games' names, Referee's, ids and numbers, and the JSON a
player may paste (the text areas and rule codes).

How an English word is told, without taking French or German for it: a word of the English Referee
itself writes (its interface strings, the engines' words and messages) or an English function word,
which the language's dictionary (pyspellchecker's word lists) lacks or has ten times rarer, and
which the language's own strings and messages do not use as a word (ids such as scoring-round do
not count); a capitalised German noun is German. Whole English phrases of Referee's are looked for
too. In Chinese any word in Latin letters is English unless it is a name; Simplified pages must
show no character that OpenCC's t2s changes, Traditional ones none that s2tw changes and t2s keeps.
"""

from __future__ import annotations

import functools
import json
import random
import re
from pathlib import Path

import opencc
import pytest
import yaml

from indexer.analysis import to_simplified
from indexer.corpus import game_names
from service.engines import ENGINES, adjudicate, base
from service.web import strings
from tests.web.test_browser import _paste_state

RULES = Path(base.__file__).resolve().parent / "rules"
LOCALES = {"fr": "fr-FR", "de": "de-DE", "zh-Hans": "zh-CN", "zh-Hant": "zh-TW"}

# Names a page may show in any language: Referee's own, and the formats a state or a rulebook is written in.
NAMES = {"Referee", "JSON", "Markdown"}
# English words the product may not happen to write in English but would when untranslated.
FUNCTION_WORDS = set("""the a an and or of to in on at by for from with without into onto over under after before
until is are was were be been has have had can cannot may must not no this that these those it its his her their
your you he she they who which what when where whose each every all any one only there here than then if so as
do does did more most less least some none already still yet also just""".split())
WORD = re.compile(r"[^\W\d_]+")  # a run of letters (any script's; Han runs are dropped below)
LATIN = re.compile(r"[A-Za-zÀ-ÿŒœ]")
ID = re.compile(r"\w+(?:[-_+]\w+)+")
NUMBERED = re.compile(r"\w*\d[\w+-]*|\w+[-+]\d\w*")  # ids with a number (mp-5, g05): no words


def _entries(node, source: str):
    """Every string a rules file gives in several languages ({en:, fr:, de:, zh:}), with where."""
    if isinstance(node, dict):
        if "en" in node and all(isinstance(v, str) for v in node.values()):
            yield source, node
        else:
            for key, value in node.items():
                yield from _entries(value, node.get("code", source) if isinstance(key, str) else source)
    elif isinstance(node, list):
        for value in node:
            yield from _entries(value, source)


@functools.cache
def product_entries() -> tuple[tuple[str, dict[str, str]], ...]:
    """What Referee itself writes, each with where and by language (en, fr, de, zh-Hans, zh-Hant):
    the interface's strings, and the engines' words, messages, readings and interpretations."""
    out = []
    for path in sorted(RULES.glob("*.yaml")):
        out += _entries(yaml.safe_load(path.read_text(encoding="utf-8")), path.name)
    out += _entries([base.NOTHING, base.RESTS_ON, base.LEGAL_UNDER, base.SCORED_UNDER], "service/engines/base.py")
    out = [(where, {**texts, "zh-Hant": texts["zh"], "zh-Hans": to_simplified(texts["zh"])}) for where, texts in out]
    table = strings()
    out += [(f"strings.src.json {key}", {lang: table[lang][key] for lang in table if key in table[lang]})
            for key in table["en"] if not key.startswith("game.")]
    return tuple(out)


@functools.cache
def product_texts() -> dict[str, list[str]]:
    """lang -> what Referee writes in it."""
    out: dict[str, list[str]] = {}
    for _, texts in product_entries():
        for lang, text in texts.items():
            out.setdefault(lang, []).append(text)
    return out


def _words(texts, case=str.lower) -> set[str]:
    return {case(word) for text in texts for word in WORD.findall(re.sub(r"\{\w+\}", " ", text)) if LATIN.match(word)}


def _own_words(lang: str) -> frozenset[str]:
    """The words of ``lang``'s own strings and messages, leaving out ids written in them
    (scoring-round, money_paid), which are no word of the language."""
    return frozenset(_words(ID.sub(" ", text) for text in product_texts()[lang]))


@functools.cache
def names(lang: str) -> frozenset[str]:
    """Names a page in ``lang`` may show as they are: the games' in every language, Referee's, and
    the games' words that every language writes alike (the shouts on Mammut Mambo's cards); in
    French and German also the names that English, French and German write alike (Tim,
    Benny, Pizza Bombastica), which Chinese writes in Chinese."""
    games = _words([name for game in game_names().values() for name in game.values()] + sorted(NAMES)
                   + [texts["en"] for where, texts in product_entries() if len(set(texts.values())) == 1])
    if lang.startswith("zh"):
        return frozenset(games)
    alike = set.intersection(*(_words(product_texts()[lang], case=str) for lang in ("en", "fr", "de")))
    return frozenset(games | {word.lower() for word in alike if word[0].isupper()})


@functools.cache
def dictionary(lang: str) -> dict[str, float]:
    """Words of a language by frequency per million (pyspellchecker's lists, from subtitles)."""
    from spellchecker import SpellChecker

    counts = SpellChecker(language=lang).word_frequency.dictionary
    total = sum(counts.values()) / 1e6
    return {word: n / total for word, n in counts.items()}


@functools.cache
def english_words() -> frozenset[str]:
    """The English Referee writes (its strings' and engines' words) and English function words."""
    return frozenset((_words(product_texts()["en"]) | FUNCTION_WORDS) - names("en"))


def is_english(word: str, lang: str) -> bool:
    """Whether ``word``, on a page in French or German, is an English word of Referee's rather than
    one of the language's: English words the language's dictionary lacks, or has ten times rarer
    (a loanword like "round" in French); German nouns, capitalised, are taken as German."""
    lower = word.lower()
    if lower not in english_words() or lower in names(lang) or word.isupper() or len(word) < 2:
        return False
    if lower in dictionary(lang) and (lower in _own_words(lang) or (lang == "de" and word[0].isupper())):
        return False
    return dictionary(lang).get(lower, 0) * 10 < dictionary("en").get(lower, 0) or lower not in dictionary(lang)


@functools.cache
def english_phrases(lang: str) -> tuple[str, ...]:
    """The product's English phrases of two words or more (its texts cut at placeholders and
    punctuation), longest first, except those ``lang`` writes the same way."""
    own = "\n".join(product_texts()[lang])
    pieces = {piece.strip() for text in product_texts()["en"] for piece in re.split(r"\{\w+\}|[\n.:;,()!?\"“”]", text)}
    return tuple(sorted((p for p in pieces if len(p.split()) >= 2 and p not in own), key=len, reverse=True))


_TO_TRADITIONAL = opencc.OpenCC("s2tw")
HAN = re.compile(r"[\u3400-\u9fff]")


@functools.cache
def other_script(char: str, lang: str) -> bool:
    """Whether a Han character belongs to the other script: on a Simplified page, one that OpenCC's
    t2s changes; on a Traditional page, one that s2tw changes and t2s keeps (a Simplified form).
    Character by character: a phrase's context would not make a character right or wrong."""
    if lang == "zh-Hans":
        return to_simplified(char) != char
    return _TO_TRADITIONAL.convert(char) != char and to_simplified(char) == char


def foreign(text: str, lang: str) -> list[str]:
    """What in ``text`` (a string the page shows in ``lang``'s interface) is English, or written
    in the other Chinese script: each offending word or phrase, empty when there is none."""
    found = []
    text = NUMBERED.sub(" ", re.sub(r"\{\w+\}", " ", text))
    for phrase in english_phrases(lang):
        if re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text):
            found.append(phrase)
            text = text.replace(phrase, " ")
    if lang.startswith("zh"):
        latin = [w for w in WORD.findall(text) if LATIN.match(w) and len(w) > 1 and not w.isupper() and w.lower() not in names(lang)]
        found += latin
        found += [c for c in text if HAN.match(c) and other_script(c, lang)]
    else:
        found += [w for w in WORD.findall(text) if is_english(w, lang)]
    return found


# ---------------------------------------------------------------- what the product writes


def _reading_sentences():
    """How a verdict or a score line names the table's reading, filled in for each reading option
    of each game (its placeholders hide the words the scan must see)."""
    for game, engine in ENGINES.items():
        for option in getattr(engine, "readings", ()):
            for template in (base.RESTS_ON, base.LEGAL_UNDER, base.SCORED_UNDER):
                said = {lang: base.reading_said(option, option.default, template, lang, points=3)[0]
                        for lang in ("fr", "de", "zh")}
                yield f"{game} {option.option}", {**said, "zh-Hant": said["zh"], "zh-Hans": to_simplified(said["zh"])}


@pytest.mark.parametrize("lang", list(LOCALES))
def test_every_string_and_message_is_written_in_its_language(lang):
    found = {f"{where}: {texts[lang]!r} -> {words}" for where, texts in [*product_entries(), *_reading_sentences()]
             if lang in texts and (words := foreign(texts[lang], lang))}
    assert not found, "\n".join(sorted(found))


def test_the_detector_tells_english_and_the_other_script_without_false_alarms():
    assert foreign("Player 2 has already swapped with the table this round", "fr")
    assert foreign("Coup interdit : the card is not in the hand", "fr")
    assert foreign("La carte blue-3 n’est pas dans la main du joueur 2.", "fr") == []
    assert foreign("Die Karte blue-3 ist nicht auf der Hand des Spielers.", "de") == []
    assert foreign("Le jouer · Mamma Mia ! · Referee", "fr") == []
    assert foreign("轮到玩家 2", "zh-Hans") == [] and foreign("輪到玩家 2", "zh-Hans") == ["輪"]
    assert foreign("輪到玩家 2", "zh-Hant") == [] and foreign("轮到玩家 2", "zh-Hant") == ["轮"]
    assert foreign("不能打出 swap", "zh-Hant") == ["swap"]
    assert foreign("每回合最多只能打出一張訂單", "zh-Hant") == [], "只 is Traditional too"
    assert foreign("Cette table a choisi la variante scoring-round.", "fr") == ["scoring", "round"], "an id is no word"
    assert foreign("Die Hand, der Stapel, die Karten: es will passen.", "de") == []


# ---------------------------------------------------------------- the dispute pages

SCAN = r"""() => {
    document.querySelectorAll('details').forEach((d) => { d.open = true; });
    const out = [];
    const skipped = (el) => el.closest('textarea, script, style, code, noscript, #ui-lang');
    const seen = (el) => el.checkVisibility({ visibilityProperty: true });
    const where = (el) => { const parts = []; for (let e = el; e && e !== document.body; e = e.parentElement)
        parts.unshift(e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : ''));
        return parts.slice(-4).join(' > '); };
    const passageOf = (link) => link && link.hash ? decodeURIComponent(link.hash.slice(1)) : null;
    // A quote: a blockquote in the rulebook's language, the link after it naming its passage.
    const quoteOf = (el) => { const q = el.closest('blockquote[lang]');
        return q ? (passageOf(q.nextElementSibling?.querySelector('a[href*="#"]')) || '?') : null; };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        const text = node.textContent.trim();
        if (!text || skipped(el) || !seen(el)) continue;
        out.push({ text, where: where(el), lang: el.closest('[lang]').lang, quote: quoteOf(el) });
    }
    for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt], option')) {
        if (skipped(el)) continue;
        for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
            const text = (el.getAttribute(name) || '').trim();
            // A link's title that is a rulebook's words: its passage is the link's.
            if (text) out.push({ text, where: `${where(el)} @${name}`, lang: el.closest('[lang]').lang,
                                 quote: name === 'title' && el.tagName === 'A' ? passageOf(el) : null });
        }
        if (el.tagName === 'OPTION') out.push({ text: el.textContent.trim(), where: where(el), lang: el.closest('[lang]').lang, quote: null });
    }
    out.push({ text: document.title, where: 'title', lang: document.documentElement.lang, quote: null });
    return out;
}"""


def _walk(engine, state: dict, steps: int, seed: int) -> dict:
    """The state after ``steps`` moves chosen at random among the legal ones (fewer if it ends)."""
    rng = random.Random(seed)
    for _ in range(steps):
        moves = engine.legal_moves(state)
        if not moves or engine.result(state) is not None:
            break
        state = adjudicate(engine, state, rng.choice(moves), "en")["state"]
    return state


def _finished(engine, state: dict, seed: int, limit: int = 400) -> dict | None:
    """A finished game played at random from ``state``, if one ends within ``limit`` moves."""
    state = _walk(engine, state, limit, seed)
    return state if engine.result(state) is not None else None


def _strings_in(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _strings_in(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _strings_in(inner)


def _mutations(move: dict, pool: list[str]):
    """Moves one field away from a legal move: another id, one more, one too many, none."""
    for key, value in move.items():
        if key == "kind" or value is None:
            continue
        if isinstance(value, bool):
            yield {**move, key: not value}
        elif isinstance(value, int):
            yield {**move, key: value + 1}
        elif isinstance(value, str):
            yield from ({**move, key: other} for other in pool if other != value)
        elif isinstance(value, dict):
            yield from ({**move, key: {**value, k: n + 2}} for k, n in value.items() if isinstance(n, int))
        elif isinstance(value, list):
            yield {**move, key: value + value[:1]}
            yield {**move, key: []}


def _illegal_moves(client, game: str, state: dict, wanted: int = 3) -> list[dict]:
    """Up to ``wanted`` illegal moves in ``state``, each breaking a different rule first: legal
    moves with one field changed, as the API judges them."""
    legal = ENGINES[game].legal_moves(state)
    pool = sorted({s for move in legal for s in _strings_in(move)} | set(state.get("cards") or ()))[:40]
    found: dict[str, dict] = {}
    for move in legal[:20]:
        for candidate in _mutations(move, pool):
            answer = client.post(f"/v1/games/{game}/adjudicate", json={"state": state, "move": candidate, "lang": "en"})
            assert answer.status_code < 500, f"{candidate}: {answer.get_json()}"
            if answer.status_code == 200 and not answer.get_json()["legal"]:
                found.setdefault(answer.get_json()["violations"][0]["code"], candidate)
                if len(found) == wanted:
                    return list(found.values())
    return list(found.values())


class Scan:
    """What a page showed, looked over for words not in the interface's language."""

    def __init__(self, page, client, lang: str):
        self.page, self.client, self.lang = page, client, lang
        self.found: dict[str, str] = {}
        self.texts = 0
        self.passages: dict[str, str] = {}

    def passage(self, passage_id: str) -> str:
        """A passage's text, its whitespace folded ("" for no such passage)."""
        if passage_id not in self.passages:
            answer = self.client.get(f"/v1/passages/{passage_id}")
            self.passages[passage_id] = " ".join(answer.get_json()["text"].split()) if answer.status_code == 200 else ""
        return self.passages[passage_id]

    def __call__(self, step: str) -> None:
        self.page.wait_for_load_state("networkidle")
        for item in self.page.evaluate(SCAN):
            text, said = item["text"], f"{step}: {item['where']}: {item['text']!r}"
            self.texts += 1
            if item["quote"] is not None:
                if " ".join(text.split()) not in self.passage(item["quote"]):
                    self.found[said] = f"shown as a quote of {item['quote']}, but not the rulebook's words"
            elif item["lang"] != self.lang:
                self.found[said] = f"marked as {item['lang']!r}, not the interface's language, and no quote"
            elif words := foreign(text, self.lang):
                self.found[said] = ", ".join(map(repr, words))


def _load(page, lang: str, state: dict) -> None:
    """A state pasted and loaded, as a player would, once its moves and standings are drawn."""
    page.locator(".standings").evaluate("el => el.remove()")
    _paste_state(page, state, lang)
    page.wait_for_selector(".standings")


def _check(page, lang: str, move: dict) -> None:
    page.locator(".verdict").evaluate("el => el.replaceChildren()")
    page.fill("#move", json.dumps(move))
    page.get_by_role("button", name=strings()[lang]["check"], exact=True).click()
    page.wait_for_selector(".verdict .badge, .verdict .error")


@pytest.mark.browser
@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("game", list(ENGINES))
def test_a_dispute_page_shows_no_word_outside_the_players_language(open_page, client, game, lang):
    """A game started, a game under way with its legal moves, a legal move played, illegal moves
    judged, a log replayed to its first illegal move and, where one ends quickly, a finished game."""
    say = strings()[lang]
    engine = ENGINES[game]
    page = open_page(f"/games/{game}/dispute", locale=LOCALES[lang])
    page.wait_for_selector(".moves")
    assert page.evaluate("document.documentElement.lang") == lang
    page.select_option("#players", "3")
    page.fill("#seed", "7")  # the page draws a seed at random; this test's games are the same each run
    page.get_by_role("button", name=say["start"], exact=True).click()
    page.wait_for_function("JSON.parse(document.querySelector('#state').value).seed === 7")
    page.wait_for_selector(".moves")
    scan = Scan(page, client, lang)
    scan("a game started")

    state = _walk(engine, json.loads(page.input_value("#state")), 20, seed=1)
    _load(page, lang, state)
    if page.get_by_role("button", name=re.compile(re.escape(say["showAll"].split("{")[0].strip()))).count():
        page.locator(".moves + button, .moves ~ button").first.click()
    scan("a game under way")

    page.locator(".moves button").first.click()
    legal = json.loads(page.input_value("#move"))
    _check(page, lang, legal)
    scan("a legal move checked")
    before = page.input_value("#state")
    page.get_by_role("button", name=say["apply"], exact=True).click()
    page.wait_for_function("before => document.querySelector('#state').value !== before", arg=before)
    page.wait_for_selector(".moves, .standings")
    scan("the legal move played")

    after = json.loads(page.input_value("#state"))
    illegal = _illegal_moves(client, game, after)
    assert illegal or engine.result(after) is not None, "an illegal move to show"
    for n, move in enumerate(illegal):
        _check(page, lang, move)
        page.wait_for_selector(".verdict .violation")
        scan(f"illegal move {n + 1} checked: {json.dumps(move)}")

    if illegal:
        page.fill("#log", json.dumps([legal, illegal[0]]))
        page.get_by_role("button", name=say["replay"], exact=True).click()
        page.wait_for_selector(".badge.bad")
        scan("a log replayed")

    finished = _finished(engine, state, seed=2)
    if finished is not None:
        _load(page, lang, finished)
        scan("a finished game")

    assert scan.texts > 50
    assert not scan.found, "\n".join(f"{said} -> {why}" for said, why in scan.found.items())
