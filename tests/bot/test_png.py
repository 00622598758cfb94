"""The PNG writer of palette pictures: what it writes, any decoder reads back pixel for
pixel with the same colours."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.render.png import padded_png, palette_png


def _palette_picture(width: int, height: int, colours: int, seed: int) -> Image.Image:
    rng = random.Random(seed)
    image = Image.new("P", (width, height))
    image.putpalette([rng.randrange(256) for _ in range(3 * colours)])
    runs = bytearray()
    while len(runs) < width * height:  # runs of one index, as a flat drawing has
        runs += bytes([rng.randrange(colours)]) * rng.randrange(1, 40)
    image.frombytes(bytes(runs[:width * height]))
    return image


@pytest.mark.parametrize(("width", "height", "colours"),
                         [(1, 1, 1), (7, 3, 2), (960, 820, 134), (33, 500, 256)])
def test_read_back_pixel_for_pixel(width: int, height: int, colours: int) -> None:
    image = _palette_picture(width, height, colours, seed=width * height)
    png = palette_png(image)
    Image.open(io.BytesIO(png)).verify()  # chunk lengths and CRCs
    back = Image.open(io.BytesIO(png))
    back.load()
    assert (back.format, back.mode, back.size) == ("PNG", "P", image.size)
    assert back.tobytes() == image.tobytes()
    assert back.getpalette() == image.getpalette()
    assert back.convert("RGB").tobytes() == image.convert("RGB").tobytes()


def test_a_flat_picture_is_small() -> None:
    image = Image.new("P", (960, 820))
    image.putpalette([250, 250, 247, 44, 110, 80])
    image.paste(1, (100, 100, 860, 720))
    assert len(palette_png(image)) < 5_000


def test_only_palette_pictures() -> None:
    with pytest.raises(ValueError, match="palette"):
        palette_png(Image.new("RGB", (4, 4)))


def test_a_picture_drawn_with_a_spare_column_is_written_without_it() -> None:
    image = _palette_picture(33, 20, 40, seed=5)
    padded = Image.new("P", (34, 20), 7)  # the spare column holds whatever was drawn there
    padded.putpalette(image.getpalette())
    padded.paste(image, (0, 0))
    back = Image.open(io.BytesIO(padded_png(padded)))
    back.load()
    assert back.size == image.size
    assert back.tobytes() == image.tobytes()
    assert back.getpalette() == image.getpalette()
