"""A printed rulebook's PDF as the blocks a reader sees: headings, paragraphs, list items and tables,
each with its page, in reading order.

Rulebooks are printed in two or three columns, with a running header and page numbers; plain text
extraction reads across the columns and keeps the furniture. Here each page's words (pdfplumber,
MIT, on pdfminer.six, MIT: both maintained, pure Python, and they give every word's box, font and
size; PyMuPDF would be faster but is AGPL) are read as a layout:

* columns: the vertical strips of the page that no line of text crosses (gutters); a line that
  crosses one (a title over both columns) ends the columns above it, which are read one after
  another before it;
* furniture: lines in the top and bottom margins that repeat on other pages (digits aside) or are
  only a page number, left out;
* headings: lines set larger than the body text, or bold throughout and short; the sizes, largest
  first, give the levels;
* paragraphs: a gap between lines larger than the leading ends one; a word split by a hyphen at
  the end of a line is joined ("Uhr-" + "zeigersinn"), a hyphen before a capital is kept
  ("Joker-" + "Karte");
* lists: lines that begin with a bullet or a number; tables, ruled (two rows at least with two
  cells filled: the rules under a running header and a heading are no table) or not (lines whose
  cells begin at the same places): their rows, cells joined by " | ", the heading row first (its
  cells set on two lines joined, "An-" / "zahl"), the caption above it a block of its own.

A PDF without a text layer (a scan), an encrypted one or one pdfminer cannot parse raises
``Unreadable`` with a message for the person who sent it.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import dataclass, field
from statistics import median
from typing import Callable

MARGIN = 0.08  # the top and bottom share of a page where running headers and footers stand
GUTTER_MIN = 5.0  # points: the narrowest gap between columns
GUTTER_SHARE = 0.5  # a strip is a gutter when at most this share of the rows crossing the text beside it cross it
CELL_GAP = 1.2  # of the type size: a wider gap between two words of a line separates table cells
HEADER_LINES = 5  # the most lines a table's heading row is set on (cells of two or three lines, staggered)
SPACE = 0.12  # of the type size: a narrower gap between two words is none (a change of font)
MIN_COLUMN = 0.2  # of the text's width: a narrower column is not one
GUTTER_REACH = 80  # points: how far beside a strip its text is looked for
WORD_SPACE = 0.8  # of the type size: a wider gap between two words of a row is not a word space
PARAGRAPH_GAP = 1.2  # of the leading: a wider step from one line to the next begins a paragraph
HEADING_SIZE = 1.12  # a line this much larger than the body text is a heading
MAX_HEADING_CHARS = 120

_OPENING_QUOTES = "\"„“«‚‘'「『"
DASH = re.compile(r"^[\-–—](?=\s)")  # a bullet, or the dash of an aside in a sentence (_aside)
BULLET = re.compile(r"^(?:[•●▪◦‣■□∙·\-–—*✓➢►▶]|\d{1,2}[.)]|[a-z]\))(?=\s|$)")
PAGE_NUMBER = re.compile(
    r"^\W*(?:seite|page|pag\.|p\.|s\.|第)?\s*\d{1,4}(?:\s*(?:/|of|von|sur|de)\s*\d{1,4})?\s*(?:頁|页)?\W*$",
    re.IGNORECASE)
_HYPHENS = ("-", "\u2010", "\u00ad")
_ANY_WORD = re.compile(r"\w")
# a word after which a hyphen at a line's end is kept: the first half of a pair ("Plus- noch Minuspunkte")
_KEEPS_HYPHEN = {"und", "oder", "bzw", "sowie", "noch", "bis", "wie", "als", "statt", "and", "or", "nor", "to",
                 "et", "ou", "ni"}
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


class Unreadable(ValueError):
    """The file cannot be read as a rulebook; the message says why, for the person who sent it."""


@dataclass
class Block:
    """One unit of a read document: a heading (``level`` 1 and deeper), a paragraph, a list item
    or a table (its rows, one a line), with the page it starts on (None without pages)."""

    kind: str  # heading, paragraph, item, table
    text: str
    page: int | None = None
    level: int = 0


@dataclass
class _Line:
    words: list[dict]
    page: int
    column: int
    top: float
    bottom: float
    x0: float
    size: float
    bold: bool
    table: list[list[str]] | None = None

    @property
    def text(self) -> str:
        """The words with a space where the page leaves one: a word set in another font
        ("Wasserkante" in italics, then ".") is a separate word of pdfplumber's, not a new word."""
        out = []
        for previous, word in zip([None] + self.words, self.words):
            if previous is not None and word["x0"] - previous["x1"] > SPACE * float(word["size"]):
                out.append(" ")
            out.append(word["text"])
        return "".join(out)


