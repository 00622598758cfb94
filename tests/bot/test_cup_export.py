"""The Cup's /export: the 3rd-place vote is exported as what it is (the picks and the
format played, no winner, no score), an HP battle set by a bare ``win`` has the HP as they
stood, and the final placings come once the Cup is over (``cup_placings``)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from tests.bot.sandbox_run import SCENARIOS, run_script


async def test_the_vote_the_hp_win_and_the_placings(tmp_path: Path) -> None:
    script = (SCENARIOS / "cup_export_placings.txt").read_text(encoding="utf-8")
    output = await run_script(tmp_path, script, files=True)
    assert not [line for line in output if line.startswith("!!")], output
    out = tmp_path / "out"
    data = json.loads(next(out.glob("*tournament-1.json")).read_text(encoding="utf-8"))
    names = {e["user_id"]: e["name"] for e in data["entrants"]}
    matches = {m["slot"]: m for m in data["matches"]}
    vote = matches["3P-vote"]
    assert vote["winner"] is None
    assert vote["result"] == {"picks": ["group", "hp"], "format": "group"}
    assert matches["3P"]["format"] == "group3"
    assert matches["W1-1"]["result"]["score"] == [20, 20]  # the HP left when it was set
    assert names[matches["W1-1"]["winner"]] == "Alice_Smith"
    assert [(p["place"], p["name"]) for p in data["cup_placings"]] == [
        (1, "Alice_Smith"), (2, "Carol_King"), (3, "Dave_Jones"), (4, "Bob_Stone")]
    table = next(out.glob("*tournament-1-cup_placings.csv")).read_text(encoding="utf-8")
    assert list(csv.reader(table.splitlines()))[:2] == [["place", "user_id", "name"],
                                                        ["1", "1002", "Alice_Smith"]]
