"""A round robin's rounds as the chat hears them: a round that withdrawals left with rests
only is not counted, and the rounds played are numbered in order, with no gap."""

from __future__ import annotations

from pathlib import Path

from bot.features.formats.progress import round_robin_rounds, round_said
from bot.features.formats.state import load
from tests.bot.sandbox_run import SCENARIOS, opened

SCRIPT = SCENARIOS / "round_robin_rests_round_not_numbered.txt"


async def test_rounds_of_rests_only_are_neither_counted_nor_numbered(tmp_path: Path) -> None:
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    async with opened(tmp_path) as sandbox:
        await sandbox.run_lines(lines[:lines.index("eve@tikka: [🚪 Withdraw]") + 1])
        run = await load(sandbox.app.services, 1)
    assert round_robin_rounds(run) == 3
    assert [round_said(run, number) for number in (1, 4, 5)] == [1, 2, 3]
