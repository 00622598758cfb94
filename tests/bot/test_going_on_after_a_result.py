"""A result is stored with the job that moves its tournament on (``formats_advance``), and
that job runs once the result's update has answered: so the update that ends a round is no
longer the one that posts its table and opens the next, and a process that dies between
the two goes on from the job after its restart."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiogram.exceptions import TelegramServerError
from aiogram.methods import SendMessage

from bot.features.cup.common import CLOSED_JOB
from bot.features.formats import runner
from bot.sandbox.runner import Sandbox
from bot.scheduler import VirtualScheduler
from storage.db import Database
from storage.repositories.matches import MatchesRepo
from tests.bot import round_robin
from tests.bot.conftest import Faults
from tests.bot.sandbox_run import died_in, dies_following, opened, scenario_until
from tests.bot.test_restart_determinism import exports, no_rate_limit, run_and_export
from tests.bot.test_scenarios import SCENARIOS, options_of

__all__ = ["no_rate_limit"]  # the fixture, used by name


class Died(Exception):
    """The process ended right after the result's transaction committed."""


async def test_the_round_goes_on_after_a_restart_that_followed_its_last_result(
        tmp_path: Path, monkeypatch) -> None:
    settle = MatchesRepo.settle

    async def then_die(repo, match_id, entry, *args, **kwargs):
        written = await settle(repo, match_id, entry, *args, **kwargs)
        if entry.get("meta") == "result":
            raise Died
        return written

    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await round_robin.begin(sandbox, 4)
        monkeypatch.setattr(MatchesRepo, "settle", then_die)
        await round_robin.end_round_one(sandbox)
        monkeypatch.setattr(MatchesRepo, "settle", settle)
        assert not [line for line in output if "Round 2" in line]
        await sandbox.line("! restart")
        restarted = len(output)
        await sandbox.line("! restart")  # the job ran once: nothing is said twice
        matches = await sandbox.app.services.repos.matches.for_tournament(1)
    assert sorted({m.round for m in matches if m.status == "running"}) == [2]
    # once, in the group, after the restart: both results (stored with their jobs, so the
    # deaths lost nothing), the first job's above the table, which carries the next round
    assert [line for line in output if "standings after round 1" in line] == [
        "  📊 “Round”: standings after round 1"], output
    results = [line for line in output if "✅ Result:" in line]
    assert len(results) == 2 and results[0].startswith('→ rr: photo "✅ Result:'), results
    assert [line for line in output if "Round 2 of 3" in line] == ["  ⚔️ Round 2 of 3:"]
    assert output[restarted:] == []


