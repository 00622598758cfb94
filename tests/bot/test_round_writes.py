"""A round's matches are written together: a round robin's every match at its start, and the
matches a round end opens, in one transaction whatever the field's size (a write each cost
a 16-player round robin 120 transactions at its start)."""

from __future__ import annotations

from pathlib import Path

from bot.sandbox.runner import Sandbox
from tests.bot.sandbox_run import opened
from tests.sql_trace import sql_trace


def _handles(players: int) -> list[str]:
    return [f"p{number}" for number in range(players)]


async def _begin(sandbox: Sandbox, players: int) -> list[str]:
    """A report-played round robin of ``players`` registered: the statements of its /begin."""
    await sandbox.run_lines(["org@rr: /new armchair Round play=report",
                             *(f"{handle}@rr: /register" for handle in _handles(players))])
    with sql_trace(sandbox.app.services.db) as statements:
        await sandbox.line("org@rr: /begin")
    return statements


async def _end_round_one(sandbox: Sandbox) -> list[str]:
    """Every round 1 match reported and confirmed: the statements of the last /confirm."""
    services = sandbox.app.services
    handle = {sandbox.world.user(h).id: h for h in sandbox.world.users}
    first = [m for m in await services.repos.matches.for_tournament(1) if m.round == 1
             and m.player_b is not None]
    for match in first[:-1]:
        await sandbox.run_lines([f"{handle[match.player_a]}@rr: /result win",
                                 f"{handle[match.player_b]}@rr: /confirm"])
    last = first[-1]
    await sandbox.line(f"{handle[last.player_a]}@rr: /result win")
    with sql_trace(services.db) as statements:
        await sandbox.line(f"{handle[last.player_b]}@rr: /confirm")
    return statements


async def test_a_round_robin_starts_and_opens_its_rounds_in_as_many_writes_at_any_size(
        tmp_path: Path) -> None:
    counts = {}
    for players in (4, 8):
        async with opened(tmp_path / str(players)) as sandbox:
            begin = await _begin(sandbox, players)
            end = await _end_round_one(sandbox)
            second = [m for m in await sandbox.app.services.repos.matches.for_tournament(1)
                      if m.round == 2]
        assert sum(s.startswith("INSERT INTO matches") for s in begin) == \
            players * (players - 1) // 2
        assert {m.status for m in second} == {"running"}
        opened_rows = [s for s in end if s.startswith("UPDATE matches SET status")
                       and "'running'" in s]
        assert len(opened_rows) == players // 2, end
        counts[players] = (begin.count("BEGIN IMMEDIATE"), end.count("BEGIN IMMEDIATE"))
    assert counts[8] == counts[4], counts
