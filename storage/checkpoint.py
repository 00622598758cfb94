"""WAL checkpoints in a worker thread, so no commit on the event loop waits for the disk.

SQLite copies the write-ahead log back into the database file (a checkpoint) when the log
has grown past a threshold, inside whichever commit crosses it — and a checkpoint syncs the
file, which on a busy disk takes milliseconds to tens of milliseconds: that update waited
for it. Here the connection's own automatic checkpoint is off (``wal_autocheckpoint=0``) and
every :data:`EVERY` commits a passive checkpoint runs on a connection of its own in a worker
thread; the loop's connection goes on committing meanwhile (a passive checkpoint never
blocks a writer). A commit stays durable as before: the log itself is written at commit.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3

log = logging.getLogger(__name__)
EVERY = 100
"""Commits between checkpoints: the log stays within a few megabytes."""


class Checkpointer:
    def __init__(self, path: str) -> None:
        self.path = path
        self._commits = 0
        self._running: asyncio.Future | None = None
        self._connection: sqlite3.Connection | None = None

    def committed(self) -> None:
        """One more commit; every :data:`EVERY`, start a checkpoint unless one is running."""
        self._commits += 1
        if self._commits >= EVERY and (self._running is None or self._running.done()):
            self._commits = 0
            self._running = asyncio.ensure_future(asyncio.to_thread(self._checkpoint))

    def _checkpoint(self) -> None:
        try:
            if self._connection is None:
                self._connection = sqlite3.connect(self.path, isolation_level=None,
                                                   check_same_thread=False)
            self._connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error as error:  # the next one tries again; the log only grows
            log.warning("WAL checkpoint failed: %s", error)

    async def close(self) -> None:
        """Wait for a checkpoint under way, then close its connection."""
        if self._running is not None:
            await self._running
        if self._connection is not None:
            self._connection.close()
            self._connection = None
