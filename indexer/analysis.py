"""Text analysis per language, shared by the indexer and the service.

Whoosh pickles analyzers into the index by reference, so this module must stay importable
wherever an index is opened (the service imports it too).

* en, fr, de: words, lower-cased, accents folded *before* stop words and stemming (so "ratee"
  finds "ratée"), Snowball stems.
* zh: Traditional folded to Simplified (OpenCC t2s keeps the length, so offsets still point into
  the original text), segmented by jieba; positions count words in order so quoted phrases match.
  Index time also emits the dictionary words inside a long word at that word's position
  (jieba's search mode), so 原料 finds 原料牌堆.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from whoosh.analysis import (
    Analyzer,
    CharsetFilter,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
    Token,
    Tokenizer,
)
from whoosh.lang import stopwords_for_language
from whoosh.support.charset import accent_map

from indexer.corpus import LANGS

# French elisions (l’, d’, qu’ ...) are split off by the tokenizer and are noise on their own.
# Question words are noise too (those that are concept forms, like "where", are not listed here).
_EXTRA_STOPWORDS = {
    "fr": {"l", "d", "j", "m", "n", "s", "t", "c", "qu", "jusqu", "lorsqu", "puisqu", "quelqu",
           "quand", "pourquoi", "comment", "quel", "quelle", "quels", "quelles", "lequel", "laquelle",
           "est-ce", "peut", "peux", "puis", "dois", "doit"},
    "en": {"s", "t", "why", "which", "whose", "whom"},
    "de": {"wann", "warum", "wieso", "weshalb", "woher", "welche", "welcher", "welches", "welchen",
           "wer", "wen", "wem", "wessen", "darf", "dürfen", "muss", "müssen", "soll"},
}

# Common Chinese function and question words; everything else jieba finds is indexed.
_ZH_STOPWORDS = frozenset(
    "的 了 是 在 和 与 及 或 就 都 而 也 把 被 将 这 那 之 其 为 以 于 等 着 吗 呢 吧 啊 个 一个 该 便 "
    "谁 什么 怎么 怎样 为什么 如何 哪个 哪些 我 我们 你 你们 会 能 要 请问".split()
)

_WORD = re.compile(r"\w", re.UNICODE)
HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")  # a Chinese character: Han script is Chinese for sure


def fold(text: str) -> str:
    """Lower-case and strip accents: the form stop lists and stemmers see."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


class _T2S:
    """OpenCC's converter, created lazily: it cannot be pickled, and Whoosh pickles analyzers."""

    _lock = threading.Lock()
    _converter = None

    @classmethod
    def convert(cls, text: str) -> str:
        if cls._converter is None:
            with cls._lock:
                if cls._converter is None:
                    import opencc

                    cls._converter = opencc.OpenCC("t2s")
        converted = cls._converter.convert(text)
        if len(converted) != len(text):  # keep offsets aligned with the original text
            converted = "".join(
                c2 if len(c2 := cls._converter.convert(c)) == 1 else c for c in text
            )
        return converted


def to_simplified(text: str) -> str:
    """Traditional Chinese folded to Simplified, character for character."""
    return _T2S.convert(text)


_jieba_lock = threading.Lock()
_jieba = None


def jieba_tokenizer():
    """jieba's default tokenizer, initialised once per process, with no cache file written to /tmp."""
    global _jieba
    if _jieba is None:
        with _jieba_lock:
            if _jieba is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                tokenizer = jieba.Tokenizer()
                # Read the dictionary directly: jieba would otherwise write a 9 MB cache to /tmp.
                with tokenizer.get_dict_file() as dictionary:
                    tokenizer.FREQ, tokenizer.total = tokenizer.gen_pfdict(dictionary)
                tokenizer.initialized = True
                _jieba = tokenizer
    return _jieba


