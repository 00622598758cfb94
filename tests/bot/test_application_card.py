"""What registration needs posted is written with a job held in its stead: a new
tournament's announcement (the Register button) and the card of an application that waits
for the organisers (Approve, Reject). Telegram out of reach when it is due, it is posted
once Telegram answers again, and it works."""

from __future__ import annotations

from pathlib import Path

from bot.sandbox.runner import Sandbox
from tests.bot.conftest import Outage


async def test_a_card_telegram_did_not_take_is_posted_when_it_answers_again(
        tmp_path: Path, telegram_down: Outage) -> None:
    output: list[str] = []
    sandbox = Sandbox(db_path=tmp_path / "db.sqlite3", language="en", emit=output.append)
    await sandbox.start()
    try:
        await sandbox.line("org@reg: /new shanghai Spring Darts approval=on")
        telegram_down.on = True
        await sandbox.line("alice@reg: /register")
        telegram_down.on = False
        posted = len(output)
        await sandbox.line("! advance 2m")
        assert any("Approve" in line for line in output[posted:]), output[posted:]
        await sandbox.line("org@reg: [✅ Approve]")
        alice = await sandbox.app.services.repos.entrants.get(1, sandbox.world.user("alice").id)
        assert alice.status == "approved"
    finally:
        await sandbox.close()


async def test_a_new_tournament_telegram_did_not_hear_of_is_announced_when_it_answers_again(
        tmp_path: Path, telegram_down: Outage) -> None:
    """/new written while Telegram was out of reach: the announcement with the Register
    button is posted once it answers, and a player registers with it."""
    output: list[str] = []
    sandbox = Sandbox(db_path=tmp_path / "db.sqlite3", language="en", emit=output.append)
    await sandbox.start()
    try:
        telegram_down.on = True
        await sandbox.line("org@reg: /new shanghai Spring Darts approval=off")
        telegram_down.on = False
        posted = len(output)
        await sandbox.line("! advance 2m")
        assert any("Spring Darts" in line for line in output[posted:]), output[posted:]
        await sandbox.line("alice@reg: [📝 Register]")
        alice = await sandbox.app.services.repos.entrants.get(1, sandbox.world.user("alice").id)
        assert alice.status == "approved"
    finally:
        await sandbox.close()
