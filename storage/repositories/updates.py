"""Telegram update ids already handled, so a redelivered update is applied once."""

from __future__ import annotations

from datetime import datetime, timedelta

from storage.db import Database, insert_claim
from storage.timefmt import from_db, to_db

REMEMBER_FOR = timedelta(days=2)  # Telegram redelivers an update for 24 h at most


class ProcessedUpdatesRepo:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._stored_before: int | None = None
        """The largest id claimed before this process started (read once)."""

    async def seen(self, update_id: int) -> bool:
        """Whether the update was handled before. Telegram numbers updates in increasing
        order, so a new update is above every id claimed before this process started and
        every id this process claimed: only an id at or below them (a redelivery) costs a
        query."""
        claimed = self.db.claimed
        if update_id in claimed:
            return True
        if self._stored_before is None:
            row = await self.db.fetchone("SELECT coalesce(max(update_id), 0) FROM processed_updates")
            self._stored_before = row[0]
        if update_id > max(self._stored_before, claimed.forgotten):
            return False
        row = await self.db.fetchone(
            "SELECT 1 FROM processed_updates WHERE update_id = ?", (update_id,))
        return row is not None

    def handled_here(self, update_id: int) -> bool:
        """Whether this process handled the update (as far as it remembers)."""
        return update_id in self.db.claimed

    async def claim(self, update_id: int, now: datetime) -> bool:
        """Record the update as handled; False when it already was (also when this process
        claimed it with a match action, without asking the database)."""
        if update_id in self.db.claimed:
            return False
        claimed = await self.db.write(lambda tx: insert_claim(tx, update_id, now))
        self.db.claimed.add(update_id)
        return claimed

    def remember(self, update_id: int) -> None:
        """Note in memory that this process handled the update (one that wrote nothing)."""
        self.db.claimed.add(update_id)

    async def forget_before(self, moment: datetime) -> int:
        """Drop ids handled before ``moment``: Telegram redelivers an update for a day at
        most, so older ids only take space."""
        async def work(tx):
            cursor = await tx.execute(
                "DELETE FROM processed_updates WHERE processed_at < ?", (to_db(moment),))
            return cursor.rowcount
        return await self.db.write(work)

    async def latest(self) -> datetime | None:
        """When the newest remembered update was handled (None when there is none)."""
        row = await self.db.fetchone("SELECT MAX(processed_at) AS at FROM processed_updates")
        return from_db(row["at"]) if row and row["at"] else None
