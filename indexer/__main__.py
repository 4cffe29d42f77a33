"""python -m indexer: build the rulebook index (see indexer.build)."""

import argparse
import os
import sys
from pathlib import Path

from indexer.build import DEFAULT_CORPUS, DEFAULT_INDEX, build, is_stale


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m indexer", description=__doc__)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="corpus folder")
    parser.add_argument(
        "--index",
        type=Path,
        default=Path(os.environ.get("REFEREE_INDEX", DEFAULT_INDEX)),
        help="index link to write (default: $REFEREE_INDEX or var/index)",
    )
    parser.add_argument("--if-stale", action="store_true", help="build only when missing or out of date")
    args = parser.parse_args(argv)

    if args.if_stale and not is_stale(args.index, args.corpus):
        print(f"index {args.index} is up to date")
        return 0
    report = build(args.index, args.corpus, progress=lambda m: print(m, file=sys.stderr))
    print(f"built {report['index']} ({report['generation']}): {report['passages']} passages, "
          f"{report['bytes'] / 1024:.0f} KiB in {report['seconds']:.2f} s")
    for book, count in sorted(report["rulebooks"].items()):
        print(f"  {book}: {count} passages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
