"""A live board's edit that would wait for a busy group's window waits in the board queue
(bot.board_queue) while its match goes on: the actions meanwhile are drawn together, in one
edit of the newest drawing, once the window has room. Run in the sandbox with the queue on
and a clock whose waits end when the test opens the group's window."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

from aiogram.methods import EditMessageMedia, EditMessageText, TelegramMethod

from bench import busy_group
from bot.board_queue import BoardQueue
from bot.method_fields import field
from bot.play.perform import BOARD_OWED
from bot.sandbox.runner import Sandbox
from bot.sending import rate_limiter
from tests.bot.sandbox_run import opened

SETUP = """\
org@pub: /new shanghai Friday Night legs=1
alice@pub: /register
bob@pub: /register
org@pub: /begin
bob@pub: [🪙 Coin]
"""
VISITS = ["alice@pub: T20 T20 T20", "bob@pub: S19 S19 S19", "alice@pub: T18 T18 T18"]
BACKGAMMON = """\
alice@dm: /start
bob@dm: /start
alice@pub: /challenge @bob backgammon length=3
bob@pub: [✅ Accept]
"""
"""A backgammon match played in the bot, its board a photo: Bob to play 5-2 (seed 1)."""


class _Gate:
    """The sandbox clock's waits, each ending only once the test opens the gate (the
    group's minute over); time then moves on as the virtual clock's does."""

    def __init__(self, box: Sandbox) -> None:
        self.sleep, self.open = box.clock.sleep, asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        await self.open.wait()
        await self.sleep(seconds)


@asynccontextmanager
async def _busy_group(tmp_path: Path, setup: str = SETUP
                      ) -> AsyncIterator[tuple[Sandbox, list, _Gate]]:
    """A match under way in group "pub" (by default darts), whose window is full for the
    next half minute, with the queue on; the edits of its board are recorded as they
    leave."""
    edits: list[TelegramMethod] = []

    async def recorded(make_request, bot, method):
        if isinstance(method, EditMessageText | EditMessageMedia) \
                and field(method, "chat_id") == group:
            edits.append(method)
        return await make_request(bot, method)

    output: list[str] = []
    async with opened(tmp_path, seed=1, emit=output.append) as box:
        box.output = output
        await box.run_lines(setup.splitlines())
        group = box.world.group("pub").id
        limiter = rate_limiter(box.app.bot.session)
        limiter.group_windows[group].closed_until = \
            (box.clock.now() + timedelta(seconds=30)).timestamp()
        outbox = box.app.services.outbox
        outbox.later = BoardQueue(limiter)
        gate = _Gate(box)
        box.clock.sleep = gate
        box.app.bot.session.middleware(recorded)
        yield box, edits, gate


async def _taken(box: Sandbox, line: str) -> None:
    """Run ``line``: its update is handled while the group's window stays full (a board
    that waited in place for it would fail the test)."""
    await asyncio.wait_for(box.run_lines([line]), 5)


async def _answers(box: Sandbox, line: str) -> list[str]:
    """What the bot says to ``line``, taken as :func:`_taken` takes it."""
    start = len(box.output)
    await _taken(box, line)
    return box.output[start:]


async def _owed(box: Sandbox) -> list[tuple]:
    return [tuple(row) for row in await box.app.services.db.fetchall(
        f"SELECT kind FROM jobs WHERE kind = '{BOARD_OWED}' AND status = 'pending'")]


async def test_actions_while_the_group_is_busy_go_on_and_their_board_is_drawn_once(
        tmp_path: Path) -> None:
    async with _busy_group(tmp_path) as (box, edits, gate):
        for line in VISITS:  # each is taken at once, not after the board's edit
            await _taken(box, line)
        assert edits == []
        gate.open.set()
        await box.app.services.outbox.later.flush(60)
        log = await box.app.services.db.fetchall(
            "SELECT COUNT(*) FROM match_actions WHERE payload LIKE '%end_visit%'")
    assert log[0][0] == 3
    assert len(edits) == 1 and "T18 · T18 · T18" in edits[0].text


async def test_a_queued_board_that_cannot_be_drawn_is_owed(tmp_path: Path, faults) -> None:
    async with _busy_group(tmp_path) as (box, edits, gate):
        await _taken(box, VISITS[0])
        faults.fail(99, lambda method: isinstance(method, EditMessageText))
        gate.open.set()
        await box.app.services.outbox.later.flush(60)
        assert await _owed(box) == [(BOARD_OWED,)]


async def test_a_board_still_queued_when_the_bot_stops_is_owed(tmp_path: Path) -> None:
    async with _busy_group(tmp_path) as (box, edits, gate):
        await _taken(box, VISITS[0])
        await box.app.services.outbox.later.flush(0)  # the window never opened
        assert edits == [] and await _owed(box) == [(BOARD_OWED,)]


async def test_a_board_given_its_buttons_elsewhere_meanwhile_drops_its_queued_drawing(
        tmp_path: Path) -> None:
    async with _busy_group(tmp_path) as (box, edits, gate):
        await _taken(box, VISITS[0])
        match = (await box.app.services.repos.matches.for_tournament(1))[0]
        gate.open.set()  # the queue's drawer resumes after the buttons are taken off
        await box.app.services.outbox.drop_buttons(box.world.group("pub").id,
                                                   match.board_message_id)
        await box.app.services.outbox.later.flush(60)
    assert [method for method in edits if method.text] == []


async def test_without_a_wait_the_board_is_drawn_in_place(tmp_path: Path) -> None:
    async with _busy_group(tmp_path) as (box, edits, gate):
        box.app.services.outbox.later.limiter.group_windows[
            box.world.group("pub").id].closed_until = 0
        await _taken(box, VISITS[0])
        assert len(edits) == 1


async def test_a_board_back_to_what_it_shows_while_a_drawing_waits_is_drawn_as_it_is_now(
        tmp_path: Path) -> None:
    """A dart entered, then taken back: the board shows what it showed before the dart, and
    the dart's drawing still waiting must not be drawn over it."""
    async with _busy_group(tmp_path) as (box, edits, gate):
        await _taken(box, "alice@pub: T20")
        await _taken(box, "alice@pub: undo")
        gate.open.set()
        await box.app.services.outbox.later.flush(60)
    assert edits and "▶️ Bob, visit 1 (#1 of the leg): — · — · —" in edits[-1].text


