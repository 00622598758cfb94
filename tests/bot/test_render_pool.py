"""The picture renderer: worker processes and a thread draw the same bytes; the workers
start with the first picture, stop with close(), and a dead worker costs no picture."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
from typing import TYPE_CHECKING

import pytest

from bot.render import bracket_png, standings_png
from bot.render.backgammon import BoardScene, board_png
from bot.render.pool import _SIZE, Renderer, _Worker, _WorkerLost, draw
from games.backgammon.position import Position

if TYPE_CHECKING:
    from PIL import Image

HEADER = ["#", "Игрок", "Очки"]
ROWS = [["1", "Алиса Ёж", "9"], ["2", "Bob", "6"]]
ROUNDS = [("Полуфинал", [("A", "B", "A", ("2", "1")), ("C", "D", None)]),
          ("Финал", [("A", "?", None)])]
SCENE = BoardScene(Position.start(), ("Анна", "Борис"), 0, (3, 5), 2, 0, True, (1, 2), 5,
                   ("5:00", "4:12"), {"pips": "пипсы"})
CALLS = [(standings_png, ("Таблица", HEADER, ROWS, 1, ["▌ выходят"])),
         (bracket_png, ("Кубок", ROUNDS, None)),
         (board_png, (SCENE,))]


def _dies_in_a_worker() -> bytes:
    """Ends a worker process; in this process (the thread fallback) draws a table."""
    if multiprocessing.parent_process() is not None:
        os._exit(3)
    return standings_png(*CALLS[0][1])


async def test_processes_and_a_thread_draw_the_same_bytes() -> None:
    direct = draw(CALLS)
    assert len(direct) == 3 and all(png.startswith(b"\x89PNG") for png in direct)
    threaded = await Renderer(0).draw(CALLS)
    pooled = Renderer(1)
    try:
        assert not pooled.running  # nothing started before the first picture
        assert not (why := _unlike(threaded, direct)), why
        assert not (why := _unlike(await pooled.draw(CALLS), direct)), why
        assert pooled.running
        assert await pooled.picture(board_png, SCENE) == direct[2]
    finally:
        pooled.close()
    assert not pooled.running


async def test_a_drawing_error_comes_back_as_raised() -> None:
    renderer = Renderer(1)
    try:
        with pytest.raises(ValueError):
            await renderer.draw([(int, ("not a number",))])
    finally:
        renderer.close()


async def test_a_dead_worker_is_replaced_and_the_picture_still_drawn(caplog) -> None:
    renderer = Renderer(1)
    try:
        assert await renderer.draw([(_dies_in_a_worker, ())]) == draw(CALLS[:1])
        assert "worker died" in caplog.text
        assert not renderer.running
        assert await renderer.draw(CALLS[:1]) == draw(CALLS[:1])
        assert renderer.running
    finally:
        renderer.close()


def _slow_table(seconds: float) -> bytes:
    import time

    time.sleep(seconds)
    return standings_png(*CALLS[0][1])


async def test_pictures_at_once_share_the_workers_and_never_start_more() -> None:
    for processes in (1, 2):
        renderer = Renderer(processes)
        try:
            drawn = await asyncio.gather(*(renderer.picture(_slow_table, 0.05)
                                           for _ in range(4)))
            assert drawn == [draw(CALLS[:1])[0]] * 4
            assert len(renderer._workers) == processes
        finally:
            renderer.close()


async def test_a_picture_given_up_midway_leaves_the_next_one_its_own_answer() -> None:
    renderer = Renderer(1)
    try:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(renderer.picture(_slow_table, 1.0), 0.3)
        assert await renderer.picture(board_png, SCENE) == draw(CALLS[2:])[0]
        assert renderer.running  # the worker answered both, in order: still in step
    finally:
        renderer.close()


class _Unpicklable(ValueError):
    def __reduce__(self):
        raise TypeError("not picklable")


def _fails_oddly() -> bytes:
    raise _Unpicklable("bad size")


async def test_an_error_that_does_not_pickle_comes_back_by_its_text() -> None:
    renderer = Renderer(1)
    try:
        with pytest.raises(RuntimeError, match="_Unpicklable: bad size"):
            await renderer.draw([(_fails_oddly, ())])
        assert await renderer.picture(board_png, SCENE) == draw(CALLS[2:])[0]
    finally:
        renderer.close()


def _unlike(drawn: list[bytes], here: list[bytes]) -> str:
    """How two lists of PNGs differ ("" when they do not): for each picture that differs,
    its first differing byte, and its decoded sizes, palettes and pixels (the first that
    differs). Twice in loaded full runs a worker's picture was found unlike this
    process's (once a board at one byte); this says how, the next time."""
    from io import BytesIO

    from PIL import Image

    told = [] if len(drawn) == len(here) else [f"{len(drawn)} pictures against {len(here)}"]
    for index, (a, b) in enumerate(zip(drawn, here, strict=False)):
        if a == b:
            continue
        at = next(n for n in range(min(len(a), len(b)) + 1) if a[n:n + 1] != b[n:n + 1])
        first, second = (Image.open(BytesIO(png)) for png in (a, b))
        told.append(f"picture {index}: {len(a)} against {len(b)} bytes, first unlike at {at}; "
                    f"sizes {first.size} and {second.size}; palettes alike: "
                    f"{first.getpalette() == second.getpalette()}; {_pixels_unlike(first, second)}")
    return "; ".join(told)


