import re

import pytest
import yaml

from indexer.corpus import CorpusError, load_corpus, parse_rulebook
from indexer.build import DEFAULT_CORPUS
from tests.conftest import RULEBOOKS

CORPUS = load_corpus(DEFAULT_CORPUS)


def squeeze(text: str) -> str:
    """Text without white space, list bullets as Markdown dashes: what must match the source."""
    return re.sub(r"\s+", "", text.replace("•", "-"))


@pytest.mark.parametrize("book", CORPUS.rulebooks, ids=lambda b: f"{b.game}/{b.lang}")
def test_every_passage_is_the_source_text_word_for_word(book):
    source = squeeze((RULEBOOKS / book.source).read_text(encoding="utf-8"))
    for passage in book.passages:
        assert squeeze(passage.text) in source, passage.id


@pytest.mark.parametrize("book", CORPUS.rulebooks, ids=lambda b: f"{b.game}/{b.lang}")
def test_headings_are_the_sources_own_unless_marked_editorial(book):
    source = squeeze((RULEBOOKS / book.source).read_text(encoding="utf-8"))
    for section in book.sections:
        if not section.editorial:
            assert squeeze(section.title).rstrip(":：") in source, section.anchor


@pytest.mark.parametrize("book", CORPUS.rulebooks, ids=lambda b: f"{b.game}/{b.lang}")
def test_rulebook_loses_no_source_line_except_page_furniture(book):
    furniture = {
        "Mammut Mambo", "Mammut Mambo Rulebook", "Table of Contents", "Mömmen", "Mömmen Rulebook",
        "留言列表", "Voir la vidéo directement sur YouTube",
    }
    header = 33 if book.source == "mamma.en.txt" else 0  # site header and table of contents
    in_order = [text for s in book.sections for text in [s.title] + [p.text for p in s.passages]]
    corpus_text = squeeze(" ".join(in_order))
    lines = (RULEBOOKS / book.source).read_text(encoding="utf-8").splitlines()
    for line in lines[header:]:
        line = line.strip()
        if line and line not in furniture:
            assert squeeze(line).rstrip(":：") in corpus_text, line


def test_chinese_hard_wraps_are_joined():
    book = next(b for b in CORPUS.rulebooks if b.lang == "zh")
    for passage in book.passages:
        for line in passage.text.split("\n"):
            assert not line.startswith(("。", "，", "）", "」")), passage.id
    assert any("訂單牌堆" in p.text for p in book.passages)  # was split as 訂單牌 | 堆


def test_passage_ids_are_unique_and_derived_from_anchors():
    ids = [p.id for b in CORPUS.rulebooks for p in b.passages]
    assert len(ids) == len(set(ids))
    assert "mamma-mia.fr.oven.1" in ids


def test_inserting_a_paragraph_elsewhere_keeps_passage_ids():
    text = (DEFAULT_CORPUS / "moemmen" / "en.md").read_text(encoding="utf-8")
    before = {p.id: p.text for p in parse_rulebook(text).passages}
    edited = text.replace("# Scoring {#scoring", "# End of the round again {#inserted}\n\nA new paragraph.\n\n# Scoring {#scoring")
    after = {p.id: p.text for p in parse_rulebook(edited).passages}
    assert all(after[i] == t for i, t in before.items())


def test_not_rules_are_marked_as_such():
    kinds = {p.id: p.kind for b in CORPUS.rulebooks for p in b.passages}
    assert kinds["mamma-mia.fr.faq-failed-pizza.1"] == "faq"
    assert kinds["mamma-mia.fr.tips.1"] == "tip"
    assert kinds["mammut-mambo.en.gameplay.2"] == "note"  # the translator's note
    assert kinds["mamma-mia.zh.oven.3"] == "example"
    assert kinds["mamma-mia.fr.oven.1"] == "rule"


def test_the_known_mamma_mia_disagreements_are_recorded():
    recorded = {d["id"]: d for d in CORPUS.disagreements}
    assert {"setup-mamma-mia-card", "minimale-fewest"} <= set(recorded)
    for item in recorded.values():
        assert set(item["summary"]) == {"en", "fr", "de", "zh"}
        assert set(item["topic"]) == {"en", "fr", "de", "zh"}
    both = recorded["minimale-fewest"]["sides"]
    assert {s["lang"] for s in both} == {"fr", "zh"}


@pytest.mark.parametrize(
    "text, problem",
    [
        ("# No front matter {#a}\n", "front matter"),
        ("---\ngame: g\nlang: xx\ntitle: t\nsource: s\n---\n", "unknown language"),
        ("---\ngame: g\nlang: en\ntitle: t\nsource: s\n---\n# Title\n", "anchor"),
        ("---\ngame: g\nlang: en\ntitle: t\nsource: s\n---\n# A {#a}\n# B {#a}\n", "twice"),
        ("---\ngame: g\nlang: en\ntitle: t\nsource: s\n---\nText first.\n", "before the first heading"),
        ("---\ngame: g\nlang: en\ntitle: t\nsource: s\n---\n# A {#a}\n::: example\nx\n", "not closed"),
        ("---\ngame: g\nlang: en\ntitle: t\nsource: s\n---\n# A {#a}\n::: gossip\nx\n:::\n", "fenced div"),
    ],
)
def test_malformed_rulebooks_are_refused_with_the_reason(text, problem):
    with pytest.raises(CorpusError, match=problem):
        parse_rulebook(text)


def test_a_quote_not_in_its_passage_is_refused(tmp_path):
    import shutil

    shutil.copytree(DEFAULT_CORPUS, tmp_path / "corpus")
    path = tmp_path / "corpus" / "disagreements.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("Chacun reçoit 6", "Chacun reçoit 7"), encoding="utf-8")
    with pytest.raises(CorpusError, match="does not contain"):
        load_corpus(tmp_path / "corpus")


def test_every_rule_passage_has_players_questions_in_the_four_languages():
    """The ranker meets a question in any language through them: a rule without them is harder
    to find."""
    for book in CORPUS.rulebooks:
        for passage in book.passages:
            if passage.kind != "about":
                asked = CORPUS.questions.get(passage.id, {})
                assert all(asked.get(lang) for lang in ("en", "fr", "de", "zh")), passage.id
    by_lang = {lang: 0 for lang in ("en", "fr", "de", "zh")}
    for game in CORPUS.games:
        path = DEFAULT_CORPUS / game["id"] / "questions.yaml"
        for by in yaml.safe_load(path.read_text(encoding="utf-8")).values():
            for lang, questions in by.items():
                by_lang[lang] += len(questions)
    assert min(by_lang.values()) >= 200, by_lang


@pytest.mark.parametrize(
    "entry, problem",
    [
        ("moemmen.en.no-such.1:\n  en: ['Who wins?']\n", "no passage moemmen.en.no-such.1"),
        ("mamma.en.victory.1:\n  en: ['Who wins?']\n", "no passage mamma.en.victory.1 in moemmen"),
        ("moemmen.en.goal.1:\n  it: ['Chi vince?']\n", "must map languages"),
        ("moemmen.en.goal.1:\n  en: [Who wins?]\n", "not YAML"),
    ],
)
def test_questions_for_a_passage_the_game_lacks_are_refused(tmp_path, entry, problem):
    import shutil

    shutil.copytree(DEFAULT_CORPUS, tmp_path / "corpus")
    (tmp_path / "corpus" / "moemmen" / "questions.yaml").write_text(entry, encoding="utf-8")
    with pytest.raises(CorpusError, match=problem):
        load_corpus(tmp_path / "corpus")
