"""The asker's language: detected when not given, and Referee's own words in it."""

from __future__ import annotations

import re
import threading

from indexer.corpus import LANGS

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
MIN_CONFIDENCE = 0.5  # lingua's confidence in its first language...
MIN_MARGIN = 0.2  # ...and how far ahead of the second it must be; short questions are often unclear


class Detector:
    """lingua, restricted to the four languages Referee answers in; loaded once per process."""

    _lock = threading.Lock()

    def __init__(self):
        from lingua import Language, LanguageDetectorBuilder

        self._codes = {Language.ENGLISH: "en", Language.FRENCH: "fr", Language.GERMAN: "de", Language.CHINESE: "zh"}
        self._detector = (
            LanguageDetectorBuilder.from_languages(*self._codes).with_preloaded_language_models().build()
        )

    def detect(self, text: str) -> str | None:
        """The language of ``text``, or None when the text is too short or mixed to tell."""
        if _CJK.search(text):
            return "zh"
        with self._lock:
            values = self._detector.compute_language_confidence_values(text)
        if not values or values[0].value < MIN_CONFIDENCE:
            return None
        if len(values) > 1 and values[0].value - values[1].value < MIN_MARGIN:
            return None
        return self._codes[values[0].language]


# Referee's own words. {placeholders} are filled by the caller.
MESSAGES = {
    "answer_found": {
        "en": "From the {book_lang} rulebook of {game}:",
        "fr": "D’après la règle {book_lang} de {game} :",
        "de": "Laut dem {book_lang} Regelheft von {game}:",
        "zh": "根據{game}的{book_lang}規則：",
    },
    "not_found": {
        "en": "The rulebooks do not answer this. The closest passages are listed; check them yourself.",
        "fr": "Les règles ne répondent pas à cette question. Voici les passages les plus proches, à vérifier vous-même.",
        "de": "Die Regelhefte beantworten das nicht. Hier sind die nächstliegenden Stellen zum Selbstprüfen.",
        "zh": "規則書中沒有這個問題的答案。以下是最接近的段落，請自行查看。",
    },
    "no_passages": {
        "en": "The rulebooks do not answer this, and no passage comes close.",
        "fr": "Les règles ne répondent pas à cette question, et aucun passage ne s’en approche.",
        "de": "Die Regelhefte beantworten das nicht, und keine Stelle kommt dem nahe.",
        "zh": "規則書中沒有這個問題的答案，也沒有相近的段落。",
    },
    "did_you_mean": {
        "en": "Did you mean: {text}",
        "fr": "Vouliez-vous dire : {text}",
        "de": "Meinten Sie: {text}",
        "zh": "您是不是要找：{text}",
    },
    "disagree": {
        "en": "The rulebooks disagree on this point.",
        "fr": "Les règles se contredisent sur ce point.",
        "de": "Die Regelhefte widersprechen sich in diesem Punkt.",
        "zh": "各版本規則在這一點上說法不同。",
    },
    "one_text_only": {
        "en": "Only one of the rulebooks states this.",
        "fr": "Une seule des règles le précise.",
        "de": "Nur eines der Regelhefte sagt das.",
        "zh": "只有其中一份規則提到這一點。",
    },
}

LANGUAGE_NAMES = {  # the name of a rulebook's language, as an adjective where the phrase needs one
    "en": {"en": "English", "fr": "French", "de": "German", "zh": "Chinese"},
    "fr": {"en": "anglaise", "fr": "française", "de": "allemande", "zh": "chinoise"},
    "de": {"en": "englischen", "fr": "französischen", "de": "deutschen", "zh": "chinesischen"},
    "zh": {"en": "英文", "fr": "法文", "de": "德文", "zh": "中文"},
}


def say(key: str, lang: str | None, **values) -> str:
    """One of Referee's messages in ``lang`` (English when the asker's language is unknown)."""
    lang = lang if lang in LANGS else "en"
    return MESSAGES[key][lang].format(**values)
