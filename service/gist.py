"""What an answer's passage says, in the asker's language: ``answer.gist``, beside the exact quote.

An answer quotes its rulebook in the rulebook's language: a German asker of Mamma reads English. The
gist is Referee's own words, always marked as such and never shown as the rulebook's:

* ``written``: for the four shipped games, each passage's statement in four languages
  (corpus/<game>/gists.yaml; tests/indexer/test_gists.py holds each to its passage's numbers and
  game terms);
* ``glossary``: for a rulebook a table added, its key words in the answer glossed, from the term
  base's general concepts and a general dictionary (indexer.glossary): "Korb → panier · Seil → corde".

The chat reply (service.chat) and the web app label each as Referee's.

There is none when the asker reads the rulebook's language, or their language is not known.
"""

from __future__ import annotations

from indexer.analysis import words
from service.language import as_script

GLOSSED = 8  # the words a glossary gives, at most


def gist(library, passage: dict, asker: str | None, simplified: bool) -> dict | None:
    """The gist of ``passage`` (a catalog passage) for an asker of ``asker``, or None."""
    if asker is None or asker == passage["lang"]:
        return None
    written = library.gists.get(passage["id"], {}).get(asker)
    if written:
        text = as_script(written, simplified) if asker == "zh" else written
        return {"text": text, "lang": asker, "source": "written"}
    glossed = glosses(library, passage, asker)
    if not glossed:
        return None
    text = " · ".join(f"{word} → {as_script(meaning, simplified) if asker == 'zh' else meaning}"
                      for word, meaning in glossed)
    return {"text": text, "lang": asker, "source": "glossary"}


def glosses(library, passage: dict, asker: str) -> list[tuple[str, str]]:
    """(a key word of the passage as written, what it means in ``asker``'s language), at most
    GLOSSED of them, the most telling (indexer.glossary's keyness: Korb, not "legen"), in the
    passage's order: by the term base's concept it is a form of (Karten → cartes), else by the
    game's dictionary (Würfel → cube, dé). A part of a compound is not glossed (Korbkarten is not
    "cartes"). Chinese meanings in either script."""
    text, lang, game = passage["text"], passage["lang"], passage["game"]
    entry = library.glossary.get(game, {})
    keys, dictionary = entry.get("keys", {}).get(lang, {}), entry.get(f"{lang}-{asker}", {})
    found: dict[str, tuple[int, str, str, float]] = {}  # folded word -> (where, as written, meaning, keyness)
    for match in library.terms.analyse(text, (lang,), game).matches:
        forms = match.concept.forms.get(asker) or ()
        written = text[match.start:match.end]
        whole = lang == "zh" or not (text[match.start - 1:match.start].isalnum() or text[match.end:match.end + 1].isalnum())
        keyness = max((keys.get(w.stem, 0.0) for w in words(lang, written)), default=0.0)
        if keyness and whole and forms and written.casefold() not in found and forms[0].casefold() != written.casefold():
            found[written.casefold()] = (match.start, written, forms[0], keyness)
    for word in words(lang, text):
        written, meanings = text[word.start:word.end], dictionary.get(word.stem)
        if meanings and written.casefold() not in found and meanings[0].casefold() != written.casefold():
            found[written.casefold()] = (word.start, written, ", ".join(meanings), keys[word.stem])
    kept = sorted(found.values(), key=lambda item: -item[3])[:GLOSSED]
    return [(written, meaning) for _, written, meaning, _ in sorted(kept)]
