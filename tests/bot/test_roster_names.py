"""A name an organiser types with /add is held to the same length as a player's own."""

from __future__ import annotations

from pathlib import Path

from bot.features.registration import MAX_FREE_NAME
from bot.sandbox.runner import Sandbox


async def test_a_pasted_novel_is_not_an_entrant_name(tmp_path: Path) -> None:
    output: list[str] = []
    sandbox = Sandbox(db_path=tmp_path / "db.sqlite3", language="en", emit=output.append)
    await sandbox.start()
    try:
        await sandbox.run_lines(["org@d: /new shanghai T", "bob@d: hi",
                                 "org@d: /add @bob " + "x" * 4000, "org@d: /players"])
    finally:
        await sandbox.close()
    players = output[-1]
    assert "x" * MAX_FREE_NAME in players and "x" * (MAX_FREE_NAME + 1) not in players
