"""A pause, a resume and a group the bot lost are written with a job held in the stead of
what they owe the players and organisers: a bot that stops right after the write says it
at its next start.

A ``/pause`` or ``/resume`` (``pause.SWITCHED_JOB``) is said in the group and redraws the
boards and private panels, waiting or playing (before, a resume written right before a stop
left the boards saying the match waits while its clocks ran on). A group the bot lost
(``pause.LOST_JOB``) tells the organisers of each tournament it paused in private."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiogram.methods import SendMessage

from bot.features import pause
from bot.features.pause import LOST_JOB, SWITCHED_JOB, _pause_lost, group_lost
from bot.sandbox.runner import Sandbox
from bot.scheduler import Scheduler
from tests.bot.conftest import Faults
from tests.bot.sandbox_run import (
    ProcessDied,
    died_in,
    opened,
    scenario_until,
    stopped_after,
    stops_before,
)

_RESUME = "org@g: /resume"
_PAUSED = "The match is paused (tea break)"


async def _board(sandbox: Sandbox) -> dict:
    match = await sandbox.app.services.repos.matches.get(1)
    return sandbox.world.find(sandbox.world.group("g").id, match.board_message_id).payload


async def test_a_resume_written_right_before_a_stop_is_said_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The group hears that play goes on and the backgammon board loses its pause line
    (it kept it, its clocks running, until the player lost on time)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until("backgammon_live_pause", _RESUME))
        assert _PAUSED in (await _board(sandbox))["caption"]
        errors, before = sandbox.errors, len(output)  # errors: a press on a button gone
        stopped = await stopped_after(sandbox, monkeypatch, output, SWITCHED_JOB, _RESUME)
        assert sandbox.errors == errors
        assert _PAUSED not in (await _board(sandbox))["caption"]
    assert not any("goes on" in line for line in output[before:stopped])
    assert [line for line in output[stopped:] if "goes on" in line] \
        == ["→ g: ▶️ “Evening” goes on (Org)."], output[stopped:]


async def test_a_pause_written_right_before_a_stop_is_said_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until("backgammon_live_pause", "org@g: /pause tea break"))
        before = len(output)
        stopped = await stopped_after(sandbox, monkeypatch, output, SWITCHED_JOB,
                                      "org@g: /pause tea break")
        assert sandbox.errors == 0
        assert _PAUSED in (await _board(sandbox))["caption"]
    assert not any("paused" in line for line in output[before:stopped])
    assert sum("is paused (Org): tea break" in line for line in output[stopped:]) == 1, \
        output[stopped:]


async def test_a_switch_not_standing_at_the_next_start_is_not_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pause whose job is left, then a resume: the next start says nothing of the pause
    (the tournament runs)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until("backgammon_live_pause", "org@g: /pause tea break"))
        with monkeypatch.context() as patch:
            patch.setattr(Scheduler, "stand_in", stops_before(SWITCHED_JOB))
            await sandbox.line("org@g: /pause tea break")
        await sandbox.line(_RESUME)
        stopped = len(output)
        await sandbox.line("! restart")
        await sandbox.app.services.scheduler.run_following()
        assert _PAUSED not in (await _board(sandbox))["caption"]
    assert not any("paused" in line for line in output[stopped:]), output[stopped:]


_LOST = "! remove bot@club"
_PAUSED_DM = "→ org@dm: ⚠️ I can no longer write to the group of “Club Cup”"


async def test_a_lost_groups_pause_written_right_before_a_stop_is_told_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The organiser is told in private after the restart (the update that said the group
    was lost, were it delivered again, finds itself handled: nobody was ever told)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until("bot_removed_and_back", _LOST))
        stopped = await stopped_after(sandbox, monkeypatch, output, LOST_JOB, _LOST)
        services = sandbox.app.services
        assert sandbox.errors == 0 and await services.repos.jobs.pending() == []
        assert (await services.repos.tournaments.get(1)).status == "paused"
    assert not any(line.startswith(_PAUSED_DM) for line in output[:stopped])
    assert sum(line.startswith(_PAUSED_DM) for line in output[stopped:]) == 1, output[stopped:]


async def test_a_lost_groups_retry_tells_only_whom_telegram_did_not_take(
        tmp_path: Path, faults: Faults) -> None:
    """The tournament's creator and an organiser who acted on it are told; one's private
    message meets Telegram out of reach, and the job's retry tells only that one."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines([*scenario_until("bot_removed_and_back", _LOST),
                                 "! admin boss@club", "boss@dm: /start", "boss@club: /pause",
                                 "boss@club: /resume"])
        org = sandbox.world.user("org").id
        faults.fail(5, lambda method: isinstance(method, SendMessage) and method.chat_id == org)
        await sandbox.run_lines([_LOST, "! advance 5m"])
        assert await sandbox.app.services.repos.jobs.pending() == []
    told = [line.split(":")[0] for line in output if "I can no longer write" in line]
    assert sorted(told) == ["→ boss@dm", "→ org@dm"], told


async def test_a_group_found_lost_twice_at_once_pauses_and_tells_once(tmp_path: Path) -> None:
    """Two updates that met the lost group at the same moment both read the tournament
    running; the second to take its lock finds it paused and neither pauses nor tells
    again."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until("bot_removed_and_back", _LOST))
        services = sandbox.app.services
        read_running = await services.repos.tournaments.get(1)
        await group_lost(services, sandbox.world.group("club").id)
        assert await _pause_lost(services, [read_running]) == []
        assert await services.repos.jobs.pending() == []
    assert sum(line.startswith(_PAUSED_DM) for line in output) == 1


async def test_every_tournament_of_a_lost_group_is_paused_in_one_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two running tournaments: a stop right after the first's pause was written left the
    second running for good (the update that said the group was lost, delivered again,
    found itself handled), its clocks running with nobody able to play. One write now:
    after the restart both are paused and both organisers' messages are said."""
    lost, switch, switched = "! remove bot@g", pause._switch, []

    async def die_at_the_second(*args, **kwargs):
        if switched:
            raise ProcessDied
        switched.append(True)
        return await switch(*args, **kwargs)

    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until("two_tournaments_pause_resume", lost))
        await died_in(sandbox, monkeypatch, output, lost, pause, "_switch", die_at_the_second)
        await sandbox.line("! replay")  # Telegram delivers the update again
        tournaments = sandbox.app.services.repos.tournaments
        assert [(await tournaments.get(number)).status for number in (1, 2)] == \
            ["paused", "paused"]
    assert sum(line.startswith("→ org@dm: ⚠️ I can no longer write") for line in output) == 2
