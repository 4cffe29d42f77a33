"""The rulebooks tables added: a library folder of the deployment, beside the shipped corpus.

``$REFEREE_LIBRARY`` (``var/library`` by default) is laid out as ``corpus/`` is: ``games.yaml``
naming the games and their rulebooks, ``<game>/<lang>.md`` each rulebook in the corpus's Markdown
as indexer.reading read it, and ``<game>/sources/`` the files as received. It is never in git:
it belongs to the deployment, and every build indexes it with the corpus (indexer.corpus.load_corpus).

A game id is new, or a shipped game's: then the rulebook adds a language the game has no rulebook
in (a shipped rulebook is never replaced, and only added ones can be removed). One writer at a
time (a lock file); each file is written whole and then renamed into place, so a crash leaves the
library as it was.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import yaml

from indexer.corpus import FEEDBACK, LANGS, parse_rulebook
from indexer.reading import read_rulebook

PROJECT = Path(__file__).resolve().parent.parent
DEFAULT_LIBRARY = PROJECT / "var" / "library"
GAMES = "games.yaml"
GAME_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_GAME_ID = 40
MAX_NAME = 80
NOT_STATED = "The player count is not read from an added rulebook."


def library_dir() -> Path:
    """Where the added rulebooks are: $REFEREE_LIBRARY, or var/library in the project."""
    return Path(os.environ.get("REFEREE_LIBRARY") or DEFAULT_LIBRARY)


class Refused(ValueError):
    """The rulebook cannot be added or removed as asked; ``status`` is the HTTP status that says why."""

    def __init__(self, message: str, status: int = 409):
        super().__init__(message)
        self.status = status


@dataclass
class Added:
    """What adding a rulebook found."""

    game: str
    lang: str
    title: str
    format: str
    pages: int | None
    sections: int
    passages: int
    new_game: bool


def check_game_id(game: str) -> None:
    if not GAME_ID.match(game or "") or len(game) > MAX_GAME_ID:
        raise Refused(f"A game id is lower-case letters and digits joined by hyphens, at most {MAX_GAME_ID} "
                      f"characters (like 'ticket-to-ride'), not {game!r}.", 400)


def games(library: Path) -> list[dict]:
    """The games of a library folder's games.yaml (none when it has none)."""
    return _listed(Path(library) / GAMES, "games")


def add(data: bytes, filename: str, game: str, name: str | None = None, lang: str | None = None,
        library: Path | None = None, shipped: dict[str, dict] | None = None,
        progress: Callable[[str], None] = lambda message: None) -> Added:
    """Read a rulebook and put it in the library: the game's new rulebook in language ``lang``
    (detected when None). ``shipped``: the shipped games by id, whose rulebooks are never replaced."""
    check_game_id(game)
    if lang is not None and lang not in LANGS:
        raise Refused(f"Referee reads rulebooks in {', '.join(LANGS)}, not {lang!r}.", 400)
    if name is not None and not (0 < len(name.strip()) <= MAX_NAME):
        raise Refused(f"A game's name is 1 to {MAX_NAME} characters.", 400)
    library = Path(library or library_dir())
    shipped = shipped or {}
    read = read_rulebook(data, filename, game, lang, title=None, progress=progress)
    if read.lang in {b["lang"] for b in shipped.get(game, {}).get("rulebooks", [])}:
        raise Refused(f"{game!r} has a {read.lang!r} rulebook shipped with Referee; it is not replaced.")
    book = parse_rulebook(read.markdown, filename)
    library.mkdir(parents=True, exist_ok=True)
    with _writing(library):
        entries = games(library)
        entry = next((g for g in entries if g["id"] == game), None)
        new_game = entry is None and game not in shipped
        if entry is None:
            entry = {"id": game, "rulebooks": []}
            if game not in shipped:
                display = (name or read.title).strip()
                entry.update(names={lang_: display for lang_ in LANGS},
                             players={"min": None, "max": None, "stated": False, "note": NOT_STATED})
            entries.append(entry)
        elif name and game not in shipped:
            entry["names"] = {lang_: name.strip() for lang_ in LANGS}
        folder = library / game
        (folder / "sources").mkdir(parents=True, exist_ok=True)
        suffix = Path(filename).suffix.lower() or {"pdf": ".pdf", "html": ".html", "markdown": ".md"}.get(read.format, ".txt")
        _write(folder / "sources" / f"{read.lang}{suffix}", data)
        _write(folder / f"{read.lang}.md", read.markdown.encode("utf-8"))
        today = time.strftime("%Y-%m-%d", time.gmtime())
        pages = f", {read.pages} pages" if read.pages else ""
        entry["rulebooks"] = [b for b in entry["rulebooks"] if b["lang"] != read.lang] + [{
            "lang": read.lang,
            "source": Path(filename).name,
            "added": today,
            "format": read.format,
            **({"pages": read.pages} if read.pages else {}),
            "provenance": f"Added by a table on {today} from {Path(filename).name} ({read.format}{pages}). "
                          f"Referee found its headings, passages{' and pages' if read.pages else ''} from the "
                          f"file's layout; the words are the file's.",
        }]
        _write_listed(library / GAMES, "games", entries, GAMES_HEADER)
    return Added(game, read.lang, read.title, read.format, read.pages, len(book.sections), len(book.passages), new_game)


