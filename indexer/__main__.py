"""python -m indexer: build the rulebook index (see indexer.build), or add a table's rulebook.

    python -m indexer [--if-stale]                          build the index (corpus and added rulebooks)
    python -m indexer add FILE --game ID [--name NAME] [--lang L]
                                                            read a rulebook (PDF, Markdown, text, HTML),
                                                            put it in the library, rebuild
    python -m indexer remove GAME LANG                      remove an added rulebook, rebuild
"""

import argparse
import os
import sys
import time
from pathlib import Path

from indexer import added
from indexer.build import DEFAULT_CORPUS, DEFAULT_INDEX, build, is_stale
from indexer.corpus import LANGS, load_corpus
from indexer.pdf import Unreadable
from indexer.reading import UnsupportedFormat


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="corpus folder")
    parser.add_argument(
        "--index", type=Path, default=Path(os.environ.get("REFEREE_INDEX", DEFAULT_INDEX)),
        help="index link to write (default: $REFEREE_INDEX or var/index)",
    )
    parser.add_argument(
        "--library", type=Path, default=added.library_dir(),
        help="the folder of rulebooks tables added (default: $REFEREE_LIBRARY or var/library)",
    )


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["add"]:
        return add(argv[1:])
    if argv[:1] == ["remove"]:
        return remove(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m indexer", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(parser)
    parser.add_argument("--if-stale", action="store_true", help="build only when missing or out of date")
    args = parser.parse_args(argv)
    if args.if_stale and not is_stale(args.index, args.corpus, args.library):
        print(f"index {args.index} is up to date")
        return 0
    _build(args)
    return 0


def _build(args) -> dict:
    started = time.monotonic()

    def progress(message: str) -> None:
        print(f"  [{time.monotonic() - started:5.1f} s] {message}", file=sys.stderr, flush=True)

    report = build(args.index, args.corpus, progress=progress, library=args.library)
    print(f"built {report['index']} ({report['generation']}): {report['passages']} passages, "
          f"{report['bytes'] / 1024:.0f} KiB in {report['seconds']:.2f} s")
    for book, count in sorted(report["rulebooks"].items()):
        print(f"  {book}: {count} passages")
    return report


def add(argv) -> int:
    parser = argparse.ArgumentParser(prog="python -m indexer add",
                                     description="Add a table's rulebook (PDF, Markdown, text or a saved web page) "
                                                 "to the library and rebuild the index; a running server serves it "
                                                 "within seconds.")
    parser.add_argument("file", type=Path, help="the rulebook: .pdf, .md, .txt or .html")
    parser.add_argument("--game", required=True, help="the game's id: lower-case words joined by hyphens")
    parser.add_argument("--name", help="the game's display name, in any script (default: the rulebook's title)")
    parser.add_argument("--lang", choices=LANGS, help="the rulebook's language (default: detected)")
    _common(parser)
    args = parser.parse_args(argv)
    try:
        data = args.file.read_bytes()
    except OSError as error:
        print(f"cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    print(f"reading {args.file.name} ({len(data) / 1024:.0f} KiB)", file=sys.stderr, flush=True)
    shipped = {g["id"]: g for g in load_corpus(args.corpus).games}
    try:
        found = added.add(data, args.file.name, args.game, args.name, args.lang, args.library, shipped,
                          progress=lambda message: print(f"  {message}", file=sys.stderr, flush=True))
    except (added.Refused, Unreadable, UnsupportedFormat) as error:
        print(f"not added: {error}", file=sys.stderr)
        return 1
    pages = f", {found.pages} pages" if found.pages else ""
    print(f"read {args.file.name} as the {found.lang} rulebook of {found.game!r} ({found.title}): "
          f"{found.format}{pages}, {found.sections} sections, {found.passages} passages")
    _build(args)
    print(f"added: ask about it with game={found.game!r} (GET /v1/games/{found.game})")
    return 0


def remove(argv) -> int:
    parser = argparse.ArgumentParser(prog="python -m indexer remove",
                                     description="Remove a rulebook a table added, and rebuild the index.")
    parser.add_argument("game")
    parser.add_argument("lang", choices=LANGS)
    _common(parser)
    args = parser.parse_args(argv)
    try:
        removed = added.remove(args.game, args.lang, args.library)
    except added.Refused as error:
        print(f"not removed: {error}", file=sys.stderr)
        return 1
    if not removed:
        print(f"no added {args.lang} rulebook of {args.game!r} in {args.library}", file=sys.stderr)
        return 1
    _build(args)
    print(f"removed the {args.lang} rulebook of {args.game!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
