"""The same passages as a tantivy index, written into each generation beside Whoosh's files.

tantivy is given Referee's own analysis, not its own: every text field is added pre-tokenized with
the stems (and, for Chinese, jieba's words and sub-words) and the positions that
indexer.analysis.analyzer gives Whoosh at index time, so a stem, a phrase and its gaps mean the same
in both engines. The fields mirror indexer.generation.schema(): ``t_<lang>`` and ``s_<lang>`` with
positions, ``facets``, and ``id``, ``game``, ``lang``, ``kind`` as single terms (``game`` filters),
``order`` as a number. The stored fields a Whoosh hit gives are kept as one JSON document
(``stored``), so a hit from either engine carries the same dictionary.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable

import tantivy

from indexer.analysis import analyzer
from indexer.corpus import LANGS
from indexer.generation import section_field, text_field

FOLDER = "tantivy"  # the subfolder of a generation that holds the tantivy index
STORED = ("id", "game", "lang", "kind", "order", "section", "section_path", "text", "page")  # as Whoosh stores them
KEYWORDS = ("id", "game", "lang", "kind")
HEAP_BYTES = 64_000_000


def schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    for name in KEYWORDS:
        builder.add_text_field(name, tokenizer_name="raw", index_option="basic")
    builder.add_integer_field("order", indexed=True, fast=True)
    builder.add_text_field("facets", tokenizer_name="whitespace", index_option="freq")
    for lang in LANGS:
        for name in (text_field(lang), section_field(lang)):
            # Pre-tokenized at build time; "whitespace" only matters to a query parser, which is not used.
            builder.add_text_field(name, tokenizer_name="whitespace", index_option="position")
    builder.add_bytes_field("stored", stored=True, indexed=False)
    return builder.build()


def tokens(lang: str, text: str) -> list[tuple[str, int, int, int]]:
    """(term, position, start, end) of each token Whoosh indexes for ``text`` in ``lang``."""
    return [(t.text, t.pos, t.startchar, t.endchar)
            for t in analyzer(lang)(text, positions=True, chars=True, mode="index")]


def _pre_tokenized(lang: str, text: str, cache: dict) -> tantivy.PreTokenizedString | None:
    key = (lang, text)
    if key not in cache:  # the benchmarks' copies repeat every text: analyse each once
        cache[key] = tokens(lang, text)
    found = cache[key]
    if not found:
        return None
    return tantivy.PreTokenizedString(text, [tantivy.Token(t, pos, start, end) for t, pos, start, end in found])


def document(fields: dict, cache: dict) -> tantivy.Document:
    """A tantivy document for the fields indexer.build gives Whoosh for one passage."""
    doc = tantivy.Document()
    for name in KEYWORDS:
        doc.add_text(name, fields[name])
    doc.add_integer("order", fields["order"])
    for facet in fields["facets"].split():
        doc.add_text("facets", facet)
    for name, value in fields.items():
        if name[:2] in ("t_", "s_") and name[2:] in LANGS:
            pre = _pre_tokenized(name[2:], value, cache)
            if pre is not None:
                doc.add_pre_tokenized_text(name, pre)
    # as Whoosh stores them: a field without a value (a passage without a page) is left out
    doc.add_bytes("stored", json.dumps({k: fields[k] for k in STORED if fields.get(k) is not None},
                                       ensure_ascii=False).encode())
    return doc


def write(folder: Path, documents: Iterable[dict]) -> None:
    """Write the index into ``folder`` (created here): one segment, the passages in build order."""
    folder.mkdir()
    index = tantivy.Index(schema(), path=str(folder), reuse=False)
    writer = index.writer(HEAP_BYTES, 1)  # one thread: one segment, documents in order (as Whoosh's)
    cache: dict = {}
    for fields in documents:
        writer.add_document(document(fields, cache))
    writer.commit()
    writer.wait_merging_threads()