async def test_the_job_after_the_confirmation_says_the_result_the_table_and_the_round(
        tmp_path: Path) -> None:
    """The confirming update takes the report's buttons off; the job right after it says the
    result, the table and the next round in one message."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await round_robin.begin(sandbox, 4)
        handled_at: list[int] = []
        follow_ups = sandbox._follow_ups

        async def noting() -> None:
            handled_at.append(len(output))
            await follow_ups()
        sandbox._follow_ups = noting
        start = len(output)
        await round_robin.end_round_one(sandbox)
    by_update, by_job = output[start:handled_at[-1]], output[handled_at[-1]:]
    assert by_update[-1].startswith("✎ rr#"), by_update  # the buttons taken off
    assert not [line for line in by_update if "standings" in line or "Round 2" in line
                or line.startswith("→ rr: ✅ Result: P1")]
    table = by_job[:by_job.index("  ⚔️ Round 2 of 3:") + 1]
    assert table[0] == '→ rr: photo "✅ Result: P1 beats P2.', by_job
    assert "  📊 “Round”: standings after round 1" in table


@pytest.mark.parametrize(("script", "unsaid"), [("cup_full_four", 0),
                                                ("formats_swiss_elim", 1),
                                                ("backgammon_live_swiss", 4)])
@pytest.mark.usefixtures("no_rate_limit")
async def test_a_process_that_dies_after_each_match_ends_goes_on_as_one_run(
        script: str, unsaid: int, tmp_path: Path, monkeypatch) -> None:
    """Every match's result is committed and the process dies before the tournament goes
    on; a restart after that line lets the tournament go on, and it exports what one
    uninterrupted run exports. The transcript prints the same, the deaths aside and
    ``unsaid`` lines a death: what the dying update had still to say after its commit (a
    confirmed report's buttons taken off, one line: its "✅ Result" is stored with the job
    and said after the restart; a backgammon match's last board, four)."""
    text = (SCENARIOS / f"{script}.txt").read_text(encoding="utf-8")
    plain = await run_and_export(text, text.splitlines(), tmp_path / "plain.sqlite3")
    settle, died = MatchesRepo.settle, []

    async def then_die(repo, match_id, entry, *args, **kwargs):
        written = await settle(repo, match_id, entry, *args, **kwargs)
        if entry.get("meta") == "result":
            died.append(match_id)
            raise Died
        return written
    monkeypatch.setattr(MatchesRepo, "settle", then_die)
    options, output = options_of(text), []
    sandbox = Sandbox(seed=int(options.get("seed", 0)), db_path=tmp_path / "dying.sqlite3",
                      language=options.get("lang", "ru"), emit=output.append)
    await sandbox.start()
    try:
        for line in text.splitlines():
            deaths = len(died)
            await sandbox.line(line)
            if len(died) > deaths:
                await sandbox.line("! restart")
        exported = await exports(sandbox)
    finally:
        await sandbox.close()
    assert len(died) >= 2
    said = [line for line in output if line != "!! error: Died: "]
    in_order = iter(plain[0])
    assert all(line in in_order for line in said), "said out of order, or twice"
    assert len(plain[0]) - len(said) == unsaid * len(died)
    assert exported == plain[1]


@pytest.mark.parametrize(("answer", "logged"), [("/confirm", "confirm"),
                                                 ("/result win", "report")])
async def test_an_answer_to_a_report_is_written_with_what_it_settles(
        answer: str, logged: str, tmp_path: Path, monkeypatch) -> None:
    """The process dies right after the first commit of the opponent's answer to a report
    (a confirmation, or a report of their own that disputes it): the result, or the dispute,
    is stored all the same (the answer and what it settles are one transaction, so no log
    holds an answer without it), and the update Telegram delivers again after the restart
    changes nothing."""
    write = Database.write
    armed = False

    async def then_die(database, work, touches=()):
        nonlocal armed
        written = await write(database, work, touches)
        if armed:
            armed = False
            raise Died
        return written

    async with opened(tmp_path) as sandbox:
        await round_robin.begin(sandbox, 4)
        handle = {sandbox.world.user(h).id: h for h in sandbox.world.users}
        matches = sandbox.app.services.repos.matches
        match = next(m for m in await matches.for_tournament(1) if m.round == 1)
        await sandbox.line(f"{handle[match.player_a]}@rr: /result win")
        monkeypatch.setattr(Database, "write", then_die)
        armed = True
        await sandbox.line(f"{handle[match.player_b]}@rr: {answer}")
        await sandbox.line("! restart")
        await sandbox.line("! replay")
        matches = sandbox.app.services.repos.matches  # the restarted process's
        settled = await matches.get(match.id)
        actions = [a.payload.get("type") for a in await matches.actions(match.id)]
    if logged == "confirm":
        assert (settled.status, settled.winner) == ("finished", match.player_a)
    else:
        assert settled.result["dispute"]["by"] == match.player_b
    assert actions.count(logged) == (1 if logged == "confirm" else 2)


async def _with_one_fault(tmp_path: Path, monkeypatch, players: int, step: str,
                          when=lambda *args, **changes: True) -> tuple[list[str], str]:
    """A round robin of ``players`` whose round 1 ends, the runner's ``step`` meeting a
    passing Telegram fault once (where ``when`` says so), then the job's retry: the output
    and the tournament's status."""
    real, faults = getattr(runner, step), []

    async def fails_once(*args, **changes):
        if not faults and when(*args, **changes):
            faults.append(step)
            raise TelegramServerError(method=None, message="Bad Gateway")
        return await real(*args, **changes)
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await round_robin.begin(sandbox, players)
        monkeypatch.setattr(runner, step, fails_once)
        await round_robin.end_round_one(sandbox)
        await sandbox.line("! advance 2m")  # the retry
        status = (await sandbox.app.services.repos.tournaments.get(1)).status
    assert faults
    return output, status


async def test_a_retried_job_does_not_say_its_result_twice(tmp_path: Path, monkeypatch) -> None:
    """The job said the round's last result (in the table's caption, with the next round),
    then met a passing fault before it was done (the round's record saved): the retry says
    the table and the round again, not knowing they went out (the round's matches are
    noted as not yet announced until then: a round is said at least once), but not the
    result, noted as said at once (it would be said once more on its own)."""
    output, _ = await _with_one_fault(tmp_path, monkeypatch, 4, "save_record",
                                      lambda *args, **changes: "tabled" in changes)
    assert len([line for line in output if "standings after round 1" in line]) == 2
    assert len([line for line in output if "✅ Result: P1 beats P2" in line]) == 1, output


async def test_a_round_whose_table_failed_to_go_out_is_said_by_the_retry(
        tmp_path: Path, monkeypatch) -> None:
    """The round's table (the result, the next round in its caption) meets a passing fault:
    the retry says them, once (it found round 2 open and said nothing: its players never
    heard their pairings)."""
    output, _ = await _with_one_fault(tmp_path, monkeypatch, 4, "post_tables")
    assert len([line for line in output if "standings after round 1" in line]) == 1, output
    assert len([line for line in output if "Round 2" in line]) == 1, output
    assert len([line for line in output if "✅ Result: P1 beats P2" in line]) == 1, output


async def test_a_retried_job_does_not_say_the_final_placings_twice(tmp_path: Path,
                                                                   monkeypatch) -> None:
    """Two players: round 1 is the last. The job posts the table with the final placings in
    its caption, then meets a passing fault before the tournament is marked over: the retry
    finishes it and says the placings no more (the table's save noted them as said)."""
    output, status = await _with_one_fault(tmp_path, monkeypatch, 2, "finish")
    assert status == "finished"
    assert len([line for line in output if "is over. Final placings" in line]) == 1, output
    assert len([line for line in output if "standings after round 1" in line]) == 1, output


@pytest.mark.parametrize(("line", "said"), [
    ("org@re: /reentry @dave", "→ re: 🔁 Dave re-enters the bracket."),
    ("org@re: /reentry close", "→ re: Re-entry is closed: the open places are byes now.")])
async def test_a_reentry_goes_on_after_a_restart_that_followed_its_write(
        tmp_path: Path, monkeypatch, line: str, said: str) -> None:
    """An organiser's ``/reentry`` is stored with the same job, which says it heading the
    matches it opens (before, a stop right after its write never said either: the group
    was not told who plays next)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until("formats_reentry", line))
        stopped = await died_in(sandbox, monkeypatch, output, line, VirtualScheduler,
                                "follow", dies_following(runner.ADVANCE_JOB))
        assert await sandbox.app.services.repos.jobs.pending() == []
    assert said not in output[:stopped]
    assert output[stopped:stopped + 2] == [said, "  ⚔️ Next matches:"], output[stopped:]


async def test_a_cup_setresult_is_said_after_a_restart_that_followed_its_write(
        tmp_path: Path, monkeypatch, faults: Faults) -> None:
    """The Cup's ``/setresult`` line is stored with the job that moves the stage on and
    said by it (before, the handler said it after the write: a stop in between lost it)."""
    line = "org@cup: /setresult @carol 3:2 быстро"
    output: list[str] = []
    async with opened(tmp_path, emit=output.append, language="ru") as sandbox:
        await sandbox.run_lines(scenario_until("cup_enter_for_blocked", line))
        # the tables after it meet Telegram out of reach: the job's retry says them, not
        # the line again (noted as said)
        faults.fail(5, lambda method: isinstance(method, SendMessage) and "📊" in method.text)
        stopped = await died_in(sandbox, monkeypatch, output, line, VirtualScheduler,
                                "follow", dies_following(CLOSED_JOB))
        await sandbox.line("! advance 5m")
        assert await sandbox.app.services.repos.jobs.pending() == []
    assert sum(line.startswith("→ cup: 📊") for line in output[stopped:]) == 1
    said = [line for line in output if "Carol_Test 3:2 Dave_Test" in line]
    assert said == ["→ cup: ✍️ Результат записан организатором (групповой этап, тур 2):"
                    " Carol_Test 3:2 Dave_Test. Причина: быстро"], output[stopped - 3:]
    assert output.index(said[0]) >= stopped