@dataclass
class _Page:
    number: int
    height: float
    lines: list[_Line] = field(default_factory=list)


def read_pdf(data: bytes, progress: Callable[[str], None] = lambda message: None) -> tuple[list[Block], int]:
    """The blocks of a PDF in reading order, and its number of pages."""
    import pdfplumber
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.pdfparser import PDFSyntaxError
    from pdfminer.psparser import PSException

    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            pages = []
            for number, page in enumerate(pdf.pages, start=1):
                pages.append(_read_page(page, number))
                progress(f"read page {number}/{len(pdf.pages)}")
    except (PDFPasswordIncorrect, PDFEncryptionError):
        raise Unreadable("The PDF is encrypted: save it without a password and send it again.") from None
    except (PDFSyntaxError, PSException, KeyError, ValueError, TypeError, AttributeError) as error:
        # pdfplumber also wraps pdfminer's errors in its own PdfminerException (a ValueError subclass
        # on some versions, Exception on others): see below.
        raise Unreadable(f"This is not a PDF that can be read ({error.__class__.__name__}).") from None
    except Exception as error:  # noqa: BLE001 - pdfminer raises many kinds for a damaged file
        if error.__class__.__name__ == "PdfminerException":
            cause = error.args[0] if error.args else None
            if isinstance(cause, (PDFPasswordIncorrect, PDFEncryptionError)):
                raise Unreadable("The PDF is encrypted: save it without a password and send it again.") from None
            raise Unreadable("This is not a PDF that can be read: the file is damaged or not a PDF.") from None
        raise
    if not pages:
        raise Unreadable("The PDF has no pages.")
    if not any(page.lines for page in pages):
        raise Unreadable("The PDF has no text layer (a scanned page?): Referee reads the text of a PDF, "
                         "not pictures of pages. Send a PDF with text, or the rules as text.")
    _drop_furniture(pages)
    return _blocks(_unruled_tables([line for page in pages for line in page.lines])), len(pages)


def _read_page(page, number: int) -> _Page:
    """The page's lines in reading order: column by column between lines that span the columns."""
    tables = [t for t in page.find_tables() if _is_table(t.extract())]
    boxes = [t.bbox for t in tables]
    words = [w for w in page.extract_words(extra_attrs=["fontname", "size"], keep_blank_chars=False)
             if w["text"].strip() and not any(_inside(w, box) for box in boxes)]
    rows = _rows(words)
    gutters = _gutters(rows, float(page.width))
    lines: list[_Line] = []
    for row in rows:
        lines += _split(row, gutters, number)
    for table, (x0, top, x1, bottom) in zip(tables, boxes):
        cells = [[(cell or "").replace("\n", " ").strip() for cell in row] for row in table.extract()]
        column = _column_of(x0, x1, gutters)
        lines.append(_Line([], number, column, top, bottom, x0, 0.0, False,
                           [row for row in cells if any(row)]))
    return _Page(number, float(page.height), _reading_order(lines))


def _is_table(rows: list[list[str | None]]) -> bool:
    """Whether what pdfplumber takes for a table is one: two rows at least with two cells filled.
    The rules under a running header and under a heading ("GLETSCHERPOST | Spielregel" over
    "1. Spielmaterial") frame a grid of one filled cell a row, or one row."""
    return sum(1 for row in rows if sum(1 for cell in row if cell and cell.strip()) >= 2) >= 2


def _inside(word: dict, box: tuple) -> bool:
    x0, top, x1, bottom = box
    return word["x0"] >= x0 - 1 and word["x1"] <= x1 + 1 and word["top"] >= top - 1 and word["bottom"] <= bottom + 1


