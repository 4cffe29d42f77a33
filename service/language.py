"""The asker's language: detected when not given, and Referee's own words in it."""

from __future__ import annotations

import functools
import gzip
import json
import pkgutil
import re
import threading

from indexer.analysis import HAN, to_simplified
from indexer.corpus import LANGS

_LETTERS = re.compile(r"[^\W\d_]+", re.UNICODE)
MIN_CONFIDENCE = 0.5  # lingua's confidence in its first language...
MIN_MARGIN = 0.2  # ...and how far ahead of the second it must be; short questions are often unclear
SHORT_WORDS = 4  # below this many words, only the word lists decide
WORD_LISTS = ("en", "fr", "de")  # pyspellchecker's word lists for the languages written in letters


def _word_list(lang: str) -> dict[str, int]:
    """pyspellchecker's word list of ``lang``, lower-cased (word -> frequency): its package data, read
    as its SpellChecker reads it, without the corrector's tables this module never uses (the three
    lists in 0.4 s, against 0.6 s through SpellChecker: a fifth of a second off the server's start)."""
    data = pkgutil.get_data("spellchecker", f"resources/{lang}.json.gz")
    return json.loads(gzip.decompress(data).decode("utf-8").lower())


class Detector:
    """The asker's language, from lingua and whole-language word lists; loaded once per process.

    lingua is restricted to the four languages Referee answers in. Han script is Chinese for sure.
    On short questions ("Who wins?", "wer gewinnt", "pizza bombastika") lingua guesses, and the
    words decide instead: the language whose word list knows clearly more of the question's words
    (none, for words that every language shares). They decide too when lingua cannot tell. The word lists
    (pyspellchecker's, built from each language's subtitles and Wikipedia) also tell the spelling
    corrector which words are real words, not to be "corrected" into rulebook words.
    """

    _lock = threading.Lock()

    def __init__(self):
        from lingua import Language, LanguageDetectorBuilder

        self._codes = {Language.ENGLISH: "en", Language.FRENCH: "fr", Language.GERMAN: "de", Language.CHINESE: "zh"}
        self._detector = (
            LanguageDetectorBuilder.from_languages(*self._codes).with_preloaded_language_models().build()
        )
        self._words = {lang: _word_list(lang) for lang in WORD_LISTS}

    def is_word(self, word: str, lang: str | None = None) -> bool:
        """Whether ``word`` is a word of ``lang`` (of any of en, fr, de when lang is None)."""
        word = word.lower()
        langs = (lang,) if lang in WORD_LISTS else WORD_LISTS if lang is None else ()
        return any(word in self._words[code] for code in langs)

    def detect(self, text: str) -> str | None:
        """The language of ``text``, or None when the text is too short or mixed to tell.

        Leave out of ``text`` what carries no language (game names, quoted rule words): the caller
        knows them, and "Mömmen" alone reads as German.
        """
        if HAN.search(text):
            return "zh"
        if len(_LETTERS.findall(text)) < SHORT_WORDS:  # lingua guesses on two words; word lists know
            return self._by_words(text)
        with self._lock:
            values = self._detector.compute_language_confidence_values(text)
        if values and values[0].value >= MIN_CONFIDENCE and (
            len(values) == 1 or values[0].value - values[1].value >= MIN_MARGIN
        ):
            return self._codes[values[0].language]
        return self._by_words(text)

    def _by_words(self, text: str) -> str | None:
        """The language whose word list knows the most words of ``text``, when it knows clearly more."""
        words = [w.lower() for w in _LETTERS.findall(text)]
        if not words:
            return None
        known = sorted(((sum(w in self._words[lang] for w in words), lang) for lang in WORD_LISTS), reverse=True)
        (best, lang), (second, _) = known[0], known[1]
        return lang if best > second and best >= len(words) / 2 else None


