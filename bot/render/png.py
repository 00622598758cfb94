"""PNG files of palette pictures, deflated with ISA-L (the ``isal`` package).

Every picture the bot draws is flat and drawn on a palette of its own colours
(:mod:`bot.render.canvas`). Pillow's PNG encoder deflates with zlib, and on these pictures
deflate is most of the work: encoding a 970 × 808 backgammon board took about 3.5 ms, here
0.9 ms (ISA-L's level 1 itself about 0.3–0.6 ms), for a file about a fifth larger (31 KB
against 26 KB at zlib's level 3; zlib's level 1 was no faster and larger still). The file is
PNG's plainest form, which every decoder reads: 8-bit palette indices, no row filter (a
palette picture gains little from one), one IDAT chunk.

Each row of the file starts with its filter byte, 0. A picture drawn one column wider than
it is (:func:`padded_png`, the backgammon board) has that byte at the end of each row
already: its spare column, zeroed, is the next row's filter byte, so its pixels go to deflate
as they are (:func:`rows_png`: the board is drawn straight into such rows, so not even
Pillow's ``tobytes`` copies them). Any other picture is first pasted into such a one
(:func:`palette_png`).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["padded_png", "palette_png", "rows_png"]

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PALETTE_COLOUR_TYPE = 3
_LEVEL = 1
"""ISA-L's levels 0–3: 1 is about as fast as 0 and a quarter smaller; 3 took 25 times longer."""


def palette_png(image: Image.Image) -> bytes:
    """The PNG bytes of ``image``, a ``P`` (palette) picture."""
    from PIL import Image  # in the picture worker, as Pillow (see bot.render.pictures)

    if image.mode != "P":
        raise ValueError(f"a palette picture is needed, not {image.mode}")
    width, height = image.size
    padded = Image.new("P", (width + 1, height), 0)
    padded.paste(image, (0, 0))
    padded.putpalette(image.getpalette() or [0, 0, 0])
    return padded_png(padded)


def padded_png(image: Image.Image) -> bytes:
    """The PNG bytes of a ``P`` picture one column narrower than ``image``, whose last column
    is spare (it is set to 0 here): no copy of the rows is made to put their filter bytes in
    (about 0.1 ms of a backgammon board's 1.3 ms in a worker)."""
    width, height = image.width - 1, image.height
    image.im.paste(0, (width, 0, width + 1, height))
    return rows_png(image.tobytes(), width, height, image.getpalette() or [0, 0, 0])


def rows_png(rows: bytes | bytearray, width: int, height: int, palette: Sequence[int]) -> bytes:
    """The PNG bytes of a ``width`` × ``height`` picture of ``palette`` (r, g, b …) whose
    pixels are ``rows``: ``width + 1`` bytes a row, the last one 0 (the next row's filter
    byte)."""
    from isal import isal_zlib  # in the picture worker, as Pillow (see bot.render.pictures)

    deflate = isal_zlib.compressobj(_LEVEL)
    pixels = memoryview(rows)
    deflated = deflate.compress(b"\0") + deflate.compress(pixels[:-1]) + deflate.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, _PALETTE_COLOUR_TYPE, 0, 0, 0)
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", bytes(palette)),
                     _chunk(b"IDAT", deflated), _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    """A PNG chunk: its length, type, data and the CRC of type and data."""
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind))))