class ChineseTokenizer(Tokenizer):
    """Segments Chinese (either script) into Simplified words with offsets into the original."""

    def __init__(self, stoplist=_ZH_STOPWORDS):
        self.stoplist = stoplist

    def __eq__(self, other):
        return isinstance(other, ChineseTokenizer) and self.stoplist == other.stoplist

    def __hash__(self):
        return hash((ChineseTokenizer, self.stoplist))

    def __call__(
        self,
        value,
        positions=False,
        chars=False,
        keeporiginal=False,
        removestops=True,
        start_pos=0,
        start_char=0,
        tokenize=True,
        mode="",
        **kwargs,
    ):
        simplified = to_simplified(value)
        jb = jieba_tokenizer()
        subwords = mode == "index"
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        pos = start_pos
        for word, start, end in jb.tokenize(simplified):
            if not _WORD.search(word):
                continue
            word = word.lower()
            stopped = word in self.stoplist
            if stopped and removestops:
                continue
            parts = [(word, start, end)]
            if subwords and len(word) > 2:
                parts = [
                    (word[i : i + n], start + i, start + i + n)
                    for n in (2, 3)
                    if len(word) > n
                    for i in range(len(word) - n + 1)
                    if jb.FREQ.get(word[i : i + n])
                ] + parts
            for text, s, e in parts:
                token.text = text
                token.boost = 1.0
                token.stopped = stopped
                if keeporiginal:
                    token.original = value[s:e]
                if positions:
                    token.pos = pos
                if chars:
                    token.startchar = start_char + s
                    token.endchar = start_char + e
                yield token
            pos += 1


@lru_cache(maxsize=None)
def stoplist(lang: str) -> frozenset[str]:
    """The folded stop words of en, fr or de: Whoosh's list and question words."""
    words = set(stopwords_for_language(lang)) | _EXTRA_STOPWORDS[lang]
    return frozenset(fold(w) for w in words)


@lru_cache(maxsize=None)
def analyzer(lang: str) -> Analyzer:
    """The analyzer for one corpus language (one instance per language and process)."""
    if lang not in LANGS:
        raise ValueError(f"no analyzer for {lang!r}")
    if lang == "zh":
        return ChineseTokenizer()
    return (
        RegexTokenizer(r"\w+")
        | LowercaseFilter()
        | CharsetFilter(accent_map)
        | StopFilter(stoplist=stoplist(lang), minsize=1)
        | StemFilter(lang=lang, cachesize=50000)
    )


@dataclass(frozen=True)
class Word:
    """One word of a text: its stem as indexed, where it stands, and whether it is a stop word."""

    stem: str
    start: int
    end: int
    stop: bool


def words(lang: str, text: str) -> list[Word]:
    """Every word of ``text`` in order, stop words included and flagged: the analyzer's own chain,
    asked (Whoosh's way) to mark its stop words instead of dropping them. A stop word keeps its
    folded form (stemmers leave stop words alone); a word whose stem is a stop word is one too."""
    stops = _ZH_STOPWORDS if lang == "zh" else stoplist(lang)
    return [Word(token.text, token.startchar, token.endchar,
                 token.stopped or token.text in stops or fold(text[token.startchar:token.endchar]) in stops)
            for token in analyzer(lang)(text, chars=True, mode="query", removestops=False)]


def terms(lang: str, text: str, mode: str = "query") -> list[str]:
    """The indexed terms of a text in one language, in order, without duplicates."""
    seen: dict[str, None] = {}
    for token in analyzer(lang)(text, mode=mode):
        seen.setdefault(token.text, None)
    return list(seen)


def spans(lang: str, text: str, wanted: set[str]) -> list[tuple[int, int]]:
    """Character spans in ``text`` of the tokens whose indexed term is in ``wanted``."""
    return [(start, end) for term, start, end in _indexed(lang, text) if term in wanted]


@lru_cache(maxsize=4096)
def _indexed(lang: str, text: str) -> tuple[tuple[str, int, int], ...]:
    """A text's indexed terms and where they stand, read once: the same passages are highlighted
    for question after question (the analyzer is most of a search's highlighting cost)."""
    return tuple((t.text, t.startchar, t.endchar) for t in analyzer(lang)(text, chars=True, mode="index"))


# Sentence ends, list items and line breaks: where an answer may start or stop. Not inside a quotation
# that ends with its own mark (la carte « Mamma Mia ! », 「媽媽咪呀！」): the sentence goes on.
_BOUNDARY = re.compile(r"(?<=[.!?;。！？；])\s+(?![»”」』])|(?<=[。！？；])(?![」』”\s])|\n")


def sentences(text: str) -> list[tuple[int, int]]:
    """[start, end) spans of the sentences and list items of a passage, white space trimmed."""
    spans, at = [], 0
    for boundary in _BOUNDARY.finditer(text):
        spans.append((at, boundary.start()))
        at = boundary.end()
    spans.append((at, len(text)))
    trimmed = []
    for start, end in spans:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if end > start:
            trimmed.append((start, end))
    return trimmed


def warm_up() -> None:
    """Load jieba's dictionary and OpenCC now rather than on the first request (about 1 s)."""
    for lang in LANGS:
        terms(lang, "warm 訂單")
