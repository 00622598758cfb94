"""A rehearsal can be continued later: a second sandbox run on the same database file goes on
exactly as one long run would (README, "The sandbox")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.sandbox.runner import Sandbox
from tests.bot.test_scenarios import SCENARIOS, options_of, run_scenario

# A few kinds of state a second run must find; every scenario is also split in two runs by
# tests/bot/test_restart_determinism.py.
CONTINUED = ("cup_hp_and_betting", "darts_restart_mid_visit", "formats_reentry",
             "scheduled_start_restart", "privacy_warning")


async def _run(text: str, lines: list[str], db_path: Path, *, resume: bool = False) -> list[str]:
    options = options_of(text)
    output: list[str] = []
    sandbox = Sandbox(seed=int(options.get("seed", 0)), db_path=db_path,
                      language=options.get("lang", "ru"), emit=output.append)
    await sandbox.start()
    try:
        await sandbox.run_lines(lines, resume=resume)
    finally:
        await sandbox.close()
    return output


def _split_point(script: Path, lines: list[str]) -> int:
    """A seeded line in the middle half, the same on every run of the suite."""
    rng = random.Random(script.stem)
    return rng.randint(len(lines) // 4, 3 * len(lines) // 4)


@pytest.mark.parametrize("script", [SCENARIOS / f"{name}.txt" for name in CONTINUED],
                         ids=lambda p: p.stem)
async def test_two_runs_on_one_database_print_as_one_run(script: Path, tmp_path: Path) -> None:
    text = script.read_text(encoding="utf-8")
    lines = text.splitlines()
    cut = _split_point(script, lines)
    db_path = tmp_path / "rehearsal.sqlite3"
    output = await _run(text, lines[:cut], db_path) + await _run(text, lines[cut:], db_path)
    assert output == script.with_suffix(".out").read_text(encoding="utf-8").splitlines()


async def test_resume_skips_what_the_database_has_carried_out(tmp_path: Path) -> None:
    script = SCENARIOS / "cup_full_four.txt"
    text = script.read_text(encoding="utf-8")
    lines = text.splitlines()
    db_path = tmp_path / "rehearsal.sqlite3"
    first = await _run(text, lines[:40], db_path)
    rest = await _run(text, lines, db_path, resume=True)
    assert first + rest == await run_scenario(script, tmp_path / "whole.sqlite3")



async def test_a_button_and_a_topic_of_the_first_run_work_in_the_second(tmp_path: Path) -> None:
    db_path, output = tmp_path / "rehearsal.sqlite3", []
    first = Sandbox(seed=1, db_path=db_path, language="en", emit=output.append)
    await first.start()
    await first.line("org@cup/5: /new armchair Topic Cup approval=off")
    await first.line("! admin bot@cup")
    topic = await first.app.bot.create_forum_topic(first.world.group("cup").id, "Later")
    board = [line for line in output if line.startswith("→ cup/5: ")]
    await first.close()
    second = Sandbox(seed=99, db_path=db_path, language="en", emit=output.append)
    await second.start()
    try:
        cup = second.world.group("cup")
        assert cup.is_forum and cup.topics == {5, topic.message_thread_id}
        assert second.world.user("org").id == 1001 and second.world.user("new").id == 1002
        printed = len(output)
        await second.line("alice@cup/5: [📝 Register]")
        await second.line("! replay")
    finally:
        await second.close()
    assert board and second.errors == 0
    assert output[printed:] == ["→ alice@dm: ✅ Alice is entered in “Topic Cup”."]  # replay: once
