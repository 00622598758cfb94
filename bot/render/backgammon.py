"""The backgammon board as a PNG picture (docs/backgammon.md, "The board picture").

Pure: a :class:`BoardScene` in, PNG bytes out. The board is drawn from a fixed point of view:
seat 0's home board is at the bottom right and seat 0 moves counter-clockwise from the top
right to the bottom right; seat 1 mirrors it at the top. Each point carries both numberings
(seat 0's next to the bottom strip, seat 1's next to the top strip), so either player can read
the notation from their own side. Seat 1's strip is at the top, seat 0's at the bottom, each
with the player's checker colour, name, score, pip count and clock; the player on roll's strip
is highlighted. Fonts come from :mod:`bot.render.pictures`; the board is drawn on a
:class:`~bot.render.canvas.Canvas` of its own palette: a copy of the empty board's pixels,
the checkers (a point's stack kept with the empty point beneath it, pasted whole) and dice,
and labels kept from board to board. The canvas has a spare column on the right for the
PNG's filter bytes, and its pixels go to deflate as they were drawn
(:func:`bot.render.png.rows_png`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import TYPE_CHECKING

from bot.render.canvas import Canvas, Palette, Stamp, blends, text_width
from bot.render.pictures import _clean, _fit, _font
from bot.render.png import rows_png
from games.backgammon.position import BAR, CHECKERS, Position

if TYPE_CHECKING:
    from PIL import Image, ImageDraw

__all__ = ["BoardScene", "board_png", "point_centre"]

Colour = tuple[int, int, int]

# Checker colours per seat (kept distinct from everything else drawn, tests look for them).
CHECKER = ((238, 232, 214), (178, 34, 34))
_CHECKER_EDGE = ((90, 84, 70), (92, 14, 14))
_WHITE = (255, 255, 255)
_CHECKER_TEXT = ((28, 32, 38), _WHITE)
_BG = (250, 250, 247)
_FRAME = (92, 62, 38)
_FELT = (44, 110, 80)
_POINT = ((214, 186, 140), (122, 82, 50))
_TEXT = (28, 32, 38)
_MUTED = (112, 119, 130)
_HIGHLIGHT = (255, 226, 120)
_CUBE = (250, 250, 250)

PW = 60  # point width
RADIUS = 27
_MARGIN = 12
_CUBE_W = 66  # the cube column, left of the board
_FRAME_W = 10
_LEFT = _MARGIN + _CUBE_W + _FRAME_W  # x of the first point column
_BAR_X = _LEFT + 6 * PW  # the bar column
_RIGHT = _BAR_X + PW  # x of the first column of the right half
_TRAY_X = _RIGHT + 6 * PW + _FRAME_W  # the borne-off tray
_TRAY_W = 70
WIDTH = _TRAY_X + _TRAY_W + _FRAME_W + _MARGIN
_STRIP_H = 60
_NUMBERS_H = 34  # two lines of point numbers
BOARD_TOP = _STRIP_H + _NUMBERS_H + _FRAME_W
_HALF_H = 300
BOARD_BOTTOM = BOARD_TOP + 2 * _HALF_H
HEIGHT = BOARD_BOTTOM + _FRAME_W + _NUMBERS_H + _STRIP_H
_TRIANGLE_H = 250
_SHOWN = 5  # checkers drawn on a point; more are counted


@dataclass(frozen=True, slots=True)
class BoardScene:
    """Everything the board picture shows; ``position`` is seen by ``on_roll``."""

    position: Position
    names: tuple[str, str]
    on_roll: int
    dice: tuple[int, int] | None
    cube: int
    cube_owner: int | None
    cube_in_play: bool
    score: tuple[int, int]
    length: int
    clocks: tuple[str, str] | None
    words: Mapping[str, str]

    def __reduce__(self) -> tuple[type[BoardScene], tuple]:
        """Pickled as its fields in order (each board goes to a drawing process): a slotted
        dataclass's own state is gathered and set again field by field in Python (a board's
        scene took 15 µs to pickle and unpickle, 10 µs so)."""
        return BoardScene, _scene_fields(self)

    def sides(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The checkers of seat 0 and seat 1, each in its own numbering."""
        if self.on_roll == 0:
            return self.position.player, self.position.opponent
        return self.position.opponent, self.position.player


_scene_fields = attrgetter(*BoardScene.__slots__)