def _rows(words: list[dict]) -> list[list[dict]]:
    """Words that stand on one baseline, each row sorted left to right, rows top to bottom."""
    rows: list[list[dict]] = []
    for word in sorted(words, key=lambda w: (round(w["bottom"]), w["x0"])):
        if rows and abs(rows[-1][0]["bottom"] - word["bottom"]) <= 2.0:
            rows[-1].append(word)
        else:
            rows.append([word])
    return [sorted(row, key=lambda w: w["x0"]) for row in rows]


def _gutters(rows: list[list[dict]], width: float) -> list[tuple[float, float]]:
    """The vertical strips between columns: few rows' text runs (``_runs``) cross them, and text
    stands on both sides. The end of a short line leaves the strip after it uncrossed; a word
    space inside a line does not."""
    if len(rows) < 4:
        return []
    cover = [0] * (int(width) + 2)  # cover[x]: how many rows have a run over x
    for row in rows:
        for start, end in _runs(row):
            for x in range(max(0, int(start)), min(len(cover), int(end) + 1)):
                cover[x] += 1
    # a strip is low where fewer than GUTTER_SHARE of the rows that cross the text beside it cross it
    # (the lines above and below the columns that span them cross both)
    def peak(start: int, end: int) -> int:
        return max(cover[max(0, start) : max(0, min(len(cover), end))], default=0)

    low, high = int(width * 0.12), int(width * 0.88)
    gutters, start = [], None
    for x in range(low, high + 2):
        beside = min(peak(x - GUTTER_REACH, x), peak(x + 1, x + 1 + GUTTER_REACH)) if x <= high else 0
        if x <= high and beside >= 3 and cover[x] <= GUTTER_SHARE * beside:
            start = x if start is None else start
        elif start is not None:
            if x - start >= GUTTER_MIN:
                gutters.append((float(start), float(x)))
            start = None
    # a strip with (almost) no text on one side is a margin or an indent, not a gutter
    chars = [(w["x0"] + w["x1"]) / 2 for row in rows for w in row for _ in w["text"]]
    gutters = [(start, end) for start, end in gutters
               if min(sum(1 for c in chars if c < start), sum(1 for c in chars if c > end)) >= 0.1 * len(chars)]
    # and columns are wide: a strip that leaves a narrow one beside it (a gap inside a table or a
    # list of short lines) is not a gutter; of the two beside the narrowest column, the narrower goes
    left = min(w["x0"] for row in rows for w in row)
    right = max(w["x1"] for row in rows for w in row)
    while gutters:
        edges = [left] + [x for gutter in gutters for x in gutter] + [right]
        widths = [edges[2 * k + 1] - edges[2 * k] for k in range(len(gutters) + 1)]
        narrowest = min(range(len(widths)), key=widths.__getitem__)
        if widths[narrowest] >= MIN_COLUMN * (right - left):
            break
        beside = [k for k in (narrowest - 1, narrowest) if 0 <= k < len(gutters)]
        gutters.pop(min(beside, key=lambda k: gutters[k][1] - gutters[k][0]))
    return gutters


def _column_of(x0: float, x1: float, gutters: list[tuple[float, float]]) -> int:
    """The column a box stands in, or -1 when it crosses a gutter (it spans the columns): it
    begins before the gutter's middle and ends past the gutter (a ragged line may end inside it;
    a column's paragraphs and its indented items begin at or near its end)."""
    column = 0
    for start, end in gutters:
        middle = (start + end) / 2
        if x0 < middle and x1 > end - 2:
            return -1
        if x0 >= middle:
            column += 1
    return column


def _runs(row: list[dict]) -> list[tuple[float, float]]:
    """The stretches of a row's text: its words joined across word spaces."""
    runs = [(row[0]["x0"], row[0]["x1"])]
    for word in row[1:]:
        if word["x0"] - runs[-1][1] <= WORD_SPACE * float(word["size"]):
            runs[-1] = (runs[-1][0], max(runs[-1][1], word["x1"]))
        else:
            runs.append((word["x0"], word["x1"]))
    return runs


