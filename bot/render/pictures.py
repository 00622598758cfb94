"""Tournament pictures (standings table, single-elimination bracket) drawn as PNG bytes.

Pure functions: text in, PNG bytes out; nothing is sent or stored here. The pictures are
made for a phone screen: about 1080 px wide, large dark text on a light background.
Text is drawn literally, so pass plain names (not HTML-escaped ones).

Pillow is imported by the functions that draw, not with the module: the bot's own process
only names these functions for its picture workers (``bot.render.pool``), and Pillow's
modules would cost it a few megabytes it never uses.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from bot.render.canvas import Canvas, Palette, blends
from bot.render.canvas import text_width as _width

if TYPE_CHECKING:
    from PIL import ImageDraw, ImageFont

    Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

__all__ = ["BAR_MARK", "Box", "bracket_png", "find_font", "standings_png"]

Colour = tuple[int, int, int]

# Colours: dark text on a light background.
_BG = (255, 255, 255)
_TEXT = (28, 32, 38)
_MUTED = (112, 119, 130)
_ROW_ALT = (236, 240, 245)
_HEADER_BG = (218, 225, 234)
_ACCENT = (38, 150, 84)
_LINE = (150, 160, 172)
_WIN_BG = (222, 243, 229)

_WIDTH = 1080  # a phone-friendly width
_PAD = 40
_ELLIPSIS = "…"
_MAX_TEXT = 200  # longer texts are cut before measuring, they never fit anyway

# Fonts with Cyrillic, looked up in the usual font folders (Debian: fonts-dejavu-core).
_FONT_FILES = {
    False: ("DejaVuSans.ttf", "NotoSans-Regular.ttf", "LiberationSans-Regular.ttf",
            "FreeSans.ttf"),
    True: ("DejaVuSans-Bold.ttf", "NotoSans-Bold.ttf", "LiberationSans-Bold.ttf",
           "FreeSansBold.ttf"),
}
_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts")


@cache
def find_font(bold: bool = False) -> str | None:
    """Path of a TrueType font that covers Cyrillic, or None when the system has none.

    Pillow's own ``load_default(size=...)`` font (Aileron) has Latin only: Cyrillic letters
    come out as boxes, so a system font is preferred.
    """
    for name in _FONT_FILES[bold]:
        for folder in _FONT_DIRS:
            root = Path(folder).expanduser()
            if root.is_dir():
                found = next(root.rglob(name), None)
                if found is not None:
                    return str(found)
    return find_font(False) if bold else None


@lru_cache(maxsize=64)
def _font(size: int, bold: bool = False) -> Font:
    from PIL import ImageFont

    path = find_font(bold)
    if path is not None:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            pass
    return ImageFont.load_default(size=size)


def _clean(text: object) -> str:
    """One printable line: control/format characters and variation selectors dropped."""
    raw = "" if text is None else str(text)
    kept = []
    for ch in raw[: _MAX_TEXT * 2]:
        code = ord(ch)
        if ch.isspace():
            kept.append(" ")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co") or (
                0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF):
            continue
        else:
            kept.append(ch)
    return " ".join("".join(kept).split())[:_MAX_TEXT]


def _fit(text: str, font: Font, width: float) -> str:
    """The text, cut with an ellipsis so it is at most ``width`` pixels wide."""
    if _width(text, font) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _width(text[:mid].rstrip() + _ELLIPSIS, font) <= width:
            lo = mid
        else:
            hi = mid - 1
    if lo == 0 and _width(_ELLIPSIS, font) > width:
        return ""
    return text[:lo].rstrip() + _ELLIPSIS


@cache
def _tables_palette() -> Palette:
    return blends((_TEXT, _MUTED, _ACCENT, _LINE), (_BG, _ROW_ALT, _HEADER_BG, _WIN_BG))


# --------------------------------------------------------------------------- standings

_STANDINGS_MAX_HEIGHT = 7500  # Telegram: width + height <= 10000
_STANDINGS_MAX_WIDTH = 2200
_NAME_EMS = 16
"""How many font sizes wide a name may be before the table is cut rather than made smaller
or wider for it (about 28 letters)."""
_BAR = 12  # the qualifiers' left bar
_CELL_PAD = 16


def standings_png(title: str, header: list[str], rows: list[list[str]],
                  highlight: int = 0, legend: Sequence[str] = ()) -> bytes:
    """A standings table as one PNG.

    Columns: place (narrow, centred), name (wide, left), then right-aligned numbers.
    The first ``highlight`` rows (the qualifiers) get a coloured bar on the left.
    Rows that do not fit Telegram's size limit are summarised in a last "… +N" row.
    ``legend`` lines (what the columns' short names and the bar mean) go under the table;
    a line starting with ``BAR_MARK`` is drawn after a piece of the qualifiers' bar.
    """
    title = _clean(title)
    header = [_clean(cell) for cell in header or []]
    rows = [[_clean(cell) for cell in row] for row in rows or []]
    ncols = max([2, len(header), *(len(row) for row in rows)])
    header += [""] * (ncols - len(header))
    rows = [row + [""] * (ncols - len(row)) for row in rows]
    highlight = max(0, min(int(highlight or 0), len(rows)))

    width = _WIDTH
    size = 40
    for size in (40, 36, 32, 28):
        widths = _standings_columns(header, rows, size, width)
        if widths is not None:
            break
    else:
        widths = _standings_columns(header, rows, size, width, force=True)
    width = 2 * _PAD + _BAR + sum(widths)

    font, bold = _font(size), _font(size, True)
    head_font = _font(size - 6, True)
    title_font = _font(52, True)
    row_h = round(size * 1.75)
    head_h = round(size * 1.6) if any(header) else 0
    top = _PAD + (round(52 * 1.5) + 16 if title else 0)

    legend_size = max(20, size - 12)
    legend_font, legend_h = _font(legend_size), round(legend_size * 1.5)
    notes = _legend_notes([_clean(line) for line in legend if _clean(line)], legend_font,
                          width - 2 * _PAD)
    legend_block = (16 + sum(len(pieces) for _, pieces in notes) * legend_h) if notes else 0
    room = max(1, (_STANDINGS_MAX_HEIGHT - top - head_h - _PAD - legend_block) // row_h)
    if len(rows) > room:
        hidden = len(rows) - room + 1
        rows = rows[: room - 1] + [["", f"{_ELLIPSIS} +{hidden}"] + [""] * (ncols - 2)]
        highlight = min(highlight, room - 1)
    height = top + head_h + len(rows) * row_h + _PAD + legend_block

    canvas = Canvas.blank((width, height), _BG, _tables_palette())
    draw = canvas.draw
    left, right = _PAD, width - _PAD
    if title:
        canvas.write((left, _PAD), _fit(title, title_font, right - left), title_font, _TEXT,
                     _BG, "lt")

    def cells(y: int, values: list[str], cell_font: Font, ink: Colour, paper: Colour) -> None:
        x = left + _BAR
        for col, (value, col_w) in enumerate(zip(values, widths, strict=True)):
            text = _fit(value, cell_font, col_w - 2 * _CELL_PAD)
            if col == 0:
                canvas.write((x + col_w / 2, y), text, cell_font, ink, paper, "mm")
            elif col == 1:
                canvas.write((x + _CELL_PAD, y), text, cell_font, ink, paper, "lm")
            else:
                canvas.write((x + col_w - _CELL_PAD, y), text, cell_font, ink, paper, "rm")
            x += col_w

    if head_h:
        draw.rectangle((left, top, right - 1, top + head_h - 1), fill=_HEADER_BG)
        cells(top + head_h // 2, header, head_font, _MUTED, _HEADER_BG)
    y = top + head_h
    for index, row in enumerate(rows):
        paper = _ROW_ALT if index % 2 else _BG
        draw.rectangle((left, y, right - 1, y + row_h - 1), fill=paper)
        qualified = index < highlight
        if qualified:
            draw.rectangle((left, y, left + _BAR - 1, y + row_h - 1), fill=_ACCENT)
        cells(y + row_h // 2, row, bold if qualified else font, _TEXT, paper)
        y += row_h
    if 0 < highlight < len(rows):
        line_y = top + head_h + highlight * row_h
        draw.line((left, line_y, right - 1, line_y), fill=_ACCENT, width=3)
    _draw_legend(canvas, notes, legend_font, left, y + 16, legend_h)
    return canvas.png()


BAR_MARK = "▌"  # a legend line about the qualifiers' bar starts with this


def _legend_notes(lines: list[str], font: Font, width: int) -> list[tuple[bool, list[str]]]:
    """Each legend line as (drawn after a piece of the bar?, its text wrapped to ``width``
    pixels): a long explanation goes on over more lines instead of being cut."""
    notes = []
    for line in lines:
        bar = line.startswith(BAR_MARK)
        text = line[len(BAR_MARK):].strip() if bar else line
        notes.append((bar, _wrap(text, font, width - (_BAR + 12 if bar else 0))))
    return notes


def _wrap(text: str, font: Font, width: int) -> list[str]:
    """``text`` in lines at most ``width`` pixels wide, broken between words (a single word
    wider than that is cut with an ellipsis)."""
    pieces: list[str] = []
    for word in text.split():
        if pieces and _width(f"{pieces[-1]} {word}", font) <= width:
            pieces[-1] = f"{pieces[-1]} {word}"
        else:
            pieces.append(_fit(word, font, width))
    return pieces or [""]


def _draw_legend(canvas: Canvas, notes: list[tuple[bool, list[str]]], font: Font, left: int,
                 y: int, line_h: int) -> None:
    """The legend under a table, muted; the bar's line shows a piece of it."""
    for bar, pieces in notes:
        x = left
        if bar:
            canvas.draw.rectangle((x, y + line_h // 4, x + _BAR - 1, y + 3 * line_h // 4),
                                  fill=_ACCENT)
            x += _BAR + 12
        for piece in pieces:
            canvas.write((x, y + line_h // 2), piece, font, _MUTED, _BG, "lm")
            y += line_h


def _standings_columns(header: list[str], rows: list[list[str]], size: int, width: int,
                       force: bool = False) -> list[int] | None:
    """Column widths in pixels, or None when the name column would be too narrow for the
    longest name (up to :data:`_NAME_EMS` letters' worth: a longer one is cut) at this size:
    a smaller size is tried first, then (``force``) the picture is widened."""
    font, bold, head_font = _font(size), _font(size, True), _font(size - 6, True)
    inner = width - 2 * _PAD - _BAR
    widths = []
    for col in range(len(header)):
        text_w = max([_width(header[col], head_font),
                      *(max(_width(row[col], font), _width(row[col], bold)) for row in rows)])
        widths.append(math.ceil(text_w) + 2 * _CELL_PAD)
    widths[0] = min(max(widths[0], size * 2), inner // 5)
    min_name = size * 9
    wanted = max(min_name, min(widths[1], size * _NAME_EMS))
    numbers = sum(widths[2:])
    name_w = inner - widths[0] - numbers
    if name_w < wanted:
        if not force:
            return None
        # Widen the picture up to a limit, then share the rest among the number columns.
        inner = max(inner, _STANDINGS_MAX_WIDTH - 2 * _PAD - _BAR)
        share = max(2 * _CELL_PAD + size, (inner - widths[0] - wanted) // max(1, len(widths) - 2))
        widths[2:] = [min(w, share) for w in widths[2:]]
        room = inner - widths[0] - sum(widths[2:])
        name_w = max(min_name, min(wanted, room), width - 2 * _PAD - _BAR - widths[0]
                     - sum(widths[2:]))
    widths[1] = name_w
    return widths


# --------------------------------------------------------------------------- bracket

Feeds = tuple[int | None, int | None]


class Box(NamedTuple):
    """One match of a bracket picture."""

    a: str
    b: str
    winner: str | None = None
    score: tuple[str, str] | None = None
    """(a's score, b's score), written at the right of each name"""
    label: str = ""
    """The match's name as the chat gives it («#5»), drawn small on the box's top edge"""
    pending: tuple[bool, bool] = (False, False)
    """Which places hold no player yet («?», «loser of #5», a match played only if
    needed): drawn in the muted grey of the round names"""
    feeds: Feeds | None = None
    """For each place, the box of the column before (its index) whose winner takes it, or
    None; a line joins each such box to this one, into the place's line when only one place
    is fed. None: the two boxes before it when its round halves the one before (2j, 2j+1)"""


Match = tuple[str, str, str | None] | tuple[str, str, str | None, tuple[str, str] | None] | Box
"""(player a, player b, winner or None[, (a's score, b's score) or None]), or a Box"""

_MAX_SIDE = 2560  # split the bracket rather than draw a bigger picture
_MAX_ROUNDS = 4  # rounds per picture
_BOX_W = 400
_GAP = 80  # between round columns, room for the connector lines
_LINE_H = 60  # one player line in a match box
_BOX_H = 2 * _LINE_H
_SLOT = _BOX_H + 30
_NAME_SIZE = 34
_CHECK_W = 34
_LABEL_SIZE = 26  # a match's name on its box's edge
_HEAD_LINE = 38  # a second line of a column header


def bracket_png(title: str, rounds: list[tuple[str, list[Match]]],
                third: tuple[str, Match] | None = None,
                numbering: tuple[int, int] | None = None) -> list[bytes]:
    """A single-elimination bracket as a list of PNGs (one, or several parts when large).

    ``rounds`` go left to right: (round name, [(player a, player b, winner or None,
    optionally the score as two texts)]); a score is written at the right of each name.
    Match j of a round is fed by matches 2j and 2j+1 of the round before. ``third`` (the
    round's name and its match) is the 3rd-place match, drawn under the last column.
    A bracket with more than four rounds, or taller than 2560 px, is split: the early
    rounds by parts of the bracket (halves, quarters...), then the last rounds, which
    repeat the round where the parts ended. The parts are numbered in their titles, or,
    with ``numbering`` (the first part's number, the count of pictures in all), as parts
    of a larger set of pictures.
    """
    title = _clean(title)
    cleaned = _clean_rounds(rounds)
    top = _bracket_top(title)
    parts = _bracket_parts(cleaned, top)
    start, total = numbering or (1, len(parts))
    extra = None if third is None else (_clean(third[0]), _clean_match(third[1]))
    return [_draw_bracket(f"{title} ({start + n - 1}/{total})" if total > 1 and title
                          else title, block, first, last, top,
                          extra if n == len(parts) else None)
            for n, (block, first, last) in enumerate(parts, start=1)]


def bracket_count(title: str, rounds: list[tuple[str, list[Match]]]) -> int:
    """How many pictures :func:`bracket_png` draws for these rounds."""
    return len(_bracket_parts(_clean_rounds(rounds), _bracket_top(_clean(title))))


def _bracket_top(title: str) -> int:
    """Where the boxes start: under the title and two lines of column headers."""
    return _PAD + (round(52 * 1.5) + 10 if title else 0) + 60 + _HEAD_LINE


def _bracket_parts(rounds: list, top: int) -> list[tuple[list, float, float]]:
    """The pictures of a bracket: (its rounds, the first row shown, the row after the last)."""
    max_rows = max(1, (_MAX_SIDE - top - _PAD) // _SLOT)
    chunk = 1 << (max_rows.bit_length() - 1)  # whole sub-brackets per part
    parts: list[tuple[list, float, float]] = []
    for start, stop in _round_blocks(len(rounds)):
        block = rounds[start:stop]
        _, rows = _layout(_joins(block))
        if rows <= max_rows:
            parts.append((block, 0, rows))
            continue
        for first in range(0, rows, chunk):
            parts.append((block, first, min(first + chunk, rows)))
    return parts


def _header_lines(name: str, font: Font, width: float) -> list[str]:
    """A column header on one line, or on two when it is too wide (split after its comma,
    else at the last space that lets the first line fit), each line cut to the width."""
    if _width(name, font) <= width:
        return [name]
    head, comma, tail = name.partition(", ")
    if not comma:
        spaces = [i for i, char in enumerate(name) if char == " "]
        fitting = [i for i in spaces if _width(name[:i], font) <= width] or spaces[:1]
        if not fitting:
            return [_fit(name, font, width)]
        head, tail = name[:fitting[-1]], name[fitting[-1] + 1:]
    return [_fit(head, font, width), _fit(tail, font, width)]


def _clean_rounds(rounds: list[tuple[str, list[Match]]]) -> list[tuple[str, list[Box]]]:
    return [(_clean(name), [_clean_match(m) for m in matches or []])
            for name, matches in rounds or []]


def _clean_match(match: Match) -> Box:
    a, b, winner, score, label, pending, feeds = (list(match) + [None] * 7)[:7]
    shown = None
    if isinstance(score, tuple | list) and len(score) == 2:
        shown = (_clean(score[0])[:8], _clean(score[1])[:8])
    return Box(_clean(a), _clean(b), None if winner is None else _clean(winner), shown,
               _clean(label)[:16], (bool(pending and pending[0]), bool(pending and pending[1])),
               None if feeds is None else (feeds[0], feeds[1]))


def _round_blocks(count: int) -> list[tuple[int, int]]:
    """Round ranges per picture: at most four rounds, consecutive ranges share one round."""
    if count <= _MAX_ROUNDS:
        return [(0, count)]
    blocks, start = [], 0
    while True:
        stop = min(start + _MAX_ROUNDS, count)
        blocks.append((start, stop))
        if stop == count:
            return blocks
        start = stop - 1


def _joins(block: list[tuple[str, list[Box]]]) -> list[list[Feeds]]:
    """For each box, the boxes of the column before whose winners take its places: its own
    feeds (any outside that column dropped), else its two feeders when its round halves
    the one before (an odd last box: its one feeder for both places), else none."""
    counts = [len(matches) for _, matches in block]
    joins: list[list[Feeds]] = []
    for r, (_, matches) in enumerate(block):
        paired = r > 0 and _paired(counts, r)
        before = counts[r - 1] if r else 0
        joins.append([
            (2 * j, min(2 * j + 1, before - 1)) if box.feeds is None and paired
            else tuple(f if isinstance(f, int) and 0 <= f < before else None
                       for f in box.feeds or (None, None))
            for j, box in enumerate(matches)])
    return joins


def _layout(joins: list[list[Feeds]]) -> tuple[list[list[float]], int]:
    """Vertical centres of every match in row units, and the number of rows.

    The first round's matches sit one per row; a later round whose every match is fed from
    the round before is centred on its feeders, any other round is stacked from the top.
    """
    centres: list[list[float]] = []
    for r, column in enumerate(joins):
        feeders = [{f for f in feeds if f is not None} for feeds in column]
        if r and all(feeders):
            centres.append([sum(centres[-1][f] for f in fed) / len(fed) for fed in feeders])
        else:
            centres.append([j + 0.5 for j in range(len(column))])
    lowest = max((c for column in centres for c in column), default=0.5)
    return centres, max(1, math.ceil(lowest + 0.5 - 1e-9))


def _paired(counts: list[int], r: int) -> bool:
    return counts[r - 1] > 0 and counts[r] == (counts[r - 1] + 1) // 2


def _entry(feeds: Feeds) -> int:
    """Where a box's incoming line meets it, from its centre: its middle when both places
    are fed from the round before, else the line of the one place that is."""
    if None not in feeds:
        return 0
    return -_LINE_H // 2 if feeds[0] is not None else _LINE_H // 2


def _draw_bracket(title: str, block: list[tuple[str, list[Box]]], first: float,
                  last: float, top: int, third: tuple[str, Box] | None = None) -> bytes:
    joins = _joins(block)
    centres, _ = _layout(joins)
    columns = max(1, len(block))
    title_font, round_font = _font(52, True), _font(30, True)
    # As wide as the title needs (a grand final's two columns under a long title), at most
    # the largest side.
    wanted = _WIDTH
    if title:
        wanted = min(_MAX_SIDE, max(_WIDTH, math.ceil(_width(title, title_font)) + 2 * _PAD))
    box_w = max(_BOX_W, (wanted - 2 * _PAD - (columns - 1) * _GAP) // columns)
    width = 2 * _PAD + columns * box_w + (columns - 1) * _GAP
    third_centre = None
    if third is not None:
        final = centres[-1][-1] if centres and centres[-1] else first + 0.5
        third_centre = max(final, first) + 1.3
        last = max(last, third_centre + 0.5)
    height = top + round((last - first) * _SLOT) + _PAD

    canvas = Canvas.blank((width, height), _BG, _tables_palette())
    draw = canvas.draw
    if title:
        canvas.write((_PAD, _PAD), _fit(title, title_font, width - 2 * _PAD), title_font, _TEXT,
                     _BG, "lt")

    def x_of(r: int) -> int:
        return _PAD + r * (box_w + _GAP)

    def y_of(centre: float) -> int:
        return top + round((centre - first) * _SLOT)

    def shown(centre: float) -> bool:
        return first <= centre < last

    for r, (name, _) in enumerate(block):
        header = _header_lines(name, round_font, box_w)
        for n, line in enumerate(header):
            canvas.write((x_of(r) + box_w / 2, top - 36 - (len(header) - 1 - n) * _HEAD_LINE),
                         line, round_font, _MUTED, _BG, "mm")
    # Connectors first, boxes drawn over them.
    for r in range(1, len(block)):
        mid_x = x_of(r) - _GAP // 2
        for feeds, centre in zip(joins[r], centres[r], strict=True):
            if not shown(centre) or feeds == (None, None):
                continue
            y = y_of(centre) + _entry(feeds)
            for feeder in sorted({f for f in feeds if f is not None}):
                if shown(centres[r - 1][feeder]):
                    fy = y_of(centres[r - 1][feeder])
                    draw.line([(x_of(r - 1) + box_w, fy), (mid_x, fy), (mid_x, y)],
                              fill=_LINE, width=3, joint="curve")
            draw.line([(mid_x, y), (x_of(r), y)], fill=_LINE, width=3)
    for r, (_, matches) in enumerate(block):
        for match, centre in zip(matches, centres[r], strict=True):
            if shown(centre):
                _draw_match(canvas, x_of(r), y_of(centre) - _BOX_H // 2, box_w, match)
    if third is not None and third_centre is not None:
        x, y = x_of(columns - 1), y_of(third_centre) - _BOX_H // 2
        canvas.write((x + box_w / 2, y - 40), _fit(third[0], round_font, box_w), round_font,
                     _MUTED, _BG, "mm")
        _draw_match(canvas, x, y, box_w, third[1])
    return canvas.png()


def _draw_match(canvas: Canvas, x: int, y: int, box_w: int, match: Box) -> None:
    a, b, winner, score = match[:4]
    won = 0 if winner is not None and winner == a else 1 if winner is not None and winner == b \
        else None
    right, bottom = x + box_w, y + _BOX_H
    draw = canvas.draw
    draw.rounded_rectangle((x, y, right, bottom), radius=12, fill=_BG)
    if won is not None:
        line_top = y + won * _LINE_H
        corners = (True, True, False, False) if won == 0 else (False, False, True, True)
        draw.rounded_rectangle((x, line_top, right, line_top + _LINE_H), radius=12,
                               fill=_WIN_BG, corners=corners)
    draw.line((x, y + _LINE_H, right, y + _LINE_H), fill=_LINE, width=2)
    draw.rounded_rectangle((x, y, right, bottom), radius=12, outline=_LINE, width=3)

    regular, bold = _font(_NAME_SIZE), _font(_NAME_SIZE, True)
    for index, label in enumerate((a, b)):
        centre_y = y + index * _LINE_H + _LINE_H // 2
        is_winner = won == index
        font = bold if is_winner else regular
        muted = not label or match.pending[index] or (won is not None and not is_winner)
        fill = _MUTED if muted else _TEXT
        number = score[index] if score else ""
        number_w = math.ceil(_width(number, bold)) + 14 if number else 0
        room = box_w - 2 * 18 - _CHECK_W - 10 - number_w
        text = _fit(label, font, room) if label else "—"
        paper = _WIN_BG if is_winner else _BG
        canvas.write((x + 18, centre_y), text, font, fill, paper, "lm")
        if number:
            canvas.write((right - 18 - _CHECK_W - 10, centre_y), number, font, fill, paper, "rm")
        if is_winner:
            _draw_check(draw, right - 18 - _CHECK_W, centre_y)
    if match.label:
        _draw_label(canvas, x + 14, y, match.label, box_w // 2)


def _draw_label(canvas: Canvas, x: int, y: int, label: str, room: int) -> None:
    """A match's name, small and muted, in a gap it makes in its box's top edge at ``y``,
    mostly above the edge: the name in the box's first line stays clear of it."""
    font = _font(_LABEL_SIZE, True)
    label = _fit(label, font, room)
    width = math.ceil(_width(label, font))
    centre = y - _LABEL_SIZE // 5
    canvas.draw.rectangle((x, centre - _LABEL_SIZE // 2, x + width + 12,
                           centre + _LABEL_SIZE // 2), fill=_BG)
    canvas.write((x + 6, centre), label, font, _MUTED, _BG, "lm")


def _draw_check(draw: ImageDraw.ImageDraw, x: int, centre_y: int) -> None:
    """A ✓ drawn with lines, so it does not depend on the font having the glyph."""
    points = [(x + 4, centre_y + 1), (x + 13, centre_y + 10), (x + 30, centre_y - 11)]
    draw.line(points, fill=_ACCENT, width=6, joint="curve")