def board_png(scene: BoardScene) -> bytes:
    """The board of ``scene`` as PNG bytes (about 960 × 820 pixels)."""
    rows = bytearray(_empty_rows())
    canvas = Canvas.over(rows, (WIDTH + 1, HEIGHT), _board_palette())
    sides = scene.sides()
    for seat in (0, 1):
        _draw_points(canvas, seat, sides[seat])
        _draw_bar(canvas, seat, sides[seat][BAR])
        _draw_tray(canvas, seat, CHECKERS - sum(sides[seat]))
        _draw_strip(canvas, scene, seat, sides[seat])
    _draw_cube(canvas, scene)
    if scene.dice is not None:
        _draw_dice(canvas, scene.on_roll, scene.dice)
    rows[WIDTH::WIDTH + 1] = bytes(HEIGHT)  # the spare column: the rows' filter bytes
    return rows_png(rows, WIDTH, HEIGHT, _board_palette().colours)


@lru_cache(maxsize=1)
def _board_palette() -> Palette:
    """Every colour the board is drawn in, and the edges of its letters: the text colours
    on each colour text is written on (8 steps are enough for letters this size)."""
    return blends((_TEXT, _MUTED, _CHECKER_TEXT[1]), (_BG, _HIGHLIGHT, _CUBE, *CHECKER, _FELT),
                  steps=8, solids=(_FRAME, *_POINT, *_CHECKER_EDGE))


@lru_cache(maxsize=1)
def _empty_rows() -> bytes:
    """The pixels of the frame, the points and their numbers: the same in every picture (and
    the spare column)."""
    canvas = Canvas.blank((WIDTH + 1, HEIGHT), _BG, _board_palette())
    _draw_board(canvas.draw)
    _draw_numbers(canvas)
    return canvas.image.tobytes()


@lru_cache(maxsize=1)
def _empty_board() -> Image.Image:
    """:func:`_empty_rows` as a picture, to copy a point's ground from (it is not drawn on)."""
    from PIL import Image

    return Image.frombuffer("P", (WIDTH + 1, HEIGHT), _empty_rows(), "raw", "P", 0, 1)


def point_centre(seat: int, point: int) -> tuple[int, int]:
    """The centre x of ``point`` (1–24, in ``seat``'s numbering) and the y of its edge."""
    point0 = point if seat == 0 else 25 - point
    if point0 <= 6:
        return _RIGHT + (6 - point0) * PW + PW // 2, BOARD_BOTTOM
    if point0 <= 12:
        return _LEFT + (12 - point0) * PW + PW // 2, BOARD_BOTTOM
    if point0 <= 18:
        return _LEFT + (point0 - 13) * PW + PW // 2, BOARD_TOP
    return _RIGHT + (point0 - 19) * PW + PW // 2, BOARD_TOP


