"""What players' claims call for (a first report with the opponent's buttons, a dispute for
the organisers) is said by a job stored with the claims: Telegram out of reach when it is
due, it is said once Telegram answers again, and the opponent can still press Confirm."""

from __future__ import annotations

from pathlib import Path

from aiogram.methods import EditMessageReplyMarkup

from tests.bot.conftest import Outage
from tests.bot.sandbox_run import opened

SETUP = ("org@gp: /new armchair Autumn Cards format=round_robin play=report approval=off",
         "alice@gp: /register", "bob@gp: /register", "org@gp: /begin")


async def test_a_report_telegram_did_not_take_is_said_when_it_answers_again(
        tmp_path: Path, telegram_down: Outage) -> None:
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(SETUP)
        said = await telegram_down.cut_off(sandbox, output, "alice@gp: /result win")
        assert any("Confirm" in line for line in said)
        await sandbox.line("bob@gp: [✅ Confirm]")
        match = (await sandbox.app.services.repos.matches.for_tournament(1))[0]
        alice = sandbox.world.user("alice").id
    assert match.status == "finished" and match.winner == alice


async def test_a_dispute_whose_report_keeps_its_buttons_is_still_handed_over(
        tmp_path: Path, faults) -> None:
    """Telegram out of reach for taking the report's buttons off (the dispute written): the
    organisers are told of the dispute right after the update all the same."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines([*SETUP, "alice@gp: /result win"])
        faults.fail(5, lambda method: isinstance(method, EditMessageReplyMarkup))
        told = len(output)
        await sandbox.line("bob@gp: [❌ Dispute]")
    assert any("disagree" in line for line in output[told:])
