"""Reads corpus/: games.yaml, the rulebooks (corpus/<game>/<lang>.md), disagreements.yaml and the
players' questions each passage answers (corpus/<game>/questions.yaml) and what each says in
Referee's words (corpus/<game>/gists.yaml).

The rulebook Markdown is plain text with a little structure added (README.md, "Adding a rulebook"):

* a YAML front matter block (game, lang, title, source);
* headings ``# Title {#anchor .kind .editorial}``: the anchor is stable and unique in the file,
  the kind (rule, faq, tip, example, note, about) applies to everything below until overridden,
  ``.editorial`` marks a heading that Referee added where the source has none;
* fenced divs ``::: kind`` ... ``:::`` giving their blocks another kind;
* blocks separated by blank lines. One block is one passage: a paragraph, or a list with its
  lead-in. The lines of a block are kept as they are, joined by newlines;
* ``<!-- page N -->`` on a line of its own: the lines below it are printed on page N, and a
  passage is on the page of its first line (a PDF's rulebook, indexer.reading); a text line that
  would read as markup starts with a backslash, which is not part of the text.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

LANGS = ("en", "fr", "de", "zh")
KINDS = ("rule", "faq", "tip", "example", "note", "about")

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*\{([^}]*)\}\s*$")
_FENCE_OPEN = re.compile(r"^:::\s*\{?\.?([a-z]+)\}?\s*$")
_ANCHOR = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_PAGE = re.compile(r"^<!--\s*page\s+(\d{1,5})\s*-->$")
FEEDBACK = "feedback.yaml"  # in a library folder: the answers tables confirmed (indexer.added)


class CorpusError(ValueError):
    """The corpus breaks one of its own conventions; the message names the file and line."""


@dataclass(frozen=True)
class Passage:
    """A quotable unit of a rulebook: one paragraph, or one list with its lead-in."""

    id: str
    game: str
    lang: str
    anchor: str
    section: str
    section_path: tuple[str, ...]
    kind: str
    text: str
    order: int
    page: int | None = None  # the page it is printed on, in a rulebook with pages


@dataclass
class Section:
    anchor: str
    title: str
    level: int
    kind: str
    editorial: bool
    path: tuple[str, ...]
    passages: list[Passage] = field(default_factory=list)


@dataclass
class Rulebook:
    game: str
    lang: str
    title: str
    source: str
    sections: list[Section]

    @property
    def passages(self) -> list[Passage]:
        return [p for s in self.sections for p in s.passages]


def passage_id(game: str, lang: str, anchor: str, number: int) -> str:
    """Stable id: game, language, section anchor and the passage's place in that section only."""
    return f"{game}.{lang}.{anchor}.{number}"


def _split_front_matter(text: str, where: str) -> tuple[dict, list[str]]:
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        raise CorpusError(f"{where}: missing front matter")
    try:
        end = lines.index("---", 1)
    except ValueError:
        raise CorpusError(f"{where}: front matter is not closed") from None
    meta = yaml.safe_load("\n".join(lines[1:end])) or {}
    return meta, lines[end + 1 :]


def _parse_attributes(attrs: str, where: str) -> tuple[str, str | None, bool]:
    anchor, kind, editorial = None, None, False
    for item in attrs.split():
        if item.startswith("#"):
            anchor = item[1:]
        elif item == ".editorial":
            editorial = True
        elif item.startswith(".") and item[1:] in KINDS:
            kind = item[1:]
        else:
            raise CorpusError(f"{where}: unknown heading attribute {item!r}")
    if not anchor or not _ANCHOR.match(anchor):
        raise CorpusError(f"{where}: a heading needs an anchor like {{#lower-case-words}}")
    return anchor, kind, editorial


