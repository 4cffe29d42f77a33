"""Reading rulebooks as received: a printed PDF's columns, furniture, hyphenation, headings, lists,
tables and pages; Markdown, plain text and saved web pages; files that cannot be read."""

import pytest

from indexer.corpus import parse_rulebook
from indexer import pdf
from indexer.pdf import Unreadable, read_pdf
from indexer.reading import UnsupportedFormat, detect_lang, read_rulebook, slug
from tests.conftest import FIXTURES

BOOKS = FIXTURES / "rulebooks"
PRINTED = (BOOKS / "pilzsammler.de.pdf").read_bytes()


def passages(markdown: str) -> dict[str, object]:
    return {p.text: p for p in parse_rulebook(markdown).passages}


def test_a_two_column_pdf_is_read_column_by_column_with_its_sections_and_pages():
    read = read_rulebook(PRINTED, "pilzsammler.de.pdf", "pilzsammler")
    assert (read.lang, read.title, read.pages, read.format) == ("de", "Pilzsammler", 2, "pdf")
    book = parse_rulebook(read.markdown)
    assert [s.title for s in book.sections] == [
        "Pilzsammler", "Spielmaterial", "Spielvorbereitung", "Spielablauf", "Würfeln", "Sammeln",
        "Spielende und Wertung", "Häufige Fragen"]
    found = passages(read.markdown)
    # the first column's paragraph ends, then the second column's begins: never interleaved
    setup = ("Mischt alle Pilzkarten und legt sie als verdeckten Stapel neben den Waldplan. Jeder Spieler "
             "erhält drei Korbkarten und vier Pilzkarten auf die Hand.")
    assert found[setup].section_path == ("Pilzsammler", "Spielvorbereitung")
    assert found[setup].page == 1
    faq = next(p for text, p in found.items() if text.startswith("Darf ich"))
    assert faq.page == 2 and faq.section == "Häufige Fragen"


def test_words_hyphenated_at_a_line_end_are_joined():
    text = read_rulebook(PRINTED, "p.pdf", "pilzsammler").markdown
    assert "im Uhrzeigersinn gespielt" in text
    assert "Uhr-" not in text and "über-" not in text


def test_running_headers_and_page_numbers_are_left_out():
    blocks, pages = read_pdf(PRINTED)
    texts = [b.text for b in blocks]
    assert pages == 2
    assert not any("Seite" in t for t in texts)
    assert "Pilzsammler – Spielregel" not in texts


def test_a_list_stays_with_its_lead_in_and_a_table_keeps_its_rows():
    found = passages(read_rulebook(PRINTED, "p.pdf", "pilzsammler").markdown)
    actions = next(t for t in found if t.startswith("Auf einem Pilzfeld"))
    assert actions.split("\n")[1:] == ["• eine Pilzkarte vom Stapel ziehen;",
                                       "• zwei gleiche Pilzkarten in einen Korb legen;",
                                       "• eine Korbkarte mit einem Mitspieler tauschen."]
    scoring = next(t for t in found if t.startswith("Das Spiel endet"))
    assert scoring.split("\n")[1:] == ["Pilze im Korb | Punkte", "2 | 1", "3 | 3", "4 | 6"]
    # the paragraph after the list, back at the column's margin, is a passage of its own
    assert any(t.startswith("Wer mehr als sieben Karten") for t in found)


@pytest.mark.parametrize("name, message", [
    ("scan.pdf", "no text layer"),
    ("encrypted.pdf", "encrypted"),
])
def test_a_scan_or_an_encrypted_pdf_is_refused_with_the_reason(name, message):
    with pytest.raises(Unreadable, match=message):
        read_rulebook((BOOKS / name).read_bytes(), name, "game")


