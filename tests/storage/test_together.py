"""``Database.together``: the writes of a block in one transaction, with the update's claim."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from storage.db import Database, in_order
from storage.repositories.organiser_log import OrganiserLogRepo
from storage.repositories.tournaments import TournamentsRepo
from storage.repositories.updates import ProcessedUpdatesRepo
from storage.repositories.users import ChatsRepo, UsersRepo

NOW = datetime(2026, 12, 3, 15, 0, tzinfo=UTC)


@pytest.fixture
async def db(tmp_path):
    database = await Database.open(tmp_path / "together.sqlite3")
    await ChatsRepo(database).upsert(-100, "supergroup", "cup", "ru")
    await UsersRepo(database).upsert(1, "org", "Org", "ru", NOW)
    yield database
    await database.close()


async def _count(db: Database, table: str) -> int:
    return (await db.fetchone(f"SELECT count(*) FROM {table}"))[0]


async def _new_and_log(db: Database) -> int:
    tournament = await TournamentsRepo(db).create(-100, "cup", "Cup", {}, 1, NOW)
    await OrganiserLogRepo(db).record(1, "new", NOW, tournament_id=tournament.id)
    return tournament.id


async def test_the_writes_of_a_block_commit_once_and_together(db: Database) -> None:
    with db.tracking_writes() as writes:
        async with db.together():
            await _new_and_log(db)
            assert db.connection.raw.in_transaction  # not committed inside the block
    assert writes.count == 1
    assert not db.connection.raw.in_transaction
    assert await _count(db, "tournaments") == 1 and await _count(db, "organiser_log") == 1


async def test_a_block_that_raises_leaves_none_of_its_writes(db: Database) -> None:
    with pytest.raises(RuntimeError):
        async with db.together():
            await _new_and_log(db)
            raise RuntimeError("the command failed after its first write")
    assert await _count(db, "tournaments") == 0 and await _count(db, "organiser_log") == 0


async def test_the_update_in_hand_is_claimed_in_the_blocks_transaction(db: Database) -> None:
    updates = ProcessedUpdatesRepo(db)
    with db.tracking_writes(77, NOW) as writes:
        async with db.together():
            await _new_and_log(db)
            assert not await updates.seen(77)
    assert writes.count == 1
    assert await updates.seen(77) and 77 in db.claimed
    assert await db.fetchone("SELECT 1 FROM processed_updates WHERE update_id = 77")
    assert not await updates.claim(77, NOW)  # the middleware's claim afterwards: no write
    assert writes.count == 1


async def test_a_rolled_back_block_claims_nothing(db: Database) -> None:
    with db.tracking_writes(78, NOW), pytest.raises(RuntimeError):
        async with db.together():
            await _new_and_log(db)
            raise RuntimeError
    assert 78 not in db.claimed and not await ProcessedUpdatesRepo(db).seen(78)


async def test_a_task_started_in_the_block_writes_in_a_transaction_of_its_own(
        db: Database) -> None:
    """The task waits for the block's transaction instead of writing into it (it may
    outlive the block)."""
    async with db.together():
        task = asyncio.create_task(_new_and_log(db))
        await asyncio.sleep(0.01)
        assert not task.done()  # waiting for the write lock the block holds
        await OrganiserLogRepo(db).record(1, "settings", NOW)
    await task
    assert await _count(db, "organiser_log") == 2


async def test_blocks_nest_into_the_outer_one(db: Database) -> None:
    with db.tracking_writes() as writes, pytest.raises(RuntimeError):
        async with db.together():
            async with db.together():
                await _new_and_log(db)
            raise RuntimeError
    assert writes.count == 0 and await _count(db, "tournaments") == 0


async def test_pieces_in_order_are_one_write_answered_by_the_last(db: Database) -> None:
    """``in_order``: the pieces run in order in one transaction, ``None`` skipped, and the
    last piece's answer is the write's (a log entry, then the job that follows)."""
    ran: list[str] = []

    def piece(name: str):
        async def write(tx) -> str:
            ran.append(name)
            await tx.execute("INSERT INTO processed_updates (update_id, processed_at)"
                             " VALUES (?, ?)", (len(ran), "2026-12-03 15:00:00"))
            return name
        return write

    with db.tracking_writes() as writes:
        answer = await db.write(in_order(piece("entry"), None, piece("job")))
    assert (answer, ran, writes.count) == ("job", ["entry", "job"], 1)
    assert await _count(db, "processed_updates") == 2
