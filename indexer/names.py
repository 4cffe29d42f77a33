"""The games' names in a question: which games it names, and the question without the names that
only say which game it is about.

The service reads questions with them (service.retrieval.question), and the index build embeds
the players' questions of questions.yaml as the service embeds an asker's (``meant``): "What's the
goal of Mammut Mambo?" beside a passage and "猛犸曼波 游戏目标是什么" asked are both read without
the name, which the sentence encoder takes for the animal (a real mammoth is off topic) or for a
pizza.
"""

from __future__ import annotations

import re

from indexer.analysis import fold, to_simplified

_ARTICLES = {"the", "la", "le", "die", "der", "den", "dem", "des"}
_CARD_WORDS = {"card", "cards", "carte", "cartes", "karte", "karten"}
# Words for calling something out: a game name beside one is the call itself ("call Mömmen",
# "crier Mömmen", "Mömmen rufen", "喊 Mömmen"), a thing in the game, not the game's name.
_CALL_WORDS = {"call", "calls", "called", "calling", "shout", "shouts", "say", "says", "yell",
               "crier", "crie", "annoncer", "annonce", "dire", "dit",
               "rufen", "ruft", "rufe", "sagen", "sagt", "ansagen", "schreien", "schreit"}
_CALL_HAN = ("喊", "叫", "说", "說")  # the end of the word before: "可以喊", "大喊"

Names = list[tuple[str, str]]  # (name form, game id), longest first


def name_form(text: str) -> str:
    """How game names are compared: folded (no case, no accents), Simplified, punctuation as space."""
    return re.sub(r"[^\w\s]", " ", to_simplified(fold(text)))


def name_forms(games: dict) -> Names:
    """(name form, game id), longest first: every name of every game (``games``: id -> entry of
    games.yaml), its id ("mammut mambo"), and the ö spelt oe ("moemmen")."""
    names = set()
    for game_id, game in games.items():
        for name in [*game["names"].values(), game_id.replace("-", " ")]:
            names.add((" ".join(name_form(name).split()), game_id))
            names.add((" ".join(name_form(name.replace("ö", "oe").replace("Ö", "Oe")).split()), game_id))
    return sorted(names, key=lambda pair: -len(pair[0]))


# A letter or digit of an alphabet: a Latin name ends where one of these does not follow ("mamma mia
# 要玩几轮": Chinese written straight after it is not part of the name, though \w matches Han too).
_LETTER = r"[^\W\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]"


def name_pattern(name: str) -> str:
    """A game name as a whole word; a Chinese name anywhere (Chinese has no spaces: 猛犸曼波谁先当族长)."""
    return rf"(?<!{_LETTER}){re.escape(name)}(?!{_LETTER})" if name.isascii() else re.escape(name)


def mentioned(q: str, names: Names) -> set[str]:
    """Games the question names ("règles du Mömmen", "mamma mia pizza game", "猛犸曼波");
    the longest name wins where names overlap ("Mamma Mia" is not "Mamma")."""
    folded = name_form(q)
    found: set[str] = set()
    for name, game_id in names:
        pattern = name_pattern(name)
        if re.search(pattern, folded):
            found.add(game_id)
            folded = re.sub(pattern, " ", folded)
    return found


def without_names(q: str, names: Names) -> str:
    """The question with the games' names taken out (they are the same in every language)."""
    return _blank(q, names, keep=lambda before, after: False)


def routing_names_removed(q: str, names: Names) -> str:
    """The question without the game names that only say which game it is about ("Mömmen:
    who wins", "wann ist mamma zu ende"); a name that is a thing in its game stays ("the Mamma
    pays less", "the Mamma Mia card", "when may I call Mömmen")."""
    def a_thing(before: list[str], after: list[str]) -> bool:
        return bool(before and (before[0] in _ARTICLES or before[0] in _CALL_WORDS or before[0].endswith(_CALL_HAN))
                    or after and (after[0] in _CARD_WORDS or after[0] in _CALL_WORDS))

    return _blank(q, names, keep=a_thing)


def meant(q: str, names: Names) -> str:
    """What a question's sentence embedding reads: the question without the names that only route
    it, white space tidied (the question itself when nothing else is left: "Mömmen?")."""
    unrouted = routing_names_removed(q, names)
    return " ".join(unrouted.split()) if re.search(r"\w", unrouted) else q


def _blank(q: str, names: Names, keep) -> str:
    """``q`` with each game name blanked out (offsets kept) unless ``keep(word before, word
    after)``; unchanged where folding would move the offsets."""
    folded = name_form(q)
    if len(folded) != len(q):
        return q
    out = list(q)
    for name, _ in names:
        for match in re.finditer(name_pattern(name), folded):
            before, after = folded[:match.start()].split()[-1:], folded[match.end():].split()[:1]
            if not keep(before, after):
                out[match.start():match.end()] = " " * (match.end() - match.start())
    return "".join(out)
