"""Storage: migrations from empty, the action log and its replay, applied-once updates."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import aiosqlite
import pytest

from games.common.match import replay
from games.dice_cup import GroupMatch
from storage.cache import ReadCache
from storage.db import CACHE_KIB, Database, RecentIds, available_migrations
from storage.repositories.jobs import Job, JobsRepo
from storage.repositories.matches import DuplicateUpdate, MatchesRepo, NewMatch
from storage.repositories.organiser_log import OrganiserLogRepo
from storage.repositories.tournaments import EntrantsRepo, TournamentsRepo
from storage.repositories.updates import ProcessedUpdatesRepo
from storage.repositories.users import ChatsRepo, UsersRepo
from storage.timefmt import from_db, seconds_left, to_db
from tests.sql_trace import sql_trace

NOW = datetime(2026, 10, 21, 17, 0, tzinfo=UTC)


@pytest.fixture
async def db(tmp_path):
    database = await Database.open(tmp_path / "test.sqlite3")
    yield database
    await database.close()


async def _match(db: Database) -> int:
    await ChatsRepo(db).upsert(-100, "supergroup", "cup", "ru")
    await UsersRepo(db).upsert(1, "org", "Org", "ru", NOW)
    tournament = await TournamentsRepo(db).create(-100, "cup", "Cup", {}, 1, NOW)
    match = await MatchesRepo(db).create(tournament.id, "groups", 1, "G1", "group", 1, 2, NOW,
                                         status="running")
    return match.id


async def test_migrations_from_empty_apply_once(tmp_path) -> None:
    path = tmp_path / "fresh.sqlite3"
    database = await Database.open(path)
    versions = [v for v, _ in available_migrations()]
    rows = await database.fetchall("SELECT version FROM schema_migrations ORDER BY version")
    assert [r[0] for r in rows] == versions
    assert await database.migrate() == []
    mode = await database.fetchone("PRAGMA journal_mode")
    assert mode[0] == "wal"
    assert (await database.fetchone("PRAGMA foreign_keys"))[0] == 1
    assert (await database.fetchone("PRAGMA cache_size"))[0] == -CACHE_KIB
    await database.close()
    reopened = await Database.open(path)
    assert await reopened.migrate() == []
    await reopened.close()


async def test_action_log_replays_to_the_same_state(db: Database) -> None:
    match_id = await _match(db)
    repo = MatchesRepo(db)
    actions = [{"type": "roll", "player": 0, "value": 6}, {"type": "roll", "player": 1, "value": 2},
               {"type": "roll", "player": 1, "value": 5}, {"type": "roll", "player": 0, "value": 3}]
    for number, action in enumerate(actions, start=1):
        assert await repo.append(match_id, action, actor_id=1, now=NOW, update_id=number) == number
    logged = await repo.actions(match_id)
    assert [a.seq for a in logged] == [1, 2, 3, 4]
    rebuilt = replay(GroupMatch(), [a.payload for a in logged])
    direct = replay(GroupMatch(), actions)
    assert rebuilt.score == direct.score == (1, 1)


async def test_an_update_is_applied_once(db: Database) -> None:
    match_id = await _match(db)
    repo = MatchesRepo(db)
    await repo.append(match_id, {"type": "roll", "player": 0, "value": 4}, 1, NOW, update_id=77)
    with pytest.raises(DuplicateUpdate):
        await repo.append(match_id, {"type": "roll", "player": 0, "value": 4}, 1, NOW,
                          update_id=77)
    assert len(await repo.actions(match_id)) == 1
    updates = ProcessedUpdatesRepo(db)
    assert await updates.seen(77)
    assert not await updates.claim(77, NOW)


async def test_concurrent_duplicates_record_one_action(db: Database) -> None:
    match_id = await _match(db)
    repo = MatchesRepo(db)
    action = {"type": "roll", "player": 0, "value": 4}
    results = await asyncio.gather(*(repo.append(match_id, action, 1, NOW, update_id=5)
                                     for _ in range(5)), return_exceptions=True)
    assert sum(isinstance(r, int) for r in results) == 1
    assert sum(isinstance(r, DuplicateUpdate) for r in results) == 4
    assert len(await repo.actions(match_id)) == 1


async def test_sequence_numbers_are_unique_per_match(db: Database) -> None:
    match_id = await _match(db)
    with pytest.raises(aiosqlite.IntegrityError):
        async with db.transaction() as tx:
            for _ in range(2):
                await tx.execute("INSERT INTO match_actions (match_id, seq, payload, created_at)"
                                 " VALUES (?, 1, '{}', '')", (match_id,))
    assert await MatchesRepo(db).actions(match_id) == []


async def test_locked_database_write_is_retried_not_dropped(tmp_path) -> None:
    path = tmp_path / "shared.sqlite3"
    first = await Database.open(path)
    second = await Database.open(path)
    await first.connection.execute("PRAGMA busy_timeout=0")
    await second.connection.execute("PRAGMA busy_timeout=0")
    await ChatsRepo(first).upsert(-1, "group", "g", None)
    await second.connection.execute("BEGIN IMMEDIATE")  # another process holds the write lock

    async def release_later() -> None:
        await asyncio.sleep(0.3)
        await second.connection.commit()

    releaser = asyncio.create_task(release_later())
    await ChatsRepo(first).set_language(-1, "fi")  # must wait and then succeed
    await releaser
    assert (await ChatsRepo(second).get(-1)).language == "fi"
    await first.close()
    await second.close()


async def test_registration_state_survives_reopening(tmp_path) -> None:
    path = tmp_path / "reopen.sqlite3"
    database = await Database.open(path)
    await ChatsRepo(database).upsert(-100, "supergroup", "cup", "ru")
    await UsersRepo(database).upsert(1, "alice", "Alice", "ru", NOW, started=True)
    tournament = await TournamentsRepo(database).create(-100, "cup", "Cup", {}, 1, NOW)
    await EntrantsRepo(database).put(tournament.id, 1, "photo", NOW, "Alice_Smith")
    await database.close()
    reopened = await Database.open(path)
    entry = await EntrantsRepo(reopened).awaiting_input(1)
    assert (entry.display_name, entry.status) == ("Alice_Smith", "photo")
    await reopened.close()


async def test_a_stopped_form_is_forgotten_and_a_sent_application_is_not(db: Database) -> None:
    await ChatsRepo(db).upsert(-100, "supergroup", "cup", "ru")
    for user_id, name in ((1, "alice"), (2, "bob")):
        await UsersRepo(db).upsert(user_id, name, name.title(), "ru", NOW, started=True)
    tournament = await TournamentsRepo(db).create(-100, "cup", "Cup", {}, 1, NOW)
    entrants = EntrantsRepo(db)
    await entrants.put(tournament.id, 1, "photo", NOW, "Alice_Smith")
    await entrants.put(tournament.id, 2, "pending", NOW, "Bob_Stone")
    assert (await entrants.awaiting_input(1)).user_id == 1
    for user_id in (1, 2):
        await entrants.forget_form(tournament.id, user_id)
    assert await entrants.awaiting_input(1) is None
    assert [(e.user_id, e.status) for e in await entrants.list(tournament.id)] == [
        (2, "pending")]


async def test_old_update_ids_are_forgotten(db: Database) -> None:
    from datetime import timedelta

    updates = ProcessedUpdatesRepo(db)
    await updates.claim(1, NOW - timedelta(days=3))
    await updates.claim(2, NOW)
    assert await updates.forget_before(NOW - timedelta(days=2)) == 1
    restarted = await Database.open(db_path(db))  # a new process knows only the file
    try:
        again = ProcessedUpdatesRepo(restarted)
        assert not await again.seen(1) and await again.seen(2)
    finally:
        await restarted.close()


def db_path(db: Database) -> str:
    return db.connection.raw.execute("PRAGMA database_list").fetchone()["file"]


async def test_a_new_update_costs_no_query_a_redelivered_one_is_found(tmp_path) -> None:
    """Telegram numbers updates in increasing order: an id above every id claimed so far is
    new without asking the database; an id at or below them is looked up (a redelivery
    after a restart, or after this process's memory of recent ids moved on)."""
    path = tmp_path / "u.sqlite3"
    first = await Database.open(path)
    await ProcessedUpdatesRepo(first).claim(10, NOW)
    await first.close()
    db = await Database.open(path)
    statements: list[str] = []
    db.connection.raw.set_trace_callback(statements.append)
    updates = ProcessedUpdatesRepo(db)
    assert await updates.seen(10)  # claimed by the process before: found in the file
    assert not await updates.seen(9)
    statements.clear()
    assert not await updates.seen(11) and not await updates.seen(500)
    assert statements == []
    db.claimed = RecentIds(size=2)
    for update_id in (11, 12, 13):
        await updates.claim(update_id, NOW)
    statements.clear()
    assert await updates.seen(11)  # forgotten in memory (only 2 kept): asked of the file
    assert statements and not await updates.seen(14)
    await db.close()


async def test_a_friendly_is_not_one_of_the_chats_tournaments(db: Database) -> None:
    await ChatsRepo(db).upsert(-100, "supergroup", "cup", "ru")
    await UsersRepo(db).upsert(1, "org", "Org", "ru", NOW)
    repo = TournamentsRepo(db)
    cup = await repo.create(-100, "cup", "Cup", {}, 1, NOW)
    invited = await repo.create_friendly(-100, "cup", "Friendly", {}, 1, "invited", NOW)
    played = await repo.create_friendly(-100, "cup", "Friendly", {}, 1, "running", NOW)
    assert not cup.friendly and invited.friendly and invited.status == "invited"
    assert await repo.newest_in_chat(-100) == cup
    assert [t.id for t in await repo.active_in_chat(-100)] == [played.id, cup.id]
    assert await repo.friendlies_in_chat(-100) == [played]  # an unanswered invitation is not


async def test_a_group_made_a_supergroup_takes_its_tournaments_along(db: Database) -> None:
    """Telegram gives the supergroup a new id: the group's language, tournaments and
    organiser log move there, once (the second service message finds nothing to move), the
    matches forget their boards' message ids (ids of the old chat), and no remembered read
    still names the old chat (the suite's cache verifies every hit)."""
    chats, repo = ChatsRepo(db), TournamentsRepo(db)
    await chats.upsert(-100, "group", "darts", "fi")
    await UsersRepo(db).upsert(1, "org", "Org", "ru", NOW)
    cup = await repo.create(-100, "cup", "Cup", {}, 1, NOW)
    await OrganiserLogRepo(db).record(1, "new", NOW, tournament_id=cup.id, chat_id=-100)
    matches = MatchesRepo(db)
    match = await matches.create(cup.id, "groups", 1, "G1", "group", 1, 2, NOW, status="running")
    await matches.update(match.id, NOW, board_message_id=7)
    assert (await matches.get(match.id)).board_message_id == 7  # remembered before the move
    assert await repo.newest_in_chat(-100) == cup
    await chats.upsert(-200, "supergroup", "darts", "en")  # the first update from the new id
    assert await chats.move(-100, -200) == 1
    assert await chats.move(-100, -200) == 0
    assert (await chats.get(-200)).language == "fi"
    assert (await chats.get(-200)).migrated_from == -100
    assert await repo.newest_in_chat(-100) is None
    assert [t.id for t in await repo.active_in_chat(-200)] == [cup.id]
    assert (await repo.get(cup.id)).chat_id == -200
    assert [row["chat_id"] for row in await OrganiserLogRepo(db).for_tournament(cup.id)] == [-200]
    assert (await matches.get(match.id)).board_message_id is None


async def database_before(version: int, tmp_path, monkeypatch) -> Database:
    """A database at the schema before migration ``version``; ``migrate()`` then applies the
    rest."""
    import storage.db

    every = available_migrations()
    monkeypatch.setattr(storage.db, "available_migrations",
                        lambda: [(v, sql) for v, sql in every if v < version])
    database = await Database.open(tmp_path / "old.sqlite3")
    monkeypatch.setattr(storage.db, "available_migrations", lambda: every)
    return database


async def test_migration_006_turns_pending_hp_reminders_into_late_clocks(tmp_path,
                                                                         monkeypatch) -> None:
    database = await database_before(6, tmp_path, monkeypatch)
    await ChatsRepo(database).upsert(-100, "supergroup", "cup", "ru")
    await UsersRepo(database).upsert(1, "org", "Org", "ru", NOW)
    tournament = await TournamentsRepo(database).create(-100, "cup", "Cup", {}, 1, NOW)
    async def insert(tx):  # the match row as the schema before migration 006 has it
        cursor = await tx.execute(
            "INSERT INTO matches (tournament_id, stage, round, slot, kind, player_a, player_b,"
            " status, created_at) VALUES (?, 'groups', 1, 'G1', 'group', 1, 2, 'running', ?)",
            (tournament.id, NOW.isoformat()))
        return cursor.lastrowid
    match_id = await database.write(insert)
    await MatchesRepo(database).append(match_id, {"type": "roll", "player": 0, "value": 6},
                                       actor_id=1, now=NOW)
    async def old_jobs(tx):  # the jobs as the schema before migration 009 has them
        for kind, payload in (("hp_late", {"match_id": match_id, "round": 2}),
                              ("third_deadline", {"match_id": match_id})):
            await tx.execute("INSERT INTO jobs (kind, tournament_id, run_at, payload)"
                             " VALUES (?, 1, ?, ?)", (kind, NOW.isoformat(), json.dumps(payload)))
    await database.write(old_jobs)
    jobs = JobsRepo(database)
    assert 6 in await database.migrate()
    assert [(job.kind, job.payload) for job in await jobs.pending()] == [
        ("hidden_late", {"match_id": match_id, "seq": 1}),
        ("third_deadline", {"match_id": match_id})]
    await database.close()


async def test_migration_009_finds_a_clock_stored_before_it_by_its_match(tmp_path,
                                                                        monkeypatch) -> None:
    database = await database_before(9, tmp_path, monkeypatch)
    async def old_job(tx):
        await tx.execute("INSERT INTO jobs (kind, run_at, payload) VALUES"
                         " ('bg_turn', ?, '{\"match_id\": 7, \"seq\": 3}'), ('reminder', ?, '{}')",
                         (NOW.isoformat(), NOW.isoformat()))
    await database.write(old_job)
    assert 9 in await database.migrate()
    jobs = JobsRepo(database)
    assert [job.payload for job in await jobs.for_match(7, ("bg_turn",))] == [
        {"match_id": 7, "seq": 3}]
    cancelled, (new,) = await jobs.replace_for_match(7, ("bg_turn",),
                                                     [("bg_turn", NOW, {"seq": 4})], None)
    assert len(cancelled) == 1 and new.payload == {"match_id": 7, "seq": 4}
    assert [job.id for job in await jobs.for_match(7, ("bg_turn",))] == [new.id]
    assert len(await jobs.pending()) == 2  # the reminder and the new clock
    await database.close()


async def test_a_match_clock_moves_to_a_new_position_and_is_cancelled_in_one_statement(
        db) -> None:
    jobs = JobsRepo(db)
    late = await jobs.add("hidden_late", NOW, None, match_id=7, seq=3, round=2)
    other_kind = await jobs.add("bg_turn", NOW, None, match_id=7, seq=3)
    other_match = await jobs.add("hidden_late", NOW, None, match_id=8, seq=3)
    async def one_statement(write):
        with sql_trace(db) as statements:
            done = await write
        assert [text.split()[0] for text in statements] == ["BEGIN", "UPDATE", "COMMIT"]
        return done

    await one_statement(jobs.move_for_match(7, ("hidden_late",), 5))
    payloads = {job.id: job.payload for job in await jobs.pending()}
    assert payloads == {late.id: {"match_id": 7, "seq": 5, "round": 2},
                        other_kind.id: {"match_id": 7, "seq": 3},
                        other_match.id: {"match_id": 8, "seq": 3}}
    assert await one_statement(jobs.cancel_for_match(7, ("hidden_late", "bg_turn"))) == [
        late.id, other_kind.id]
    assert [job.id for job in await jobs.pending()] == [other_match.id]
    assert await jobs.cancel_for_match(7, ("hidden_late",)) == []


def test_the_time_left_to_a_stored_moment_is_rounded_up() -> None:
    """A moment is stored cut to the second (up to a second early): what is left is read
    rounded up, never charging a player for the storage's resolution."""
    due = from_db(to_db(NOW + timedelta(seconds=60.7)))  # stored as NOW + 60 s
    assert seconds_left(due, NOW + timedelta(seconds=10.2)) == 50  # 50.5 left in fact
    assert seconds_left(due, NOW + timedelta(seconds=10)) == 50
    assert seconds_left(due, NOW + timedelta(seconds=61)) == 0


async def _turn_clock(db: Database) -> tuple[JobsRepo, int, Job]:
    """A match of a tournament in chat -100 (:func:`_match`) with a turn clock due in 2
    minutes: the repository, the tournament's id and the clock."""
    match_id = await _match(db)
    tournament_id = (await MatchesRepo(db).get(match_id)).tournament_id
    jobs = JobsRepo(db)
    turn = await jobs.add("bg_turn", NOW + timedelta(seconds=120), tournament_id,
                          match_id=match_id)
    return jobs, tournament_id, turn


async def test_a_frozen_clock_keeps_its_seconds_rounded_up(db) -> None:
    """A pause half a second into a stored second keeps the clock's whole seconds: a
    pause at a moment that is not a whole second no longer takes one from the bank."""
    jobs, tournament_id, turn = await _turn_clock(db)
    await jobs.freeze(tournament_id, ("bg_turn",), NOW + timedelta(seconds=0.5))
    frozen = await db.fetchone("SELECT payload FROM jobs WHERE id = ?", (turn.id,))
    assert json.loads(frozen["payload"])["remaining"] == 120


async def test_a_clock_moved_on_by_waits_of_half_a_second_keeps_them_whole(db) -> None:
    """Two waits of half a second (a fault's first back-off) move a group's clock on by a
    second each: their halves, cut off as stored, no longer add up to a second lost; so
    does a match's own (a board it holds for)."""
    jobs, _, turn = await _turn_clock(db)
    for _ in range(2):
        await jobs.delay_in_chat(-100, ("bg_turn",), 0.5)
    assert [job.run_at for job in await jobs.pending() if job.id == turn.id] == [
        NOW + timedelta(seconds=122)]
    await jobs.delay_for_match(turn.payload["match_id"], ("bg_turn",), 0.5)
    assert [job.run_at for job in await jobs.pending() if job.id == turn.id] == [
        NOW + timedelta(seconds=123)]


async def test_a_matchs_new_board_is_known_without_reading_the_row_again(db, monkeypatch
                                                                         ) -> None:
    monkeypatch.setattr(ReadCache, "verify", False)  # count the reads a hit saves
    match_id = await _match(db)
    repo = MatchesRepo(db)
    before = await repo.get(match_id)
    with sql_trace(db) as statements:
        await repo.update(match_id, NOW, board_message_id=77)
        after = await repo.get(match_id)
    assert [text.split()[0] for text in statements] == ["BEGIN", "UPDATE", "COMMIT"]
    assert after.board_message_id == 77 and after.status == before.status
    assert after == await repo._read(match_id)  # the row in the file


async def test_a_result_leaves_the_tournaments_match_lists_remembered_as_they_read(
        db, monkeypatch) -> None:
    """A result (and a status) changes no row's place in its tournament's lists: the lists
    are remembered with the new row, not read again; a failed write leaves them forgotten.
    (The suite's read cache compares every hit with the file: a wrong list fails here.)"""
    repo = MatchesRepo(db)
    match_id = await _match(db)
    tournament_id = (await repo.get(match_id)).tournament_id
    await repo.for_tournament(tournament_id)
    await repo.for_tournament(tournament_id, "groups")
    await repo.settle(match_id, {"meta": "result", "winner": 1,
                                 "result": {"score": (2, 1)}}, None, NOW)
    await repo.for_tournament(tournament_id)  # verified: the hit equals the file's rows
    monkeypatch.setattr(ReadCache, "verify", False)
    with sql_trace(db) as reads:
        whole = await repo.for_tournament(tournament_id)
        stage = await repo.for_tournament(tournament_id, "groups")
        row = await repo.get(match_id)
    assert not [sql for sql in reads if "FROM matches" in sql], reads
    assert whole == stage == [row]
    assert (row.status, row.winner, row.result) == ("finished", 1, {"score": [2, 1]})

    async def failing(tx) -> None:
        raise OSError("disk I/O error")
    with pytest.raises(OSError):
        await repo._write({match_id: {"status": "void"}}, failing,
                          after={match_id: {"status": "void"}})
    with sql_trace(db) as reads:
        assert [row.status for row in await repo.for_tournament(tournament_id)] == ["finished"]
    assert [sql for sql in reads if "FROM matches" in sql], reads


async def test_matches_are_created_and_opened_together_in_one_transaction(db) -> None:
    """A round's matches: created in one write, opened in one write, and every read after
    it (a row, the tournament's list, a player's live match) sees them as written."""
    tournament_id = (await MatchesRepo(db).get(await _match(db))).tournament_id
    await TournamentsRepo(db).set_status(tournament_id, "running", NOW)
    repo = MatchesRepo(db)
    live_before = await repo.live_for_player_in_chat(-100, 3)
    with sql_trace(db) as created:
        rows = await repo.create_many(tournament_id, "groups", [
            NewMatch(2, f"G2-{n}", "group", 2 + n, 3 + n) for n in range(1, 4)], NOW)
    with sql_trace(db) as opened:
        await repo.update_many({row.id: {"status": "running"} for row in rows}, NOW)
    assert [row.slot for row in rows] == ["G2-1", "G2-2", "G2-3"]
    assert {row.status for row in rows} == {"pending"}
    for statements in (created, opened):
        assert statements.count("BEGIN IMMEDIATE") == 1, statements
    assert [row.status for row in await repo.for_tournament(tournament_id, "groups")
            if row.round == 2] == ["running"] * 3
    assert (await repo.get(rows[0].id)).status == "running"
    assert live_before is None
    assert (await repo.live_for_player_in_chat(-100, 3)).id == rows[0].id