def _split(row: list[dict], gutters: list[tuple[float, float]], page: int) -> list[_Line]:
    """A row of words as lines: one per column, or one across them when its text crosses a gutter."""
    if any(_column_of(x0, x1, gutters) == -1 for x0, x1 in _runs(row)):
        groups = {-1: row}
    else:
        groups: dict[int, list[dict]] = {}
        for word in row:
            groups.setdefault(_column_of(word["x0"], word["x0"], gutters), []).append(word)
    lines = []
    for column, words in groups.items():
        words = _unmapped_glyphs(words)
        if not words:
            continue
        sizes = Counter()
        for w in words:
            sizes[round(float(w["size"]), 1)] += len(w["text"])
        lines.append(_Line(words, page, column, min(w["top"] for w in words), max(w["bottom"] for w in words),
                           words[0]["x0"], sizes.most_common(1)[0][0],
                           all(_is_bold(w["fontname"]) for w in words)))
    return lines


_CID = re.compile(r"\(cid:\d+\)")


def _unmapped_glyphs(words: list[dict]) -> list[dict]:
    """Glyphs the PDF gives no character for (pdfminer's "(cid:127)"): at the start of a line a
    bullet, elsewhere nothing."""
    out = []
    for n, word in enumerate(words):
        text = word["text"]
        if "(cid:" in text:
            text = _CID.sub("•", text, count=1) if n == 0 and text.startswith("(cid:") else text
            text = _CID.sub("", text)
        if text.strip():
            out.append({**word, "text": text})
    return out


def _is_bold(font: str) -> bool:
    return bool(re.search(r"bold|black|heavy|semibold|demi", font or "", re.IGNORECASE))


def _reading_order(lines: list[_Line]) -> list[_Line]:
    """Top to bottom; between two lines that span the columns, each column whole, left to right. A
    line that stands above the other columns' text, more than a line apart, is read before them as
    one that spans them is (a title page's "2–6 players · ages 10 and up" centred over the middle
    column was read between the first column's last words and the second's first)."""
    out: list[_Line] = []
    band: list[_Line] = []

    def flush():
        tops = {column: min(l.top for l in band if l.column == column) for column in {l.column for l in band}}
        ahead = [l for l in band if len(tops) > 1 and
                 all(l.bottom + 1.5 * l.size < top for column, top in tops.items() if column != l.column)]
        out.extend(sorted(ahead, key=lambda l: (l.top, l.x0)))
        out.extend(sorted((l for l in band if l not in ahead), key=lambda l: (l.column, l.top)))
        band.clear()

    for line in sorted(lines, key=lambda l: (l.top, l.x0)):
        if line.column == -1:
            flush()
            out.append(line)
        else:
            band.append(line)
    flush()
    return out


def _shape(text: str) -> str:
    return re.sub(r"\d+", "#", text.strip().lower())


def _drop_furniture(pages: list[_Page]) -> None:
    """Leave out running headers, footers and page numbers: lines above or below all of a page's
    body text, in its top or bottom margin, that are only a page number, that recur (digits aside)
    so on other pages, that stand first on the page above the text in smaller type, or that hold no
    word at all (the dash of a footer "–2–" whose page number the column split took to the other
    side). A table's caption or an example's title in smaller type at the top of a column, under
    the running header, is text."""
    sizes = Counter()
    for page in pages:
        for line in page.lines:
            sizes[line.size] += len(line.text)
    body = sizes.most_common(1)[0][0] if sizes else 0.0

    def outside(page: _Page) -> Callable[[_Line], str | None]:
        text = [l for l in page.lines if l.table is None and abs(l.size - body) < 0.6]
        top = min((l.top for l in text), default=page.height * MARGIN)
        bottom = max((l.bottom for l in text), default=page.height * (1 - MARGIN))
        first = min((l.top for l in page.lines if l.table is None), default=0.0)

        def where(line: _Line) -> str | None:  # "first", "above" or "below" the body text, in a margin
            if line.table is not None:
                return None
            if line.bottom <= top + 1 and line.bottom <= page.height * MARGIN * 1.5:
                return "first" if line.top <= first + 2 else "above"
            if line.top >= bottom - 1 and line.top >= page.height * (1 - MARGIN * 1.5):
                return "below"
            return None
        return where

    placed = [outside(page) for page in pages]
    seen = Counter()
    for page, where in zip(pages, placed):
        seen.update({_shape(line.text) for line in page.lines if where(line)})
    recurring = {shape for shape, count in seen.items() if count >= 2 and count >= 0.3 * len(pages)}
    for page, where in zip(pages, placed):
        page.lines = [line for line in page.lines if not (where(line) and (
            PAGE_NUMBER.match(line.text) or _shape(line.text) in recurring or not _ANY_WORD.search(line.text)
            or where(line) == "first" and line.size < body - 0.5))]


