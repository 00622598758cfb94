"""A wrong last result corrected after the end (``docs/rules.md``): the export agrees with
the corrected placings; a correction the bracket cannot take is refused as the tournament
being over, a score alone corrected leaves the placings standing, and the log keeps every
correction (a pair's winner set back and forth)."""

from __future__ import annotations

import json
from pathlib import Path

from aiogram.methods import SendMessage

from tests.bot.sandbox_run import opened, run_script, scenario_until

SCRIPT = (Path(__file__).resolve().parent.parent / "scenarios"
          / "formats_correction_after_the_end.txt").read_text().replace(
    "org@se: /standings", """\
org@se: /setresult @ann @ben 2:0 back again
org@se: /setresult @ann @ben 0:2 and back
org@se: /export
org@se: [📦 Get the export]""")


async def test_the_export_agrees_with_the_corrected_placings(tmp_path: Path) -> None:
    output = await run_script(tmp_path, SCRIPT, files=True)
    assert not [line for line in output if line.startswith("!!")]
    assert "→ se: Results can no longer be changed: the tournament is over." in output
    assert output.count("  🏆 “Cup”: the final placings, corrected:") == 4
    assert output.count("  🏆 “Cup”: the final placings stand.") == 1  # a score alone
    [export] = [p for p in (tmp_path / "out").iterdir() if p.name.endswith("-tournament-2.json")]
    data = json.loads(export.read_text())
    assert [(row["name"], row["place"]) for row in data["standings"]] == [
        ("Ben", 1), ("Ann", 2), ("Cat", 3), ("Dan", 4)]
    final = next(row for row in data["pairings"] if row["slot"] == "W2-1")
    ben = data["standings"][0]["player"]
    assert (final["name_a"], final["result"], final["winner"]) == ("Ann", "0:2", ben)


async def test_a_player_put_in_by_a_correction_is_on_the_board_when_its_message_fails(
        tmp_path: Path, faults) -> None:
    """A semi-final's winner corrected once the final was made: the final's board is drawn
    again with the player put in even when Telegram does not take the message that says
    so, and the final can be played (its retry used to know nothing of the player put in)."""
    name, correction = "formats_bracket_correction_next_made", \
        "org@g: /setresult @dave @alice 1:0 Dave won in fact"
    async with opened(tmp_path) as sandbox:
        await sandbox.run_lines(scenario_until(name, correction))
        faults.fail(5, lambda method: isinstance(method, SendMessage) and "↪️" in method.text)
        await sandbox.run_lines([correction, "! advance 2m", "dave@g: [🎯 Bull-off: Dave]"])
        assert sandbox.errors == 0  # (the message is a job's, retried: no error)
