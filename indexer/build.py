"""corpus -> passages -> a Whoosh index, and a tantivy one in its ``tantivy`` subfolder
(indexer.tantivy_index), written beside the old ones and swapped in atomically.

The index folder given (``var/index`` by default) is a symbolic link to a generation folder
(``index.<stamp>``). A build writes a new generation completely, then replaces the link with
``os.replace``, which is atomic: a crash at any point leaves the old link, and so the old index,
in place.

A reader holds a lease on the generation it reads (a shared ``flock`` on the generation's
``.readers`` file, see ``indexer.generation.hold``). After a swap, a build deletes every other generation that no
reader holds, so a server keeps the files it serves for as long as it serves them, however many
builds come in between. One build runs at a time (an exclusive lock beside the link).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import time
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Callable, Iterable

from whoosh import index as whoosh_index

from indexer import lexicon, names, tantivy_index, vectors
from indexer.glossary import glossary
from indexer.analysis import terms
from indexer.cedict import zh_en
from indexer.corpus import Corpus, Passage, Rulebook, fingerprint, load_corpus
from indexer.generation import (
    CATALOG,
    FORMAT,
    READERS,
    facets,
    read_catalog,
    schema,
    section_field,
    text_field,
)
from indexer.terms import load_concepts
from indexer.wikdict import PAIRS, translations

PROJECT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = PROJECT / "corpus"
DEFAULT_INDEX = PROJECT / "var" / "index"


def source_fingerprint(corpus_dir: Path, library: Path | None = None) -> str:
    """Changes whenever the corpus, the added rulebooks or the indexing code changes."""
    roots = [corpus_dir, Path(__file__).resolve().parent] + ([library] if library is not None else [])
    return fingerprint(*roots) + f":{FORMAT}"


def _document(p: Passage) -> dict:
    return {
        "id": p.id,
        "game": p.game,
        "lang": p.lang,
        "kind": p.kind,
        "order": p.order,
        "section": p.section,
        "section_path": list(p.section_path),
        "text": p.text,
        "page": p.page,
        text_field(p.lang): p.text,
        section_field(p.lang): " ".join(p.section_path),
        "facets": facets(p.text),
    }


def _rulebook_outline(book: Rulebook) -> dict:
    return {
        "game": book.game,
        "lang": book.lang,
        "title": book.title,
        "source": book.source,
        "sections": [
            {
                "anchor": s.anchor,
                "title": s.title,
                "level": s.level,
                "kind": s.kind,
                "editorial": s.editorial,
                "path": list(s.path),
                "passages": [
                    {k: v for k, v in asdict(p).items() if k not in ("section_path",)}
                    | {"section_path": list(p.section_path)}
                    for p in s.passages
                ],
            }
            for s in book.sections
        ],
    }


def catalog(corpus: Corpus, source_print: str) -> dict:
    """What the service serves besides search: games, whole rulebooks, disagreements."""
    return {
        "format": FORMAT,
        "fingerprint": source_print,
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "games": corpus.games,
        "rulebooks": [_rulebook_outline(b) for b in corpus.rulebooks],
        "disagreements": corpus.disagreements,
        "concepts": load_concepts(corpus.root / "terms.yaml") if (corpus.root / "terms.yaml").exists() else [],
        "dictionaries": {"zh-en": zh_en({t for b in corpus.rulebooks if b.lang == "en" for p in b.passages
                                         for t in terms("en", p.text)})},
        "bilingual": _bilingual(corpus),
        # passage id -> language -> what it says in Referee's words (the shipped games); and for the
        # games without players' questions, their rulebooks' words glossed (indexer.glossary)
        "gists": corpus.gists,
        "glossary": glossary(corpus, uncurated_games(corpus)),
        # passage id -> language -> the indexed terms of its players' questions in that language
        "question_terms": {passage: {lang: sorted({t for q in asked for t in terms(lang, q)})
                                     for lang, asked in by_lang.items() if asked}
                           for passage, by_lang in corpus.questions.items()},
    }


def _bilingual(corpus: Corpus) -> dict[str, dict[str, list[str]]]:
    """indexer.wikdict's pairs, cut to the words of the rulebooks of the games the lexicon holds
    (``uncurated_games``: a question about a shipped game never reads them); none without one."""
    uncurated = uncurated_games(corpus)
    vocabulary: dict[str, set[str]] = {}
    for book in corpus.rulebooks:
        if book.game in uncurated:
            vocabulary.setdefault(book.lang, set()).update(t for p in book.passages for t in terms(book.lang, p.text))
    return {pair: translations(pair, vocabulary[pair.split("-")[1]]) for pair in PAIRS
            if vocabulary.get(pair.split("-")[1])}


def is_stale(index_dir: Path | str = DEFAULT_INDEX, corpus_dir: Path | str = DEFAULT_CORPUS,
             library: Path | str | None = None) -> bool:
    """True when the index is missing, incomplete, or built from another corpus, library or indexer."""
    built = read_catalog(index_dir)
    return built is None or built.get("fingerprint") != source_fingerprint(
        Path(corpus_dir), Path(library) if library is not None else None)


def build(
    index_dir: Path | str = DEFAULT_INDEX,
    corpus_dir: Path | str = DEFAULT_CORPUS,
    passages: Callable[[Corpus], Iterable[Passage]] | None = None,
    progress: Callable[[str], None] = lambda message: None,
    library: Path | str | None = None,
    embeddings: Path | str | None = None,
) -> dict:
    """Build the index for ``corpus_dir`` (and the rulebooks tables added, in ``library``: see
    indexer.added) and swap it in at ``index_dir``; return a report.

    ``passages`` may replace the corpus's own passages (the benchmarks index synthetic copies);
    ``embeddings``: the file of earlier builds' embeddings (indexer.vectors.EmbeddingCache), by
    default beside the index link.
    """
    started = time.perf_counter()
    index_dir = Path(index_dir)
    corpus_dir = Path(corpus_dir)
    library = Path(library) if library is not None else None
    corpus = load_corpus(corpus_dir, library)
    source_print = source_fingerprint(corpus_dir, library)
    docs = list(passages(corpus) if passages else (p for b in corpus.rulebooks for p in b.passages))

    index_dir.parent.mkdir(parents=True, exist_ok=True)
    if index_dir.exists() and not index_dir.is_symlink():
        raise FileExistsError(f"{index_dir} exists and is not an index link; move it away")
    embeddings = Path(embeddings) if embeddings else index_dir.parent / f".{index_dir.name}.embeddings"
    with _build_lock(index_dir):
        generation = _write_generation(index_dir, corpus, source_print, docs, progress, embeddings)
    seconds = time.perf_counter() - started
    by_book = {}
    for p in docs:
        by_book[f"{p.game}/{p.lang}"] = by_book.get(f"{p.game}/{p.lang}", 0) + 1
    return {
        "index": str(index_dir),
        "generation": generation.name,
        "passages": len(docs),
        "rulebooks": by_book,
        "seconds": round(seconds, 3),
        "bytes": sum(f.stat().st_size for f in generation.rglob("*") if f.is_file()),
    }


def _write_generation(index_dir: Path, corpus: Corpus, source_print: str, docs: list[Passage], progress,
                      embeddings: Path) -> Path:
    generation = index_dir.parent / f"{index_dir.name}.{time.time_ns()}"
    generation.mkdir()
    try:
        (generation / READERS).touch()
        ix = whoosh_index.create_in(str(generation), schema())
        writer = ix.writer(limitmb=256)
        step = max(1, len(docs) // 10)
        for number, passage in enumerate(docs, start=1):
            writer.add_document(**_document(passage))
            if number % step == 0 or number == len(docs):
                progress(f"indexed {number}/{len(docs)} passages")
        writer.commit()
        ix.close()
        progress("writing the tantivy index")
        tantivy_index.write(generation / tantivy_index.FOLDER, (_document(p) for p in docs))
        progress("embedding passages and sentences")
        forms = names.name_forms({game["id"]: game for game in corpus.games})
        uncurated = uncurated_games(corpus)
        vectors.write(generation, docs, corpus.questions, lambda q: names.meant(q, forms),
                      cache=embeddings, progress=progress, second=bool(uncurated))
        if uncurated:
            progress("embedding the words of the games without players' questions")
            lexicon.write(generation, (p for p in docs if p.game in uncurated), vectors.embed)
        (generation / CATALOG).write_text(
            json.dumps(catalog(corpus, source_print), ensure_ascii=False), encoding="utf-8"
        )
        _swap(index_dir, generation)
    except BaseException:
        shutil.rmtree(generation, ignore_errors=True)
        raise
    _prune(index_dir, keep=generation.name)
    return generation


def uncurated_games(corpus: Corpus) -> set[str]:
    """The games without players' questions written for them: those none of whose passages has
    any, and those tables added (whatever questions tables confirmed of them since), as the
    service's ranker tells them (service.retrieval.rank.Ranker.curated)."""
    asked = {passage.split(".", 1)[0] for passage, by_lang in corpus.questions.items() if any(by_lang.values())}
    added = {game["id"] for game in corpus.games
             if game.get("rulebooks") and all(book.get("added") for book in game["rulebooks"])}
    return {game["id"] for game in corpus.games} - asked | added


@contextmanager
def _build_lock(index_dir: Path):
    """One build at a time per index link: a second build waits for the first."""
    fd = os.open(index_dir.parent / f".{index_dir.name}.build-lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def _swap(index_dir: Path, generation: Path) -> None:
    link = index_dir.parent / f".{index_dir.name}.link-{os.getpid()}"
    if link.is_symlink():
        link.unlink()
    link.symlink_to(generation.name)
    os.replace(link, index_dir)  # atomic: readers see the old index or the new one, never neither


def _prune(index_dir: Path, keep: str) -> None:
    """Delete the generations other than ``keep`` that no reader holds (and a killed build's leftovers)."""
    for old in index_dir.parent.glob(f"{index_dir.name}.*"):
        if not old.is_dir() or old.is_symlink() or old.name == keep:
            continue
        try:
            fd = os.open(old / READERS, os.O_RDONLY)
        except FileNotFoundError:  # a build killed before it wrote anything, or an older format
            shutil.rmtree(old, ignore_errors=True)
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue  # a server still reads it
        else:
            shutil.rmtree(old, ignore_errors=True)  # under the lock, so no reader can take it meanwhile
        finally:
            os.close(fd)