def _cell_starts(line: _Line) -> list[float]:
    """Where the stretches of a line's text begin (``_stretches``)."""
    return [stretch[0]["x0"] for stretch in _stretches(line)]


def _unruled_tables(lines: list[_Line]) -> list[_Line]:
    """Tables without vertical rules, which pdfplumber does not find, read as rows of cells: three
    or more lines of a column whose stretches of text begin at the same places (a cell's second
    line, with the other cells empty, begins at its cell's place; a row begins with its first
    cell). Justified text leaves wide gaps too, but never at the same places line after line."""
    out: list[_Line] = []
    n = 0
    while n < len(lines):
        first = lines[n]
        starts = _cell_starts(first) if first.table is None else []
        if len(starts) < 2:
            out.append(first)
            n += 1
            continue
        columns = starts
        end = n + 1
        while end < len(lines):
            line = lines[end]
            if line.table is not None or (line.page, line.column) != (first.page, first.column):
                break
            found = _cell_starts(line)
            if not all(any(abs(x - c) <= 3 for c in columns) for x in found):
                break
            end += 1
        aligned = [k for k in range(n, end) if len(_cell_starts(lines[k])) >= 2]
        if len(aligned) < 3:
            out.append(first)
            n += 1
            continue
        table = lines[n:end]
        header = _header(out, table, columns)
        del out[len(out) - len(header):]
        heading = [_header_cells(header, columns)] if header else []
        if len(header) > 1 and _labels_rows(header[-2], header[-1], columns):  # "Wind die" under "Face Qty Effect"
            heading = [_header_cells(header[:-1], columns), [header[-1].text] + [""] * (len(columns) - 1)]
        rows: list[list[str]] = []
        # rows set apart by more space than a cell's lines: a wider step begins a row; rows set as
        # closely as their lines: each line with a first cell begins one
        steps = [b.top - a.top for a, b in zip(table, table[1:])]
        spaced = bool(steps) and max(steps) > min(steps) * 1.15
        for k, line in enumerate(table):
            cells = [""] * len(columns)
            for word in line.words:
                at = max(k for k, c in enumerate(columns) if word["x0"] >= c - 3) if word["x0"] >= columns[0] - 3 else 0
                cells[at] = join_lines(cells[at], word["text"]) if cells[at] else word["text"]
            begins = steps[k - 1] > min(steps) * 1.15 if spaced and k else bool(cells[0])
            if begins or not rows:
                rows.append(cells)
            else:  # a cell's next line
                rows[-1] = [join_lines(a, b) if a and b else a or b for a, b in zip(rows[-1], cells)]
        start = header[0] if header else first
        out.append(_Line([], start.page, start.column, start.top, lines[end - 1].bottom, start.x0, first.size,
                         False, heading + rows))
        n = end
    return out


def _column(word: dict, columns: list[float]) -> int:
    """The table column a word stands in, by its middle (a heading cell is often centred)."""
    middle = (word["x0"] + word["x1"]) / 2
    return max((k for k, c in enumerate(columns) if middle >= c - 3), default=0)


def _header(before: list[_Line], table: list[_Line], columns: list[float]) -> list[_Line]:
    """The lines just before an unruled table that are its heading row: bold lines of one type size
    of its page and column right above it, no larger than its text and not left of it, one line at
    least with words in two of its columns; a caption (another size, or three words or more in one
    stretch across its columns) is not. A heading cell set on two lines ("An-" / "zahl") makes the
    row's band two to five lines deep."""
    first = table[0]
    header: list[_Line] = []
    for line in reversed(before[-HEADER_LINES:]):
        above = header[0] if header else first
        if (line.table is not None or (line.page, line.column) != (first.page, first.column) or not line.bold
                or line.size > first.size * 1.05 or above.top - line.bottom > first.size * 1.2
                or line.words[0]["x0"] < columns[0] - first.size
                or header and abs(line.size - header[0].size) > 0.2):
            break
        stretches = _stretches(line)
        if len(stretches) == 1 and len(line.words) >= 3 and len({_column(w, columns) for w in line.words}) > 1:
            break
        header.insert(0, line)
    if not any(len({_column(w, columns) for w in line.words}) > 1 for line in header):
        return []
    return header