def parse_rulebook(text: str, where: str = "<rulebook>") -> Rulebook:
    """Parse one rulebook file into sections and passages."""
    meta, lines = _split_front_matter(text, where)
    for key in ("game", "lang", "title", "source"):
        if not meta.get(key):
            raise CorpusError(f"{where}: front matter needs {key!r}")
    game, lang = meta["game"], meta["lang"]
    if lang not in LANGS:
        raise CorpusError(f"{where}: unknown language {lang!r}")

    sections: list[Section] = []
    stack: list[Section] = []  # the open headings, outermost first
    fence_kind: str | None = None
    block: list[str] = []
    order = 0
    page: int | None = None  # the page the lines below are on
    block_page: int | None = None  # the page the block's first line is on

    def flush(line_no: int) -> None:
        nonlocal order
        if not block:
            return
        if not stack:
            raise CorpusError(f"{where}:{line_no}: text before the first heading")
        section = stack[-1]
        order += 1
        number = len(section.passages) + 1
        section.passages.append(
            Passage(
                id=passage_id(game, lang, section.anchor, number),
                game=game,
                lang=lang,
                anchor=section.anchor,
                section=section.title,
                section_path=section.path,
                kind=fence_kind or section.kind,
                text="\n".join(block),
                order=order,
                page=block_page,
            )
        )
        block.clear()

    anchors: set[str] = set()
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        at = f"{where}:{number}"
        heading = _HEADING.match(line)
        marker = _PAGE.match(line.strip())
        if marker:  # a passage is on the page its first line is on: a list may go on over the page
            page = int(marker.group(1))
        elif line.startswith("\\"):
            block_page = page if not block else block_page
            block.append(line[1:])
        elif heading and fence_kind is None:
            flush(number)
            level = len(heading.group(1))
            anchor, kind, editorial = _parse_attributes(heading.group(3), at)
            if anchor in anchors:
                raise CorpusError(f"{at}: anchor #{anchor} is used twice")
            anchors.add(anchor)
            while stack and stack[-1].level >= level:
                stack.pop()
            parent = stack[-1] if stack else None
            section = Section(
                anchor=anchor,
                title=heading.group(2),
                level=level,
                kind=kind or (parent.kind if parent else "rule"),
                editorial=editorial,
                path=(parent.path if parent else ()) + (heading.group(2),),
            )
            sections.append(section)
            stack.append(section)
        elif line.startswith("#") and fence_kind is None:
            raise CorpusError(f"{at}: a heading needs {{#anchor}}")
        elif line.startswith(":::"):
            flush(number)
            if fence_kind is None:
                opened = _FENCE_OPEN.match(line)
                if not opened or opened.group(1) not in KINDS:
                    raise CorpusError(f"{at}: a fenced div names one of {', '.join(KINDS)}")
                fence_kind = opened.group(1)
            elif line.strip() == ":::":
                fence_kind = None
            else:
                raise CorpusError(f"{at}: fenced divs do not nest")
        elif not line.strip():
            flush(number)
        else:
            block_page = page if not block else block_page
            block.append(line)
    flush(len(lines))
    if fence_kind is not None:
        raise CorpusError(f"{where}: a fenced div is not closed")
    return Rulebook(game=game, lang=lang, title=meta["title"], source=meta["source"], sections=sections)


@dataclass
class Corpus:
    root: Path
    games: list[dict]
    rulebooks: list[Rulebook]
    disagreements: list[dict]
    # passage id -> language -> questions a player would ask that the passage answers. Referee's
    # own writing, never quoted as rules: the index embeds them and keeps their words for the ranker.
    questions: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    # passage id -> language -> what the passage says, in a sentence or two: Referee's own writing
    # (corpus/<game>/gists.yaml), shown beside the quote to an asker of another language, never as it.
    gists: dict[str, dict[str, str]] = field(default_factory=dict)

    def passage(self, passage_id_: str) -> Passage | None:
        for book in self.rulebooks:
            for p in book.passages:
                if p.id == passage_id_:
                    return p
        return None


def load_corpus(root: Path | str, library: Path | str | None = None) -> Corpus:
    """Load games.yaml, every rulebook it lists, and disagreements.yaml; check them against each
    other. ``library``: a folder of rulebooks tables added (indexer.added), laid out as the corpus
    is, whose games join the corpus's (a shipped game's added rulebook joins its rulebooks)."""
    root = Path(root)
    games_doc = yaml.safe_load((root / "games.yaml").read_text(encoding="utf-8"))
    games = [dict(game, rulebooks=list(game.get("rulebooks", []))) for game in games_doc["games"]]
    folders = {game["id"]: {entry["lang"]: root for entry in game["rulebooks"]} for game in games}
    if library is not None and (Path(library) / "games.yaml").exists():
        added = yaml.safe_load((Path(library) / "games.yaml").read_text(encoding="utf-8")) or {}
        by_id = {game["id"]: game for game in games}
        for entry in added.get("games") or []:
            game = by_id.get(entry["id"])
            if game is None:
                game = by_id[entry["id"]] = dict(entry, rulebooks=[])
                games.append(game)
                folders[entry["id"]] = {}
            for book in entry.get("rulebooks", []):
                if book["lang"] not in folders[entry["id"]]:
                    game["rulebooks"].append(dict(book, added=str(book.get("added", True))))
                    folders[entry["id"]][book["lang"]] = Path(library)
    rulebooks = []
    for game in games:
        for entry in game.get("rulebooks", []):
            path = folders[game["id"]][entry["lang"]] / game["id"] / f"{entry['lang']}.md"
            book = parse_rulebook(path.read_text(encoding="utf-8"), str(path))
            if (book.game, book.lang) != (game["id"], entry["lang"]):
                raise CorpusError(f"{path}: front matter says {book.game}/{book.lang}")
            rulebooks.append(book)
    disagreements_path = root / "disagreements.yaml"
    disagreements = []
    if disagreements_path.exists():
        disagreements = yaml.safe_load(disagreements_path.read_text(encoding="utf-8"))["disagreements"]
    corpus = Corpus(root=root, games=games, rulebooks=rulebooks, disagreements=disagreements)
    _check_disagreements(corpus)
    corpus.questions = _questions(corpus)
    corpus.gists = _gists(corpus)
    if library is not None:
        _confirmed(corpus, Path(library))
    return corpus