def remove(game: str, lang: str, library: Path | None = None) -> bool:
    """Remove an added rulebook (and the game, when it was its last); False when there is none."""
    check_game_id(game)
    library = Path(library or library_dir())
    if not (library / GAMES).exists():
        return False
    with _writing(library):
        entries = games(library)
        entry = next((g for g in entries if g["id"] == game), None)
        if entry is None or lang not in {b["lang"] for b in entry["rulebooks"]}:
            return False
        entry["rulebooks"] = [b for b in entry["rulebooks"] if b["lang"] != lang]
        folder = library / game
        for path in [folder / f"{lang}.md", *(folder / "sources").glob(f"{lang}.*")]:
            path.unlink(missing_ok=True)
        if not entry["rulebooks"]:
            entries.remove(entry)
            shutil.rmtree(folder, ignore_errors=True)
        _write_listed(library / GAMES, "games", entries, GAMES_HEADER)
    return True


# ---- what tables confirm ---------------------------------------------------------------------

def feedback(library: Path | None = None, game: str | None = None) -> list[dict]:
    """The questions players said a passage answered, oldest first (``game``'s only when given)."""
    items = _listed(Path(library or library_dir()) / FEEDBACK, "feedback")
    return [item for item in items if game is None or item["game"] == game]


def record_feedback(question: str, lang: str, game: str, passage: str, helpful: bool, confirmed: bool,
                    library: Path | None = None) -> dict:
    """Keep a player's word that ``passage`` answered (or did not answer) ``question``; a confirmed
    helpful one joins the game's players' questions at the next build (indexer.corpus)."""
    library = Path(library or library_dir())
    library.mkdir(parents=True, exist_ok=True)
    item = {"id": uuid.uuid4().hex[:12], "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "game": game,
            "passage": passage, "lang": lang, "question": question, "helpful": helpful, "confirmed": confirmed}
    with _writing(library):
        items = feedback(library) + [item]
        _write_listed(library / FEEDBACK, "feedback", items, FEEDBACK_HEADER)
    return item


def forget_feedback(item_id: str, library: Path | None = None) -> dict | None:
    """Remove one kept answer; the removed item, or None when there is none."""
    library = Path(library or library_dir())
    if not (library / FEEDBACK).exists():
        return None
    with _writing(library):
        items = feedback(library)
        found = next((item for item in items if item["id"] == item_id), None)
        if found is not None:
            _write_listed(library / FEEDBACK, "feedback", [item for item in items if item is not found],
                          FEEDBACK_HEADER)
    return found


GAMES_HEADER = "# The rulebooks tables added (python -m indexer add, POST /v1/games/{game}/rulebooks).\n"
FEEDBACK_HEADER = ("# Questions players said a passage answered (POST /v1/feedback). Confirmed helpful ones\n"
                   "# (sent with the API key, or from this machine) join the game's players' questions.\n")


def _listed(path: Path, key: str) -> list[dict]:
    """The list under ``key`` in one of the library's YAML files (none when there is no file)."""
    if not path.exists():
        return []
    return (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get(key) or []


def _write_listed(path: Path, key: str, items: list[dict], header: str) -> None:
    _write(path, (header + yaml.safe_dump({key: items}, allow_unicode=True, sort_keys=False)).encode("utf-8"))


def _write(path: Path, data: bytes) -> None:
    """Write a file whole, then rename it into place."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    partial.write_bytes(data)
    os.replace(partial, path)


@contextmanager
def _writing(library: Path):
    fd = os.open(library / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
