"""Match rows are derived from their logs: after corrections of every kind (set results,
disqualifications, replaced players, reopened rounds, reports and disputes), replaying each
match's settling entries gives exactly the row that was stored."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from storage.repositories.matches import ROW_CHANGES
from tests.bot.test_scenarios import SCENARIOS, run_scenario

CORRECTED = ("cup_corrections", "formats_dq_and_correction", "formats_swiss_backgammon",
             "formats_round_robin_withdrawal", "round_robin_rests_round_not_numbered")


@pytest.mark.parametrize("name", CORRECTED)
async def test_rows_follow_from_their_logs(name: str, tmp_path: Path) -> None:
    db_path = tmp_path / "scenario.sqlite3"
    await run_scenario(SCENARIOS / f"{name}.txt", db_path)
    connection = sqlite3.connect(db_path)
    rows = connection.execute(
        "SELECT id, player_a, player_b, winner, result FROM matches").fetchall()
    settled = 0
    for match_id, player_a, player_b, winner, result in rows:
        derived = {"player_a": player_a, "player_b": player_b}  # as created, then replaced
        entries = [json.loads(payload) for (payload,) in connection.execute(
            "SELECT payload FROM match_actions WHERE match_id = ? ORDER BY seq", (match_id,))]
        replaced = [e for e in entries if e.get("meta") == "replace"]
        for entry in replaced:
            derived[entry["side"]] = entry["old"]
        for entry in (e for e in entries if "meta" in e):
            derived |= ROW_CHANGES[entry["meta"]](entry)
            settled += 1
        assert derived.get("winner", winner) == winner, (name, match_id)
        assert derived.get("result", json.loads(result)) == json.loads(result), (name, match_id)
        assert (derived["player_a"], derived["player_b"]) == (player_a, player_b)
    assert settled, f"{name}: no settling entry at all"
