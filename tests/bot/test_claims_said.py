"""What players' claims call for (a first report with the opponent's buttons, a dispute for
the organisers) is said by a job stored with the claims: Telegram out of reach when it is
due, it is said once Telegram answers again, and the opponent can still press Confirm."""

from __future__ import annotations

from pathlib import Path

from aiogram.exceptions import TelegramNetworkError

from bot.sandbox.runner import Sandbox
from bot.sandbox.session import SandboxSession

SETUP = ("org@gp: /new armchair Autumn Cards format=round_robin play=report approval=off",
         "alice@gp: /register", "bob@gp: /register", "org@gp: /begin")


async def test_a_report_telegram_did_not_take_is_said_when_it_answers_again(
        tmp_path: Path, monkeypatch) -> None:
    output: list[str] = []
    sandbox = Sandbox(db_path=tmp_path / "db.sqlite3", language="en", emit=output.append)
    down: list[bool] = []
    send = SandboxSession._send_message

    async def out_of_reach(session, method):
        if down:
            raise TelegramNetworkError(method=method, message="connection lost")
        return await send(session, method)

    monkeypatch.setattr(SandboxSession, "_send_message", out_of_reach)
    await sandbox.start()
    try:
        for line in SETUP:
            await sandbox.line(line)
        down.append(True)
        await sandbox.line("alice@gp: /result win")
        down.clear()
        said = len(output)
        await sandbox.line("! advance 2m")
        assert any("Confirm" in line for line in output[said:])
        await sandbox.line("bob@gp: [✅ Confirm]")
        match = (await sandbox.app.services.repos.matches.for_tournament(1))[0]
        assert match.status == "finished" and match.winner == sandbox.world.user("alice").id
    finally:
        await sandbox.close()
