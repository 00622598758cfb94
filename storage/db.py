"""The SQLite connection: pragmas, numbered migrations and serialized write transactions.

One process owns one connection. Reads run straight on it; every write runs inside
:meth:`Database.transaction`, which holds an asyncio lock (aiosqlite shares one thread, so
interleaved transactions from concurrent handlers would otherwise mix) and retries the whole
unit of work when another process holds the file ("database is locked"), never dropping it.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

log = logging.getLogger(__name__)
T = TypeVar("T")
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")
LOCK_RETRIES = 50
LOCK_BACKOFF_SECONDS = 0.05


def is_locked_error(error: BaseException) -> bool:
    return isinstance(error, aiosqlite.OperationalError) and "locked" in str(error).lower()


class Database:
    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str) -> Database:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        connection.row_factory = aiosqlite.Row
        await connection.execute("PRAGMA journal_mode=WAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        await connection.execute("PRAGMA synchronous=NORMAL")
        await connection.execute("PRAGMA busy_timeout=5000")
        database = cls(connection)
        await database.migrate()
        return database

    async def close(self) -> None:
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

    async def fetchone(self, sql: str, params: tuple[Any, ...] = ()) -> aiosqlite.Row | None:
        async with self.connection.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[aiosqlite.Row]:
        async with self.connection.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT), rolled back on error."""
        async with self._write_lock:
            await self._begin()
            try:
                yield self.connection
            except BaseException:
                await self.connection.rollback()
                raise
            await self.connection.commit()

    async def write(self, work: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """Run ``work`` in a transaction, retrying the whole unit when the file is locked."""
        for attempt in range(LOCK_RETRIES):
            try:
                async with self.transaction() as tx:
                    return await work(tx)
            except aiosqlite.OperationalError as error:
                if not is_locked_error(error) or attempt == LOCK_RETRIES - 1:
                    raise
                await asyncio.sleep(LOCK_BACKOFF_SECONDS * (attempt + 1))
        raise AssertionError("unreachable")

    async def _begin(self) -> None:
        for attempt in range(LOCK_RETRIES):
            try:
                await self.connection.execute("BEGIN IMMEDIATE")
                return
            except aiosqlite.OperationalError as error:
                if not is_locked_error(error) or attempt == LOCK_RETRIES - 1:
                    raise
                await asyncio.sleep(LOCK_BACKOFF_SECONDS * (attempt + 1))


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
