"""What a restart must not lose or forget: the per-group rate windows (they start full after
recent activity) and the pruning of old update ids (done while running too)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.sandbox.runner import Sandbox


@pytest.fixture
async def sandbox(tmp_path: Path):
    box = Sandbox(seed=1, db_path=tmp_path / "restart.sqlite3", language="ru",
                  emit=lambda line: None)
    await box.start()
    yield box
    await box.close()


async def _first_answer_delay(box: Sandbox, before_restart: str) -> timedelta:
    await box.run_lines(["alice@dice: /help", before_restart, "! restart"])
    start = box.clock.now()
    await box.run_lines(["alice@dice: /help"])
    return box.clock.now() - start


async def test_a_restart_right_after_activity_starts_the_group_window_full(sandbox):
    assert await _first_answer_delay(sandbox, "! advance 5s") >= timedelta(seconds=55)


async def test_a_restart_after_a_quiet_minute_sends_at_once(sandbox):
    assert await _first_answer_delay(sandbox, "! advance 2m") == timedelta(0)


async def test_old_update_ids_are_forgotten_while_running(sandbox):
    db = sandbox.app.services.db
    await sandbox.run_lines(["alice@dm: /lang en", "! advance 3d", "alice@dm: /lang ru"])
    rows = await db.fetchall("SELECT update_id FROM processed_updates")
    assert len(rows) == 1