def _pixels_unlike(first: Image.Image, second: Image.Image) -> str:
    if first.size != second.size:
        return "pixels not compared"
    unlike = [n for n, (x, y) in enumerate(zip(first.getdata(), second.getdata(), strict=True))
              if x != y]
    where = f" (the first at {divmod(unlike[0], first.width)[::-1]})" if unlike else ""
    return f"pixels unlike: {len(unlike)}{where}"


async def test_a_picture_begun_is_with_the_worker_before_begin_returns(caplog) -> None:
    """``begin`` writes the calls to a running worker at once (the drawing goes on while the
    loop is busy); with no worker yet it starts as ``picture`` would; a dead worker's
    picture is drawn in a thread; a begun picture cancelled leaves the next its answer."""
    renderer = Renderer(1)
    try:
        first = renderer.begin(board_png, SCENE)  # no worker yet: started on the loop
        here = draw(CALLS[2:])[0]
        assert not renderer.running
        assert not (why := _unlike([await first], [here])), why
        [worker] = renderer._workers
        begun = renderer.begin(board_png, SCENE)
        assert len(worker.waiting) == 1  # written before begin returned
        assert not (why := _unlike([await begun], [here])), why
        slow = renderer.begin(_slow_table, 0.3)
        slow.cancel()
        assert await renderer.picture(board_png, SCENE) == draw(CALLS[2:])[0]
        dying = renderer.begin(_dies_in_a_worker)
        assert await dying == draw(CALLS[:1])[0] and "worker died" in caplog.text
    finally:
        renderer.close()


async def test_answers_are_read_however_the_stream_splits_them() -> None:
    """Two answers arriving in odd pieces (a header split, two in one read) each reach their
    own request, in order; a request given up meanwhile leaves the next its answer."""
    worker = _Worker(None)  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    first, given_up, second = (loop.create_future() for _ in range(3))
    worker.waiting.extend([first, given_up, second])
    given_up.cancel()
    stream = b"".join(_SIZE.pack(len(answer)) + answer
                      for answer in (pickle.dumps((True, [b"one"])),
                                     pickle.dumps((True, [b"dropped"])),
                                     pickle.dumps((False, ValueError("bad size")))))
    for start in range(0, len(stream), 5):
        worker.data_received(stream[start:start + 5])
    assert first.result() == (True, [b"one"])
    drawn, error = second.result()
    assert not drawn and isinstance(error, ValueError)
    assert not worker.waiting and not worker._received
    late = loop.create_future()
    worker.waiting.append(late)
    worker.connection_lost(None)
    with pytest.raises(_WorkerLost):
        late.result()