# Referee's own words. {placeholders} are filled by the caller.
MESSAGES = {
    "answer_found": {
        "en": "From the {book_lang} rulebook of {game}:",
        "fr": "D’après la règle {book_lang} de {game} :",
        "de": "Laut dem {book_lang} Regelheft von {game}:",
        "zh": "根據{game}的{book_lang}規則：",
    },
    "answer_unsure": {
        "en": "Not sure: this is the closest rule, from the {book_lang} rulebook of {game}. Check it and the passages below.",
        "fr": "Pas sûr : voici la règle la plus proche, d’après la règle {book_lang} de {game}. Vérifiez-la, ainsi que les passages ci-dessous.",
        "de": "Nicht sicher: Das ist die nächstliegende Regel, aus dem {book_lang} Regelheft von {game}. Prüfen Sie sie und die Stellen darunter.",
        "zh": "不確定：這是最接近的規則，出自{game}的{book_lang}規則。請核對它和下面的段落。",
    },
    "not_found": {
        "en": "The rulebooks do not answer this. The closest passages are listed; check them yourself.",
        "fr": "Les règles ne répondent pas à cette question. Voici les passages les plus proches, à vérifier vous-même.",
        "de": "Die Regelhefte beantworten das nicht. Hier sind die nächstliegenden Stellen zum Selbstprüfen.",
        "zh": "規則書中沒有這個問題的答案。以下是最接近的段落，請自行查看。",
    },
    "help": {
        "en": "Ask me a rule of {games} in your own words, in English, French, German or Chinese: I answer with the rulebook's exact words and say where they stand. {covers}",
        "fr": "Posez-moi une question de règle sur {games}, avec vos mots, en français, anglais, allemand ou chinois : je réponds par les mots exacts de la règle et dis où ils se trouvent. {covers}",
        "de": "Frag mich nach einer Regel von {games}, in deinen eigenen Worten, auf Deutsch, Englisch, Französisch oder Chinesisch: Ich antworte mit dem genauen Wortlaut des Regelhefts und sage, wo er steht. {covers}",
        "zh": "用你自己的話，以中文、英文、法文或德文問我{games}的規則：我會引用規則書的原文，並告訴你出處。{covers}",
    },
    "other_game": {
        "en": "Your question names {game}; answered from its rules.",
        "fr": "Votre question nomme {game} ; réponse tirée de ses règles.",
        "de": "Deine Frage nennt {game}; die Antwort kommt aus dessen Regeln.",
        "zh": "你的問題提到{game}，所以依它的規則回答。",
    },
    "help_covers": {
        "en": "Its rulebook covers: {sections}.",
        "fr": "Sa règle traite de : {sections}.",
        "de": "Das Regelheft behandelt: {sections}.",
        "zh": "規則書的內容包括：{sections}。",
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


def did_you_mean(corrected: str | None, lang: str | None, simplified: bool = False) -> dict | None:
    """The corrected question offered back to the asker, or None when nothing was corrected."""
    if corrected is None:
        return None
    return {"text": corrected, "message": say("did_you_mean", lang, simplified, text=corrected)}


def say(key: str, lang: str | None, simplified: bool = False, **values) -> str:
    """One of Referee's messages in ``lang`` (English when the asker's language is unknown); Chinese
    ones in Simplified script when ``simplified``, else in Traditional as written here."""
    lang = lang if lang in LANGS else "en"
    message = MESSAGES[key][lang].format(**values)
    return in_script(message, simplified) if lang == "zh" else message


def in_script(chinese: str, simplified: bool) -> str:
    """Chinese text written in Traditional script, converted to Simplified when ``simplified``."""
    return to_simplified(chinese) if simplified else chinese


def as_script(chinese: str, simplified: bool) -> str:
    """Chinese text written in either script, in Simplified when ``simplified``, else in Traditional."""
    return to_simplified(chinese) if simplified else _to_traditional().convert(chinese)


_SCRIPT_TAG = re.compile(r"zh-(hans|cn|sg|my|hant|tw|hk|mo)\b", re.IGNORECASE)


def writes_simplified(lang: str | None, question: str, accept_language: str | None = None) -> bool:
    """Whether a Chinese asker (``lang`` zh) reads Simplified script: the question's own characters
    tell (some exist in one script only); when they do not ("一百分"), the first Chinese tag of
    Accept-Language does (zh-Hans, zh-CN ... against zh-Hant, zh-TW ...). Traditional otherwise."""
    if lang != "zh":
        return False
    only_simplified = _to_traditional().convert(question) != question
    only_traditional = to_simplified(question) != question
    if only_simplified != only_traditional:
        return only_simplified
    return prefers_simplified(accept_language)


def prefers_simplified(accept_language: str | None) -> bool:
    """Whether the first Chinese tag of an Accept-Language header is one of Simplified script
    (zh-Hans, zh-CN, zh-SG, zh-MY; not zh-Hant, zh-TW, zh-HK, zh-MO)."""
    tag = _SCRIPT_TAG.search(accept_language or "")
    return tag is not None and tag.group(1).lower() in ("hans", "cn", "sg", "my")


@functools.cache
def _to_traditional():
    import opencc

    return opencc.OpenCC("s2t")
