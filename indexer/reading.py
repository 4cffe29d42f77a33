"""A rulebook as received (PDF, Markdown, plain text or a saved HTML page) in the corpus's own
Markdown (indexer.corpus): the one form every rulebook is indexed from, shipped or added.

Reading adds structure and never changes a rule's words: headings become sections with anchors,
paragraphs, list items (a list with its lead-in is one passage) and table rows keep their text as
the source has it, and each page of a PDF is marked (``<!-- page N -->``) so that every passage
keeps the page it is printed on. A Markdown file already in the corpus's form (front matter and
anchors) is taken as it is: the four shipped rulebooks could be added this way too.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Callable

from indexer.corpus import LANGS, parse_rulebook
from indexer.pdf import BULLET, Block, Unreadable, join_lines as _join, read_pdf

FORMATS = {".pdf": "pdf", ".md": "markdown", ".markdown": "markdown", ".txt": "text", ".text": "text",
           ".html": "html", ".htm": "html"}
MAX_TEXT_HEADING = 80  # characters: a longer line of plain text is never taken for a heading

__all__ = ["FORMATS", "Read", "Unreadable", "detect_lang", "read_rulebook"]


@dataclass
class Read:
    """A rulebook read: in the corpus's Markdown, and what was found in it."""

    markdown: str
    lang: str
    title: str
    pages: int | None  # a PDF's page count
    format: str


def format_of(name: str, data: bytes) -> str:
    """pdf, markdown, text or html: by the file's first bytes, else by its name's ending."""
    head = data[:1024].lstrip()
    if head.startswith(b"%PDF"):
        return "pdf"
    if head[:15].lower().startswith((b"<!doctype html", b"<html")):
        return "html"
    kind = FORMATS.get(Path(name).suffix.lower())
    if kind is None:
        raise UnsupportedFormat(f"Referee reads PDF, Markdown (.md), plain text (.txt) and saved web pages "
                                f"(.html), not {Path(name).suffix or 'a file without an ending'}.")
    if kind == "pdf":
        raise Unreadable("The file is named .pdf but is not a PDF.")
    return kind


class UnsupportedFormat(ValueError):
    """A kind of file Referee does not read."""


def read_rulebook(data: bytes, name: str, game: str, lang: str | None = None, title: str | None = None,
                  progress: Callable[[str], None] = lambda message: None) -> Read:
    """Read a file as ``game``'s rulebook; the language is detected when not given."""
    kind = format_of(name, data)
    pages = None
    if kind == "pdf":
        blocks, pages = read_pdf(data, progress)
    else:
        text = _decode(data)
        if kind == "markdown" and text.lstrip().startswith("---"):
            return _in_corpus_form(text, name, game, lang, title)
        blocks = {"markdown": _markdown_blocks, "text": _text_blocks, "html": _html_blocks}[kind](text)
    if not any(b.kind != "heading" and b.text.strip() for b in blocks):
        raise Unreadable("The file has no text to read.")
    found_lang = lang or detect_lang(" ".join(b.text for b in blocks))
    if found_lang is None:
        raise Unreadable("Its language could not be told: give it (en, fr, de or zh).")
    found_title, blocks = _title(blocks, title or Path(name).stem)
    markdown = to_markdown(blocks, game, found_lang, title or found_title, Path(name).name)
    parse_rulebook(markdown, name)  # what is written must read back
    return Read(markdown, found_lang, title or found_title, pages, kind)


