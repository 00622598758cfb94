"""A restart changes nothing: every transcript of tests/scenarios with ``! restart`` inserted
at seeded random lines (and split at one more into two sandbox runs on one database) prints
the same and exports the same (action times included) as the run without it.

Known defect, outside the sandbox: the sending layer's rate-limit windows (20 messages a
minute in a group) live in memory, so a restart forgets the last minute's sends and the
next messages go out earlier than without the restart (``test_the_rate_limit_survives_a_
restart`` shows it). The scenario runs therefore lift the limits, so they check everything
else; the defect has its own strict xfail, which fails once it is fixed.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import bot.sending
from bot.features.export import collect
from bot.sandbox.runner import Sandbox
from tests.bot.test_scenarios import SCENARIOS, _scenarios, options_of

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



@pytest.mark.xfail(strict=True, reason="bot/sending.py: rate-limit windows are in memory only")
async def test_the_rate_limit_survives_a_restart(tmp_path: Path) -> None:
    script = SCENARIOS / "formats_swiss_backgammon.txt"
    text = script.read_text(encoding="utf-8")
    lines = text.splitlines()
    plain = await run_and_export(text, lines, tmp_path / "plain.sqlite3")
    restarted = await run_and_export(text, with_restarts(script.stem, lines),
                                     tmp_path / "restarted.sqlite3")
    assert restarted[0] == plain[0]
