"""The backgammon board picture: a valid, small PNG drawn quickly, with the checkers, bar,
trays, cube, dice and the highlight where the scene puts them (docs/backgammon.md)."""

from __future__ import annotations

import io
import time
from dataclasses import replace

from PIL import Image

from bot.render import backgammon as picture
from bot.render.backgammon import BoardScene, board_png
from games.backgammon import Position

WORDS = {"pips": "pips", "crawford": "Crawford", "to_play": "to play", "match_to": "Match to"}


def _side(points: dict[int, int], bar: int = 0) -> tuple[int, ...]:
    counts = [0] * 25
    for point, count in points.items():
        counts[point - 1] = count
    counts[24] = bar
    return tuple(counts)


def _scene(position: Position | None = None, **changes: object) -> BoardScene:
    scene = BoardScene(position=position or Position.start(), names=("Alice", "Борис"),
                       on_roll=0, dice=(3, 1), cube=1, cube_owner=None, cube_in_play=True,
                       score=(1, 2), length=5, clocks=("0:12 · 4:30", "0:30 · 5:00"),
                       words=WORDS)
    return replace(scene, **changes)


def _image(scene: BoardScene) -> Image.Image:
    png = board_png(scene)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) < 120_000
    Image.open(io.BytesIO(png)).verify()
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (picture.WIDTH, picture.HEIGHT)
    return image


def _near(colour: tuple[int, int, int], target: tuple[int, int, int], tolerance: int = 14) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target, strict=True))


def _count(image: Image.Image, box: tuple[int, int, int, int],
           target: tuple[int, int, int]) -> int:
    colours = image.crop(box).getcolors(maxcolors=1 << 16) or []
    return sum(count for count, colour in colours if _near(colour, target))


def _checker_at(image: Image.Image, seat: int, x: int, y: int) -> bool:
    """Most of a small square left of (x, y), clear of a count written on the checker, has
    ``seat``'s checker colour."""
    box = (x - 20, y - 8, x - 10, y + 8)
    return _count(image, box, picture.CHECKER[seat]) > 120


def _stack_y(seat: int, point: int, index: int) -> tuple[int, int]:
    x, edge = picture.point_centre(seat, point)
    step = 2 * picture.RADIUS
    if edge == picture.BOARD_TOP:
        return x, edge + picture.RADIUS + 1 + index * step
    return x, edge - picture.RADIUS - 1 - index * step


def test_start_position_checkers_where_they_belong() -> None:
    image = _image(_scene())
    for seat in (0, 1):
        for point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
            assert _checker_at(image, seat, *_stack_y(seat, point, count - 1)), (seat, point)
            if count < 5:
                assert not _checker_at(image, seat, *_stack_y(seat, point, count)), (seat, point)
        for point in (1, 2, 3, 4, 5, 7, 9, 10, 11, 12):
            assert not _checker_at(image, seat, *_stack_y(seat, point, 0)), (seat, point)


def test_fixed_point_of_view_whoever_is_on_roll() -> None:
    """Seat 1 on roll with the same board: the checkers do not move, the highlight does."""
    position = Position(_side({6: 4, 8: 1}, bar=0), _side({1: 3, 20: 2}))
    first = _image(_scene(position))
    second = _image(_scene(position.swapped(), on_roll=1))
    for image in (first, second):
        assert _checker_at(image, 0, *_stack_y(0, 6, 3))
        assert _checker_at(image, 0, *_stack_y(0, 8, 0))
        assert _checker_at(image, 1, *_stack_y(1, 1, 2))
        assert _checker_at(image, 1, *_stack_y(1, 20, 1))
        assert not _checker_at(image, 1, *_stack_y(1, 6, 0))
    bottom = (0, picture.HEIGHT - 50, picture.WIDTH, picture.HEIGHT)
    top = (0, 0, picture.WIDTH, 50)
    assert _count(first, bottom, picture._HIGHLIGHT) > 1000 > _count(first, top, picture._HIGHLIGHT)
    assert _count(second, top, picture._HIGHLIGHT) > 1000 > _count(second, bottom,
                                                                   picture._HIGHLIGHT)


