"""Flat pictures drawn straight onto a palette of their own colours.

Every picture the bot draws is flat: a few colours, and the edges of its letters. Each kind
of picture has a :class:`Palette` of exactly those (:func:`blends`): its papers, its inks and
the mixtures of each ink on each paper that an anti-aliased letter's edge takes. A
:class:`Canvas` is a ``P`` picture of that palette (a byte a pixel): shapes are drawn through
``canvas.draw`` in RGB colours, each looked up in the palette; text through
:meth:`Canvas.write`, which pastes a label drawn once in RGB on its paper and mapped to the
palette (:func:`_label`, kept by :data:`_LABELS`: names, scores and numbers repeat from
picture to picture).

Drawing in RGB and mapping the whole picture to the palette afterwards cost a full-size copy
and a nearest-colour lookup of every pixel, and every letter was rendered again for each
picture: a backgammon board took 6.5 ms that way, 2.5–3 ms on a canvas. The file is written by
:mod:`bot.render.png`.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from bot.render.png import palette_png

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont

    Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

__all__ = ["Canvas", "Palette", "Stamp", "blends", "text_width"]

Colour = tuple[int, int, int]


def blends(inks: Sequence[Colour], papers: Sequence[Colour], steps: int = 15,
           solids: Sequence[Colour] = ()) -> Palette:
    """A palette of every paper, ink and other solid colour, and ``steps - 1`` mixtures of
    each ink on each paper, the shades an anti-aliased letter's edge takes."""
    colours = list(dict.fromkeys([*papers, *inks, *solids]))
    for ink in inks:
        for paper in papers:
            colours += [tuple(round(p + (i - p) * k / steps) for i, p in zip(ink, paper,
                                                                             strict=True))
                        for k in range(1, steps)]
    colours = list(dict.fromkeys(colours))
    if len(colours) > 256:
        raise ValueError(f"a palette of {len(colours)} colours")
    return Palette(tuple(value for colour in colours for value in colour))


@dataclass(frozen=True, eq=False)
class Palette:
    """A picture kind's colours, flat (r, g, b, r, g, b …). Compared by identity: each kind
    makes its palette once, and labels are kept per palette."""

    colours: tuple[int, ...]

    @cached_property
    def image(self) -> Image.Image:
        """A one-pixel picture of this palette, for ``Image.quantize``."""
        from PIL import Image  # in the picture worker (see bot.render.pictures)

        image = Image.new("P", (1, 1))
        image.putpalette(self.colours)
        return image

    @cached_property
    def indices(self) -> dict[Colour, int]:
        """Each colour's index, as Pillow looks up a shape's colour: kept, where each new
        picture's palette built this dict again for its first shape (about 0.06 ms a board)."""
        image = self.image
        image.load()
        return dict(image.palette.colors)


