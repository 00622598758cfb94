"""/export during an HP round never shows a choice that is not revealed yet: a live match
whose engine hides something is exported as what everyone may see (``view(None)``); its
whole log comes with the export once the match is over."""

from __future__ import annotations

import json
from pathlib import Path

from bot.features.export import _without_secret
from bot.sandbox.runner import Sandbox
from tests.bot.test_scenarios import SCENARIOS

HP_SCRIPT = (SCENARIOS / "cup_hp_and_betting.txt").read_text(encoding="utf-8").splitlines()
FIRST_CHOICE = next(n for n, line in enumerate(HP_SCRIPT)
                    if line.startswith("alice@dm: ") and line.endswith(("атака", "защита")))


async def _export(tmp_path: Path, lines: list[str]) -> dict:
    sandbox = Sandbox(seed=11, db_path=tmp_path / "db.sqlite3", out_dir=tmp_path / "out",
                      emit=lambda line: None)
    await sandbox.start()
    try:
        await sandbox.run_lines([*lines, "org@cup: /export"])
    finally:
        await sandbox.close()
    exported = next((tmp_path / "out").glob("*tournament-1.json"))
    return json.loads(exported.read_text(encoding="utf-8"))


def _hp_matches(data: dict) -> list[dict]:
    return [m for m in data["matches"] if m["format"] == "hp"]


async def test_an_unrevealed_choice_stays_out_of_the_export(tmp_path: Path) -> None:
    data = await _export(tmp_path, HP_SCRIPT[:FIRST_CHOICE + 1])
    live = next(m for m in _hp_matches(data) if m["status"] == "running" and "view" in m)
    text = json.dumps(live, ensure_ascii=False)
    assert live["actions"] == [] and live["view"]["choices"] == [None, None]
    assert live["view"]["chosen"] == [True, False]  # that Alice has chosen is public
    assert "defend" not in text and "attack" not in text


async def test_a_finished_match_exports_its_whole_log(tmp_path: Path) -> None:
    data = await _export(tmp_path, HP_SCRIPT)
    choices = [a for m in _hp_matches(data) for a in m["actions"]
               if a["action"].get("type") == "choose"]
    assert choices and all(m["status"] == "finished" for m in _hp_matches(data))


def test_a_move_entered_by_an_organiser_in_a_live_match_is_left_out_of_its_log() -> None:
    entered = {"action": "enter", "reason": "phone died",
               "details": {"match_id": 8, "player": 5, "move": {"choice": "attack"}}}
    assert _without_secret(entered, {8}) == {
        "action": "enter", "reason": "phone died", "details": {"match_id": 8, "player": 5}}
    assert _without_secret(entered, {9}) == entered  # that match's log is out: so is the move
    other = {"action": "setresult", "details": {"match_id": 8, "score": [3, 0]}}
    assert _without_secret(other, {8}) == other