def _decode(data: bytes) -> str:
    for encoding in ("utf-8-sig", "utf-16"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if "\x00" not in text:
            return text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        return data.decode("cp1252").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError:
        raise Unreadable("The file is not text in a known encoding (UTF-8 or Windows-1252).") from None


def _in_corpus_form(text: str, name: str, game: str, lang: str | None, title: str | None) -> Read:
    """A Markdown file with front matter: the corpus's own form, taken as it is but for its game
    and language, which must agree with what was asked."""
    book = parse_rulebook(text, name)
    if book.game != game or (lang and book.lang != lang):
        raise Unreadable(f"The file's front matter says it is the {book.lang!r} rulebook of {book.game!r}.")
    return Read(text, book.lang, title or book.title, None, "markdown")


def detect_lang(text: str) -> str | None:
    """The language a rulebook is written in: Han script is Chinese; otherwise lingua's reading of
    the text among English, French and German."""
    sample = text[:20000]
    han = sum(1 for c in sample if "\u4e00" <= c <= "\u9fff")
    letters = sum(1 for c in sample if c.isalpha())
    if letters and han / letters > 0.3:
        return "zh"
    from lingua import Language, LanguageDetectorBuilder

    detector = LanguageDetectorBuilder.from_languages(Language.ENGLISH, Language.FRENCH, Language.GERMAN).build()
    found = detector.detect_language_of(sample)
    return {Language.ENGLISH: "en", Language.FRENCH: "fr", Language.GERMAN: "de"}.get(found)


def _title(blocks: list[Block], fallback: str) -> tuple[str, list[Block]]:
    """The rulebook's title: its first heading when that is the only one at the top level (the
    cover's), which then heads the text before the first section; else ``fallback``."""
    headings = [b for b in blocks if b.kind == "heading"]
    if headings and blocks[0] is headings[0] and sum(h.level <= headings[0].level for h in headings) == 1:
        return headings[0].text, blocks
    return fallback, blocks


def slug(text: str) -> str:
    """An anchor from a heading: ASCII words joined by hyphens ("Spielende und Wertung" ->
    "spielende-und-wertung"); empty for a heading without Latin letters or digits."""
    folded = unicodedata.normalize("NFKD", text.replace("ß", "ss")).encode("ascii", "ignore").decode().lower()
    return "-".join(re.findall(r"[a-z0-9]+", folded))[:60].strip("-")


def to_markdown(blocks: list[Block], game: str, lang: str, title: str, source: str) -> str:
    """Blocks in the corpus's Markdown: front matter, headings with unique anchors, one passage a
    block (a list joined to its lead-in), page markers where the page changes."""
    if lang not in LANGS:
        raise Unreadable(f"Referee reads rulebooks in {', '.join(LANGS)}, not {lang!r}.")
    out = ["---", f"game: {game}", f"lang: {lang}", f"title: {_yaml_string(title)}",
           f"source: {_yaml_string(source)}", "---", ""]
    anchors: set[str] = set()
    page = None
    top = min((b.level for b in blocks if b.kind == "heading"), default=1)
    if not blocks or blocks[0].kind != "heading":
        blocks = [Block("heading", title, blocks[0].page if blocks else None, top)] + blocks
    previous = None
    for block in blocks:
        goes_on = block.kind in ("item", "table") and previous is not None and previous.kind in ("item", "lead-in")
        if goes_on:
            out.pop()  # the blank line after the list's lead-in or its last item: the list goes on
        if block.page is not None and block.page != page:
            page = block.page
            out += [f"<!-- page {page} -->"] + ([] if goes_on else [""])
        if block.kind == "heading":
            anchor = _unique(slug(block.text) or "section", anchors)
            depth = min(6, block.level - top + 1)
            kind = _kind_of(block.text)
            out += [f"{'#' * depth} {_one_line(block.text)} {{#{anchor}{' .' + kind if kind else ''}}}", ""]
        elif block.kind == "table":
            out += [_escaped(row) for row in block.text.split("\n")] + [""]
        else:
            out += [_escaped(_one_line(block.text)), ""]
        lead_in = block.kind == "paragraph" and block.text.rstrip().endswith((":", "："))
        previous = Block("lead-in", "") if lead_in else block
    return "\n".join(out).rstrip() + "\n"


# What a heading says its section is, when not rules (corpus.KINDS), in the four languages: the
# ranker weighs a rule above an example of it, and knows a rulebook's own questions and answers.
_KINDS_BY_HEADING = (
    ("faq", re.compile(r"\b(?:faq|f\.a\.q|q\s*&\s*a|(?:häufig(?:e|\s+gestellte)?|oft\s+gestellte)\s+fragen|fragen\s+und\s+"
                       r"antworten|questions?\s+fréquentes?|foire\s+aux\s+questions|questions?\s+(?:et|and)\s+réponses?|"
                       r"frequently\s+asked|questions\s+and\s+answers|common\s+questions)\b|常[见見]问题|常[见見]問題|[问問][与與]?答",
                       re.IGNORECASE)),
    ("example", re.compile(r"^\W*(?:\d+(?:\.\d+)*\.?\s*)?(?:beispiel|example|exemple)s?\b|^\W*(?:例|示例|范例|範例|举例|舉例|例子)",
                           re.IGNORECASE)),
    ("tip", re.compile(r"^\W*(?:\d+(?:\.\d+)*\.?\s*)?(?:tipps?|tips?|conseils?|astuces?|hints?)\b|^\W*(?:提示|小[贴貼]士|技巧)",
                       re.IGNORECASE)),
)


def _kind_of(heading: str) -> str | None:
    """The kind a heading gives its section ("Häufige Fragen": faq; "Beispiel: Rutschpartie":
    example), or None: the section's parent's, rules at the top."""
    return next((kind for kind, said in _KINDS_BY_HEADING if said.search(heading)), None)


def _unique(anchor: str, anchors: set[str]) -> str:
    found, n = anchor, 1
    while found in anchors:
        n += 1
        found = f"{anchor}-{n}"
    anchors.add(found)
    return found


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _escaped(line: str) -> str:
    """A text line that the corpus's reader would take for markup gets a backslash before it."""
    return "\\" + line if line.startswith(("#", ":::", "<!--", "\\", "---")) else line


def _yaml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---- plain text, Markdown, HTML ---------------------------------------------------------------

_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_MD_EMPHASIS = re.compile(r"(\*\*|__)(.+?)\1")
_MD_ANCHOR = re.compile(r"\s*\{#[^}]*\}\s*$")
_UNDERLINE = re.compile(r"^(=+|-+)\s*$")


def _markdown_blocks(text: str) -> list[Block]:
    """Markdown as written by people: ATX and underlined headings, paragraphs, lists and tables;
    bold and emphasis marks dropped (they are not words)."""
    blocks: list[Block] = []
    lines = text.split("\n")
    paragraph: list[str] = []

    def flush():
        if paragraph:
            blocks.append(Block("paragraph", " ".join(l.strip() for l in paragraph)))
            paragraph.clear()

    for n, raw in enumerate(lines):
        line = _MD_EMPHASIS.sub(r"\2", raw.rstrip())
        heading = _MD_HEADING.match(line)
        following = lines[n + 1].strip() if n + 1 < len(lines) else ""
        if heading:
            flush()
            blocks.append(Block("heading", _MD_ANCHOR.sub("", heading.group(2)), level=len(heading.group(1))))
        elif _UNDERLINE.match(line.strip()) and not paragraph:
            continue  # the underline of a heading taken on the line before
        elif line.strip() and _UNDERLINE.match(following) and len(line) <= MAX_TEXT_HEADING and not paragraph:
            blocks.append(Block("heading", line.strip(), level=1 if following.startswith("=") else 2))
        elif not line.strip():
            flush()
        elif line.lstrip().startswith("|"):
            flush()
            if re.fullmatch(r"\|?[\s:|-]+\|?", line.strip()):
                continue  # the rule under a table's header row
            if blocks and blocks[-1].kind == "table":
                blocks[-1].text += "\n" + line.strip()
            else:
                blocks.append(Block("table", line.strip()))
        elif BULLET.match(line.strip()):
            flush()
            blocks.append(Block("item", line.strip()))
        elif line.startswith(("  ", "\t")) and blocks and blocks[-1].kind == "item" and not paragraph:
            blocks[-1].text += " " + line.strip()  # an item's next line
        else:
            paragraph.append(line)
    flush()
    return blocks


def _text_blocks(text: str) -> list[Block]:
    """Plain text: blocks between blank lines, their wrapped lines joined. A short line alone in its
    block that does not end a sentence is a heading (level 1 in capitals or underlined with =);
    a line that begins with a bullet or a number begins a list item."""
    blocks: list[Block] = []
    for chunk in re.split(r"\n\s*\n", text):
        lines = [l.strip() for l in chunk.split("\n") if l.strip()]
        if len(lines) == 2 and _UNDERLINE.match(lines[1]):
            blocks.append(Block("heading", lines[0], level=1 if lines[1].startswith("=") else 2))
        elif len(lines) == 1 and _looks_like_heading(lines[0]):
            blocks.append(Block("heading", lines[0], level=1 if lines[0].isupper() else 2))
        else:
            current = None
            for line in lines:
                if BULLET.match(line) or current is None:
                    current = Block("item" if BULLET.match(line) else "paragraph", line)
                    blocks.append(current)
                else:
                    current.text = _join(current.text, line)
    return blocks


def _looks_like_heading(line: str) -> bool:
    """A short line that ends no sentence: "SETUP", "2. Setting up", "Spielende"."""
    if len(line) > MAX_TEXT_HEADING or line.endswith((".", ",", ";", ":", "?", "!", "。", "：", "？", "！")):
        return False
    return not BULLET.match(line) or bool(re.match(r"^\d{1,2}(\.\d{1,2})*\.?\s+\S", line))


class _HTMLBlocks(HTMLParser):
    """A saved web page's headings, paragraphs, list items and tables, in order; scripts, styles,
    navigation, headers, footers and forms left out."""

    SKIP = {"script", "style", "nav", "header", "footer", "form", "noscript", "aside", "button", "svg", "template"}
    BLOCKS = {"p": "paragraph", "li": "item", "dd": "paragraph", "dt": "paragraph", "blockquote": "paragraph",
              "pre": "paragraph", "figcaption": "paragraph", "caption": "paragraph", "div": "paragraph"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self.skipping = 0
        self.open: list[tuple[str, str, int]] = []  # tag, kind, level
        self.text: list[str] = []
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.table: list[list[str]] | None = None
        self.title: list[str] | None = None
        self.page_title = ""

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1
        if self.skipping:
            return
        if tag == "title":
            self.title = []
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._flush()
            self.open.append((tag, "heading", int(tag[1])))
        elif tag in self.BLOCKS:
            self._flush()
            self.open.append((tag, self.BLOCKS[tag], 0))
        elif tag == "br":
            self.text.append(" ")
        elif tag == "table":
            self._flush()
            self.table = []
        elif tag == "tr" and self.table is not None:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.skipping = max(0, self.skipping - 1)
            return
        if self.skipping:
            return
        if tag == "title" and self.title is not None:
            self.page_title = " ".join("".join(self.title).split())
            self.title = None
        elif tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None and self.table is not None:
            if any(self.row):
                self.table.append(self.row)
            self.row = None
        elif tag == "table" and self.table is not None:
            if self.table:
                self.blocks.append(Block("table", "\n".join(" | ".join(r) for r in self.table)))
            self.table = None
        elif self.open and self.open[-1][0] == tag:
            self._flush()
            self.open.pop()

    def handle_data(self, data):
        if self.skipping:
            return
        if self.title is not None:
            self.title.append(data)
        elif self.cell is not None:
            self.cell.append(data)
        elif self.table is None:
            self.text.append(data)

    def _flush(self):
        text = " ".join("".join(self.text).split())
        self.text = []
        if not text:
            return
        _, kind, level = self.open[-1] if self.open else ("", "paragraph", 0)
        self.blocks.append(Block(kind, text, level=level))


def _html_blocks(text: str) -> list[Block]:
    parser = _HTMLBlocks()
    parser.feed(text)
    parser.close()
    parser._flush()
    blocks = parser.blocks
    if parser.page_title and not any(b.kind == "heading" for b in blocks[:1]):
        blocks = [Block("heading", parser.page_title, level=1)] + blocks
    return blocks
