"""A wrong last result corrected after the end (``docs/rules.md``): the export agrees with
the corrected placings; a correction the bracket cannot take is refused as the tournament
being over, a score alone corrected leaves the placings standing, and the log keeps every
correction (a pair's winner set back and forth)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bot.sandbox_run import run_script

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