@pytest.mark.parametrize("data", [b"%PDF-1.7\n%broken", PRINTED[: len(PRINTED) // 3]])
def test_a_damaged_pdf_is_refused(data):
    with pytest.raises(Unreadable):
        read_rulebook(data, "rules.pdf", "game")


def test_an_empty_file_or_one_of_another_kind_is_refused():
    with pytest.raises(Unreadable, match="no text"):
        read_rulebook(b"   \n", "rules.txt", "game")
    with pytest.raises(UnsupportedFormat, match="PDF, Markdown"):
        read_rulebook(b"PK\x03\x04", "rules.docx", "game")


def test_markdown_as_people_write_it():
    markdown = ("# Star Bakers\n\nA baking card game.\n\n## Setup\n\nEach player takes **five** cards:\n\n"
                "- one oven\n- four dough cards\n\n## Scoring\n\n| Cakes | Points |\n|---|---|\n| 1 | 2 |\n| 2 | 5 |\n")
    read = read_rulebook(markdown.encode(), "bakers.md", "star-bakers")
    book = parse_rulebook(read.markdown)
    assert read.title == "Star Bakers" and read.lang == "en"
    assert [s.title for s in book.sections] == ["Star Bakers", "Setup", "Scoring"]
    texts = [p.text for p in book.passages]
    assert "Each player takes five cards:\n- one oven\n- four dough cards" in texts
    assert "| Cakes | Points |\n| 1 | 2 |\n| 2 | 5 |" in texts


def test_a_heading_that_names_an_example_tips_or_questions_and_answers_gives_its_section_that_kind():
    markdown = ("# Gletscherpost\n\n## 7. Bewegen\n\nJedes Feld kostet 1 BP.\n\n### Beispiel: Rutschpartie\n\n"
                "Anna hat 4 BP und rutscht über das Blankeis.\n\n### Blankeis\n\nDas Rutschen ist Pflicht.\n\n"
                "## Tipps für Einsteiger\n\nFahrt zuerst zu nahen Hütten.\n\n## 12. Häufige Fragen\n\n"
                "### Darf ich durch eine Hütte fahren?\n\nJa, aber zugestellt wird nur am Ende der Bewegung.\n")
    book = parse_rulebook(read_rulebook(markdown.encode(), "gletscherpost.md", "gletscherpost").markdown)
    assert {p.text[:12]: p.kind for p in book.passages} == {
        "Jedes Feld k": "rule", "Anna hat 4 B": "example", "Das Rutschen": "rule",  # a sibling is rules again
        "Fahrt zuerst": "tip", "Ja, aber zug": "faq"}


def test_plain_text_finds_headings_and_joins_wrapped_lines():
    text = ("SETUP\n\nShuffle the deck and deal\nseven cards to each player.\n\n"
            "Winning\n\nThe first player without cards wins.\n")
    book = parse_rulebook(read_rulebook(text.encode(), "rules.txt", "sevens").markdown)
    assert [s.title for s in book.sections] == ["SETUP", "Winning"]
    assert book.passages[0].text == "Shuffle the deck and deal seven cards to each player."


def test_a_saved_web_page_keeps_its_text_not_its_navigation():
    html = ("<!doctype html><html lang='fr'><head><title>Règles</title><script>var x=1;</script></head><body>"
            "<nav>Accueil | Boutique</nav><h1>Le Jeu du Four</h1><p>Chaque joueur reçoit six cartes.</p>"
            "<h2>Fin de partie</h2><p>La partie s'arrête quand la pioche est vide :</p>"
            "<ul><li>on compte les points,</li><li>le plus riche gagne.</li></ul>"
            "<footer>© 2026</footer></body></html>")
    read = read_rulebook(html.encode(), "four.html", "jeu-du-four")
    book = parse_rulebook(read.markdown)
    assert read.lang == "fr" and [s.title for s in book.sections] == ["Le Jeu du Four", "Fin de partie"]
    assert [p.text for p in book.passages] == [
        "Chaque joueur reçoit six cartes.",
        "La partie s'arrête quand la pioche est vide :\non compte les points,\nle plus riche gagne."]
    assert "Boutique" not in read.markdown and "var x" not in read.markdown and "©" not in read.markdown


def test_a_line_that_would_read_as_markup_keeps_its_words():
    text = "Rules\n\n#1 is the first card.\n\n::: opens nothing here.\n"
    book = parse_rulebook(read_rulebook(text.encode(), "r.txt", "numbers", lang="en").markdown)
    assert [p.text for p in book.passages] == ["#1 is the first card.", "::: opens nothing here."]


def test_the_language_is_told_by_the_text():
    assert detect_lang("Jeder Spieler erhält sechs Karten und legt sie verdeckt vor sich ab.") == "de"
    assert detect_lang("Chaque joueur reçoit six cartes et les pose devant lui.") == "fr"
    assert detect_lang("每位玩家拿六張牌，面朝下放在自己面前。") == "zh"


def test_anchors_are_ascii_words():
    assert slug("Spielende und Wertung") == "spielende-und-wertung"
    assert slug("2.2 Die Strandplättchen") == "2-2-die-strandplattchen"
    assert slug("遊戲結束") == ""


def _line(text: str, top: float, size: float = 10.0, bold: bool = False, x0: float = 50.0) -> pdf._Line:
    """A line of one column as pdf._blocks reads it: one word, 12 points of leading."""
    return pdf._Line([{"text": text, "x0": x0, "x1": x0 + 200, "size": size}], 1, 0, top, top + size, x0, size, bold)


def test_a_bold_question_on_two_lines_is_one_heading_though_its_first_line_ends_a_sentence():
    lines = [_line("Häufige Fragen", 0, size=14, bold=True),
             _line("Ich rutsche schwer beladen auf eine Schneebrücke.", 20, bold=True),
             _line("Wo landet mein Schlitten?", 32, bold=True),
             _line("Die Brücke bricht ein, und dein Schlitten kommt zurück.", 44),
             _line("Wichtig.", 70, bold=True),  # a bold sentence alone stays text
             _line("Mischt die Karten vor jeder Partie gut durch.", 82)]
    blocks = pdf._blocks(lines)
    assert [(b.kind, b.text) for b in blocks][:3] == [
        ("heading", "Häufige Fragen"),
        ("heading", "Ich rutsche schwer beladen auf eine Schneebrücke. Wo landet mein Schlitten?"),
        ("paragraph", "Die Brücke bricht ein, und dein Schlitten kommt zurück.")]
    assert blocks[3].kind == "paragraph" and blocks[3].text.startswith("Wichtig.")


def test_a_list_item_without_a_hanging_indent_goes_on_while_its_sentence_does():
    lines = [_line("1. Laden (auf der Talstation): abladen, dann bis zu 5 La\u2010", 0),
             _line("deplätze beladen.", 12),
             _line("2. Bewegen: BP laut Wetter, höchstens ein Wegbonus,", 24),
             _line("Rutschen auf Blankeis beachten.", 36),
             _line("3. Zustellen.", 48),
             _line("Danach ist die nächste Person am Zug.", 60)]
    assert [(b.kind, b.text) for b in pdf._blocks(lines)] == [
        ("item", "1. Laden (auf der Talstation): abladen, dann bis zu 5 Ladeplätze beladen."),
        ("item", "2. Bewegen: BP laut Wetter, höchstens ein Wegbonus, Rutschen auf Blankeis beachten."),
        ("item", "3. Zustellen."),
        ("paragraph", "Danach ist die nächste Person am Zug.")]


def test_a_dash_inside_an_unfinished_sentence_is_an_aside_not_a_list_item():
    lines = [_line("Steht dein Schlitten nach der Bewegung auf einer Hütte", 0),
             _line("– auch wenn du gar nicht gezogen bist –, darfst du dort", 12),
             _line("Aufträge erfüllen.", 24),
             _line("Du brauchst dafür:", 48),
             _line("– eine passende Routenkarte,", 60),
             _line("– eine Sendung der abgebildeten Sorte.", 72)]
    assert [(b.kind, b.text) for b in pdf._blocks(lines)] == [
        ("paragraph", "Steht dein Schlitten nach der Bewegung auf einer Hütte – auch wenn du gar nicht gezogen bist –, "
                      "darfst du dort Aufträge erfüllen."),
        ("paragraph", "Du brauchst dafür:"),
        ("item", "– eine passende Routenkarte,"),
        ("item", "– eine Sendung der abgebildeten Sorte.")]


def test_an_item_goes_on_into_the_quotation_its_sentence_leads_into_on_its_page_or_the_next():
    lines = [_line("• Connoisseur (10 cards): lanterns of one colour whose values add up to at least", 0),
             _line("the number shown, for example", 12),
             _line('"Jade 8+".', 24),
             _line("• Wanderer (8 cards): a number of lanterns of different colours, for example", 700),
             pdf._Line([{"text": '"3 different colours".', "x0": 50.0, "x1": 250.0, "size": 10.0}], 2, 0, 60, 70, 50.0,
                       10.0, False),
             pdf._Line([{"text": "Customers pay when served.", "x0": 50.0, "x1": 250.0, "size": 10.0}], 2, 0, 90, 100, 50.0,
                       10.0, False)]
    assert [(b.kind, b.text, b.page) for b in pdf._blocks(lines)] == [
        ("item", '• Connoisseur (10 cards): lanterns of one colour whose values add up to at least the number shown, '
                 'for example "Jade 8+".', 1),
        ("item", '• Wanderer (8 cards): a number of lanterns of different colours, for example "3 different colours".', 1),
        ("paragraph", "Customers pay when served.", 2)]


def test_a_margin_line_without_a_word_is_left_out_with_the_page_number_it_belonged_to():
    page = pdf._Page(2, 842.0, [_line("Die Zeilen nicht verwendeter Hütten bleiben leer.", 100),
                                _line("Danach ist die nächste Person am Zug.", 112),
                                _line("–2", 808, size=8.5), _line("–", 808, size=8.5, x0=302)])
    pdf._drop_furniture([page])
    assert [line.text for line in page.lines] == ["Die Zeilen nicht verwendeter Hütten bleiben leer.",
                                                  "Danach ist die nächste Person am Zug."]


def _words(top: float, *words: tuple[str, float], size: float = 8.8, bold: bool = False) -> pdf._Line:
    """A line of words, each (text, x0), set 5 points a letter wide."""
    placed = [{"text": text, "x0": x0, "x1": x0 + 5 * len(text), "size": size} for text, x0 in words]
    return pdf._Line(placed, 3, 1, top, top + size, placed[0]["x0"], size, bold)


WEATHER_ROWS = [_words(548.0, ("Sonne", 312), ("2", 365), ("4", 389), ("keine", 410), ("Besonderheiten", 438)),
                _words(562.0, ("Nebel", 312), ("1", 365), ("3", 389), ("keine", 410), ("Wegboni", 438)),
                _words(576.0, ("Föhn", 312), ("1", 365), ("5", 389), ("sofort:", 410), ("Tauwetter", 448))]


def test_an_unruled_tables_heading_row_is_its_first_row_its_cells_on_two_lines_joined():
    """The heading row in bold over the columns was a heading of its own ("#### An- Seite BP
    Wirkung zahl") that cut the table from its caption; its cell "An-" / "zahl" is one word."""
    caption = _words(503.2, ("Tabelle", 308), ("2:", 345), ("Die", 358), ("Seiten", 377), ("des", 410),
                     ("Wetterwürfels", 428), bold=True)
    band = [_words(520.2, ("An‐", 360), size=8.2, bold=True),
            _words(526.2, ("Seite", 312), ("BP", 385), ("Wirkung", 410), size=8.2, bold=True),
            _words(531.7, ("zahl", 358), size=8.2, bold=True)]
    blocks = pdf._blocks(pdf._unruled_tables([caption, *band, *WEATHER_ROWS]))
    assert [(b.kind, b.text) for b in blocks][1:] == [  # the caption a block of its own before it
        ("table", "Seite | Anzahl | BP | Wirkung\nSonne | 2 | 4 | keine Besonderheiten\n"
                  "Nebel | 1 | 3 | keine Wegboni\nFöhn | 1 | 5 | sofort: Tauwetter")]
    assert blocks[0].text == "Tabelle 2: Die Seiten des Wetterwürfels"


def test_a_label_under_a_tables_heading_row_is_a_row_of_its_own():
    band = [_words(526.2, ("Seite", 312), ("Anzahl", 360), ("Wirkung", 410), size=8.2, bold=True),
            _words(540.0, ("Wetterwürfel", 312), size=8.2, bold=True)]
    rows = [_words(556.0 + 14 * k, *((w["text"], w["x0"]) for w in line.words if w["x0"] != 389))
            for k, line in enumerate(WEATHER_ROWS)]
    [table] = pdf._blocks(pdf._unruled_tables([*band, *rows]))
    assert table.text.split("\n")[:3] == ["Seite | Anzahl | Wirkung", "Wetterwürfel |  | ",
                                          "Sonne | 2 | keine Besonderheiten"]


def test_a_caption_at_the_top_of_a_column_under_the_running_header_is_text():
    """Smaller type above the body text is a running header only when it stands first on the page:
    the caption of a table that opens the second column, and its heading row, are the table's."""
    page = pdf._Page(6, 842.0, [_line("GLETSCHERPOST Spielregel", 53.3, size=8.5),
                                _line("Tabelle 3: Wertungstabelle", 74.6, size=8.8, bold=True, x0=308),
                                _line("Sendung / Anlass Punkte", 97.7, size=8.2, bold=True, x0=312),
                                _line("Clara steht bei Nebel auf der Steinbockhütte.", 110.0, size=10.3),
                                _line("Sie legt zwei Routenkarten ab.", 124.0, size=10.3)])
    pdf._drop_furniture([page])
    assert [line.text for line in page.lines][:2] == ["Tabelle 3: Wertungstabelle", "Sendung / Anlass Punkte"]


@pytest.mark.parametrize("rows, table", [
    ([["GLETSCHERPOST", "Spielregel"], ["1. Spielmaterial", ""]], False),  # rules under a header and a heading
    ([["Pilze im Korb", "Punkte"]], False),
    ([["Pilze im Korb", "Punkte"], ["2", "1"], ["3", None]], True),
])
def test_a_ruled_grid_is_a_table_when_two_of_its_rows_fill_two_cells(rows, table):
    assert pdf._is_table(rows) is table


def test_a_line_above_the_other_columns_text_is_read_before_them():
    """A title page's "2–6 players" centred over the middle column, well above the columns' text,
    was read between the first column's last words and the second's first."""
    def at(text: str, column: int, top: float) -> pdf._Line:
        x0 = 40.0 + 177 * column
        return pdf._Line([{"text": text, "x0": x0, "x1": x0 + 150, "size": 9.6}], 1, column, top, top + 9.6, x0, 9.6, False)
    lines = [at("2–6 players · ages 10 and up", 1, 155), at("Each colour holds three of each value.", 0, 204),
             at("The coin supply is not", 0, 758), at("meant to be limited.", 1, 204), at("Firefly", 2, 209)]
    assert [l.text for l in pdf._reading_order(lines)] == [
        "2–6 players · ages 10 and up", "Each colour holds three of each value.", "The coin supply is not",
        "meant to be limited.", "Firefly"]


@pytest.mark.parametrize("text, line, joined", [
    ("weder Plus-", "noch Minuspunkte.", "weder Plus- noch Minuspunkte."),
    ("von Vor-", "bis Nachmittag", "von Vor- bis Nachmittag"),
    ("die Hütten-", "stempel", "die Hüttenstempel"),
])
def test_a_hyphen_at_a_lines_end_before_the_pairs_second_half_is_kept(text, line, joined):
    assert pdf.join_lines(text, line) == joined