class Canvas:
    """A palette picture being drawn on. Shapes go through ``draw``: every colour must be one
    of the palette's (a missing one would be added to the picture's palette unnoticed; the
    tests check that a picture's palette is its kind's). Text goes through :meth:`write`."""

    def __init__(self, image: Image.Image, palette: Palette) -> None:
        from PIL import ImageDraw

        self.image = image
        self.palette = palette
        self.draw: ImageDraw.ImageDraw = ImageDraw.Draw(image)
        image.palette.colors = dict(palette.indices)  # a copy: Pillow adds a missing colour

    @classmethod
    def blank(cls, size: tuple[int, int], paper: Colour, palette: Palette) -> Canvas:
        """A new picture of ``size`` filled with ``paper``."""
        from PIL import Image

        image = Image.new("P", size)
        image.putpalette(palette.colours)
        canvas = cls(image, palette)
        canvas.draw.rectangle((0, 0, size[0] - 1, size[1] - 1), fill=paper)
        return canvas

    @classmethod
    def over(cls, rows: bytearray, size: tuple[int, int], palette: Palette) -> Canvas:
        """A picture of ``size`` whose pixels are ``rows`` (a byte a pixel, row after row):
        what is drawn goes into them, to be written out with no copy (Pillow's ``tobytes``
        of a backgammon board took 0.05–0.1 ms)."""
        from PIL import Image

        image = Image.frombuffer("P", size, rows, "raw", "P", 0, 1)
        image.readonly = 0  # Pillow would copy a buffer's pixels before drawing: ours are ours
        image.putpalette(palette.colours)
        return cls(image, palette)

    def write(self, xy: tuple[float, float], text: str, font: Font, ink: Colour,
              paper: Colour, anchor: str) -> None:
        """``text`` anchored at ``xy`` (rounded to a pixel) on a spot of ``paper``: its box is
        painted ``paper``, so it must not cover anything else."""
        if not text:
            return
        label, (left, top) = _LABELS.get((text, font, ink, paper, anchor, self.palette))
        self._paste(label, (round(xy[0]) + left, round(xy[1]) + top))

    def write_pieces(self, xy: tuple[float, float], text: str, font: Font, ink: Colour,
                     paper: Colour, anchor: str) -> None:
        """``text`` as :meth:`write` would, written a digit at a time and the rest in runs:
        for a text whose numbers change from picture to picture (a clock, a pip count). Its
        pieces are all kept, so a new value draws no letters (drawing a whole new label took
        about 0.5 ms). Kerning across the pieces is lost, which digits do not use."""
        pieces = _PIECES.findall(text)
        widths = [text_width(piece, font) for piece in pieces]
        x = xy[0] - sum(widths) * {"l": 0, "m": 0.5, "r": 1}[anchor[0]]
        for piece, width in zip(pieces, widths, strict=True):
            self.write((x, xy[1]), piece, font, ink, paper, "l" + anchor[1])
            x += width

    def stamp(self, stamp: Stamp, xy: tuple[int, int]) -> None:
        """``stamp`` with its top left corner at ``xy``; only its own pixels are covered (all
        of its box when it has no mask)."""
        self._paste(stamp.image, xy, stamp.mask)

    def paste(self, drawing: Image.Image, xy: tuple[int, int]) -> None:
        """A small RGB ``drawing`` (in this palette's colours) mapped to the palette and
        pasted with its top left corner at ``xy``."""
        self._paste(_mapped(drawing, self.palette), xy)

    def _paste(self, picture: Image.Image, xy: tuple[int, int],
               mask: Image.Image | None = None) -> None:
        """``Image.paste`` of a palette picture without its checks and conversions (a third
        of a table's drawing went into them: 75 labels): the picture is ours, in our
        palette, and the canvas was made for drawing on."""
        width, height = picture.size
        box = (xy[0], xy[1], xy[0] + width, xy[1] + height)
        if mask is None:
            self.image.im.paste(picture.im, box)
        else:
            self.image.im.paste(picture.im, box, mask.im)

    def png(self) -> bytes:
        return palette_png(self.image)


_PIECES = re.compile(r"\d|\D+")


@lru_cache(maxsize=8192)
def text_width(text: str, font: Font) -> float:
    """``text``'s advance in ``font`` (12 µs a call): remembered, since a table measures
    each cell in two fonts to size its columns and again to fit it, and the next picture of
    the same tournament shows the same names."""
    return font.getlength(text) if text else 0.0


@dataclass(frozen=True)
class Stamp:
    """A small shape drawn once in a palette and stamped wherever it goes: one paste through
    its mask, where drawing it rasterized its shapes and looked up each colour in the palette
    every time (a board's 32 checkers and two dice: 2.4 → 1.8 ms a board). Without a mask it
    covers its whole box: a plain copy of rows, where a masked paste weighs every pixel."""

    image: Image.Image
    mask: Image.Image | None

    @classmethod
    def drawn(cls, size: tuple[int, int], palette: Palette, ground: Colour,
              shape: Callable[[ImageDraw.ImageDraw], None]) -> Stamp:
        """The pixels ``shape`` draws on a ``size`` canvas; ``ground`` is a colour of the
        palette that the shape does not use (its pixels are left out)."""
        from PIL import Image

        canvas = Canvas.blank(size, ground, palette)
        ground_index = canvas.image.getpixel((0, 0))
        shape(canvas.draw)
        mask = bytes(0 if pixel == ground_index else 255 for pixel in canvas.image.tobytes())
        return cls(canvas.image, Image.frombytes("L", size, mask))

    def stacked(self, step: int, count: int) -> Stamp:
        """``count`` of this stamp, each ``step`` pixels below the one before (above when
        negative) and over it, as one stamp: one paste where each was one (a backgammon
        board's stacks of checkers)."""
        from PIL import Image

        width, height = self.image.size
        tops = [index * step - min(0, (count - 1) * step) for index in range(count)]
        size = (width, height + (count - 1) * abs(step))
        image = Image.new("P", size)  # what the mask leaves out is never pasted
        image.putpalette(self.image.getpalette() or [0, 0, 0])
        mask = Image.new("L", size, 0)
        for top in tops:
            image.paste(self.image, (0, top), self.mask)
            mask.paste(255, (0, top, width, top + height), self.mask)
        return Stamp(image, mask)

    def on(self, ground: Image.Image, xy: tuple[int, int]) -> Stamp:
        """This stamp over ``ground``'s pixels at ``xy``, as a stamp without a mask: for a
        place where nothing else is drawn beneath it."""
        width, height = self.image.size
        image = ground.crop((xy[0], xy[1], xy[0] + width, xy[1] + height))
        image.paste(self.image, (0, 0), self.mask)
        return Stamp(image, None)