def _draw_board(draw: ImageDraw.ImageDraw) -> None:
    outer = (_LEFT - _FRAME_W, BOARD_TOP - _FRAME_W, _TRAY_X + _TRAY_W + _FRAME_W,
             BOARD_BOTTOM + _FRAME_W)
    draw.rectangle(outer, fill=_FRAME)
    for x0 in (_LEFT, _RIGHT):
        draw.rectangle((x0, BOARD_TOP, x0 + 6 * PW - 1, BOARD_BOTTOM - 1), fill=_FELT)
    draw.rectangle((_TRAY_X, BOARD_TOP, _TRAY_X + _TRAY_W - 1, BOARD_BOTTOM - 1), fill=_FELT)
    draw.line((_TRAY_X, BOARD_TOP + _HALF_H, _TRAY_X + _TRAY_W, BOARD_TOP + _HALF_H),
              fill=_FRAME, width=4)
    for point in range(1, 25):
        x, edge = point_centre(0, point)
        tip = edge + _TRIANGLE_H if edge == BOARD_TOP else edge - _TRIANGLE_H
        colour = _POINT[point % 2]
        draw.polygon([(x - PW // 2 + 1, edge), (x + PW // 2 - 1, edge), (x, tip)], fill=colour)


def _draw_numbers(canvas: Canvas) -> None:
    """Seat 0's numbers on the line next to its strip (bottom), seat 1's next to the top."""
    font = _font(14)
    bold = _font(14, bold=True)
    top_outer = _STRIP_H + 2
    bottom_outer = BOARD_BOTTOM + _FRAME_W + _NUMBERS_H - 17
    for point in range(1, 25):
        x, edge = point_centre(0, point)
        if edge == BOARD_TOP:
            lines = ((top_outer, str(25 - point), bold), (top_outer + 15, str(point), font))
        else:
            lines = ((bottom_outer, str(point), bold), (bottom_outer - 15, str(25 - point), font))
        for y, text, face in lines:
            colour = _TEXT if face is bold else _MUTED
            canvas.write((x, y), text, face, colour, _BG, "mt")


def _draw_points(canvas: Canvas, seat: int, side: tuple[int, ...]) -> None:
    for point in range(1, 25):
        count = side[point - 1]
        if count:
            x, edge = point_centre(seat, point)
            step = 2 * RADIUS if edge == BOARD_TOP else -2 * RADIUS
            first = edge + RADIUS + 1 if edge == BOARD_TOP else edge - RADIUS - 1
            _draw_stack(canvas, seat, x, first, step, count)


def _draw_stack(canvas: Canvas, seat: int, x: int, first: int, step: int,
                count: int) -> None:
    """Up to five checkers from ``first`` by ``step``; the last one shows the count if more."""
    canvas.stamp(*_point_stack(seat, x, first, step, min(count, _SHOWN)))
    if count > _SHOWN:
        _count_on_checker(canvas, seat, x, first + (_SHOWN - 1) * step, count)


def _count_on_checker(canvas: Canvas, seat: int, x: int, y: int, count: int) -> None:
    canvas.write((x, y), str(count), _font(24, bold=True), _CHECKER_TEXT[seat], CHECKER[seat],
                 "mm")


def _checker(canvas: Canvas, seat: int, x: int, y: int, step: int = 0, count: int = 1) -> None:
    """``count`` checkers from the one centred on (x, y), each ``step`` lower (higher when
    negative) and drawn over the one before."""
    canvas.stamp(_checker_stamp(seat, step, count), _corner(x, y, step, count))


def _corner(x: int, y: int, step: int, count: int) -> tuple[int, int]:
    """The top left corner of :func:`_checker`'s stack."""
    return x - RADIUS, y + min(0, (count - 1) * step) - RADIUS


@lru_cache(maxsize=2 * 24 * _SHOWN)
def _point_stack(seat: int, x: int, first: int, step: int,
                 count: int) -> tuple[Stamp, tuple[int, int]]:
    """A point's stack of checkers with the empty board's point beneath it, and where it
    goes: pasted without a mask (five checkers through their mask took 8.7 µs, as a plain
    copy 1.2). A point is drawn on before anything else covers it, and the stacks of two
    points do not overlap."""
    corner = _corner(x, first, step, count)
    return _checker_stamp(seat, step, count).on(_empty_board(), corner), corner


@lru_cache(maxsize=32)
def _checker_stamp(seat: int, step: int = 0, count: int = 1) -> Stamp:
    """A checker, or a stack of ``count`` by ``step``: one stamp per stack."""
    if count > 1:
        return _checker_stamp(seat).stacked(step, count)

    def shape(draw: ImageDraw.ImageDraw) -> None:
        draw.ellipse((0, 0, 2 * RADIUS, 2 * RADIUS), fill=CHECKER[seat],
                     outline=_CHECKER_EDGE[seat], width=2)
    return Stamp.drawn((2 * RADIUS + 1, 2 * RADIUS + 1), _board_palette(), _FELT, shape)


def bar_centre(seat: int) -> tuple[int, int]:
    """Where ``seat``'s first checker on the bar is drawn: seat 0 above the middle (it enters
    at the top), seat 1 below."""
    middle = BOARD_TOP + _HALF_H
    return _BAR_X + PW // 2, middle - 2 * RADIUS if seat == 0 else middle + 2 * RADIUS


def _draw_bar(canvas: Canvas, seat: int, count: int) -> None:
    if not count:
        return
    x, y = bar_centre(seat)
    step = -2 * RADIUS if seat == 0 else 2 * RADIUS
    _checker(canvas, seat, x, y, step, min(count, 3))
    if count > 1:
        _count_on_checker(canvas, seat, x, y, count)


def _draw_tray(canvas: Canvas, seat: int, count: int) -> None:
    """Borne-off checkers as thin slabs: seat 0's in the bottom tray, seat 1's in the top."""
    slab = 12
    x0, x1 = _TRAY_X + 8, _TRAY_X + _TRAY_W - 8
    first, step = (BOARD_BOTTOM - 6 - slab, -slab) if seat == 0 else (BOARD_TOP + 6, slab)
    for index in range(count):
        y = first + index * step
        canvas.draw.rectangle((x0, y, x1, y + slab - 2), fill=CHECKER[seat],
                              outline=_CHECKER_EDGE[seat])
    label_y = BOARD_TOP + _HALF_H + (26 if seat == 0 else -26)
    canvas.write((_TRAY_X + _TRAY_W // 2, label_y), str(count), _font(24, bold=True), _WHITE,
                 _FELT, "mm")


def _draw_strip(canvas: Canvas, scene: BoardScene, seat: int, side: tuple[int, ...]) -> None:
    """One player's line: checker, name, score, pips, clock; highlighted when on roll."""
    top = 0 if seat == 1 else HEIGHT - _STRIP_H
    paper = _BG
    if seat == scene.on_roll:
        paper = _HIGHLIGHT
        canvas.draw.rectangle((0, top, WIDTH - 1, top + _STRIP_H - 1), fill=paper)
    middle = top + _STRIP_H // 2
    _checker(canvas, seat, _MARGIN + RADIUS, middle)
    pips = sum((index + 1) * count for index, count in enumerate(side))
    words = scene.words
    right = f"{words.get('pips', 'pips')}: {pips}"
    if scene.clocks is not None:
        right += f"   {_cleaned(scene.clocks[seat])}"
    big = _font(26, bold=True)
    small = _font(22)
    canvas.write_pieces((WIDTH - _MARGIN, middle), right, small, _TEXT, paper, "rm")
    score = f"{scene.score[seat]}/{scene.length}"
    name_x = _MARGIN + 2 * RADIUS + 14
    room = WIDTH - _MARGIN - text_width(right, small) - name_x - 40
    label = f"{_cleaned(scene.names[seat])}  · {score}"
    if seat == scene.on_roll and words.get("to_play"):  # none once the match is over
        label += f"  · {words['to_play']}"
    canvas.write((name_x, middle), _fit(label, big, room), big, _TEXT, paper, "lm")


@lru_cache(maxsize=1024)
def _cleaned(text: str) -> str:
    """:func:`_clean`'s line, kept: a board cleans its names, clocks and words again each
    time (about 6 µs each, a checked character at a time)."""
    return _clean(text)


def _draw_cube(canvas: Canvas, scene: BoardScene) -> None:
    """The cube left of the board: at its owner's side or in the middle; in the Crawford
    game the word for it instead, and nothing when it is dead (a 1-point match: no word
    ``crawford`` given). The match length is written below the column, the word
    above the number (on one line, "match to 15" did not fit the column)."""
    x = _MARGIN + _CUBE_W // 2
    middle = BOARD_TOP + _HALF_H
    small, top = _font(14), BOARD_BOTTOM + _FRAME_W + 1
    word = _cleaned(scene.words.get("match_to", ""))
    canvas.write((x, top), _fit(word, small, _CUBE_W + 10), small, _TEXT, _BG, "mt")
    canvas.write((x, top + _NUMBERS_H // 2), str(scene.length), small, _TEXT, _BG, "mt")
    if not scene.cube_in_play:
        if word := _cleaned(scene.words.get("crawford", "")):
            _vertical_word(canvas, word, x, middle)
        return
    if scene.cube_owner is None:
        y = middle
    else:
        y = BOARD_BOTTOM - 40 if scene.cube_owner == 0 else BOARD_TOP + 40
    size = 26
    canvas.draw.rectangle((x - size, y - size, x + size, y + size), fill=_CUBE, outline=_TEXT,
                          width=3)
    canvas.write((x, y), str(scene.cube), _font(28, bold=True), _TEXT, _CUBE, "mm")


def _vertical_word(canvas: Canvas, word: str, x: int, y: int) -> None:
    """``word`` written bottom to top, centred on (x, y), in a box."""
    from PIL import Image, ImageDraw

    font = _font(22, bold=True)
    word = _fit(word, font, 2 * _HALF_H - 40)
    width = int(font.getlength(word)) + 16
    label = Image.new("RGB", (width, 34), _HIGHLIGHT)
    ImageDraw.Draw(label).text((width // 2, 17), word, fill=_TEXT, font=font, anchor="mm")
    rotated = label.rotate(90, expand=True)
    canvas.paste(rotated, (x - rotated.width // 2, y - rotated.height // 2))


_PIPS = {1: ((0, 0),), 2: ((-1, -1), (1, 1)), 3: ((-1, -1), (0, 0), (1, 1)),
         4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
         5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
         6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1))}


def dice_centres(on_roll: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Where the two dice are drawn: in the middle of the right half for seat 0, of the left
    half for seat 1."""
    x0 = _RIGHT if on_roll == 0 else _LEFT
    y = BOARD_TOP + _HALF_H
    return (x0 + 2 * PW, y), (x0 + 4 * PW, y)


def _draw_dice(canvas: Canvas, on_roll: int, dice: tuple[int, int]) -> None:
    for (x, y), value in zip(dice_centres(on_roll), dice, strict=True):
        canvas.stamp(_die_stamp(on_roll, value), (x - _DIE, y - _DIE))


_DIE = 24  # half a die's side


@lru_cache(maxsize=12)
def _die_stamp(seat: int, value: int) -> Stamp:
    def shape(draw: ImageDraw.ImageDraw) -> None:
        draw.rounded_rectangle((0, 0, 2 * _DIE, 2 * _DIE), radius=8, fill=CHECKER[seat],
                               outline=_CHECKER_EDGE[seat], width=2)
        for dx, dy in _PIPS.get(value, ()):
            cx, cy = _DIE + dx * 12, _DIE + dy * 12
            draw.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=_CHECKER_TEXT[seat])
    return Stamp.drawn((2 * _DIE + 1, 2 * _DIE + 1), _board_palette(), _FELT, shape)
