"""An organisers' decision the bot could not tell the applicant (they had not opened its
chat) is told once they open it, once, and the approval's card loses its "open the chat"
line (the transcript ``application_told_on_opening`` shows the whole story)."""

from __future__ import annotations

import asyncio

from tests.bot.sandbox_run import opened


async def test_two_starts_at_once_tell_the_approval_once(tmp_path, monkeypatch) -> None:
    """Each /start reads the decisions owed, then the other runs (as a live bot's awaits
    on Telegram let it): only the first to take the tournament's lock tells."""
    output: list[str] = []
    async with opened(tmp_path, seed=1, language="en", emit=output.append) as sandbox:
        await sandbox.run_lines(["org@grp: /new backgammon Night approval=on",
                                 "bob@grp: /register", "org@grp: [✅ Approve]"])
        entrants = sandbox.app.services.repos.entrants
        [entrant] = await entrants.list(1)
        assert entrant.unreached
        read = entrants.unreached_decisions

        async def read_then_yield(user_id: int):
            owed = await read(user_id)
            await asyncio.sleep(0.01)
            return owed
        monkeypatch.setattr(entrants, "unreached_decisions", read_then_yield)
        await asyncio.gather(sandbox.line("bob@dm: /start"), sandbox.line("bob@dm: /start"))
        [entrant] = await sandbox.app.services.repos.entrants.list(1)
        assert not entrant.unreached
        card = sandbox.world.find(sandbox.world.group("grp").id,
                                  entrant.application_message_id)
    assert sum("is approved" in line for line in output) == 1
    assert "open the chat" not in (card.payload.get("text") or "")
    assert "reply_markup" not in card.payload or not card.payload["reply_markup"]
    assert not any(line.startswith("!! error") for line in output)


async def test_a_decision_told_at_once_is_not_told_again_on_opening(tmp_path) -> None:
    output: list[str] = []
    async with opened(tmp_path, seed=1, language="en", emit=output.append) as sandbox:
        await sandbox.run_lines(["org@grp: /new backgammon Night approval=on",
                                 "bob@dm: /start", "bob@grp: /register",
                                 "org@grp: [❌ Reject]", "bob@dm: /start"])
        [entrant] = await sandbox.app.services.repos.entrants.list(1)
        assert entrant.status == "rejected" and not entrant.unreached
    assert sum("was rejected" in line for line in output) == 1


async def test_a_decision_whose_message_failed_on_opening_is_told_at_the_next(
        tmp_path, faults) -> None:
    """Telegram out of reach for the approval told on opening the chat (or the bot stopped
    right before it): the next /start tells it (it was noted as told before it was sent,
    so it was never told)."""
    output: list[str] = []
    async with opened(tmp_path, seed=1, language="en", emit=output.append) as sandbox:
        await sandbox.run_lines(["org@grp: /new backgammon Night approval=on",
                                 "bob@grp: /register", "org@grp: [✅ Approve]"])
        faults.fail(5, lambda method: "is approved" in (getattr(method, "text", "") or ""))
        await sandbox.line("bob@dm: /start")
        assert not any("is approved" in line for line in output)
        await sandbox.line("bob@dm: /start")
        [entrant] = await sandbox.app.services.repos.entrants.list(1)
    assert sum("is approved" in line for line in output) == 1 and not entrant.unreached
