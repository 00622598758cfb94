"""A match's clocks remembered (storage/cache.py ``MATCH_JOBS``): read once, left by the
write that replaces them, forgotten by every other write of the jobs table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from storage.cache import ReadCache
from storage.db import Database
from storage.repositories.jobs import JobsRepo, _job, replace_match_jobs
from storage.repositories.tournaments import TournamentsRepo
from storage.repositories.users import ChatsRepo, UsersRepo
from tests.sql_trace import sql_trace

NOW = datetime(2026, 1, 1, tzinfo=UTC)
KINDS = ("turn", "idle")


@pytest.fixture
async def repo(tmp_path, monkeypatch):
    monkeypatch.setattr(ReadCache, "verify", False)  # compared with the table by hand
    db = await Database.open(tmp_path / "jobs.sqlite3")
    await UsersRepo(db).upsert(1, "org", "Org", "ru", NOW)
    await ChatsRepo(db).upsert(-100, "supergroup", "cup", "ru")
    await TournamentsRepo(db).create(-100, "cup", "Cup", {}, 1, NOW)
    yield JobsRepo(db)
    await db.close()


async def stored(repo: JobsRepo, match_id: int) -> list:
    rows = await repo.db.fetchall(
        "SELECT * FROM jobs WHERE match_id = ? AND status IN ('pending', 'frozen')"
        " AND kind IN ('turn', 'idle') ORDER BY id", (match_id,))
    return [_job(row) for row in rows]


async def replace(repo: JobsRepo, match_id: int, seq: int) -> None:
    await repo.replace_for_match(match_id, KINDS, [
        ("turn", NOW + timedelta(minutes=seq), {"seq": seq, "seat": 0}),
        ("idle", NOW + timedelta(minutes=2 * seq), {"seq": seq})], 1)


async def test_replaced_clocks_are_read_without_a_select(repo) -> None:
    await replace(repo, 7, 1)
    assert await repo.for_match(7, KINDS) == await stored(repo, 7)
    await replace(repo, 7, 2)
    with sql_trace(repo.db) as statements:
        found = await repo.for_match(7, ("turn",))
        both = await repo.for_match(7, KINDS)
    assert [s for s in statements if s.startswith("SELECT")] == []
    assert found == [job for job in await stored(repo, 7) if job.kind == "turn"]
    assert found[0].payload == {"match_id": 7, "seq": 2, "seat": 0}
    assert both == await stored(repo, 7)  # the ids of one statement's rows in their order


async def test_every_other_write_of_the_jobs_is_seen(repo) -> None:
    """Each write below changes match 7's clocks; the answer after it is the table's."""
    await replace(repo, 7, 1)
    writes = [
        lambda: repo.move_for_match(7, KINDS, 5),
        lambda: repo.freeze(1, KINDS, NOW),
        lambda: repo.thaw(1, NOW),
        lambda: repo.delay_in_chat(-100, KINDS, 30),
        lambda: repo.take_due(1, ("idle",), NOW + timedelta(days=1), 0),
        lambda: repo.add("turn", NOW, 1, match_id=7, seq=9),
        lambda: repo.db.write(lambda tx: replace_match_jobs(
            tx, 7, KINDS, [("turn", NOW, {"seq": 10})], 1, paused_at=NOW)),
        lambda: repo.cancel_for_match(7, KINDS),
    ]
    for write in writes:
        assert await repo.for_match(7, KINDS) == await stored(repo, 7)  # remembered
        await write()
        assert await repo.for_match(7, KINDS) == await stored(repo, 7)
    assert await repo.for_match(7, KINDS) == []


async def test_a_rolled_back_replacement_leaves_the_clocks_that_stand(repo) -> None:
    await replace(repo, 7, 1)
    before = await repo.for_match(7, KINDS)

    async def fails(tx) -> None:
        await replace_match_jobs(tx, 7, KINDS, [("turn", NOW, {"seq": 2})], 1)
        raise RuntimeError("the action's write fails")
    with pytest.raises(RuntimeError):
        await repo.db.write(fails)
    assert await repo.for_match(7, KINDS) == before == await stored(repo, 7)