def _labels_rows(above: _Line, line: _Line, columns: list[float]) -> bool:
    """Whether the last line of a heading row's band is a label of the rows below it (in the first
    column alone, set apart from the heading row as rows are), not a heading cell's second line."""
    return {_column(w, columns) for w in line.words} == {0} and line.top - above.top > 1.5 * line.size


def _stretches(line: _Line) -> list[list[dict]]:
    """A line's words in stretches split at gaps of CELL_GAP of the type size."""
    stretches = [[line.words[0]]]
    for previous, word in zip(line.words, line.words[1:]):
        if word["x0"] - previous["x1"] > CELL_GAP * float(word["size"]):
            stretches.append([])
        stretches[-1].append(word)
    return stretches


def _header_cells(header: list[_Line], columns: list[float]) -> list[str]:
    """A heading row's cells: each column's words line by line, a word split at a line's end joined."""
    cells = [""] * len(columns)
    for line in sorted(header, key=lambda l: l.top):
        for k in range(len(columns)):
            words = [w for w in line.words if _column(w, columns) == k]
            if words:
                said = _Line(words, line.page, line.column, line.top, line.bottom, line.x0, line.size, line.bold).text
                cells[k] = join_lines(cells[k], said) if cells[k] else said
    return cells


def _blocks(lines: list[_Line]) -> list[Block]:
    """Lines as headings, paragraphs, list items and tables."""
    texts = [line for line in lines if line.table is None]
    if not texts:
        return [Block("table", _table_text(line.table), line.page) for line in lines]
    sizes = Counter()
    for line in texts:
        sizes[line.size] += len(line.text)
    body = sizes.most_common(1)[0][0]
    body_bold = sum(len(l.text) for l in texts if l.bold) > 0.5 * sum(len(l.text) for l in texts)
    leading = _leading(texts)

    def is_heading(line: _Line, following: _Line | None = None) -> bool:
        text = line.text
        if len(text) > MAX_HEADING_CHARS or PAGE_NUMBER.match(text):
            return False
        if line.size >= body * HEADING_SIZE:
            return True  # "3. Spielvorbereitung" set large is a heading, not a list item
        # bold at the body's size: a heading, unless the sentence goes on ("Coup de pouce de la
        # Coopé-" then "rative. Si ...": a paragraph that begins in bold)
        # (a heading set on two lines goes on in bold: "Zählen die Bernsteine … Schlusswer-" "tung mit?")
        runs_in = following is None or following.table is not None or not following.bold
        goes_on = runs_in and (text.endswith(_HYPHENS) or following is not None and following.table is None
                               and following.text[:1].islower())
        if BULLET.match(text) or not line.bold or goes_on or body_bold:
            return False
        # a sentence ends here: a heading only when a heading's last line follows at once in the
        # same type ("Ich rutsche schwer beladen auf eine Schneebrücke." "Wo landet mein Schlitten?")
        return not text.rstrip().endswith((".", ",", ";", "。", "，")) or (
            following is not None and following.table is None and following.bold and following.size == line.size
            and (following.page, following.column) == (line.page, line.column)
            and following.top - line.bottom < leading and is_heading(following))

    heading_sizes = sorted({line.size for line in texts if is_heading(line) and line.size >= body * HEADING_SIZE},
                           reverse=True)

    def level(line: _Line) -> int:
        if line.size in heading_sizes:
            return heading_sizes.index(line.size) + 1
        return len(heading_sizes) + 1  # bold at the body's size: below every larger heading

    blocks: list[Block] = []
    previous: _Line | None = None
    start: _Line | None = None  # the first line of the paragraph or item being read
    for n, line in enumerate(lines):
        if line.table is not None:
            blocks.append(Block("table", _table_text(line.table), line.page))
            previous = None
            continue
        text = line.text
        if is_heading(line, lines[n + 1] if n + 1 < len(lines) else None):
            last = blocks[-1] if blocks else None
            if (last and last.kind == "heading" and previous is not None and previous.size == line.size
                    and last.level == level(line) and line.top - previous.bottom < leading and line.page == previous.page):
                last.text = join_lines(last.text, text)  # a heading set on two lines
            else:
                blocks.append(Block("heading", text, line.page, level(line)))
            previous = line
            continue
        last = blocks[-1] if blocks else None
        bullet = BULLET.match(text) and not _aside(last, text)
        continues = (last is not None and last.kind in ("paragraph", "item") and previous is not None
                     and not bullet and _continues(start, previous, line, leading, last))
        if continues:
            last.text = join_lines(last.text, text)
        else:
            blocks.append(Block("item" if bullet else "paragraph", text, line.page))
            start = line
        previous = line
    return blocks


