"""The bilingual dictionaries: FreeDict's dictd entries read as translations, cut to the rulebooks' words."""

from indexer.analysis import terms
from indexer.wikdict import convert, translations

DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _number(value: int) -> str:
    out = ""
    while True:
        out = DIGITS[value % 64] + out
        value //= 64
        if not value:
            return out


def _dictd(entries: list[tuple[str, str]]) -> tuple[bytes, str]:
    data, index = b"", []
    for key, entry in entries:
        raw = entry.encode("utf-8")
        index.append(f"{key}\t{_number(len(data))}\t{_number(len(raw))}")
        data += raw
    return data, "\n".join(index)


def test_an_entrys_senses_are_its_translations_and_its_definitions_are_not():
    data, index = _dictd([
        ("00-database-info", "00-database-info\nfrançais-Deutsch FreeDict+WikDict dictionary\n"),
        ("corde", "corde /kɔʁd/ <n, fem>\n1. Schnur, Leine\n(Géométrie) Portion de ligne droite\n3. Streich, Seil 2.\n"),
        ("crevasse", "crevasse /kʁə.vas/ <n, fem>\nSpalte\nFente\n"),
        ("seil", "Seil /zaɪ̯l/ <n, neut>\ncorde\n"),  # dictd folds its keys: the entry's first line has the word
        ("pomme de terre", "pomme de terre <n, fem>\nKartoffel\n"),
    ])
    assert convert(data, index) == [("corde", ["Schnur", "Leine", "Streich", "Seil"]), ("crevasse", ["Spalte"]),
                                    ("Seil", ["corde"])]


def test_a_word_keeps_the_translations_the_rulebooks_use_by_its_stem():
    vocabulary = {t for text in ("Lege das Seil auf die Spalte.", "Ziehe deinen Schlitten.") for t in terms("de", text)}
    table = translations("fr-de", vocabulary)
    assert table[terms("fr", "corde")[0]] == ["Seil"]  # not Schnur, Leine: no rulebook says them
    assert "Schlitten" in table[terms("fr", "traîneaux")[0]]  # a plural finds its word's translations
    assert terms("fr", "glace")[0] not in table  # Eis stands in no rulebook here
