"""A result is stored with the job that moves its tournament on (``formats_advance``), and
that job runs once the result's update has answered: so the update that ends a round is no
longer the one that posts its table and opens the next, and a process that dies between
the two goes on from the job after its restart."""

from __future__ import annotations

from pathlib import Path

from storage.repositories.matches import MatchesRepo
from tests.bot import round_robin
from tests.bot.sandbox_run import opened


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
    assert [line.split(":")[0] for line in output if "Round 2 of 3" in line] == ["→ rr"]
    assert len([line for line in output if "standings after round 1" in line]) == 1, output
    assert output[restarted:] == []


async def test_the_update_answers_the_confirmation_and_the_job_goes_on(tmp_path: Path) -> None:
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
    assert by_update[-1].startswith("→ rr: ✅ Result:"), by_update
    assert not [line for line in by_update if "standings" in line or "Round 2" in line]
    assert "standings after round 1" in by_job[0] and "Round 2 of 3" in "\n".join(by_job)