def _leading(lines: list[_Line]) -> float:
    """The usual distance from one line's top to the next one's in a paragraph."""
    steps = [b.top - a.top for a, b in zip(lines, lines[1:])
             if a.page == b.page and a.column == b.column and 0 < b.top - a.top < 3 * (a.bottom - a.top + 1)]
    return median(steps) if steps else 14.0


def _continues(start: _Line, previous: _Line, line: _Line, leading: float, block: Block) -> bool:
    """Whether a line goes on with the paragraph or item that ``start`` began and ``previous`` ended."""
    if previous.size != line.size and abs(previous.size - line.size) > 0.6:
        return False
    if previous.page == line.page and previous.column == line.column:
        if line.top - previous.top > leading * PARAGRAPH_GAP:
            return False  # a gap: a new paragraph
        if block.kind == "item" and line.x0 <= start.x0 + 2 and not _unfinished(block.text, line.text):
            return False  # back at the bullet's margin (not a hanging indent): the item has ended
        return True
    # a new column or page: the paragraph goes on only when its sentence does (lower case, a word
    # split at the end, or a quotation its sentence leads into: "for example" / "Jade 8+".)
    tail = block.text.rstrip()
    return bool(tail) and not tail.endswith((".", "!", "?", ":", "。", "！", "？", "：")) and \
        (line.text[:1].islower() or tail.endswith(_HYPHENS) or line.text[:1] in _OPENING_QUOTES)


def _aside(block: Block | None, line: str) -> bool:
    """Whether a line that begins with a dash opens an aside in the paragraph's unfinished sentence
    ("Steht dein Schlitten auf einer Hütte" / "– auch wenn du gar nicht gezogen bist –, darfst du
    dort"), not a list item: the paragraph has not ended its sentence, and lower case follows the dash."""
    if block is None or block.kind != "paragraph" or not DASH.match(line):
        return False
    tail = block.text.rstrip()
    return not tail.endswith((".", "!", "?", ":", ";", "。", "！", "？", "：")) and line[1:].lstrip()[:1].islower()


def _unfinished(text: str, line: str) -> bool:
    """Whether the line goes on with a sentence the text left unfinished: a word split at its end,
    a comma, a line that begins in lower case, or a quotation the sentence leads into ("for
    example" / "Jade 8+".)."""
    tail = text.rstrip()
    return (tail.endswith(_HYPHENS + (",",)) or line[:1].islower()
            or (line[:1] in _OPENING_QUOTES and not tail.endswith((".", "!", "?", ":", "。", "！", "？", "："))))


def join_lines(text: str, line: str) -> str:
    """A line added to the text before it; a word split by a hyphen at the line's end joined again."""
    if text.endswith(_HYPHENS) and len(text) >= 2 and text[-2].isalpha() and line[:1].islower():
        first = line.split(" ", 1)[0].strip(".,;:!?")
        if text.endswith("\u00ad") or first.lower() not in _KEEPS_HYPHEN:
            return text[:-1] + line
    if text.endswith("\u00ad"):
        text = text[:-1] + "-"
    if _CJK.search(text[-1:]) and _CJK.search(line[:1]):
        return text + line
    return text + " " + line


def _table_text(rows: list[list[str]]) -> str:
    return "\n".join(" | ".join(cell for cell in row) for row in rows)
