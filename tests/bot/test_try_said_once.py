"""A /try a Cup match waits for is said only once it is written: a write that fails says
nothing (the outcome used to be replied before the action was logged), and the /try sent
again is said once."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.bot.sandbox_run import opened, scenario_until


def _outcomes(lines: list[str]) -> list[str]:
    return [line for line in lines if "Alice_Smith: Удачно" in line
            or "Alice_Smith: Неудачно" in line]


async def test_a_try_whose_write_fails_is_not_said(tmp_path: Path, monkeypatch) -> None:
    setup = scenario_until("cup_full_four", "alice@cup: /try")  # the 3rd-place vote waits
    output: list[str] = []
    failed: list[dict] = []
    async with opened(tmp_path, seed=3, language="ru", emit=output.append) as sandbox:
        await sandbox.run_lines(setup)
        matches = sandbox.app.services.matches
        real_apply = matches.apply

        async def fails_once(match, actions, *args, **kwargs):
            if actions[0].get("type") == "try" and not failed:
                failed.append(actions[0])
                raise sqlite3.OperationalError("disk I/O error")
            return await real_apply(match, actions, *args, **kwargs)
        monkeypatch.setattr(matches, "apply", fails_once)
        start = len(output)
        await sandbox.line("alice@cup: /try")
        assert failed and not _outcomes(output[start:]), output[start:]
        await sandbox.line("alice@cup: /try")
    assert len(_outcomes(output[start:])) == 1, output[start:]
