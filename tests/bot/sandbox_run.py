"""Running a script through the sandbox in a test: one helper for every test that does."""

from __future__ import annotations

from pathlib import Path

from bot.sandbox.runner import Sandbox


async def run_script(tmp_path: Path, script: str, *, seed: int = 1, language: str = "en",
                     files: bool = False) -> list[str]:
    """What the bot printed for ``script`` on a fresh database in ``tmp_path`` (its pictures
    and files saved under ``tmp_path / "out"`` when ``files``)."""
    output: list[str] = []
    sandbox = Sandbox(seed=seed, db_path=tmp_path / "db.sqlite3", language=language,
                      out_dir=tmp_path / "out" if files else None, emit=output.append)
    await sandbox.start()
    try:
        await sandbox.run_lines(script.splitlines())
    finally:
        await sandbox.close()
    return output
