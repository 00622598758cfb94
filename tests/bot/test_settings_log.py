"""/settings is written to the organiser log as the pairs and the new title it was given,
a title with spaces kept whole."""

from __future__ import annotations

from pathlib import Path

from tests.bot.sandbox_run import opened


async def test_a_new_title_is_logged_whole(tmp_path: Path) -> None:
    async with opened(tmp_path) as sandbox:
        await sandbox.run_lines(["org@g: /new shanghai Board Night",
                                 "org@g: /settings legs=5 title=Board Night II"])
        log = await sandbox.app.services.repos.organiser_log.for_tournament(1)
    [entry] = [e for e in log if e["action"] == "settings"]
    assert entry["details"]["changes"] == ["legs=5", "title=Board Night II"]
