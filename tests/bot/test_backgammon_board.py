"""Backgammon on a real board through the sandbox: every game and penalty in /export, the
organiser log, and no draw by any road."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from aiogram.methods import SendMessage

from bot.play.perform import BOARD_OWED
from tests.bot.conftest import Faults
from tests.bot.sandbox_run import opened, run_script

SCRIPT = """\
org@bg: /new backgammon Board Night play=board format=round_robin length=5
alice@bg: /register
bob@bg: /register
org@bg: /begin
bob@bg: /game gammon
alice@bg: /confirm
org@bg: /penalty @alice warning slow play
org@bg: /setresult @alice @bob 2:2 agreed a draw
alice@bg: /result 2:2
org@bg: /penalty @bob point moved the opponent's checkers
alice@bg: /game single cube 2
bob@bg: /dispute
org@bg: /game @alice single cube 1 the cube was still in the middle
bob@bg: /game single cube 2 resigned
alice@bg: /confirm
bob@bg: /game single
alice@bg: /confirm
org@bg: /export
org@bg: [📦 Get the export]
"""


async def _run(tmp_path: Path) -> list[str]:
    return await run_script(tmp_path, SCRIPT, files=True)


def _file(tmp_path: Path, suffix: str) -> Path:
    return next(p for p in (tmp_path / "out").iterdir() if p.name.endswith(suffix))


async def test_every_game_and_penalty_is_exported(tmp_path: Path) -> None:
    text = "\n".join(await _run(tmp_path))
    assert "!! error" not in text, text
    # /setresult 2:2 is no backgammon score; /result 2:2 is refused by the format
    assert "That cannot be the final score" in text, text
    assert text.count("This format has no draws") == 1, text
    assert "🏆 Bob beats Alice 5:2." in text, text
    data = json.loads(_file(tmp_path, "tournament-1.json").read_text(encoding="utf-8"))
    (match,) = data["backgammon_games"]
    assert match["score"] == [5, 2] and match["outcome"]["how"] == "played"
    assert [(g["kind"], g.get("value"), g.get("cube"), g.get("how")) for g in match["games"]] \
        == [("game", "gammon", 1, "played"), ("point", None, None, None),
            ("game", "single", 1, "played"), ("game", "single", 2, "resigned"),
            ("game", "single", 1, "played")]
    assert match["games"][2]["corrected"] is True
    assert [p["kind"] for p in match["penalties"]] == ["warning", "point"]
    actions = [entry["action"] for entry in data["organiser_log"]]
    assert actions.count("penalty") == 2 and "correct" in actions
    rows = list(csv.DictReader(_file(tmp_path, "backgammon_games.csv").open(encoding="utf-8")))
    assert [row["entry"] for row in rows] == ["game", "point", "game", "game", "game",
                                              "penalty", "penalty"]
    assert rows[3]["points"] == "2" and rows[3]["winner"] == "Bob"
    assert rows[2]["corrected"] == "True" and rows[5]["penalised"] == "Alice"


async def test_a_penalty_whose_words_failed_is_said_by_its_job(tmp_path: Path,
                                                               faults: Faults) -> None:
    """The penalty's words meet Telegram out of reach (through the sending layer's retries):
    its job says them once Telegram is back, once; the match card, which showed the point,
    is not drawn again for them, nor are the match's clocks held."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(SCRIPT.splitlines()[:4])
        faults.fail(5, lambda method: isinstance(method, SendMessage)
                    and "Penalty point" in method.text)
        await sandbox.line("org@bg: /penalty @bob point moved the opponent's checkers")
        pending = await sandbox.app.services.repos.jobs.pending()
    said = [line for line in output if line.startswith("→ bg: ⚖️ Penalty point against Bob")]
    assert len(said) == 1, output
    assert BOARD_OWED not in [job.kind for job in pending]
