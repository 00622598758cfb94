"""Tournament pictures: valid PNGs within Telegram's photo limits, real Cyrillic glyphs,
visible text, and no crash on awkward names."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot.render import BAR_MARK, Box, bracket_png, find_font, pictures, standings_png
from bot.render.canvas import Canvas, Stamp, blends

MISSING = "\u0378"  # an unassigned code point: every font draws its "missing glyph" box
CYRILLIC = "Алиса Ёж"


def _open(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    Image.open(io.BytesIO(png)).verify()
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    width, height = image.size
    # Telegram photos: at most 10 MB, width + height <= 10000, ratio <= 20.
    assert len(png) < 10 * 1024 * 1024
    assert width + height <= 10000
    assert max(width, height) / min(width, height) <= 20
    return image.convert("RGB")


def _dark_pixels(image: Image.Image) -> int:
    grey = image.convert("L")
    return sum(grey.histogram()[:100])


def _green_pixels(image: Image.Image) -> int:
    red, green, blue = image.split()
    greener = ImageChops.darker(ImageChops.subtract(green, red, offset=-60),
                                ImageChops.subtract(green, blue, offset=-30))
    return greener.point(lambda v: 255 if v > 0 else 0).histogram()[255]


def _players(count: int) -> list[tuple[str, list[tuple[str, str, str | None]]]]:
    """A full bracket where the first-listed player always wins, the final undecided."""
    rounds, players = [], [f"Игрок {n}" for n in range(1, count + 1)]
    while len(players) > 1:
        matches = [(players[i], players[i + 1], players[i]) for i in range(0, len(players), 2)]
        rounds.append((f"Раунд {len(rounds) + 1}", matches))
        players = [winner for _, _, winner in matches]
    name, matches = rounds[-1]
    rounds[-1] = (name, [(matches[0][0], matches[0][1], None)])
    return rounds


STANDINGS = [["1", "Алиса Ёжикова", "3", "0", "9"], ["2", "Bob", "2", "1", "6"],
             ["3", "Вячеслав", "1", "2", "3"], ["4", "Eve", "0", "3", "0"]]
HEADER = ["#", "Игрок", "В", "П", "Очки"]


def _needs_font() -> None:
    if find_font() is None:
        pytest.skip("no system font with Cyrillic (install fonts-dejavu-core)")


def test_the_font_has_real_cyrillic_glyphs() -> None:
    _needs_font()
    font = pictures._font(40)
    missing = font.getmask(MISSING)
    for letter in "ЖЁжё":
        glyph = font.getmask(letter)
        assert (glyph.size, bytes(glyph)) != (missing.size, bytes(missing)), letter
    bbox_width = font.getbbox("Ж")[2] - font.getbbox("Ж")[0]
    assert bbox_width != font.getbbox(MISSING)[2] - font.getbbox(MISSING)[0]


def test_a_cyrillic_name_is_drawn_with_glyphs_not_boxes() -> None:
    _needs_font()
    real = _open(standings_png("", ["#", "Имя"], [["1", CYRILLIC]]))
    boxes = _open(standings_png("", ["#", "Имя"],
                                [["1", "".join(MISSING if c != " " else c for c in CYRILLIC)]]))
    assert real.tobytes() != boxes.tobytes()


def test_standings_are_a_readable_png() -> None:
    image = _open(standings_png("Турнир <весна> & co", HEADER, STANDINGS))
    assert 1000 <= image.width <= 1200
    assert len(image.getcolors(maxcolors=1 << 16) or range(2)) > 1
    assert _dark_pixels(image) > 2000  # text was drawn
    assert _green_pixels(image) == 0


def test_the_qualifiers_get_a_coloured_bar() -> None:
    plain = _open(standings_png("Группа A", HEADER, STANDINGS))
    marked = _open(standings_png("Группа A", HEADER, STANDINGS, highlight=2))
    assert _green_pixels(marked) > 0
    assert _green_pixels(plain) == 0
    for highlight in (-1, 0, 4, 99):
        _open(standings_png("Группа A", HEADER, STANDINGS, highlight=highlight))


@pytest.mark.parametrize(("header", "rows"), [
    ([], []),
    (HEADER, []),
    ([], [["1", "Solo"]]),
    (["#"], [["1"], ["2", "more cells", "than", "the", "header", "has"]]),
    (HEADER, [["1", "Очень-очень длинное имя игрока, которое не помещается " * 5, "1", "2", "3"]]),
    (HEADER, [["1", "😀🎲👨‍👩‍👧 <b>bold</b> &amp; \"q\" 'x'", "1", "0", "3"]]),
    (HEADER, [["1", "tab\tnew\nline\x00\u202e\ufe0f\ud800", "1", "0", "3"]]),
    (["#", "n", *[f"col {n}" for n in range(15)]], [["1", "x", *["1234567890"] * 15]]),
])
def test_standings_survive_awkward_input(header, rows) -> None:
    _open(standings_png("Заголовок " * 30, header, rows, highlight=1))


def test_a_very_long_table_is_cut_to_the_height_limit(monkeypatch) -> None:
    assert pictures._STANDINGS_MAX_HEIGHT + pictures._STANDINGS_MAX_WIDTH <= 10000
    monkeypatch.setattr(pictures, "_STANDINGS_MAX_HEIGHT", 1500)  # a small limit: faster
    rows = [[str(n), f"Игрок {n}", str(n)] for n in range(1, 150)]
    image = _open(standings_png("Все", ["#", "Игрок", "Очки"], rows, highlight=8))
    assert 1000 < image.height <= 1500


def test_long_names_are_cut_with_an_ellipsis() -> None:
    font = pictures._font(34)
    text = pictures._fit("Константин Константинопольский " * 4, font, 300)
    assert text.endswith("…")
    assert font.getlength(text) <= 300
    assert pictures._fit("Bob", font, 300) == "Bob"


def test_a_long_name_is_drawn_whole_when_a_smaller_size_fits_it() -> None:
    """A Swiss table's six number columns left a 40-pixel name column too narrow for
    "Maximilian_van_der_berg": it was cut while smaller letters had room for it."""
    header = ["#", "Player", "Pts", "W-D-L", "Bu", "SB", "±", "MPR"]
    names = ["Alexander_petrovsky", "Maximilian_van_der_berg", "Bob"]
    rows = [[str(i), name, "3", "3-0-0", "6", "9", "+12", "2,5"]
            for i, name in enumerate(names, 1)]
    size = next(size for size in (40, 36, 32, 28)
                if pictures._standings_columns(header, rows, size, pictures._WIDTH))
    widths = pictures._standings_columns(header, rows, size, pictures._WIDTH)
    font = pictures._font(size, True)
    assert all(pictures._fit(name, font, widths[1] - 2 * pictures._CELL_PAD) == name
               for name in names)


def test_a_16_player_bracket_renders() -> None:
    pngs = bracket_png("Кубок", _players(16))
    assert 1 <= len(pngs) <= 2
    for png in pngs:
        image = _open(png)
        assert max(image.size) <= 2560
        assert _dark_pixels(image) > 2000
        assert _green_pixels(image) > 0  # the winners' ticks and shading


def test_a_bracket_says_how_many_pictures_it_draws() -> None:
    for players in (2, 8, 32):
        rounds = _players(players)
        assert pictures.bracket_count("Кубок", rounds) == len(bracket_png("Кубок", rounds))


def test_a_round_name_too_wide_for_its_column_goes_on_two_lines() -> None:
    font = pictures._font(30, True)
    assert pictures._header_lines("Нижняя сетка, раунд 1", font, 300) == ["Нижняя сетка",
                                                                          "раунд 1"]
    assert pictures._header_lines("Финал", font, 300) == ["Финал"]
    wide = "Losers' round 12 of the spring"
    assert all(pictures._width(line, font) <= 200
               for line in pictures._header_lines(wide, font, 200))


def test_a_32_player_bracket_is_split_into_pictures_telegram_accepts() -> None:
    pngs = bracket_png("Большой кубок", _players(32))
    assert 2 <= len(pngs) <= 10  # fits in one Telegram album
    for png in pngs:
        assert max(_open(png).size) <= 2560


def test_a_tall_single_round_is_split() -> None:
    matches = [(f"a{n}", f"b{n}", None) for n in range(20)]
    pngs = bracket_png("Отбор", [("Раунд 1", matches)])
    assert len(pngs) > 1
    for png in pngs:
        assert max(_open(png).size) <= 2560


@pytest.mark.parametrize("rounds", [
    [],
    [("Финал", [])],
    [("Финал", [("", "", None)])],
    [("Финал", [("Alice", "Bob", "nobody")])],
    [("Финал", [("Same", "Same", "Same")])],
    [("1/2", [("😀 <i>x</i> & y", "Очень длинное имя игрока " * 6, "😀 <i>x</i> & y"),
              ("c\n\x00", "d\u202e", None), ("bye", "", "bye")]),
     ("Финал", [("😀 <i>x</i> & y", "?", None), ("extra", "match", None)])],
])
def test_brackets_survive_awkward_input(rounds) -> None:
    pngs = bracket_png("Кубок <b>&</b> " * 10, rounds)
    assert pngs
    for png in pngs:
        _open(png)


def test_the_legend_goes_under_the_table_with_a_piece_of_the_qualifiers_bar() -> None:
    _needs_font()
    plain = _open(standings_png("Группа A", HEADER, STANDINGS, highlight=2))
    legend = ["Bh: Buchholz", f"{BAR_MARK} goes through"]
    explained = _open(standings_png("Группа A", HEADER, STANDINGS, highlight=2, legend=legend))
    assert explained.width == plain.width and explained.height > plain.height
    below = explained.crop((0, plain.height - 40, explained.width, explained.height))
    assert sum(below.convert("L").histogram()[:200]) > 500  # the legend's grey words
    assert _green_pixels(below) > 0  # the bar's piece


def test_a_long_legend_line_goes_on_over_more_lines_instead_of_being_cut() -> None:
    _needs_font()
    long = ("SB — Sonneborn-Berger: the points of the opponents beaten plus half the points "
            "of the opponents drawn with, summed over every round played so far")
    font = pictures._font(28)
    (bar, pieces), = pictures._legend_notes([long], font, 600)
    assert not bar and len(pieces) > 1
    assert " ".join(pieces) == long  # every word kept, none cut with an ellipsis
    assert all(pictures._width(piece, font) <= 600 for piece in pieces)
    short = _open(standings_png("A", HEADER, STANDINGS, legend=["SB — Sonneborn-Berger"]))
    assert _open(standings_png("A", HEADER, STANDINGS, legend=[long])).height > short.height


def test_a_bracket_shows_each_score_and_the_third_place_match() -> None:
    _needs_font()
    semis = [("A", "B", "A"), ("C", "D", "D")]
    scored = [("A", "B", "A", ("2", "1")), ("C", "D", "D", ("0", "2"))]
    final = ("Финал", [("A", "D", None)])
    bare = _open(bracket_png("Кубок", [("1/2", semis), final])[0])
    with_scores = _open(bracket_png("Кубок", [("1/2", scored), final])[0])
    assert bare.size == with_scores.size
    assert _dark_pixels(with_scores) > _dark_pixels(bare)
    third = ("За 3-е место", ("B", "C", "C", ("1", "2")))
    with_third = _open(bracket_png("Кубок", [("1/2", scored), final], third)[0])
    assert with_third.height > with_scores.height
    assert _green_pixels(with_third) > _green_pixels(with_scores)  # its winner's tick


def test_a_two_player_bracket_has_room_for_the_third_place_match() -> None:
    pngs = bracket_png("Кубок", [("Финал", [("A", "B", None)])], ("3", ("C", "D", None)))
    assert len(pngs) == 1
    _open(pngs[0])


def test_drawn_in_the_tables_own_colours_with_smooth_letters() -> None:
    """Tables and brackets are palette pictures of their kind's colours (no shape brings a
    colour the palette lacks), and letters keep their anti-aliased edges: the blends of ink
    and paper the palette holds, on every paper a letter is written on."""
    own = list(pictures._tables_palette().colours)
    rows = [["1", "Алиса Ёж", "3", "9"], ["2", "Bob", "3", "6"], ["3", "Carol", "3", "0"]]
    standings = standings_png("Кубок", ["#", "Игрок", "И", "О"], rows, highlight=1,
                              legend=[f"{BAR_MARK} выходят дальше"])
    bracket = bracket_png("Кубок", [("Финал", [("Алиса Ёж", "Bob", "Bob", ("1", "2"))])])
    for png in (standings, *bracket):
        picture = Image.open(io.BytesIO(png))
        assert picture.mode == "P"
        assert picture.getpalette() == own
        shades = {colour for _, colour in picture.convert("RGB").getcolors(maxcolors=1 << 16)}
        assert len(shades) > 30, len(shades)  # the papers, inks and lines are fewer than 12


def test_labels_are_kept_within_a_byte_budget_the_least_recently_used_forgotten() -> None:
    """Many tournaments' tables at once: the labels kept are bounded by their bytes, the one
    read or drawn longest ago goes first, and a kept label is pasted, not drawn again."""
    from bot.render import canvas

    font, palette = pictures._font(20), pictures._tables_palette()
    keys = [(name, font, (0, 0, 0), (255, 255, 255), "lm", palette)
            for name in ("Алиса", "Борис", "Вера", "Глеб")]
    size = {key[0]: canvas._size(canvas._label(*key)[0]) for key in keys}
    # room for three of them, Алиса and Вера with either other, whatever the font's sizes
    labels = canvas._Labels(
        budget=size["Алиса"] + size["Вера"] + max(size["Борис"], size["Глеб"]))
    for key in keys[:3]:
        labels.get(key)
    labels.get(keys[0])  # read again: now the most recently used
    drawn = labels.drawn
    labels.get(keys[3])  # one label too many: the least recently used (Борис) goes
    assert labels.held <= labels.budget
    assert [key[0] for key in labels._kept] == ["Вера", "Алиса", "Глеб"]
    for key in (keys[0], keys[2], keys[3]):
        labels.get(key)
    assert labels.drawn == drawn + 1  # only Глеб was drawn; the kept ones were reused


def _muted_pixels(image: Image.Image) -> int:
    """Pixels in the muted grey of round names (and of losers' names)."""
    counts = {colour: count for count, colour in image.getcolors(maxcolors=1 << 16)}
    return counts.get(pictures._MUTED, 0)


def test_a_match_s_number_is_drawn_on_its_box() -> None:
    """«#5» small and muted on the box's top edge, the picture no bigger for it."""
    _needs_font()
    plain = [("Финал", [Box("Alice", "Bob")])]
    numbered = [("Финал", [Box("Alice", "Bob", label="#5")])]
    bare, marked = (_open(bracket_png("Кубок", rounds)[0]) for rounds in (plain, numbered))
    assert bare.size == marked.size
    assert _muted_pixels(marked) > _muted_pixels(bare)


def test_places_still_to_be_filled_are_drawn_muted() -> None:
    """«?» and «loser of #1» in the round names' grey, not the players' dark ink."""
    _needs_font()
    plain, waiting = (_open(bracket_png("Кубок", [("Финал", [Box("?", "loser of #1",
                                                               pending=pending)])])[0])
                      for pending in ((False, False), (True, True)))
    assert _muted_pixels(waiting) > _muted_pixels(plain)
    assert _dark_pixels(waiting) < _dark_pixels(plain)


def _lines_between_first_columns(image: Image.Image, columns: int) -> int:
    """Pixels of connector lines in the gap between the first two columns."""
    box_w = (image.width - 2 * pictures._PAD - (columns - 1) * pictures._GAP) // columns
    left = pictures._PAD + box_w + 4
    gap = image.crop((left, 0, left + pictures._GAP - 8, image.height))
    return {colour: count for count, colour in gap.getcolors(maxcolors=1 << 16)}.get(
        pictures._LINE, 0)


def test_a_box_is_joined_to_the_box_whose_winner_takes_one_of_its_places() -> None:
    """A lower bracket: round 2 boxes take round 1's winners in their first place (the
    other is a loser dropping in), so each is drawn level with its feeder and joined to
    it, into that place's line; round 3 pairs them; round 4 takes round 3's winner."""
    first = [Box("loser of #1", "loser of #2"), Box("loser of #3", "loser of #4")]
    rounds = [("1", first),
              ("2", [Box("?", "loser of #5", feeds=(0, None)),
                     Box("?", "loser of #6", feeds=(1, None))]),
              ("3", [Box("?", "?", feeds=(0, 1))]),
              ("4", [Box("?", "loser of #7", feeds=(0, None))])]
    joins = pictures._joins(pictures._clean_rounds(rounds))
    assert pictures._layout(joins)[0] == [[0.5, 1.5], [0.5, 1.5], [1.0], [1.0]]
    assert [pictures._entry(feeds) for feeds in joins[1]] == [-pictures._LINE_H // 2] * 2
    unjoined = [rounds[0], ("2", [Box("?", "loser of #5"), Box("?", "loser of #6")])]
    assert _lines_between_first_columns(_open(bracket_png("", unjoined)[0]), 2) == 0
    assert _lines_between_first_columns(_open(bracket_png("", rounds)[0]), 4) > 0


def test_a_canvas_finds_its_palette_s_colours_without_sharing_what_pillow_adds() -> None:
    """Each canvas gets its own copy of the palette's kept indices: a shape drawn in a
    colour the palette lacks (which a test of each picture's palette catches) is added to
    that picture alone, and the next canvas still sees the palette as it is."""
    red, white, grey = (200, 0, 0), (255, 255, 255), (90, 90, 90)
    palette = blends((red,), (white,), steps=4)
    first = Canvas.blank((4, 1), white, palette)
    first.draw.point((0, 0), fill=red)
    first.draw.point((1, 0), fill=grey)
    second = Canvas.blank((4, 1), white, palette)
    second.draw.point((0, 0), fill=red)
    assert first.image.getpixel((0, 0)) == second.image.getpixel((0, 0)) == palette.indices[red]
    assert grey not in palette.indices
    assert grey not in second.image.palette.colors
    assert first.image.getpalette()[3 * first.image.getpixel((1, 0)):][:3] == list(grey)


def test_a_canvas_over_rows_draws_into_them() -> None:
    """What is drawn on a canvas over rows is in those rows, as a canvas of its own has it."""
    red, white = (200, 0, 0), (255, 255, 255)
    palette = blends((red,), (white,), steps=4)
    own = Canvas.blank((9, 5), white, palette)
    rows = bytearray(own.image.tobytes())
    over = Canvas.over(rows, (9, 5), palette)
    dot = Canvas.blank((2, 2), red, palette)
    for canvas in (own, over):
        canvas.draw.rectangle((1, 1, 4, 3), fill=red)
        canvas.stamp(Stamp(dot.image, None), (6, 2))
    assert bytes(rows) == own.image.tobytes() == over.image.tobytes()
    assert bytes(rows) != Canvas.blank((9, 5), white, palette).image.tobytes()
    assert over.image.getpalette() == own.image.getpalette()
