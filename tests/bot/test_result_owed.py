"""A process that stops after the action that ends a match's play, before the match's result
went into the tournament, leaves that result owed (a job stored with the action): the next
start records it, and the tournament ends exactly as an uninterrupted run ends it."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import SendMessage

import bot.features.darts.play
import bot.play.perform
from bot.match_service import RESULT_OWED
from bot.sandbox.runner import Sandbox
from bot.scheduler import Scheduler
from storage.repositories.tournaments import LIVE
from tests.bot.sandbox_run import opened, scenario_until, timeless
from tests.bot.test_restart_determinism import exports, no_rate_limit, run_and_export  # noqa: F401
from tests.bot.test_scenarios import SCENARIOS, options_of

ONE_PER_GAME = ("cup_full_four", "darts_double_elim_next_matches_with_result",
                "armchair_single_elim_result_with_next_matches",
                "backgammon_live_record_with_next_matches",
                "backgammon_board_double_elim_result_with_next_matches")


async def _owed_jobs(sandbox: Sandbox, match_id: int) -> list:
    return [job for job in await sandbox.app.services.repos.jobs.pending()
            if job.kind == RESULT_OWED and job.payload["match_id"] == match_id]


@pytest.mark.usefixtures("no_rate_limit")
@pytest.mark.parametrize("name", ONE_PER_GAME)
async def test_a_result_owed_at_a_stop_is_recorded_at_the_next_start(
        name: str, tmp_path: Path, monkeypatch) -> None:
    text = (SCENARIOS / f"{name}.txt").read_text(encoding="utf-8")
    _, expected = await run_and_export(text, text.splitlines(), tmp_path / "whole.sqlite3")
    stopped: list[int] = []
    stand_in = Scheduler.stand_in

    async def stops_before_the_first_result(scheduler, job, work) -> None:
        if stopped or job.kind != RESULT_OWED:
            await stand_in(scheduler, job, work)
        else:  # the process stops here: nothing after the action's write
            work.close()
            stopped.append(job.payload["match_id"])

    monkeypatch.setattr(Scheduler, "stand_in", stops_before_the_first_result)
    options, restarted = options_of(text), False
    async with opened(tmp_path, seed=int(options.get("seed", 0)),
                      language=options.get("lang", "ru")) as sandbox:
        for line in text.splitlines():
            await sandbox.line(line)
            if stopped and not restarted:
                match = await sandbox.app.services.repos.matches.get(stopped[0])
                assert match.status in LIVE and len(await _owed_jobs(sandbox, match.id)) == 1
                await sandbox.line("! restart")
                await sandbox.app.services.scheduler.run_following()  # as a live start does
                match = await sandbox.app.services.repos.matches.get(stopped[0])
                assert match.status == "finished" and not await _owed_jobs(sandbox, match.id)
                restarted = True
        assert stopped, "no match of the transcript ended in play"
        assert await exports(sandbox) == expected


async def test_a_result_recorded_owes_nothing(tmp_path: Path) -> None:
    """The job that keeps a result owed is done once the result went in: a later start
    finds nothing owed."""
    text = (SCENARIOS / "cup_full_four.txt").read_text(encoding="utf-8")
    await run_and_export(text, text.splitlines(), tmp_path / "whole.sqlite3")
    sandbox = Sandbox(db_path=tmp_path / "whole.sqlite3", emit=lambda line: None)
    await sandbox.start()
    try:
        jobs = await sandbox.app.services.repos.jobs.pending()
        assert [job for job in jobs if job.kind == RESULT_OWED] == []
    finally:
        await sandbox.close()


@pytest.mark.usefixtures("no_rate_limit")
async def test_a_finish_that_fails_leaves_its_result_owed_and_run_again(
        tmp_path: Path, monkeypatch) -> None:
    """Telegram out of reach while the last leg's result is said: the match's result is
    still recorded, by the owed job right after the update, and the tournament ends as an
    uninterrupted run ends it."""
    text = (SCENARIOS / "darts_double_elim_next_matches_with_result.txt").read_text(
        encoding="utf-8")
    _, expected = await run_and_export(text, text.splitlines(), tmp_path / "whole.sqlite3")
    failed: list[int] = []
    record = bot.features.darts.play.record_played

    async def out_of_reach_once(play, *args, **kwargs) -> None:
        if not failed:
            failed.append(play.match.id)
            raise TelegramNetworkError(method=None, message="connection lost")
        await record(play, *args, **kwargs)

    monkeypatch.setattr(bot.features.darts.play, "record_played", out_of_reach_once)
    _, stopped = await run_and_export(text, text.splitlines(), tmp_path / "failed.sqlite3")
    assert failed and stopped == expected


@pytest.mark.usefixtures("no_rate_limit")
async def test_an_ending_action_whose_announcement_fails_still_puts_its_result_in(
        tmp_path: Path, monkeypatch) -> None:
    """Telegram out of reach for what the last roll says (the round that ends a Cup match):
    the owed result is put in right after the update, not left for the next start, and the
    tournament ends as an uninterrupted run ends it."""
    text = (SCENARIOS / "cup_full_four.txt").read_text(encoding="utf-8")
    _, expected = await run_and_export(text, text.splitlines(), tmp_path / "whole.sqlite3")
    failed: list[int] = []
    at_once = bot.play.perform.at_once

    async def out_of_reach_at_the_first_end(*calls):
        change = calls[0].cr_frame.f_locals["change"]  # perform's: announce(ctx, change, …)
        if change.owed is not None and not failed:
            failed.append(1)
            for call in calls:
                call.close()
            raise TelegramNetworkError(method=None, message="connection lost")
        return await at_once(*calls)

    monkeypatch.setattr(bot.play.perform, "at_once", out_of_reach_at_the_first_end)
    _, failing = await run_and_export(text, text.splitlines(), tmp_path / "failed.sqlite3")
    assert failed and failing == expected


async def test_a_replay_whose_new_card_fails_is_shown_by_the_owed_job(
        tmp_path: Path, faults) -> None:
    """An armchair bracket match tied: its result says the replay and the new deal is
    written, then the new deal's score card is not taken by Telegram. Both players' hands
    of the new deal went out beside it all the same (each has opened the bot's chat); the
    owed job run after the update draws the card again in place, with the toss button, and
    the replay is played to its end as in the transcript."""
    name, tie = "armchair_single_elim_result_with_next_matches", "carl@dm: [GLOVES 1]"
    text = (SCENARIOS / f"{name}.txt").read_text(encoding="utf-8")
    _, expected = await run_and_export(text, text.splitlines(), tmp_path / "whole.sqlite3")
    options, output = options_of(text), []
    async with opened(tmp_path, seed=int(options["seed"]), language=options["lang"],
                      emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until(name, tie))
        faults.fail(5, lambda method: isinstance(method, SendMessage)
                    and method.text.startswith("🏏 <b>Match #2") and "draw pile 96" in method.text)
        lines = text.splitlines()
        said = len(output)
        await sandbox.line(tie)
        failed = output.index("!! error: TelegramServerError: Telegram server says - Bad Gateway",
                              said)
        dealt = [at for at, line in enumerate(output[said:failed], said)
                 if line.startswith(("→ bob@dm", "→ carl@dm"))]
        assert [output[at + 2] for at in dealt] == ["  ⏳ Waiting for the toss (🪙 on the score"
                                                    " card in the group)."] * 2
        assert "  [🪙 Toss] [🃏 My hand]" in output[failed:]
        await sandbox.run_lines(lines[lines.index(tie) + 1:])
        assert timeless(await exports(sandbox)) == timeless(expected)  # (the back-off's
        # seconds moved the clock on)