class _Labels:
    """The labels drawn so far, the least recently used forgotten once they hold more than
    ``budget`` bytes (a byte a pixel, and :data:`_LABEL_OVERHEAD` each).

    Counted by bytes, not labels: a name is small and a legend's line is wide. In the
    benchmark's game mix of 4,000 updates (thirty-odd round robins beside boards and
    brackets) the earlier bound of 256 labels made each table draw three or four of its
    labels again (~0.3 ms each): 4.0 ms of a worker's time a table, 2.4 ms with this budget. 8 MB holds some 650
    names of a table (a worker's memory grew by 13 MB drawing 600 tables of new names; by 7
    MB with the 256)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.held = 0
        self.drawn = 0
        """How many labels were drawn (not found kept): what a test of reuse counts."""
        self._kept: OrderedDict[tuple, tuple[Image.Image, tuple[int, int]]] = OrderedDict()
        self._lock = threading.Lock()  # a worker lost: pictures are drawn in threads

    def get(self, key: tuple) -> tuple[Image.Image, tuple[int, int]]:
        if (found := self._kept.get(key)) is not None:
            # A hit takes no lock (each call is atomic in the interpreter), nor a context
            # manager: a picture reads some sixty labels.
            try:  # noqa: SIM105
                self._kept.move_to_end(key)
            except KeyError:  # another thread has just forgotten it
                pass
            return found
        label = _label(*key)
        with self._lock:
            self.drawn += 1
            if key not in self._kept:
                self._kept[key] = label
                self.held += _size(label[0])
            while self.held > self.budget and len(self._kept) > 1:
                self.held -= _size(self._kept.popitem(last=False)[1][0])
        return label


_LABEL_OVERHEAD = 2048
"""What a kept label costs beyond its pixels: its image's objects and palette (measured)."""
_LABELS = _Labels(budget=8 << 20)


def _size(label: Image.Image) -> int:
    return label.size[0] * label.size[1] + _LABEL_OVERHEAD


def _label(text: str, font: Font, ink: Colour, paper: Colour, anchor: str,
           palette: Palette) -> tuple[Image.Image, tuple[int, int]]:
    """``text`` drawn anti-aliased on ``paper`` and mapped to ``palette``, and its offset from
    the anchor point (kept by :data:`_LABELS`). ``font`` is one of
    ``bot.render.pictures._font``'s, which are kept, so the same font is the same key."""
    from PIL import Image, ImageDraw

    left, top, right, bottom = (int(v) for v in font.getbbox(text, anchor=anchor))
    label = Image.new("RGB", (max(right - left, 1), max(bottom - top, 1)), paper)
    ImageDraw.Draw(label).text((-left, -top), text, fill=ink, font=font, anchor=anchor)
    return _mapped(label, palette), (left, top)


def _mapped(drawing: Image.Image, palette: Palette) -> Image.Image:
    """An RGB drawing as a picture of ``palette``: each pixel its nearest colour (no
    dithering: the drawing's colours and their blends are all in the palette)."""
    from PIL import Image

    return drawing.quantize(palette=palette.image, dither=Image.Dither.NONE)