def test_more_than_five_checkers_show_their_count() -> None:
    five = _image(_scene(Position(_side({6: 5}), _side({6: 5}))))
    eight = _image(_scene(Position(_side({6: 8}), _side({6: 5}))))
    x, y = _stack_y(0, 6, 4)
    box = (x - 14, y - 14, x + 14, y + 14)
    assert _count(five, box, (28, 32, 38)) == 0
    assert _count(eight, box, (28, 32, 38)) > 20


def test_bar_and_borne_off_trays() -> None:
    position = Position(_side({1: 3, 2: 2}, bar=1), _side({24: 1, 3: 4}, bar=2))
    image = _image(_scene(position, dice=None))
    assert _checker_at(image, 0, *picture.bar_centre(0))
    assert _checker_at(image, 1, *picture.bar_centre(1))
    start = _image(_scene())
    assert not _checker_at(start, 0, *picture.bar_centre(0))
    assert not _checker_at(start, 1, *picture.bar_centre(1))
    tray_x = picture.WIDTH - 60
    lower = (tray_x, picture.BOARD_BOTTOM - 200, tray_x + 30, picture.BOARD_BOTTOM)
    upper = (tray_x, picture.BOARD_TOP, tray_x + 30, picture.BOARD_TOP + 200)
    # seat 0 has borne off 9 checkers, seat 1 seven: slabs in each tray, none at the start
    assert _count(image, lower, picture.CHECKER[0]) > 1500
    assert _count(image, upper, picture.CHECKER[1]) > 1000
    assert _count(start, lower, picture.CHECKER[0]) == 0
    assert _count(start, upper, picture.CHECKER[1]) == 0


def _dark_in_cube_column(image: Image.Image, top: int, bottom: int) -> int:
    return _count(image, (12, top, 12 + 66, bottom), (28, 32, 38))


def test_cube_at_its_owner_or_centred_or_crawford_or_dead() -> None:
    middle = picture.BOARD_TOP + 300
    regions = {"top": (picture.BOARD_TOP, picture.BOARD_TOP + 100),
               "middle": (middle - 40, middle + 40),
               "bottom": (picture.BOARD_BOTTOM - 100, picture.BOARD_BOTTOM)}
    expected = {None: "middle", 0: "bottom", 1: "top"}
    for owner, where in expected.items():
        image = _image(_scene(cube=1 if owner is None else 4, cube_owner=owner))
        for name, (top, bottom) in regions.items():
            dark = _dark_in_cube_column(image, top, bottom)
            assert (dark > 100) == (name == where), (owner, name, dark)
    crawford = _image(_scene(cube_in_play=False))
    column = (12, middle - 60, 12 + 66, middle + 60)
    assert _count(crawford, column, picture._HIGHLIGHT) > 1000
    assert _count(_image(_scene()), column, picture._HIGHLIGHT) == 0
    dead = _image(_scene(length=1, cube_in_play=False,
                         words={k: v for k, v in WORDS.items() if k != "crawford"}))
    assert _count(dead, column, picture._HIGHLIGHT) == 0
    assert _dark_in_cube_column(dead, *regions["middle"]) < 100


def test_dice_on_the_side_of_the_player_on_roll() -> None:
    for on_roll in (0, 1):
        position = Position.start()
        image = _image(_scene(position, on_roll=on_roll, dice=(6, 5)))
        for x, y in picture.dice_centres(on_roll):
            assert _count(image, (x - 20, y - 20, x + 20, y + 20), picture.CHECKER[on_roll]) > 300
        for x, y in picture.dice_centres(1 - on_roll):
            assert _count(image, (x - 20, y - 20, x + 20, y + 20), picture.CHECKER[on_roll]) == 0
    no_dice = _image(_scene(dice=None))
    for x, y in picture.dice_centres(0):
        assert _count(no_dice, (x - 20, y - 20, x + 20, y + 20), picture.CHECKER[0]) == 0


