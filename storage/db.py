"""The SQLite connection: pragmas, numbered migrations and serialized write transactions.

One process owns one connection. Reads run straight on it; every write runs inside
:meth:`Database.transaction`, which holds an asyncio lock (interleaved transactions from
concurrent handlers would otherwise mix) and retries the whole unit of work when another
process holds the file ("database is locked"), never dropping it. :meth:`Database.together`
makes the writes of several repository calls one transaction (an organiser's command and
its log entry, with the update's claim).

Statements run on the event loop itself (:class:`LoopConnection`): this bot's statements take
microseconds, far less than handing each one to a worker thread and waiting for the answer
(the hop cost more than the statement). The connection never waits for a lock inside SQLite
(``busy_timeout=0``): a locked file raises at once and the unit is retried after an
``asyncio.sleep``, so another process holding the file never blocks the loop. Its page cache
is kept small (``CACHE_KIB``): the hot reads are remembered above it (``storage/cache.py``).
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from storage.cache import ReadCache
from storage.checkpoint import Checkpointer
from storage.timefmt import to_db

log = logging.getLogger(__name__)
T = TypeVar("T")
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")
LOCK_RETRIES = 50
LOCK_BACKOFF_SECONDS = 0.05
CACHE_KIB = 512
"""SQLite's page cache per connection (its default is 2,000 KiB): hot rows are kept by the read
cache, and a page missed is read from the OS's file cache in microseconds."""


def is_locked_error(error: BaseException) -> bool:
    return isinstance(error, sqlite3.OperationalError) and "locked" in str(error).lower()


