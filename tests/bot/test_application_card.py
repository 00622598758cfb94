"""What registration needs posted is written with a job held in its stead: a new
tournament's announcement (the Register button) and the card of an application that waits
for the organisers (Approve, Reject). Telegram out of reach when it is due, it is posted
once Telegram answers again, and it works."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiogram.methods import SendMessage

from tests.bot.conftest import Faults, Outage
from tests.bot.sandbox_run import opened


@pytest.mark.parametrize(("before", "cut_off", "posted", "press"), [
    ((), "org@reg: /new shanghai Spring Darts approval=off", "Spring Darts",
     "alice@reg: [📝 Register]"),
    (("org@reg: /new shanghai Spring Darts approval=on",), "alice@reg: /register",
     "Approve", "org@reg: [✅ Approve]"),
], ids=["announcement", "application card"])
async def test_what_telegram_did_not_take_is_posted_when_it_answers_again(
        tmp_path: Path, telegram_down: Outage, before: tuple[str, ...], cut_off: str,
        posted: str, press: str) -> None:
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(before)
        said = await telegram_down.cut_off(sandbox, output, cut_off)
        assert any(posted in line for line in said), said
        await sandbox.line(press)
        alice = await sandbox.app.services.repos.entrants.get(1, sandbox.world.user("alice").id)
    assert alice.status == "approved"


async def test_a_decision_whose_dm_fails_is_still_said_on_the_card(
        tmp_path: Path, faults: Faults) -> None:
    """Telegram out of reach for the applicant's DM: the card says the decision and loses
    its Approve and Reject buttons all the same (it kept them, as if undecided)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["org@reg: /new shanghai Spring Darts approval=on",
                                 "alice@dm: /start", "alice@reg: /register"])
        faults.fail(5, lambda method: isinstance(method, SendMessage) and method.chat_id > 0)
        decided = len(output)
        await sandbox.line("org@reg: [✅ Approve]")
    assert any(line.startswith("✎ reg#") and "approved by" in line
               for line in output[decided:]), output[decided:]
