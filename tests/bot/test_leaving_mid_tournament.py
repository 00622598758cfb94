"""A running tournament's ``/withdraw`` and ``/dq``: the words are said only once the
removal is committed, by the job that goes on from it (``formats_remove``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.features.formats import results
from tests.bot import round_robin
from tests.bot.sandbox_run import opened


async def test_a_withdrawal_that_was_not_written_is_not_announced(tmp_path: Path,
                                                                  monkeypatch) -> None:
    """The write fails: the group is not told the player left (they did not), and a second
    try, written, is told once."""
    failed: list[str] = []
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await round_robin.begin(sandbox, 4)
        jobs = sandbox.app.services.repos.jobs
        real_add = jobs.add

        async def fails_once(kind, *args, **payload):
            if kind == results.REMOVE_JOB and not failed:
                failed.append(kind)
                raise sqlite3.OperationalError("disk I/O error")
            return await real_add(kind, *args, **payload)
        monkeypatch.setattr(jobs, "add", fails_once)
        await sandbox.line("p1@rr: /withdraw")
        await sandbox.line("p1@rr: [🚪 Withdraw]")
        assert not [line for line in output if "withdrawn" in line], output
        entrant = await sandbox.app.services.repos.entrants.get(1, sandbox.world.user("p1").id)
        assert entrant.status == "approved"
        await sandbox.line("p1@rr: /withdraw")
        await sandbox.line("p1@rr: [🚪 Withdraw]")
    assert failed == [results.REMOVE_JOB]
    assert len([line for line in output if "P1 has withdrawn" in line]) == 1, output
