"""Bot API calls to different chats that one action causes (the group's board, each player's
panel) wait for Telegram together: with a network delay on every call, an armchair card,
a new HP round, an HP choice and a darts keypad press cost one round trip, not one per chat; a pressed button is
answered in that same round trip. A backgammon turn's clocks are set while its board is drawn."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.sandbox.runner import Sandbox
from bot.sending import at_once, settled
from tests.bot.sandbox_run import opened
from tests.bot.test_armchair import FIRST_BALL
from tests.bot.test_hidden_input import SETUP as HP_SEMI_FINALS

NETWORK_SECONDS = 0.02
PRESS_ANSWERED = None  # answerCallbackQuery names no chat


class Network:
    """The sandbox's Telegram behind a network: every call waits ``NETWORK_SECONDS``; the
    chats of the calls in flight at the same moment are noted."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.in_flight: list[int | str | None] = []
        self.together: list[set[int | str | None]] = []
        session = sandbox.app.bot.session
        self._answer = session.make_request
        session.make_request = self._call

    async def _call(self, bot, method, timeout=None):
        self.in_flight.append(getattr(method, "chat_id", None))
        self.together.append(set(self.in_flight))
        try:
            await asyncio.sleep(NETWORK_SECONDS)
            return await self._answer(bot, method, timeout)
        finally:
            self.in_flight.remove(getattr(method, "chat_id", None))

    def most_at_once(self) -> set[int | str | None]:
        return max(self.together, key=len)


async def test_a_played_card_redraws_the_score_card_and_both_hands_at_once(tmp_path: Path
                                                                           ) -> None:
    async with opened(tmp_path, seed=5) as sandbox:
        await sandbox.run_lines(FIRST_BALL.splitlines())
        network = Network(sandbox)
        await sandbox.line("alice@dm: [GLOVES 1]")
        world = sandbox.world
    assert network.most_at_once() == {world.group("g").id, world.user("alice").id,
                                      world.user("bob").id, PRESS_ANSWERED}


async def test_a_new_hp_round_posts_its_message_and_both_panels_at_once(tmp_path: Path
                                                                        ) -> None:
    async with opened(tmp_path, seed=11, language="ru") as sandbox:
        await sandbox.run_lines(HP_SEMI_FINALS.splitlines() + [
            "bob@dm: [⚔️ Атака]", "org@dm: /enter 8 @carol защита по телефону",
            "bob@cup: 🎲 4"])
        network = Network(sandbox)
        await sandbox.line("carol@cup: 🎲 3")  # round 1 of match 8 resolved: round 2 asked
        world = sandbox.world
    assert network.most_at_once() == {world.group("cup").id, world.user("bob").id,
                                      world.user("carol").id}


async def test_an_hp_choice_edits_the_round_message_and_the_choosers_panel_at_once(
        tmp_path: Path) -> None:
    async with opened(tmp_path, seed=11, language="ru") as sandbox:
        await sandbox.run_lines(HP_SEMI_FINALS.splitlines())
        network = Network(sandbox)
        await sandbox.line("bob@dm: [⚔️ Атака]")
        world = sandbox.world
    assert network.most_at_once() == {world.group("cup").id, world.user("bob").id,
                                      PRESS_ANSWERED}


async def test_a_keypad_press_edits_the_board_and_is_answered_at_once(tmp_path: Path) -> None:
    async with opened(tmp_path, language="ru") as sandbox:
        await sandbox.run_lines(["org@grp: /new shanghai Кубок legs=1", "bob@grp: /register",
                                 "alice@grp: /register", "org@grp: /begin",
                                 "org@grp: [🎯 Булл-офф: Alice]"])
        network = Network(sandbox)
        await sandbox.line("alice@grp: [T20]")
        group = sandbox.world.group("grp").id
    assert network.most_at_once() == {group, PRESS_ANSWERED}


async def test_at_once_runs_every_conversation_to_its_end_then_raises_the_first_failure(
        ) -> None:
    finished: list[str] = []

    async def conversation(name: str, fails: bool) -> str:
        await asyncio.sleep(0)
        if fails:
            raise RuntimeError(name)
        finished.append(name)
        return name

    assert await at_once(conversation("a", False), conversation("b", False)) == ["a", "b"]
    with pytest.raises(RuntimeError, match="first"):
        await at_once(conversation("first", True), conversation("c", False),
                      conversation("second", True))
    assert finished == ["a", "b", "c"]
    with pytest.raises(RuntimeError, match="alone"):
        await at_once(conversation("alone", True))
    [failure] = await settled(conversation("alone", True))
    assert isinstance(failure, RuntimeError)
    assert await settled(conversation("d", False)) == ["d"]


async def test_the_first_conversation_starts_first_and_a_cancel_reaches_the_others() -> None:
    started: list[str] = []
    release = asyncio.Event()

    async def waiting(name: str) -> str:
        started.append(name)
        await release.wait()
        return name

    task = asyncio.ensure_future(settled(waiting("first"), waiting("second")))
    await asyncio.sleep(0.01)
    assert started == ["first", "second"]
    [second] = [t for t in asyncio.all_tasks() if "waiting" in repr(t.get_coro())]
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.sleep(0)
    assert second.cancelled()


async def test_a_backgammon_turns_clocks_wait_for_no_board(tmp_path: Path) -> None:
    """The picture worker's time is not added to the clocks' write: the turn's clocks are
    written with the roll itself, in its transaction, before the board is drawn; nothing
    writes them once the board is there."""
    async with opened(tmp_path, seed=3) as sandbox:
        await sandbox.run_lines(["alice@grp: /practice backgammon"])
        services = sandbox.app.services
        renderer, scheduler = services.renderer, services.scheduler
        drawing, seen = [], []
        draw, replace = renderer.draw, scheduler.replace_for_match

        async def slow_draw(calls):
            drawing.append(True)
            try:
                await asyncio.sleep(NETWORK_SECONDS)
                return await draw(calls)
            finally:
                drawing.pop()

        async def noted_replace(*args, **kwargs):
            seen.append(bool(drawing))
            return await replace(*args, **kwargs)

        renderer.draw, scheduler.replace_for_match = slow_draw, noted_replace
        await sandbox.line("alice@grp: /roll")
        clocks = await services.db.fetchall(
            "SELECT kind FROM jobs WHERE status = 'pending' AND kind LIKE 'bg_live_%'")
    assert seen == []
    assert clocks  # set, with the roll (or the bot's move after it)
