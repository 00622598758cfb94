"""A sandbox process killed (SIGKILL) at random points of a long transcript leaves an intact
database file, and a new process resuming on it (``--resume``) ends the tournament exactly
as an uninterrupted run does: the same entrants, matches, every action, organiser log."""

from __future__ import annotations

import random
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from bot.sandbox.runner import Sandbox
from storage.db import Database
from storage.repositories.sandbox_world import SandboxWorldRepo
from tests.bot.sandbox_run import run_and_kill, sandbox_command, timeless
from tests.bot.test_restart_determinism import exports, run_and_export
from tests.bot.test_scenarios import SCENARIOS, options_of

SCRIPT = SCENARIOS / "cup_full_four.txt"
SEED = "3"  # the script's own "# seed:"
KILLS = 2


def _command(db_path: Path) -> list[str]:
    return sandbox_command(db_path, SCRIPT, SEED)


async def _integrity(db_path: Path) -> list[str]:
    db = await Database.open(db_path)
    try:
        return await SandboxWorldRepo(db).integrity()
    finally:
        await db.close()


async def _saved_clock(db_path: Path) -> datetime:
    """The sandbox's clock as saved after the last whole line."""
    db = await Database.open(db_path)
    try:
        return datetime.fromisoformat((await SandboxWorldRepo(db).load()).state["clock"])
    finally:
        await db.close()


async def final_exports(db_path: Path) -> list[dict]:
    sandbox = Sandbox(db_path=db_path, emit=lambda line: None)
    await sandbox.start()
    try:
        return await exports(sandbox)
    finally:
        await sandbox.close()