class Cursor:
    """A finished statement's cursor, with the awaitable reads of an async driver."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    async def fetchone(self) -> sqlite3.Row | None:
        return self._cursor.fetchone()

    async def fetchall(self) -> list[sqlite3.Row]:
        return self._cursor.fetchall()

    async def close(self) -> None:
        self._cursor.close()


ROW_IDS = range(1, 2 ** 63)
"""Every id SQLite can give a row (a 64-bit integer, from 1): a number typed or forged past
them (``#99999999999999999999``) names no row, and SQLite refuses to bind it."""


def is_row_id(number: int) -> bool:
    """Whether ``number`` can be a row's id (:data:`ROW_IDS`)."""
    return number in ROW_IDS


class _Statement:
    """What :meth:`LoopConnection.execute` returns: await it, or use it with ``async with``."""

    def __init__(self, run: Callable[[], sqlite3.Cursor]) -> None:
        self._run = run
        self._cursor: Cursor | None = None

    def __await__(self):
        return self._start().__await__()

    async def _start(self) -> Cursor:
        self._cursor = Cursor(self._run())
        return self._cursor

    async def __aenter__(self) -> Cursor:
        return await self._start()

    async def __aexit__(self, *exc_info: object) -> None:
        if self._cursor is not None:
            await self._cursor.close()


class LoopConnection:
    """A sqlite3 connection used from the event loop with an async driver's interface
    (``await execute(...)``, ``async with execute(...) as cursor``, ``commit`` …)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.raw = connection

    def execute(self, sql: str, params: Iterable[Any] = ()) -> _Statement:
        return _Statement(lambda: self.raw.execute(sql, tuple(params)))

    def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> _Statement:
        return _Statement(lambda: self.raw.executemany(sql, rows))

    async def execute_fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        return self.raw.execute(sql, tuple(params)).fetchall()

    async def commit(self) -> None:
        self.raw.commit() if self.raw.in_transaction else None

    async def rollback(self) -> None:
        self.raw.rollback() if self.raw.in_transaction else None

    async def close(self) -> None:
        self.raw.close()


class RecentIds:
    """The last ``size`` ids noted, in a bounded set (memory stays flat while running).

    ``forgotten`` is the largest id that has left the set: an id above it that is not in
    the set was never noted."""

    def __init__(self, size: int = 10_000) -> None:
        self._ids: dict[int, None] = {}
        self._size = size
        self.forgotten = 0

    def add(self, item: int) -> None:
        self._ids[item] = None
        if len(self._ids) > self._size:
            oldest = next(iter(self._ids))
            del self._ids[oldest]
            self.forgotten = max(self.forgotten, oldest)

    def __contains__(self, item: int) -> bool:
        return item in self._ids


Write = Callable[[LoopConnection], Awaitable[Any]]
"""A piece of a write transaction, given its connection (what goes with an action)."""


def in_order(*writes: Write | None) -> Write:
    """The pieces (``None`` skipped) as one, run in order in the same transaction; its
    answer is the last piece's (an organiser's log entry, then the job that follows)."""
    pieces = [write for write in writes if write is not None]

    async def write(tx: LoopConnection) -> Any:
        answer = None
        for piece in pieces:
            answer = await piece(tx)
        return answer
    return write


async def insert_claim(tx: LoopConnection, update_id: int, now: datetime) -> bool:
    """Claim the update (mark it handled) in the open transaction ``tx``; False when it
    already was."""
    cursor = await tx.execute(
        "INSERT OR IGNORE INTO processed_updates (update_id, processed_at) VALUES (?, ?)",
        (update_id, to_db(now)))
    return cursor.rowcount == 1


@dataclass
class Writes:
    """How many write transactions ``database`` committed while it was being tracked (an
    update's handling), and which update that is (claimed by :meth:`Database.together`)."""

    database: Database
    count: int = 0
    update_id: int | None = None
    handled_at: datetime | None = None


@dataclass(frozen=True)
class _Unit:
    """An open :meth:`Database.together` block: whose it is, so that a task it started does
    not write into it."""

    database: Database
    task: asyncio.Task | None


_TRACKED: ContextVar[Writes | None] = ContextVar("tracked_writes", default=None)
_UNIT: ContextVar[_Unit | None] = ContextVar("write_unit", default=None)


class Database:
    def __init__(self, connection: LoopConnection, checkpointer: Checkpointer | None = None
                 ) -> None:
        self.connection = connection
        self.checkpointer = checkpointer
        """WAL checkpoints off the loop (``storage/checkpoint.py``); None for ``:memory:``."""
        self._write_lock = asyncio.Lock()
        self.claimed = RecentIds()
        """Update ids this process handled (claimed in a committed transaction, or answered
        without writing anything): the dedupe middleware need not ask the database about
        them, nor claim them again."""
        self.reads = ReadCache()
        """Hot reads remembered until their tables are written (``storage/cache.py``)."""

    @classmethod
    async def open(cls, path: Path | str) -> Database:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        raw = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        raw.row_factory = sqlite3.Row
        connection = LoopConnection(raw)
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL",
                       "busy_timeout=0", "wal_autocheckpoint=0", f"cache_size=-{CACHE_KIB}"):
            await connection.execute(f"PRAGMA {pragma}")
        in_file = str(path) != ":memory:"
        database = cls(connection, Checkpointer(str(path)) if in_file else None)
        await database.migrate()
        return database

    async def close(self) -> None:
        if self.checkpointer is not None:
            await self.checkpointer.close()
        await self.connection.close()

    async def migrate(self) -> list[int]:
        """Apply every migration not yet applied, in number order; return the applied ones."""
        await self.connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)"
        )
        done = {row[0] for row in await self.fetchall("SELECT version FROM schema_migrations")}
        applied = []
        for version, sql in available_migrations():
            if version in done:
                continue
            async with self.transaction() as tx:
                for statement in split_statements(sql):
                    await tx.execute(statement)
                await tx.execute("INSERT INTO schema_migrations (version) VALUES (?)", (version,))
            applied.append(version)
            log.info("applied migration %03d", version)
        return applied

    async def fetchone(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        return await self._read(lambda: self.connection.raw.execute(sql, params).fetchone())

    async def fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        return await self._read(lambda: self.connection.raw.execute(sql, params).fetchall())

    async def _read(self, run: Callable[[], T]) -> T:
        """A read outside a transaction; retried like a write if the file is locked (a
        reader only meets that while another process recovers the WAL)."""
        async def attempt() -> T:
            return run()
        return await _retried(attempt)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[LoopConnection]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT), rolled back on error; inside
        a :meth:`together` block, that block's transaction."""
        if self._in_unit():
            yield self.connection
            return
        async with self._write_lock:
            await self._begin()
            try:
                yield self.connection
            except BaseException:
                self._end(commit=False)
                raise
            else:
                self._end(commit=True)

    async def write(self, work: Callable[[LoopConnection], Awaitable[T]],
                    touches: tuple[str, ...] = ()) -> T:
        """Run ``work`` in a transaction, retrying the whole unit when the file is locked;
        ``touches`` names the :attr:`reads` regions it writes."""
        async def attempt() -> T:
            async with self.transaction() as tx:
                for region in touches:
                    self.reads.forget(region)
                return await work(tx)
        return await _retried(attempt)

    @asynccontextmanager
    async def together(self) -> AsyncIterator[None]:
        """Every write of the block in one transaction (the repositories' writes join it,
        nothing is committed until the block ends, all is rolled back if it raises), with the
        claim of the update being handled (:meth:`tracking_writes`): an action, what is
        logged about it and its update id are committed at once, so a crash leaves all or
        none of them, and a redelivered update finds the action done. Only writes belong in
        the block: it holds the write lock, so no Bot API call should wait inside it. What
        the block changes in memory is not undone when it rolls back (a job armed for a row
        that was not written finds nothing to run)."""
        if self._in_unit():
            yield
            return
        writes = _TRACKED.get()
        update = writes if writes is not None and writes.database is self \
            and writes.update_id is not None else None
        async with self.transaction() as tx:
            token = _UNIT.set(_Unit(self, asyncio.current_task()))
            try:
                yield
            finally:
                _UNIT.reset(token)
            if update is not None:
                await insert_claim(tx, update.update_id, update.handled_at)
        if update is not None:
            self.claimed.add(update.update_id)

    def _in_unit(self) -> bool:
        unit = _UNIT.get()
        return unit is not None and unit.database is self and unit.task is asyncio.current_task()

    def _end(self, *, commit: bool) -> None:
        """Commit (or roll back) the open transaction; the cache forgets what it wrote."""
        raw = self.connection.raw
        committed = False
        try:
            if raw.in_transaction:
                raw.commit() if commit else raw.rollback()
            committed = commit
        finally:
            self.reads.settle(committed=committed)
        if commit:
            if (writes := _TRACKED.get()) is not None and writes.database is self:
                writes.count += 1
            if self.checkpointer is not None:
                self.checkpointer.committed()

    @contextmanager
    def tracking_writes(self, update_id: int | None = None, handled_at: datetime | None = None
                        ) -> Iterator[Writes]:
        """Count this database's write transactions committed in this context (an update's
        handling, and the tasks it starts) until the block ends; another database's (the
        sandbox keeps its Telegram in the same file, through a connection of its own) are
        not the update's. A :meth:`together` block of the handling claims ``update_id``
        (handled at ``handled_at``) with its own writes."""
        writes = Writes(self, update_id=update_id, handled_at=handled_at)
        token = _TRACKED.set(writes)
        try:
            yield writes
        finally:
            _TRACKED.reset(token)

    @contextmanager
    def untracked(self) -> Iterator[None]:
        """Writes in this block are not the update's (:meth:`tracking_writes` does not count
        them): bookkeeping written again harmlessly if the update is handled again, such as
        a user's or chat's record before the command runs. An update whose only writes are
        these has changed nothing the user asked for."""
        token = _TRACKED.set(None)
        try:
            yield
        finally:
            _TRACKED.reset(token)

    async def _begin(self) -> None:
        await _retried(lambda: self.connection.execute("BEGIN IMMEDIATE"))


async def _retried(attempt: Callable[[], Awaitable[T]]) -> T:
    """``attempt()``, tried again after a growing pause while the file is locked (another
    process writes or recovers the WAL), up to ``LOCK_RETRIES`` times."""
    for number in range(LOCK_RETRIES):
        try:
            return await attempt()
        except sqlite3.OperationalError as error:
            if not is_locked_error(error) or number == LOCK_RETRIES - 1:
                raise
            await asyncio.sleep(LOCK_BACKOFF_SECONDS * (number + 1))
    raise AssertionError("unreachable")


def available_migrations() -> list[tuple[int, str]]:
    folder = resources.files("storage") / "migrations"
    found = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.read_text(encoding="utf-8")))
    return sorted(found)


def split_statements(sql: str) -> list[str]:
    """Split a migration file on semicolons that end a line (no triggers with bodies here)."""
    statements = []
    for chunk in re.split(r";\s*\n", sql + "\n"):
        lines = [line for line in chunk.splitlines() if not line.strip().startswith("--")]
        statement = "\n".join(lines).strip().rstrip(";")
        if statement:
            statements.append(statement)
    return statements