async def test_a_press_on_a_board_whose_drawing_waits_is_told_it_is_about_to_change(
        tmp_path: Path) -> None:
    """A keypad press on the board the chat still shows, while its new drawing waits for the
    window: refused, as any press on an old board, saying the board is about to change (not
    that it has: the chat does not show it yet)."""
    async with _busy_group(tmp_path) as (box, edits, gate):
        await _taken(box, "alice@pub: T20")
        assert await _answers(box, "bob@pub: [S20]") == [
            "⚑ bob: The scoreboard is about to be redrawn (the group is busy): press again "
            "once it has changed. Nothing changed."]
        gate.open.set()
        await box.app.services.outbox.later.flush(60)


async def test_a_backgammon_board_waits_as_a_text_board_does(tmp_path: Path) -> None:
    """The backgammon board (a photo, edited with editMessageMedia): Bob's move and
    Alice's roll taken at once, drawn in one edit of the newest board; a press on the
    board the chat still shows is told it is about to change."""
    async with _busy_group(tmp_path, BACKGAMMON) as (box, edits, gate):
        await _taken(box, "bob@pub: 13/6")
        await _taken(box, "alice@pub: /roll")
        assert await _answers(box, "bob@pub: [13/8 6/4]") == [
            "⚑ bob: The board is about to be redrawn (the group is busy): press again once "
            "it has changed. Nothing changed."]
        assert edits == []
        gate.open.set()
        await box.app.services.outbox.later.flush(60)
    assert len(edits) == 1
    caption = edits[0].media.caption
    assert "↪ Bob 5-2: 13/6" in caption and "Alice to play" in caption


async def test_the_busy_group_benchmark_takes_every_visit_at_once_with_the_queue() -> None:
    """bench/busy_group.py, small: with the queue the visits are all taken before any wait,
    and their boards drawn in fewer edits than visits; without it each waits for its edit."""
    without = await busy_group.run(matches=2, visits=12, queue=False)
    with_queue = await busy_group.run(matches=2, visits=12, queue=True)
    assert without.visits == with_queue.visits == 24
    assert without.taken > 0 and with_queue.taken == 0
    assert with_queue.edits < without.edits
