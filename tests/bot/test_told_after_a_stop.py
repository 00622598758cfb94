"""What an organiser's removal or cancellation owes the players is written with a job held
in its stead: a bot that stops right after the write tells them at its next start.

A removal (``roster.REMOVED_JOB``) tells the removed player in private, or in the group
naming them when it cannot write to them, and an application's card loses its Approve and
Reject; a cancellation (``cancel.CANCELLED_JOB``) tells everyone who entered or applied,
and its question says it was cancelled. A retry (Telegram out of reach) tells only whom it
did not reach, and names nobody in the group twice."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiogram.methods import SendMessage

from bot.features.cancel import CANCELLED_JOB
from bot.features.roster import REMOVED_JOB
from bot.scheduler import Scheduler
from tests.bot.conftest import Faults
from tests.bot.sandbox_run import opened, stops_before

_NIGHT = ["org@g: hi", "! add bot@g", "org@g: /new backgammon Night approval=on",
          "alice@dm: /start", "alice@g: /register", "bob@g: /register"]


async def _removed_before_a_stop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 line: str) -> tuple[list[str], list[str], object]:
    """The transcript, ``line`` stopped right after its write, then a restart: what was said
    before the restart, after it, and the removed player's card as it ends."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(_NIGHT)
        with monkeypatch.context() as patch:
            patch.setattr(Scheduler, "stand_in", stops_before(REMOVED_JOB))
            await sandbox.line(line)
        stopped = len(output)
        await sandbox.line("! restart")
        await sandbox.app.services.scheduler.run_following()  # as a live start does
        services, world = sandbox.app.services, sandbox.world
        handle = line.rsplit("@", 1)[1]
        entry = await services.repos.entrants.get(1, world.user(handle).id)
        card = world.find(world.group("g").id, entry.application_message_id)
        assert sandbox.errors == 0 and await services.repos.jobs.pending() == []
        assert entry.status == "removed"
    return output[:stopped], output[stopped:], card


async def test_a_removal_written_right_before_a_stop_is_told_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before, after, card = await _removed_before_a_stop(tmp_path, monkeypatch,
                                                       "org@g: /remove @alice")
    assert not any("removed" in line for line in before[-3:]), before[-3:]
    assert sum(line.startswith("→ alice@dm: An organiser removed you") for line in after) == 1
    assert card.payload["text"] == "Alice removed from “Night”."
    assert not card.payload.get("reply_markup")


async def test_a_player_the_bot_cannot_write_to_is_named_in_the_group_after_the_stop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, after, card = await _removed_before_a_stop(tmp_path, monkeypatch, "org@g: /remove @bob")
    assert "→ g: Bob (@bob) removed from “Night”." in after, after
    assert card.payload["text"] == "Bob (@bob) removed from “Night”."


async def test_a_cancellation_written_right_before_a_stop_is_told_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines([*_NIGHT, "org@g: [✅ Approve]", "org@g: /cancel"])
        with monkeypatch.context() as patch:
            patch.setattr(Scheduler, "stand_in", stops_before(CANCELLED_JOB))
            await sandbox.line("org@g: [❌ Cancel it]")
        stopped = len(output)
        await sandbox.line("! restart")
        await sandbox.app.services.scheduler.run_following()  # as a live start does
        tournament = await sandbox.app.services.repos.tournaments.get(1)
        assert sandbox.errors == 0 and await sandbox.app.services.repos.jobs.pending() == []
    after = output[stopped:]
    assert tournament.status == "cancelled"
    assert any(line.startswith("→ alice@dm: ❌ “Night” was cancelled") for line in after), after
    assert any(line.startswith("✎ g#") and line.endswith("“Night” is cancelled (Org).")
               for line in after), after


async def test_a_cancellations_retry_tells_only_whom_telegram_did_not_take(
        tmp_path: Path, faults: Faults) -> None:
    """One entrant's private message meets Telegram out of reach: the others are told once,
    and the job's retry tells only that one (it told everyone again)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines([*_NIGHT, "bob@dm: /start", "org@g: /cancel"])
        alice = sandbox.world.user("alice").id
        faults.fail(5, lambda method: isinstance(method, SendMessage) and method.chat_id == alice)
        await sandbox.run_lines(["org@g: [❌ Cancel it]", "! advance 5m"])
        assert await sandbox.app.services.repos.jobs.pending() == []
    told = [line.split(":")[0] for line in output if "was cancelled by the organisers" in line]
    assert sorted(told) == ["→ alice@dm", "→ bob@dm"], told


async def test_a_removals_retry_names_the_player_in_the_group_once(
        tmp_path: Path, faults: Faults) -> None:
    """An entrant's private message on their removal meets Telegram out of reach: the group
    is told, naming them, once; the job's retry tells them in private and says nothing more
    there (it said the removal again)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines([*_NIGHT, "org@g: [✅ Approve]", "org@g: [✅ Approve]"])
        faults.fail(5, lambda method: isinstance(method, SendMessage)
                    and "removed you" in method.text)
        await sandbox.run_lines(["org@g: /remove @alice", "! advance 5m"])
        assert await sandbox.app.services.repos.jobs.pending() == []
    assert sum(line.startswith("→ alice@dm: An organiser removed you") for line in output) == 1
    assert [line for line in output if line.startswith("→ g: ") and "removed from" in line] \
        == ["→ g: Alice (@alice) removed from “Night”."], output