async def test_killed_and_resumed_ends_as_an_uninterrupted_run(tmp_path: Path) -> None:
    text = SCRIPT.read_text(encoding="utf-8")
    output, expected = await run_and_export(text, text.splitlines(), tmp_path / "whole.sqlite3")
    rng = random.Random(20261201)
    db_path = tmp_path / "crashed.sqlite3"
    for _ in range(KILLS):
        kill_after = rng.randint(len(output) // 10, len(output) // 4)
        assert run_and_kill(_command(db_path), kill_after) == kill_after  # killed before the end
        assert await _integrity(db_path) == ["ok"]
    finished = subprocess.run(_command(db_path), capture_output=True, text=True, timeout=300,
                              check=False)
    assert finished.returncode == 0, finished.stdout[-2000:] + finished.stderr[-2000:]
    assert await _integrity(db_path) == ["ok"]
    assert timeless(await final_exports(db_path)) == timeless(expected)
    assert expected[0]["tournament"]["status"] == "finished"



DIES_IN_THE_FIRST_CLOSE = f"""
import asyncio, os, sys
from pathlib import Path
import bot.features.cup.common as cup
from bot.sandbox.runner import Sandbox

def dies(*args):
    os._exit(9)

async def main():
    for stage in list(cup._finishers._items):
        cup._finishers._items[stage] = dies
    sandbox = Sandbox(seed={SEED}, db_path=Path(sys.argv[1]), emit=lambda line: None)
    await sandbox.start()
    await sandbox.run_lines(Path({str(SCRIPT)!r}).read_text(encoding="utf-8").splitlines())

asyncio.run(main())
"""


async def test_a_job_left_due_by_a_process_killed_mid_line_runs_after_the_next_line(
        tmp_path: Path) -> None:
    """Killed while the first match's result moves the Cup on (its ``cup_match_closed`` job
    stored, due after the dice's seconds), the next run's clock starts at the last moment
    written, not at the one saved after the last whole line: the job is due at once."""
    db_path = tmp_path / "killed.sqlite3"
    subprocess.run([sys.executable, "-c", DIES_IN_THE_FIRST_CLOSE, str(db_path)],
                   capture_output=True, timeout=300, check=False)
    saved = await _saved_clock(db_path)
    sandbox = Sandbox(db_path=db_path, emit=lambda line: None)
    await sandbox.start()
    try:
        services = sandbox.app.services
        closing = [job for job in await services.repos.jobs.pending()
                   if job.kind == "cup_match_closed"]
        assert len(closing) == 1 and closing[0].run_at > saved
        assert services.scheduler.following == [closing[0].id]
    finally:
        await sandbox.close()


DIES_BEFORE_SHOWING = """
import asyncio, os, sys
from pathlib import Path
import bot.play.perform
from bot.sandbox.runner import Sandbox
from tests.bot.test_scenarios import options_of

async def main():
    script = Path(sys.argv[3])
    options = options_of(script.read_text(encoding="utf-8"))  # the transcript's seed and language
    sandbox = Sandbox(seed=int(options.get("seed", 0)), db_path=Path(sys.argv[1]),
                      language=options.get("lang", "ru"), emit=lambda line: None)
    fed = sandbox.line

    async def line(raw):
        if raw == sys.argv[2]:  # the action is written, then the process dies
            bot.play.perform.at_once = lambda *calls: os._exit(9)
        await fed(raw)

    sandbox.line = line
    await sandbox.start()
    await sandbox.run_lines(script.read_text(encoding="utf-8").splitlines())

asyncio.run(main())
"""


@pytest.mark.parametrize(("name", "dying_line"), [
    ("armchair_single_elim_result_with_next_matches", "alice@dm: [GLOVES 7]"),
    ("backgammon_board_forfeit_with_next_matches", "! advance 21m"),
])
async def test_killed_before_showing_an_action_resumes_as_an_uninterrupted_run(
        tmp_path: Path, name: str, dying_line: str) -> None:
    """Killed after an action was written, before anything was shown. A card that
    completes a ball: ``--resume`` delivers that very update again (its button is gone from
    the hand it was pressed in), the bot finds it claimed and draws the score card and hands
    again, and the opponent's next card, in the hand only once the ball is shown, is there
    to press. Backgammon's late-start grace, logged by its job: the job runs again, finds it
    logged (not logging it twice) and draws the card with the organisers' forfeit buttons."""
    script = SCENARIOS / f"{name}.txt"
    text = script.read_text(encoding="utf-8")
    _, expected = await run_and_export(text, text.splitlines(), tmp_path / "whole.sqlite3")
    db_path = tmp_path / "killed.sqlite3"
    killed = subprocess.run([sys.executable, "-c", DIES_BEFORE_SHOWING, str(db_path),
                             dying_line, str(script)], capture_output=True, timeout=300,
                            check=False)
    assert killed.returncode == 9
    resumed = subprocess.run(sandbox_command(db_path, script, 1, "en"), capture_output=True,
                             text=True, timeout=300, check=False)
    assert resumed.returncode == 0, resumed.stdout[:2000]
    assert timeless(await final_exports(db_path)) == timeless(expected)


async def test_killed_after_a_resignation_its_question_loses_its_buttons(tmp_path: Path) -> None:
    """Killed right after Bob's press on [🏳 Resign] wrote his resignation of the match, before
    anything was shown: the next start takes the question's buttons off, as the press would
    have (they used to stay for good; his next press on [🏳 Resign] then met that question,
    not the first one he was asked, which so kept its buttons too)."""
    script = SCENARIOS / "backgammon_live_resign_question_outdated.txt"
    db_path = tmp_path / "killed.sqlite3"
    killed = subprocess.run([sys.executable, "-c", DIES_BEFORE_SHOWING, str(db_path),
                             "bob@g: [🏳 Resign]", str(script)], capture_output=True,
                            timeout=300, check=False)
    assert killed.returncode == 9
    resumed = subprocess.run(sandbox_command(db_path, script, 1, "en"), capture_output=True,
                             text=True, timeout=300, check=False)
    assert resumed.returncode == 0, resumed.stdout[:2000]
    questions = {"✎ g#7: ", "✎ g#9: "}  # the two questions, their buttons taken off
    assert questions <= set(resumed.stdout.splitlines()), resumed.stdout


@pytest.mark.parametrize(("name", "dying_line", "words"), [
    ("backgammon_board_match",
     "org@bg: /penalty @alice point moved before the opponent's dice had settled, after a warning",
     "→ bg: ⚖️ Penalty point against Alice: a point to Bob. Reason: moved before the "
     "opponent's dice had settled, after a warning"),
    ("backgammon_addtime_general", "org@club: /addtime @carol 1m test",
     "→ club: ⏱ Carol: +60 s on the time bank in match #2 (test)."),
    ("cup_third_vote_walkover", "alice@dm: defend",  # a secret choice, copied (/hostcopy)
     "→ org@dm: 🔒 Host copy: Alice_Smith, round 1: 🛡 Defend."),
    ("darts_end_twice_pause_fix", "org@g: /correct 1 1 S19 D19 T19 the board was misread",
     "→ g: ✏️ Org corrected Bob's visit 1 (#1 of leg 1) in match #1 to S19 · D19 · T19. "
     "Reason: the board was misread"),
    ("hidden_input", "org@dm: /enter 8 @carol защита сказала по телефону",  # told the player
     "→ carol@dm: ✍️ Ваш ход в матче #8 введён организатором: раунд 1 — 🛡 Защита. Причина: "
     "сказала по телефону"),
])
async def test_killed_after_an_organisers_decision_it_is_said_at_the_next_start(
        tmp_path: Path, name: str, dying_line: str, words: str) -> None:
    """Killed right after an organiser's decision (a penalty, time given, a darts visit
    corrected, a move entered for a player) or a hidden action an organiser asked a copy of was written, before anything
    was shown: the next start says it, with its reason, once (the board showed the action,
    its words were lost)."""
    script = SCENARIOS / f"{name}.txt"
    db_path = tmp_path / "killed.sqlite3"
    killed = subprocess.run([sys.executable, "-c", DIES_BEFORE_SHOWING, str(db_path),
                             dying_line, str(script)], capture_output=True, text=True,
                            timeout=300, check=False)
    assert killed.returncode == 9
    options = options_of(script.read_text(encoding="utf-8"))
    resumed = subprocess.run(sandbox_command(db_path, script, options.get("seed", 0),
                                             options.get("lang")),
                             capture_output=True, text=True, timeout=300, check=False)
    assert resumed.returncode == 0, resumed.stdout[:2000]
    assert resumed.stdout.splitlines().count(words) == 1, resumed.stdout


DIES_NOTING_PANELS = """
import asyncio, os, sys
from pathlib import Path
from bot.sandbox.runner import Sandbox
from storage.repositories.panels import PanelsRepo

async def dies(*args, **kwargs):
    os._exit(9)

async def main():
    PanelsRepo.put_many = dies  # the first panels sent, then the process dies
    script = Path(sys.argv[2])
    sandbox = Sandbox(seed=11, db_path=Path(sys.argv[1]), emit=print)
    await sandbox.start()
    await sandbox.run_lines(script.read_text(encoding="utf-8").splitlines())

asyncio.run(main())
"""


async def test_killed_between_sending_panels_and_noting_them(tmp_path: Path) -> None:
    """Killed in the middle of the Cup playoff's opening, its first HP match's panels
    sent and not noted: the resumed process sends those players their panels again (at
    start-up: a live match with its board out and a player without a panel), opens the
    other semi-final and ends as an uninterrupted run; the group stage's end is said once."""
    script = SCENARIOS / "hidden_input.txt"
    text = script.read_text(encoding="utf-8")
    output, expected = await run_and_export(text, text.splitlines(),
                                            tmp_path / "whole.sqlite3")
    db_path = tmp_path / "killed.sqlite3"
    killed = subprocess.run([sys.executable, "-c", DIES_NOTING_PANELS, str(db_path),
                             str(script)], capture_output=True, text=True, timeout=300,
                            check=False)
    assert killed.returncode == 9
    resumed = subprocess.run(sandbox_command(db_path, script, 11), capture_output=True,
                             text=True, timeout=300, check=False)
    assert resumed.returncode == 0, resumed.stdout[:2000]
    assert "alice@dm: ⚔️ Матч #7" in resumed.stdout.split("\n→ cup:")[0]
    stage_over = "Групповой этап окончен"  # (the second Cup's too)
    assert (killed.stdout + resumed.stdout).count(stage_over) == "\n".join(output).count(
        stage_over)
    assert timeless(await final_exports(db_path)) == timeless(expected)


async def test_killed_after_a_correction_put_a_player_in_the_next_match_it_is_said_later(
        tmp_path: Path) -> None:
    """A corrected semi-final puts Dave in the final: the process dies right after the
    final's row is written with him, before its board is drawn or anything is said. The
    next start goes on from there: the board is drawn with his name and the correction is
    said with the line that he plays in Alice's place (the replacement was noted with the
    row, so a run again finds it), so the transcript ends as an uninterrupted run (his
    bull-off press used to find the board still naming Alice)."""
    script = SCENARIOS / "formats_bracket_correction_next_made.txt"
    text = script.read_text(encoding="utf-8")
    _, expected = await run_and_export(text, text.splitlines(), tmp_path / "whole.sqlite3")
    db_path = tmp_path / "killed.sqlite3"
    killed = subprocess.run([sys.executable, "-c", DIES_AFTER_THE_REPLACEMENT, str(db_path),
                             str(script)], capture_output=True, timeout=300, check=False)
    assert killed.returncode == 9
    resumed = subprocess.run(sandbox_command(db_path, script, 1, "en"), capture_output=True,
                             text=True, timeout=300, check=False)
    assert resumed.returncode == 0, resumed.stdout[:2000]
    assert "Dave plays Bob in Alice's place" in resumed.stdout
    assert timeless(await final_exports(db_path)) == timeless(expected)


RUNS_THE_TRANSCRIPT = """
async def main():
    {patch}
    script = Path(sys.argv[2])
    sandbox = Sandbox(seed=1, db_path=Path(sys.argv[1]), language="en", emit=lambda line: None)
    await sandbox.start()
    await sandbox.run_lines(script.read_text(encoding="utf-8").splitlines())

asyncio.run(main())
"""
"""The end of a dying script (``python -c``): ``patch`` put in place, the transcript at
``sys.argv[2]`` run on the database at ``sys.argv[1]``."""


DIES_AFTER_THE_REPLACEMENT = """
import asyncio, os, sys
from pathlib import Path
from bot.sandbox.runner import Sandbox
from storage.db import Database

end = Database._end
REPLACED = "SELECT 1 FROM match_actions WHERE payload LIKE '%\\"replace\\"%'"

def dies_after(db, *, commit):
    end(db, commit=commit)
    if commit and db.connection.raw.execute(REPLACED).fetchone() is not None:
        os._exit(9)  # the row is written with the new player, then the process dies

""" + RUNS_THE_TRANSCRIPT.format(patch="Database._end = dies_after")


DIES_AFTER_THE_WORDS = """
import asyncio, os, sys
from pathlib import Path
import bot.features.formats.runner as runner
from bot.sandbox.runner import Sandbox

said = runner._say

async def dies_after(services, tournament, text, **kwargs):
    await said(services, tournament, text, **kwargs)
    if sys.argv[3] in text:  # the words are out, then the process dies
        os._exit(9)

""" + RUNS_THE_TRANSCRIPT.format(patch="runner._say = dies_after")


async def test_killed_after_a_correction_is_said_the_new_players_board_is_drawn(
        tmp_path: Path) -> None:
    """A corrected semi-final puts Dave in the final: its board is drawn with his name
    before the correction is said, so a bot that dies right after the words (the step
    done, noted) has the board to press when it comes back (it used to be drawn after
    them, and never again)."""
    script = SCENARIOS / "formats_bracket_correction_next_made.txt"
    text = script.read_text(encoding="utf-8")
    _, expected = await run_and_export(text, text.splitlines(), tmp_path / "whole.sqlite3")
    db_path = tmp_path / "killed.sqlite3"
    killed = subprocess.run([sys.executable, "-c", DIES_AFTER_THE_WORDS, str(db_path),
                             str(script), "Dave plays Bob in Alice's place"],
                            capture_output=True, timeout=300, check=False)
    assert killed.returncode == 9
    resumed = subprocess.run(sandbox_command(db_path, script, 1, "en"), capture_output=True,
                             text=True, timeout=300, check=False)
    assert resumed.returncode == 0, resumed.stdout[:2000]
    assert timeless(await final_exports(db_path)) == timeless(expected)


IDLE_GAME = """\
# seed: 1
# lang: en
org@nd: hi
kira@nd: hi
lev@nd: hi
kira@dm: /start
lev@dm: /start
org@nd: /new backgammon Test format=round_robin length=5 clock=60+5 idle=2
kira@nd: /register
lev@nd: /register
org@nd: /begin
! advance 2m
! advance 90s
"""


async def test_a_clock_move_cut_off_by_a_kill_counts_from_where_it_began(tmp_path: Path) -> None:
    """Killed while ``! advance 2m`` runs the idle clock that loses game 1 (its loss written,
    not yet shown), the resumed run moves the clock on to the same moment as an uninterrupted
    run, counted from the line's start, not from the last moment the killed run wrote: game
    2's own idle clock does not run out on the way (the match was lost 5:0 so)."""
    script = tmp_path / "idle.txt"
    script.write_text(IDLE_GAME, encoding="utf-8")
    _, expected = await run_and_export(IDLE_GAME, IDLE_GAME.splitlines(),
                                       tmp_path / "whole.sqlite3")
    db_path = tmp_path / "killed.sqlite3"
    killed = subprocess.run([sys.executable, "-c", DIES_BEFORE_SHOWING, str(db_path),
                             "! advance 2m", str(script)], capture_output=True, timeout=300,
                            check=False)
    assert killed.returncode == 9
    resumed = subprocess.run(sandbox_command(db_path, script, 1, "en"), capture_output=True,
                             text=True, timeout=300, check=False)
    assert resumed.returncode == 0, resumed.stdout[:2000]
    assert expected[0]["tournament"]["status"] == "running"
    assert timeless(await final_exports(db_path)) == timeless(expected)
