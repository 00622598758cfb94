"""A backgammon match card's late-start grace is set before the card is posted: a stop
between the two (here the grace's write failing once) leaves a match without its card,
which the tournament's retried step launches again, never a card without its grace (the
crash test found one: killed after the card went out, the retry skipped the posted card
and no grace ever ran)."""

from __future__ import annotations

from pathlib import Path

from aiogram.exceptions import TelegramNetworkError

from bot.features.backgammon.play import GRACE_JOB
from tests.bot.sandbox_run import opened

SETUP = ["org@g: /new backgammon Night play=board length=3", "alice@g: /register",
         "bob@g: /register"]


async def test_a_stop_before_the_card_leaves_one_grace_and_one_card(tmp_path: Path) -> None:
    async with opened(tmp_path) as box:
        await box.run_lines(SETUP)
        scheduler = box.app.services.scheduler
        setting = {"add": scheduler.add, "replace": scheduler.replace}
        failed = []

        def once(name):
            async def call(kind, *args, **kwargs):
                if kind == GRACE_JOB and not failed:
                    failed.append(name)
                    raise TelegramNetworkError(method=None, message="the process stopped")
                return await setting[name](kind, *args, **kwargs)
            return call

        scheduler.add, scheduler.replace = once("add"), once("replace")
        await box.run_lines(["org@g: /begin", "! advance 2m"])  # the step retried a minute on
        graces = await box.app.services.db.fetchall(
            "SELECT payload FROM jobs WHERE kind = ? AND status = 'pending'", (GRACE_JOB,))
        [match] = await box.app.services.repos.matches.for_tournament(1)
    assert failed
    assert len(graces) == 1
    assert match.board_message_id is not None
