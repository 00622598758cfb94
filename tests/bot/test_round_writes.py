"""A round's matches are written together: a round robin's every match at its start, and the
matches a round end opens, in one transaction whatever the field's size (a write each cost
a 16-player round robin 120 transactions at its start)."""

from __future__ import annotations

from pathlib import Path

from tests.bot import round_robin
from tests.bot.sandbox_run import opened


async def test_a_round_robin_starts_and_opens_its_rounds_in_as_many_writes_at_any_size(
        tmp_path: Path) -> None:
    counts = {}
    for players in (4, 8):
        async with opened(tmp_path / str(players)) as sandbox:
            begin = await round_robin.begin(sandbox, players)
            end = await round_robin.end_round_one(sandbox)
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
