"""Snapshots of match states: a cache beside the append-only log (one per match, the latest).

What a snapshot holds and when it may be used is decided by ``bot.snapshots``; this module
only stores and reads the bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.db import Database


@dataclass(frozen=True)
class Snapshot:
    seq: int
    """The state is the one after the match's logged action ``seq``."""
    fingerprint: str
    state: bytes


class SnapshotsRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def latest(self, match_id: int) -> Snapshot | None:
        row = await self.db.fetchone(
            "SELECT seq, fingerprint, state FROM match_snapshots WHERE match_id = ?",
            (match_id,))
        return Snapshot(row["seq"], row["fingerprint"], bytes(row["state"])) if row else None

    async def save(self, match_id: int, snapshot: Snapshot) -> None:
        """Keep ``snapshot`` as the match's one snapshot (it replaces an older one)."""
        async def work(tx):
            await tx.execute(
                "INSERT OR REPLACE INTO match_snapshots (match_id, seq, fingerprint, state)"
                " VALUES (?, ?, ?, ?)",
                (match_id, snapshot.seq, snapshot.fingerprint, snapshot.state))
        await self.db.write(work)

    async def drop(self, match_id: int) -> None:
        async def work(tx):
            await tx.execute("DELETE FROM match_snapshots WHERE match_id = ?", (match_id,))
        await self.db.write(work)
