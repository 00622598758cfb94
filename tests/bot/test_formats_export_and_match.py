"""The formats' /export sections (standings and pairings as JSON and CSV) and /match, run
through the sandbox: the files' contents, not only their names, and the Cup left alone."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from bot.features.formats.export import result_text
from storage.repositories.matches import MatchRow
from tests.bot.sandbox_run import opened, run_script
from tests.sql_trace import sql_trace

SCRIPT = """\
org@ex: /new armchair Export Night format=round_robin play=report
alice@ex: /register
bob@ex: /register
carol@ex: /register
org@ex: /begin
bob@ex: /match
bob@ex: /result 3:1
carol@ex: /match
carol@ex: /confirm
alice@ex: /result draw
bob@ex: /confirm
org@ex: /export
org@ex: [📦 Get the export]
"""


async def _run(tmp_path: Path, script: str) -> list[str]:
    return await run_script(tmp_path, script, files=True)


def _file(tmp_path: Path, suffix: str) -> Path:
    return next(p for p in (tmp_path / "out").iterdir() if p.name.endswith(suffix))


async def test_export_has_standings_and_pairings(tmp_path: Path) -> None:
    output = await _run(tmp_path, SCRIPT)
    assert not any(line.startswith("!!") for line in output)
    text = "\n".join(output)
    assert "Play, then report" in text  # bob's /match before reporting
    assert "Bob reports: Bob beats Carol 3:1. Confirm with the button" in text
    data = json.loads(_file(tmp_path, "tournament-1.json").read_text())
    standings = data["standings"]
    assert [row["name"] for row in standings] == ["Bob", "Alice", "Carol"]
    assert {k: standings[0][k] for k in ("place", "wins", "losses")} == {
        "place": 1, "wins": 1, "losses": 0}
    assert {"buchholz", "sonneborn_berger", "median_buchholz", "diff"} <= set(standings[0])
    table = list(csv.reader(_file(tmp_path, "standings.csv").open()))
    assert table[0][:8] == ["place", "group", "player", "name", "points", "wins", "draws",
                            "losses"]
    assert [row[3] for row in table[1:]] == ["Bob", "Alice", "Carol"]
    pairings = list(csv.DictReader(_file(tmp_path, "pairings.csv").open()))
    played = {(row["name_a"], row["name_b"]): row for row in pairings
              if row["status"] == "finished"}
    assert played[("Bob", "Carol")]["result"] == "3:1"
    assert next(row for (a, b), row in played.items() if "Alice" in (a, b))["result"] == "½:½"
    assert {row["round"] for row in pairings} == {"1", "2", "3"}


async def test_cup_export_has_no_formats_sections(tmp_path: Path) -> None:
    output = await _run(tmp_path, "org@c: /new cup Cable News Cup\norg@c: /export\norg@c: [📦 Get the export]\n")
    assert not any("standings.csv" in line or "pairings.csv" in line for line in output)
    data = json.loads(_file(tmp_path, "tournament-1.json").read_text())
    assert "standings" not in data and "pairings" not in data  # sections of the formats' games


def _row(**changes) -> MatchRow:
    base = dict(id=1, tournament_id=1, stage="main", round=1, slot="S1-1", kind="reported",
                player_a=1, player_b=2, status="finished", winner=1, result={},
                board_message_id=None)
    return MatchRow(**(base | changes))


def test_result_text() -> None:
    assert result_text(_row(result={"score": [5, 3]})) == "5:3"
    assert result_text(_row(winner=2, result={"forfeit": True})) == "-:+"
    assert result_text(_row(winner=None)) == "½:½"
    assert result_text(_row(winner=2)) == "0:1"
    assert result_text(_row(status="bye", player_b=None)) == "bye"
    assert result_text(_row(status="running", winner=None)) == ""


async def test_a_first_report_is_logged_with_its_claims_in_one_write(tmp_path: Path) -> None:
    """/result writes the report and the claims it makes on the match row together, with
    the job held in case it is not said (then the report's message id after sending it,
    and the job done); a redelivered /result is applied once."""
    async with opened(tmp_path) as sandbox:
        await sandbox.run_lines(SCRIPT[:SCRIPT.index("bob@ex: /result")].splitlines())
        db = sandbox.app.services.db
        with sql_trace(db) as statements:
            await sandbox.line("bob@ex: /result 3:1")
        await sandbox.line("! replay")
        logged = await db.fetchall("SELECT payload FROM match_actions ORDER BY match_id, seq")
    assert statements.count("BEGIN IMMEDIATE") == 3, statements  # report, message, job
    assert [json.loads(row[0]).get("type") or json.loads(row[0])["meta"] for row in logged
            ] == ["report", "claims"]
