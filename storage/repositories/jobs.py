"""Scheduled jobs: the database is the truth, the scheduler is rebuilt from pending rows."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage.db import Database
from storage.timefmt import from_db, to_db


@dataclass(frozen=True)
class Job:
    id: int
    kind: str
    tournament_id: int | None
    run_at: datetime
    payload: dict[str, Any]


def _job(row) -> Job:
    return Job(row["id"], row["kind"], row["tournament_id"], from_db(row["run_at"]),
               json.loads(row["payload"]))


class JobsRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, kind: str, run_at: datetime, tournament_id: int | None = None,
                  **payload: Any) -> Job:
        async def work(tx):
            cursor = await tx.execute(
                "INSERT INTO jobs (kind, tournament_id, run_at, payload) VALUES (?, ?, ?, ?)",
                (kind, tournament_id, to_db(run_at), json.dumps(payload)))
            return cursor.lastrowid
        job_id = await self.db.write(work)
        return Job(job_id, kind, tournament_id, from_db(to_db(run_at)), payload)

    async def pending(self) -> list[Job]:
        rows = await self.db.fetchall(
            "SELECT * FROM jobs WHERE status = 'pending' ORDER BY run_at, id")
        return [_job(r) for r in rows]

    async def get(self, job_id: int) -> Job | None:
        row = await self.db.fetchone(
            "SELECT * FROM jobs WHERE id = ? AND status = 'pending'", (job_id,))
        return _job(row) if row else None

    async def finish(self, job_id: int) -> bool:
        """Mark a job done; False when it was no longer pending (cancelled or run already)."""
        async def work(tx):
            cursor = await tx.execute(
                "UPDATE jobs SET status = 'done' WHERE id = ? AND status = 'pending'", (job_id,))
            return cursor.rowcount == 1
        return await self.db.write(work)

    async def cancel_for(self, tournament_id: int, kinds: tuple[str, ...]) -> list[int]:
        async def work(tx):
            marks = ",".join("?" * len(kinds))
            rows = await (await tx.execute(
                f"SELECT id FROM jobs WHERE tournament_id = ? AND status = 'pending'"
                f" AND kind IN ({marks})", (tournament_id, *kinds))).fetchall()
            await tx.execute(
                f"UPDATE jobs SET status = 'cancelled' WHERE tournament_id = ?"
                f" AND status = 'pending' AND kind IN ({marks})", (tournament_id, *kinds))
            return [r[0] for r in rows]
        return await self.db.write(work)
