"""Backgammon played in the bot: the .mat record the bot sends at the end of the 3-point
match of tests/scenarios/backgammon_live_match.txt is read back and every move replayed
through the engine to the match's final score."""

from __future__ import annotations

from pathlib import Path

from games.backgammon.mat import read_mat
from tests.bot.sandbox_run import run_script
from tests.bot.test_scenarios import SCENARIOS, options_of
from tests.games.backgammon.test_mat import _replay


async def test_the_match_record_replays_to_the_final_score(tmp_path: Path) -> None:
    script = (SCENARIOS / "backgammon_live_match.txt").read_text(encoding="utf-8")
    output = await run_script(tmp_path, script, seed=int(options_of(script)["seed"]),
                              files=True)
    assert not any(line.startswith("!! error") for line in output)
    records = sorted((tmp_path / "out").rglob("*.mat"))
    assert records, "the match ended without sending its record"
    record = read_mat(records[-1].read_text(encoding="utf-8"))
    assert record.names == ("Alice", "Bob") and record.length == 3
    match, ids = _replay(record)
    assert match.finished
    final = [line for line in output if " beats " in line]
    assert final and f"{max(match.score)}:{min(match.score)}" in final[-1]
    assert len(ids) > 20  # every move of every game was replayed
