"""The index's format: what a generation holds and how a reader holds on to it.

A generation is a folder (``index.<stamp>``) that the index link points to: the Whoosh index of
``schema()`` (a text and a headings field per language, ``text_field`` and ``section_field``), a
tantivy one in ``tantivy/`` with the same fields (indexer.tantivy_index), the sentence vectors
(indexer.vectors) and ``catalog.json`` (the games, rulebooks and their outlines). ``FORMAT`` is
bumped whenever any of that changes shape. indexer.build writes generations; the service reads
them, holding a ``Lease`` so that no build deletes the generation it serves.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
from pathlib import Path

from whoosh.fields import ID, KEYWORD, NUMERIC, STORED, TEXT, Schema

from indexer.analysis import analyzer
from indexer.corpus import LANGS

CATALOG = "catalog.json"
READERS = ".readers"  # a reader holds a shared lock on this file while it reads the generation
SECTION_BOOST = 0.5  # a word in the headings above a passage counts for less than one in it
FORMAT = 8  # bump when the schema or the catalog changes shape (7: each passage's page stored; 8: gists and glossary)


def text_field(lang: str) -> str:
    """The index field holding passage text in one language."""
    return f"t_{lang}"


def section_field(lang: str) -> str:
    """The index field holding the section headings above a passage, in its language."""
    return f"s_{lang}"


def schema() -> Schema:
    """One text field per language (each passage fills only its own), plus stored metadata."""
    fields = dict(
        id=ID(stored=True, unique=True),
        game=ID(stored=True),
        lang=ID(stored=True),
        kind=ID(stored=True),
        order=NUMERIC(stored=True, sortable=True),
        section=STORED,
        section_path=STORED,
        text=STORED,
        page=STORED,
        facets=KEYWORD(),
    )
    for lang in LANGS:
        fields[text_field(lang)] = TEXT(analyzer=analyzer(lang), phrase=True)
        fields[section_field(lang)] = TEXT(analyzer=analyzer(lang), phrase=True, field_boost=SECTION_BOOST)
    return Schema(**fields)


_NUMBER = re.compile(
    r"\d|[一二三四五六七八九十兩两]|\b(one|two|three|four|five|six|seven|eight|nine|ten|twice|"
    r"un|une|deux|trois|quatre|cinq|sept|huit|neuf|dix|"
    r"eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn)\b",
    re.IGNORECASE,
)


def facets(text: str) -> str:
    """Coarse traits of a passage that questions can prefer: "number" when it states a quantity."""
    return "number" if _NUMBER.search(text) else ""


def read_catalog(index_dir: Path | str) -> dict | None:
    """The catalog of the index at ``index_dir``, or None when there is no complete index."""
    path = Path(index_dir) / CATALOG
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


class Lease:
    """A reader's hold on one generation: no build deletes it until ``release``."""

    def __init__(self, path: Path, fd: int | None):
        self.path = path
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def hold(index_dir: Path | str, attempts: int = 5) -> Lease:
    """Lease the generation that ``index_dir`` points to now.

    A build may delete the generation between reading the link and taking the lease: then the
    generation's catalog is gone once the lease is taken, and the link is read again.
    Raises FileNotFoundError when there is no complete index.
    """
    index_dir = Path(index_dir)
    for _ in range(attempts):
        path = index_dir.resolve()
        try:
            fd = os.open(path / READERS, os.O_RDONLY)
        except FileNotFoundError:
            if (path / CATALOG).exists():  # a plain folder: nothing will delete it under us
                return Lease(path, None)
            continue
        fcntl.flock(fd, fcntl.LOCK_SH)
        if (path / CATALOG).exists():
            return Lease(path, fd)
        os.close(fd)
    raise FileNotFoundError(f"no complete index at {index_dir}")