def _confirmed(corpus: Corpus, library: Path) -> None:
    """The questions tables confirmed a passage answers (indexer.added.feedback) join its players'
    questions; one about a passage no longer there (its rulebook removed) is left out."""
    path = library / FEEDBACK
    if not path.exists():
        return
    ids = {p.id for book in corpus.rulebooks for p in book.passages}
    for item in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("feedback") or []:
        if item.get("confirmed") and item.get("helpful") and item["passage"] in ids and item.get("lang") in LANGS:
            asked = corpus.questions.setdefault(item["passage"], {lang: () for lang in LANGS})
            if item["question"] not in asked[item["lang"]]:
                asked[item["lang"]] = asked[item["lang"]] + (item["question"],)


def _questions(corpus: Corpus) -> dict[str, dict[str, tuple[str, ...]]]:
    """Each game's questions.yaml (passage id -> language -> questions), every id checked."""
    return {passage: {lang: tuple(by_lang.get(lang) or ()) for lang in LANGS}
            for passage, by_lang in _by_passage(corpus, "questions.yaml").items()}


def _gists(corpus: Corpus) -> dict[str, dict[str, str]]:
    """Each game's gists.yaml (passage id -> language -> what the passage says, in Referee's words)."""
    return {passage: {lang: text.strip() for lang, text in by_lang.items() if text and text.strip()}
            for passage, by_lang in _by_passage(corpus, "gists.yaml").items()}


def _by_passage(corpus: Corpus, name: str) -> dict[str, dict]:
    """A file of each game's folder that maps its passages' ids to something per language, every
    id and language checked."""
    ids = {p.id for book in corpus.rulebooks for p in book.passages}
    found: dict[str, dict] = {}
    for game in corpus.games:
        path = corpus.root / game["id"] / name
        if not path.exists():
            continue
        try:
            entries = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as error:
            raise CorpusError(f"{path}: not YAML: {error}") from None
        for passage, by_lang in entries.items():
            if passage not in ids or not passage.startswith(game["id"] + "."):
                raise CorpusError(f"{path}: no passage {passage} in {game['id']}'s rulebooks")
            if not isinstance(by_lang, dict) or set(by_lang) - set(LANGS):
                raise CorpusError(f"{path}: {passage} must map languages ({', '.join(LANGS)}) to its entries")
            found[passage] = by_lang
    return found


def _check_disagreements(corpus: Corpus) -> None:
    """Every side of a recorded disagreement must quote its passage exactly."""
    for item in corpus.disagreements:
        for side in item["sides"]:
            passage = corpus.passage(side["passage"])
            if passage is None:
                raise CorpusError(f"disagreement {item['id']}: no passage {side['passage']}")
            if side.get("quote") and side["quote"] not in passage.text:
                raise CorpusError(
                    f"disagreement {item['id']}: {side['passage']} does not contain {side['quote']!r}"
                )


@lru_cache(maxsize=None)
def _games(root: Path) -> tuple[dict, ...]:
    return tuple(yaml.safe_load((root / "games.yaml").read_text(encoding="utf-8"))["games"])


def shipped_games(root: Path | str | None = None) -> tuple[dict, ...]:
    """The games of games.yaml (the repository's corpus unless ``root`` is given), as written."""
    return _games(_root(root))


def _root(root: Path | str | None) -> Path:
    return Path(root) if root else Path(__file__).resolve().parent.parent / "corpus"


def game_names(root: Path | str | None = None) -> dict[str, dict[str, str]]:
    """Each game's display names by language, as games.yaml gives them."""
    return {g["id"]: g["names"] for g in _games(_root(root))}


def game_ids(root: Path | str | None = None) -> tuple[str, ...]:
    """The ids of the games in games.yaml (the repository's corpus unless ``root`` is given)."""
    return tuple(g["id"] for g in _games(_root(root)))


def player_counts(game: str, root: Path | str | None = None) -> tuple[int, int]:
    """(fewest, most) players of a game, as games.yaml states them once for everyone."""
    players = next(g for g in _games(_root(root)) if g["id"] == game)["players"]
    return players["min"], players["max"]


def fingerprint(*roots: Path | str) -> str:
    """A hash of every file under the given folders (a missing one has none; files and folders
    whose names begin with a dot are left out): the index is stale when it changes."""
    digest = hashlib.sha256()
    for root in roots:
        root = Path(root)
        for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                           and not any(part.startswith(".") for part in p.relative_to(root).parts)):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()