def test_drawn_quickly_with_awkward_names_and_no_clocks() -> None:
    scene = _scene(names=("x" * 300, "\u202eЁж\u0000"), clocks=None, score=(0, 0), length=1)
    board_png(scene)
    started = time.perf_counter()
    for _ in range(5):
        board_png(scene)
    assert (time.perf_counter() - started) / 5 < 0.25  # about 20 ms here; generous for CI


def test_drawn_in_the_boards_own_colours_with_smooth_letters() -> None:
    """The board is a palette picture of its own colours: no shape brings a colour the
    palette lacks, and letters keep their anti-aliased edges (the blends of ink and paper
    that the palette holds), on the highlighted strip as on the plain one."""
    own = list(picture._board_palette().colours)
    scenes = (_scene(), _scene(on_roll=1, dice=None, cube_in_play=False),
              _scene(Position(_side({6: 9}, bar=2), _side({1: 3}, bar=1)), cube_owner=1))
    for scene in scenes:
        png = Image.open(io.BytesIO(board_png(scene)))
        assert png.mode == "P"
        assert png.getpalette() == own
        image = png.convert("RGB")
        for top, paper in ((0, picture._BG), (picture.HEIGHT - 60, picture._HIGHLIGHT)):
            if scene.on_roll == 1:
                paper = picture._HIGHLIGHT if top == 0 else picture._BG
            letters = image.crop((picture.WIDTH // 2, top + 10, picture.WIDTH - 12, top + 50))
            shades = {colour for _, colour in letters.getcolors(maxcolors=1 << 16)}
            edges = shades - {paper, (28, 32, 38)}
            assert len(edges) >= 4, (scene.on_roll, top, shades)


def test_a_stamped_checker_covers_only_its_disc() -> None:
    """A checker on the 6-point: its centre and edge are the checker's, the corners of its
    square still show the point's triangle and the felt beside it (a stamp pastes its own
    pixels only)."""
    empty = _image(_scene(Position(_side({}), _side({})), dice=None, clocks=None))
    board = _image(_scene(Position(_side({6: 1}), _side({})), dice=None, clocks=None))
    x, edge = picture.point_centre(0, 6)
    y = edge - picture.RADIUS - 1
    assert _near(board.getpixel((x, y)), picture.CHECKER[0], 0)
    assert _near(board.getpixel((x, y + picture.RADIUS - 1)), picture._CHECKER_EDGE[0], 0)
    for dx, dy in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
        corner = (x + dx * (picture.RADIUS - 1), y + dy * (picture.RADIUS - 1))
        assert board.getpixel(corner) == empty.getpixel(corner)


def test_a_stack_stamped_at_once_is_its_checkers_stamped_one_by_one() -> None:
    from bot.render.canvas import Canvas

    palette = picture._board_palette()
    one = picture._checker_stamp(1)
    for step in (2 * picture.RADIUS, -2 * picture.RADIUS, 20):
        for count in (2, 3, 5):
            by_one = Canvas.blank((80, 400), picture._FELT, palette)
            at_once = Canvas.blank((80, 400), picture._FELT, palette)
            first = 200 - 2 * step if step < 0 else 10
            for index in range(count):
                by_one.stamp(one, (5, first + index * step))
            top = first + min(0, (count - 1) * step)
            at_once.stamp(one.stacked(step, count), (5, top))
            assert at_once.image.tobytes() == by_one.image.tobytes(), (step, count)


def test_a_points_stack_pasted_whole_is_its_stamp_on_the_empty_board() -> None:
    """Each point's stack of one to five checkers, pasted without a mask, leaves the pixels
    the stack stamped through its mask on the empty board leaves."""
    from bot.render.canvas import Canvas

    palette = picture._board_palette()
    for seat in (0, 1):
        for point in range(1, 25):
            x, edge = picture.point_centre(seat, point)
            top = edge == picture.BOARD_TOP
            step = 2 * picture.RADIUS if top else -2 * picture.RADIUS
            first = edge + picture.RADIUS + 1 if top else edge - picture.RADIUS - 1
            for count in range(1, picture._SHOWN + 1):
                masked = Canvas(picture._empty_board().copy(), palette)
                picture._checker(masked, seat, x, first, step, count)
                whole = Canvas(picture._empty_board().copy(), palette)
                whole.stamp(*picture._point_stack(seat, x, first, step, count))
                assert whole.image.tobytes() == masked.image.tobytes(), (seat, point, count)


def test_a_board_is_the_same_whatever_was_drawn_before() -> None:
    """The stacks, stamps and labels kept from board to board show no earlier board: a
    board drawn after others is the board drawn first."""
    full = Position(_side({1: 2, 6: 7, 13: 5, 19: 1}, bar=1), _side({2: 3, 12: 4, 24: 5}))
    first = board_png(_scene(full))
    for points in ({}, {6: 5, 8: 3}, {1: 1, 24: 1}):
        board_png(_scene(Position(_side(points), Position.start().opponent), on_roll=1))
    assert board_png(_scene(full)) == first


def test_a_new_clock_draws_no_new_letters() -> None:
    """The strip's pips and clocks are written digit by digit, so once every digit has been
    drawn, a board with new times and pip counts draws no new label."""
    from bot.render import canvas

    _image(_scene(clocks=("0:12 · 3:45", "6:78 · 9:01")))
    _image(_scene(clocks=("0:12 · 3:45", "6:78 · 9:01"), on_roll=1))
    before = canvas._LABELS.drawn
    _image(_scene(Position(_side({6: 5, 8: 3, 13: 5, 20: 2}), Position.start().opponent),
                  clocks=("9:59 · 0:07", "1:38 · 4:26")))
    _image(_scene(clocks=("2:22 · 5:55", "8:80 · 3:33"), on_roll=1))
    assert canvas._LABELS.drawn == before


def test_pieces_are_written_where_the_whole_text_would_be() -> None:
    from bot.render.canvas import Canvas

    palette = picture._board_palette()
    font = picture._font(22)
    spans = []
    for write in ("write", "write_pieces"):
        board = Canvas.blank((400, 60), picture._BG, palette)
        getattr(board, write)((390, 30), "pips: 167   0:12 · 4:30", font, picture._TEXT,
                              picture._BG, "rm")
        grey = board.image.convert("L")
        ink = grey.point(lambda value: 255 if value < 128 else 0)
        spans.append((ink.getbbox(), ink.histogram()[255]))
    (whole_box, whole_ink), (pieces_box, pieces_ink) = spans
    assert all(abs(a - b) <= 2 for a, b in zip(whole_box, pieces_box, strict=True))
    assert abs(whole_ink - pieces_ink) <= whole_ink // 20


def test_the_match_length_is_written_whole_in_every_language(monkeypatch) -> None:
    """Below the cube column: the word (en, ru, fi) and the length, neither cut short (the
    column's own texts: a point's number 15 is written elsewhere)."""
    written: list[str] = []
    column: list[str] = []
    write = picture.Canvas.write

    def spy(self, xy, text, *rest) -> None:
        written.append(text)
        if xy[0] == picture._MARGIN + picture._CUBE_W // 2:
            column.append(text)
        write(self, xy, text, *rest)
    monkeypatch.setattr(picture.Canvas, "write", spy)
    for word in ("match to", "матч до", "ottelu"):
        column.clear()
        board_png(_scene(words=WORDS | {"match_to": word}, length=15))
        assert word in column and "15" in column
    assert not [text for text in written if text.endswith("…")]


def test_a_scene_pickles_to_an_equal_scene() -> None:
    import pickle

    scene = _scene(Position.from_id("4HPwATDgc/ABMA"), cube_owner=1, dice=None, clocks=None)
    back = pickle.loads(pickle.dumps(scene))
    assert back == scene
    assert type(back.position) is Position
    assert back.words == WORDS


def test_a_board_is_drawn_on_a_copy_of_the_empty_board() -> None:
    """Each board draws into its own copy of the empty board's pixels: the empty board
    every board starts from is the same after boards were drawn, and a point's ground
    copied from it is the empty board's."""
    empty = bytes(picture._empty_rows())
    board_png(_scene(Position(_side({1: 2, 6: 7, 13: 5}, bar=1), _side({2: 3, 24: 5}))))
    assert picture._empty_rows() == empty
    assert picture._empty_board().tobytes() == empty
