"""A restart changes nothing: every transcript of tests/scenarios with ``! restart`` inserted
at seeded random lines (and split at one more into two sandbox runs on one database) prints
the same and exports the same (action times included) as the run without it.

The one thing a restart changes on purpose is time: the sending layer does not know what the
previous process sent in the last minute, so after a busy restart the group rate windows start
full and the next messages wait (tests/bot/test_reliability_restart.py). The scenario runs
here therefore lift the rate limits, and with them that wait, and check everything else.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import bot.app
import bot.sending
from bot.features.export import collect
from bot.sandbox.runner import Sandbox
from tests.bot.test_scenarios import _scenarios, options_of

RESTARTS = 2
NEW_RUN = "! new run"  # not a sandbox directive: where these tests start a second run


async def run_and_export(text: str, lines: list[str], db_path: Path) -> tuple[list[str], list]:
    """Run ``lines`` (a line ``! new run`` ends one sandbox run and starts another on the
    same database, as a second ``python -m bot sandbox --db`` would); return what was
    printed and every tournament's export."""
    options = options_of(text)
    output: list[str] = []
    runs = "\n".join(lines).split(f"\n{NEW_RUN}\n")
    for number, run in enumerate(runs, start=1):
        sandbox = Sandbox(seed=int(options.get("seed", 0)), db_path=db_path,
                          language=options.get("lang", "ru"), emit=output.append)
        await sandbox.start()
        try:
            await sandbox.run_lines(run.splitlines())
            if number == len(runs):
                return output, await exports(sandbox)
        finally:
            await sandbox.close()
    raise AssertionError("unreachable")


async def exports(sandbox: Sandbox) -> list[dict]:
    services = sandbox.app.services
    found, number = [], 1
    while tournament := await services.repos.tournaments.get(number):
        found.append(await collect(services, tournament))
        number += 1
    return found


def with_restarts(name: str, lines: list[str], count: int = RESTARTS) -> list[str]:
    """``lines`` with ``! restart`` before ``count`` seeded lines that are carried out, and
    a new run of the sandbox before one more."""
    steps = [i for i, line in enumerate(lines) if line.strip() and not line.startswith("#")]
    chosen = random.Random(f"restart:{name}").sample(steps[1:], min(count + 1, len(steps) - 1))
    breaks = {i: "! restart" for i in chosen[:count]} | {i: NEW_RUN for i in chosen[count:]}
    out = []
    for i, line in enumerate(lines):
        if i in breaks:
            out.append(breaks[i])
        out.append(line)
    return out


@pytest.fixture
def no_rate_limit(monkeypatch) -> None:
    monkeypatch.setattr(bot.sending, "GROUP_LIMIT", (10**9, 60.0))
    monkeypatch.setattr(bot.sending, "GLOBAL_LIMIT", (10**9, 1.0))
    monkeypatch.setattr(bot.app, "_resumed_at", _never_resumed)


async def _never_resumed(db, clock) -> None:
    return None


@pytest.mark.parametrize("script", _scenarios(), ids=lambda p: p.stem)
@pytest.mark.usefixtures("no_rate_limit")
async def test_a_restart_anywhere_changes_nothing(script: Path, tmp_path: Path) -> None:
    text = script.read_text(encoding="utf-8")
    lines = text.splitlines()
    plain = await run_and_export(text, lines, tmp_path / "plain.sqlite3")
    restarted = await run_and_export(text, with_restarts(script.stem, lines),
                                     tmp_path / "restarted.sqlite3")
    assert restarted[0] == plain[0]
    assert restarted[1] == plain[1]
    assert plain[1] or "tournament" not in text.lower()
