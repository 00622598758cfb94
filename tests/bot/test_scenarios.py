"""Transcript scenarios: each tests/scenarios/NAME.txt is run through the sandbox and its
output must equal NAME.out. A header line ``# seed: N`` / ``# lang: en`` sets the options.

To record a new scenario's output: ``UPDATE_SCENARIOS=1 pytest tests/bot/test_scenarios.py``,
then read the .out file line by line before committing it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bot.sandbox.runner import Sandbox

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
_OPTION = re.compile(r"^#\s*(seed|lang):\s*(\S+)\s*$", re.MULTILINE)


def _scenarios() -> list[Path]:
    return sorted(SCENARIOS.glob("*.txt"))


def options_of(text: str) -> dict[str, str]:
    return dict(_OPTION.findall(text))


async def run_scenario(script: Path, db_path: Path) -> list[str]:
    text = script.read_text(encoding="utf-8")
    options = options_of(text)
    output: list[str] = []
    sandbox = Sandbox(seed=int(options.get("seed", 0)), db_path=db_path,
                      language=options.get("lang", "ru"), emit=output.append)
    await sandbox.start()
    try:
        await sandbox.run_lines(text.splitlines())
    finally:
        await sandbox.close()
    return output


@pytest.mark.parametrize("script", _scenarios(), ids=lambda p: p.stem)
async def test_scenario(script: Path, tmp_path: Path) -> None:
    output = await run_scenario(script, tmp_path / "scenario.sqlite3")
    expected_file = script.with_suffix(".out")
    if os.environ.get("UPDATE_SCENARIOS") or not expected_file.exists():
        expected_file.write_text("\n".join(output) + "\n", encoding="utf-8")
        if not os.environ.get("UPDATE_SCENARIOS"):
            pytest.fail(f"{expected_file.name} did not exist; recorded it, read it and rerun")
    expected = expected_file.read_text(encoding="utf-8").splitlines()
    assert output == expected
    assert not any(line.startswith("!! error") for line in output) or "error" in script.stem


def test_forum_lines_are_typed_in_the_topics_the_bot_opened() -> None:
    """forum_topics plays each match in its own topic: a line after the start names a topic
    the bot opened (a topic id that drifted would open a new topic and test nothing)."""
    script = (SCENARIOS / "forum_topics.txt").read_text(encoding="utf-8")
    opened = set(re.findall(r"^⊕ (\w+/\d+): topic", (SCENARIOS / "forum_topics.out").read_text(
        encoding="utf-8"), re.MULTILINE))
    after_start = script[script.index("/begin"):]
    typed = set(re.findall(r"^\w+@(\w+/\d+):", after_start, re.MULTILINE))
    assert typed and typed <= opened, typed - opened
