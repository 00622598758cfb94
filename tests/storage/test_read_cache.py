"""The read cache (storage/cache.py): answers remembered until a write forgets them, and a
write that knows the next answer remembers it only when its transaction commits."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from storage.cache import ReadCache, Recent
from storage.db import Database
from storage.repositories.matches import MatchesRepo
from storage.repositories.tournaments import EntrantsRepo, TournamentsRepo
from storage.repositories.users import ChatsRepo, UsersRepo
from tests.sql_trace import sql_trace

REGION = "test-region"


@pytest.fixture
async def db(tmp_path, monkeypatch):
    monkeypatch.setattr(ReadCache, "verify", False)  # count the reads a hit saves
    database = await Database.open(tmp_path / "cache.sqlite3")
    await database.write(lambda tx: tx.execute("CREATE TABLE counter (n INTEGER)"))
    await database.write(lambda tx: tx.execute("INSERT INTO counter VALUES (1)"))
    yield database
    await database.close()


def reader(db: Database, calls: list[int]):
    async def read() -> int:
        calls.append(1)
        return (await db.fetchone("SELECT n FROM counter"))[0]
    return read


async def set_counter(db: Database, value: int, *, remember: bool, fail: bool = False) -> None:
    async def work(tx):
        await tx.execute("UPDATE counter SET n = ?", (value,))
        if remember:
            db.reads.remember_after(REGION, "n", value)
        else:
            db.reads.forget_key(REGION, "n")
        if fail:
            raise RuntimeError("the unit of work fails")
    await db.write(work)


async def test_a_hit_costs_no_read_and_a_write_forgets_it(db) -> None:
    calls: list[int] = []
    assert await db.reads.get(REGION, "n", reader(db, calls)) == 1
    assert await db.reads.get(REGION, "n", reader(db, calls)) == 1
    assert len(calls) == 1
    await set_counter(db, 2, remember=False)
    assert await db.reads.get(REGION, "n", reader(db, calls)) == 2
    assert len(calls) == 2


async def test_a_committed_write_remembers_the_answer_it_knows(db) -> None:
    calls: list[int] = []
    await set_counter(db, 5, remember=True)
    assert await db.reads.get(REGION, "n", reader(db, calls)) == 5
    assert calls == []


async def test_a_failed_write_remembers_nothing(db) -> None:
    calls: list[int] = []
    assert await db.reads.get(REGION, "n", reader(db, calls)) == 1
    with pytest.raises(RuntimeError):
        await set_counter(db, 9, remember=True, fail=True)
    assert await db.reads.get(REGION, "n", reader(db, calls)) == 1
    assert len(calls) == 2  # forgotten at the write, read again from the rolled-back table


async def test_a_later_write_of_the_transaction_wins_over_an_answer_remembered_before(
        db) -> None:
    """Two writes in one transaction (``Database.together``): the first knows the answer,
    the second changes it without knowing it; the first answer must not be remembered."""
    calls: list[int] = []
    async with db.together():
        await set_counter(db, 5, remember=True)
        await set_counter(db, 6, remember=False)
    assert await db.reads.get(REGION, "n", reader(db, calls)) == 6
    assert calls == [1]
    async with db.together():
        await set_counter(db, 7, remember=False)
        await set_counter(db, 8, remember=True)
    assert await db.reads.get(REGION, "n", reader(db, calls)) == 8
    assert calls == [1]


def test_recent_forgets_the_entry_least_recently_set_or_used() -> None:
    recent = Recent(2)
    recent["a"], recent["b"] = 1, 2
    assert recent.use("a") == 1  # "b" is now the oldest
    recent["c"] = 3
    assert list(recent) == ["a", "c"] and recent.use("b", "gone") == "gone"
    recent["a"] = 4  # set again: the newest
    recent["d"] = 5
    assert dict(recent) == {"a": 4, "d": 5}


async def test_a_write_in_one_chat_leaves_another_chats_lookups_remembered(tmp_path,
                                                                           monkeypatch) -> None:
    """Which tournaments a chat has and which match is a player's there are remembered per
    chat: a state saved, a status set or a match started in one chat does not make another
    chat read them again; in its own chat it does."""

    monkeypatch.setattr(ReadCache, "verify", False)
    now = datetime(2026, 10, 21, 17, 0, tzinfo=UTC)
    db = await Database.open(tmp_path / "chats.sqlite3")
    tournaments, matches = TournamentsRepo(db), MatchesRepo(db)
    try:
        await UsersRepo(db).upsert(1, "org", "Org", "ru", now)
        chats = {}
        for chat in (-100, -200):
            await ChatsRepo(db).upsert(chat, "supergroup", "cup", "ru")
            chats[chat] = await tournaments.create(chat, "cup", "Cup", {}, 1, now)
            await tournaments.set_status(chats[chat].id, "running", now)

        async def read_all(chat: int) -> None:
            await tournaments.active_in_chat(chat)
            await tournaments.get(chats[chat].id)
            await matches.live_for_player_in_chat(chat, 1)
            await matches.current_for_player(chats[chat].id, 1)

        for chat in chats:
            await read_all(chat)
        first = chats[-100].id
        await tournaments.set_state(first, "round", 2)
        await tournaments.set_status(first, "paused", now)
        await matches.create(first, "groups", 1, "G1", "group", 1, 2, now, status="running")
        with sql_trace(db) as other:
            await read_all(-200)
        with sql_trace(db) as own:
            await read_all(-100)
    finally:
        await db.close()
    assert other == []
    assert len(own) == 5, own  # its list, its row, both lookups and the new match's row


async def test_the_least_recently_used_region_is_dropped_whole(db) -> None:
    """A region per chat stays bounded: past ``regions`` regions the one least recently
    read is forgotten (it is read again), the others are kept."""
    cache = ReadCache(regions=2)
    calls: list[int] = []
    for region in ("chat-a", "chat-b", "chat-a", "chat-c", "chat-a", "chat-b"):
        await cache.get(region, "n", reader(db, calls))
    assert len(calls) == 4  # a, b, c, then b again: dropped when c came (a was read later)


NOW = datetime(2026, 12, 3, tzinfo=UTC)


@pytest.fixture
async def one_chat(tmp_path, monkeypatch):
    """A database with an organiser (user 1) and a group (-100): its tournament and match
    repositories, reading through the cache without verifying it."""
    monkeypatch.setattr(ReadCache, "verify", False)
    db = await Database.open(tmp_path / "one-chat.sqlite3")
    await UsersRepo(db).upsert(1, "org", "Org", "ru", NOW)
    await ChatsRepo(db).upsert(-100, "supergroup", "cup", "ru")
    yield db, TournamentsRepo(db), MatchesRepo(db)
    await db.close()


async def test_a_tournaments_chat_is_read_once_for_all_its_writes(one_chat) -> None:
    """A write to a tournament or to one of its matches forgets its chat's reads, so it
    must know the chat: read once (a new tournament's is known), never the whole row again
    after each write forgot it."""
    db, tournaments, matches = one_chat
    cup = await tournaments.create(-100, "cup", "Cup", {}, 1, NOW)
    with sql_trace(db) as statements:
        for round_no in range(3):
            await tournaments.set_state(cup.id, "round", round_no)
        await tournaments.set_status(cup.id, "running", NOW)
        await matches.create(cup.id, "groups", 1, "G1", "group", 1, 2, NOW)
    reads = [s for s in statements if s.startswith("SELECT") and "tournaments" in s]
    assert reads == [], reads


async def test_an_id_asked_for_before_it_exists_reads_as_the_row_once_inserted(
        one_chat) -> None:
    """Anyone can name an id that does not exist yet (``/players #2``, a forged button of
    match 3); the "none" answer remembered then must not outlive the row's insert, or the
    tournament or match made next with that id reads as missing (the fuzzer found
    ``/new`` failing that way, and matches that could not start)."""
    _, tournaments, matches = one_chat
    assert await tournaments.get(1) is None
    made = await tournaments.create(-100, "cup", "Cup", {}, 1, NOW)
    assert made is not None and made.id == 1
    assert await matches.get(1) is None
    match = await matches.create(made.id, "groups", 1, "G1", "group", 1, 2, NOW)
    assert (await matches.get(1)) == match


async def test_a_topics_match_is_read_again_once_a_match_gets_that_topic(one_chat) -> None:
    """Which match a forum topic holds is a chat lookup: a match given the topic after the
    lookup answered "none" is found there (typed moves in its topic go to it)."""
    _, tournaments, matches = one_chat
    cup = await tournaments.create(-100, "cup", "Cup", {}, 1, NOW)
    match = await matches.create(cup.id, "groups", 1, "G1", "group", 1, 2, NOW)
    assert await matches.in_topic(-100, 16) is None
    await matches.update(match.id, NOW, thread_id=16)
    assert (await matches.in_topic(-100, 16)).id == match.id
    assert await matches.tournament_of_topic(-100, 16) == cup.id
    assert await matches.in_topic(-100, 18) is None


async def test_the_entrants_names_follow_a_rename_and_a_users_new_name(one_chat) -> None:
    """A match's context names its players from the remembered map of every entrant's
    name: an entrant's new display name, or a user's new Telegram name, shows at once."""
    db, tournaments, _ = one_chat
    entrants = EntrantsRepo(db)
    cup = await tournaments.create(-100, "cup", "Cup", {}, 1, NOW)
    await UsersRepo(db).upsert(2, None, "Bob", "ru", NOW)
    await entrants.put(cup.id, 2, "approved", NOW)
    assert (await entrants.labels(cup.id))[2] == "Bob"
    await entrants.update(cup.id, 2, NOW, display_name="Bobby")
    assert (await entrants.labels(cup.id))[2] == "Bobby"
    await entrants.update(cup.id, 2, NOW, display_name=None)
    await UsersRepo(db).upsert(2, None, "Robert", "ru", NOW)
    assert (await entrants.labels(cup.id))[2] == "Robert"
