"""Scheduled jobs: the database is the truth, the scheduler is rebuilt from pending rows."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from storage.db import Database
from storage.timefmt import from_db, seconds_left, to_db


@dataclass(frozen=True)
class Job:
    id: int
    kind: str
    tournament_id: int | None
    run_at: datetime
    payload: dict[str, Any]


NewJob = tuple[str, datetime, dict[str, Any]]
"""A job to add: its kind, when it runs, its payload."""


def _job(row) -> Job:
    return Job(row["id"], row["kind"], row["tournament_id"], from_db(row["run_at"]),
               json.loads(row["payload"]))


class JobsRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, kind: str, run_at: datetime, tournament_id: int | None = None,
                  **payload: Any) -> Job:
        async def work(tx):
            return await insert_job(tx, kind, run_at, tournament_id, payload)
        return await self.db.write(work)

    async def replace_for_match(self, match_id: int, kinds: tuple[str, ...],
                                new: Sequence[NewJob], tournament_id: int | None,
                                paused_at: datetime | None = None
                                ) -> tuple[list[int], list[Job]]:
        """In one transaction, cancel the match's pending (or frozen) jobs of ``kinds`` and
        add the ``new`` ones carrying ``match_id``; the cancelled ids and the new jobs to
        arm (``paused_at``: see :func:`replace_match_jobs`)."""
        async def work(tx):
            return await replace_match_jobs(tx, match_id, kinds, new, tournament_id, paused_at)
        return await self.db.write(work)

    async def replace_keyed(self, kind: str, run_at: datetime, tournament_id: int, key: str,
                            payload: dict[str, Any]) -> tuple[list[int], Job]:
        """In one transaction, cancel the tournament's pending (or frozen) jobs of ``kind``
        whose payload has ``payload``'s ``key``, and add the new one; the cancelled ids and
        the new job."""
        async def work(tx):
            rows = await (await tx.execute(
                "SELECT id, payload FROM jobs WHERE tournament_id = ? AND kind = ?"
                " AND status IN ('pending', 'frozen')", (tournament_id, kind))).fetchall()
            same = [r["id"] for r in rows if json.loads(r["payload"]).get(key) == payload[key]]
            await tx.executemany("UPDATE jobs SET status = 'cancelled' WHERE id = ?",
                                 [(job_id,) for job_id in same])
            return same, await insert_job(tx, kind, run_at, tournament_id, payload)
        return await self.db.write(work)

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

    async def postpone(self, job_id: int, run_at: datetime, **payload: Any) -> Job | None:
        """Move a pending job to ``run_at``, merging ``payload`` into its own (a retry)."""
        async def work(tx):
            row = await (await tx.execute(
                "SELECT * FROM jobs WHERE id = ? AND status = 'pending'", (job_id,))).fetchone()
            if row is None:
                return None
            merged = {**json.loads(row["payload"]), **payload}
            await tx.execute("UPDATE jobs SET run_at = ?, payload = ? WHERE id = ?",
                             (to_db(run_at), json.dumps(merged), job_id))
            return Job(job_id, row["kind"], row["tournament_id"], from_db(to_db(run_at)), merged)
        return await self.db.write(work)

    async def of_ids(self, ids: Sequence[int]) -> list[Job]:
        """The jobs of ``ids``, whatever their status, in the order given."""
        if not ids:
            return []
        rows = await self.db.fetchall(
            f"SELECT * FROM jobs WHERE id IN ({','.join('?' * len(ids))})", tuple(ids))
        found = {row["id"]: _job(row) for row in rows}
        return [found[job_id] for job_id in ids if job_id in found]

    async def note(self, job_id: int, **payload: Any) -> None:
        """Merge ``payload`` into a job's own: the steps of a job already done, so a retry
        does not repeat them."""
        async def work(tx):
            await _rewrite_payload(tx, job_id, lambda old: {**old, **payload})
        await self.db.write(work)

    async def revive(self, job_id: int, run_at: datetime) -> bool:
        """Make a job that has run pending again at ``run_at`` (its payload kept)."""
        async def work(tx):
            cursor = await tx.execute(
                "UPDATE jobs SET status = 'pending', run_at = ? WHERE id = ? AND status = 'done'",
                (to_db(run_at), job_id))
            return cursor.rowcount == 1
        return await self.db.write(work)

    async def last_of(self, tournament_id: int, kind: str) -> Job | None:
        """The newest job of ``kind`` for a tournament, whatever its status."""
        row = await self.db.fetchone(
            "SELECT * FROM jobs WHERE tournament_id = ? AND kind = ? ORDER BY id DESC LIMIT 1",
            (tournament_id, kind))
        return _job(row) if row else None

    async def waiting(self, tournament_id: int, kind: str, but: int) -> list[Job]:
        """A tournament's pending jobs of ``kind`` other than job ``but``, oldest first."""
        rows = await self.db.fetchall(
            "SELECT * FROM jobs WHERE tournament_id = ? AND kind = ? AND status = 'pending'"
            " AND id != ? ORDER BY run_at, id", (tournament_id, kind, but))
        return [_job(r) for r in rows]

    async def latest_run(self, now: datetime) -> datetime | None:
        """When the newest job that has run fell due."""
        row = await self.db.fetchone(
            "SELECT MAX(run_at) AS at FROM jobs WHERE status = 'done' AND run_at <= ?",
            (to_db(now),))
        return from_db(row["at"]) if row and row["at"] else None

    async def take_due(self, tournament_id: int, kinds: tuple[str, ...], now: datetime,
                       but: int) -> list[Job]:
        """Mark done and return a tournament's pending jobs of ``kinds`` due by ``now``
        other than job ``but`` (the one running, which says what they would have: their ids
        are added to its ``taken``, for its retry)."""
        return await self._take_due("tournament_id = ?", tournament_id, kinds, now, but)

    async def take_due_in_chat(self, chat_id: int, kinds: tuple[str, ...], now: datetime,
                               but: int) -> list[Job]:
        """:meth:`take_due` for every tournament of a chat (the start's reminders and
        check-in openings said in one message)."""
        return await self._take_due(
            "tournament_id IN (SELECT id FROM tournaments WHERE chat_id = ?)", chat_id, kinds,
            now, but)

    async def _take_due(self, of: str, key: int, kinds: tuple[str, ...], now: datetime,
                        but: int) -> list[Job]:
        marks = ",".join("?" * len(kinds))

        async def work(tx):
            rows = await (await tx.execute(
                f"SELECT * FROM jobs WHERE {of} AND kind IN ({marks}) AND status = 'pending'"
                " AND run_at <= ? AND id != ? ORDER BY run_at, id",
                (key, *kinds, to_db(now), but))).fetchall()
            ids = [r["id"] for r in rows]
            await tx.executemany("UPDATE jobs SET status = 'done' WHERE id = ?",
                                 [(job_id,) for job_id in ids])
            if ids:
                await _rewrite_payload(tx, but, lambda old: {
                    **old, "taken": [*old.get("taken", []), *ids]})
            return [_job(r) for r in rows]
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

    async def cancel_for_match(self, match_id: int, kinds: tuple[str, ...]) -> list[int]:
        """Cancel the pending (or frozen) jobs of ``kinds`` that carry ``match_id``."""
        async def work(tx):
            return await cancel_match_jobs(tx, match_id, kinds)
        return await self.db.write(work)

    async def for_match(self, match_id: int, kinds: tuple[str, ...]) -> list[Job]:
        """The pending (or frozen: ``remaining`` in the payload) jobs of ``kinds`` that
        carry ``match_id``."""
        marks = ",".join("?" * len(kinds))
        rows = await self.db.fetchall(
            f"SELECT * FROM jobs WHERE match_id = ? AND status IN ('pending', 'frozen')"
            f" AND kind IN ({marks}) ORDER BY id", (match_id, *kinds))
        return [_job(r) for r in rows]

    async def move_for_match(self, match_id: int, kinds: tuple[str, ...], seq: int) -> None:
        """Note ``seq`` (the match's new position) in the pending jobs of ``kinds`` that carry
        ``match_id`` and were set at another one: one statement, not a read and a write."""
        async def work(tx):
            await move_match_jobs(tx, match_id, kinds, seq)
        await self.db.write(work)

    async def delay_in_chat(self, chat_id: int, kinds: tuple[str, ...],
                            seconds: float) -> list[Job]:
        """Move the pending jobs of ``kinds`` of the chat's tournaments ``seconds`` later
        (:meth:`_delay`)."""
        return await self._delay(
            f"kind IN ({','.join('?' * len(kinds))}) AND"
            " tournament_id IN (SELECT id FROM tournaments WHERE chat_id = ?)",
            (*kinds, chat_id), seconds)

    async def delay_for_match(self, match_id: int, kinds: tuple[str, ...],
                              seconds: float) -> list[Job]:
        """Move the pending jobs of ``kinds`` that carry ``match_id`` ``seconds`` later
        (:meth:`_delay`)."""
        return await self._delay(f"match_id = ? AND kind IN ({','.join('?' * len(kinds))})",
                                 (match_id, *kinds), seconds)

    async def _delay(self, where: str, params: tuple, seconds: float) -> list[Job]:
        """Move the pending jobs ``where`` finds ``seconds`` later, rounded up to whole
        seconds as times are stored (a wait's fraction cut off at each of several waits
        added up to seconds taken from the players' clocks); a read first: no such jobs,
        the usual case, costs no transaction."""
        select = f"SELECT * FROM jobs WHERE status = 'pending' AND {where}"
        if not await self.db.fetchall(select, params):
            return []

        async def work(tx):
            rows = await (await tx.execute(select, params)).fetchall()
            jobs = []
            for row in rows:
                run_at = from_db(row["run_at"]) + timedelta(seconds=math.ceil(seconds))
                await tx.execute("UPDATE jobs SET run_at = ? WHERE id = ?",
                                 (to_db(run_at), row["id"]))
                jobs.append(Job(row["id"], row["kind"], row["tournament_id"],
                                from_db(to_db(run_at)), json.loads(row["payload"])))
            return jobs
        return await self.db.write(work)

    async def freeze(self, tournament_id: int, kinds: tuple[str, ...],
                     now: datetime) -> list[int]:
        """Stop the pending jobs of ``kinds`` of a tournament: each keeps the seconds it had
        left (``remaining``) and is no longer pending until :meth:`thaw`."""
        async def work(tx):
            marks = ",".join("?" * len(kinds))
            rows = await (await tx.execute(
                f"SELECT * FROM jobs WHERE tournament_id = ? AND status = 'pending'"
                f" AND kind IN ({marks})", (tournament_id, *kinds))).fetchall()
            jobs = [_job(row) for row in rows]
            await freeze_jobs(tx, jobs, now)
            return [job.id for job in jobs]
        return await self.db.write(work)

    async def thaw(self, tournament_id: int, now: datetime) -> list[Job]:
        """Make a tournament's frozen jobs pending again, each due after the time it had
        left when it was frozen."""
        async def work(tx):
            rows = await (await tx.execute(
                "SELECT * FROM jobs WHERE tournament_id = ? AND status = 'frozen'",
                (tournament_id,))).fetchall()
            jobs = []
            for row in rows:
                payload = json.loads(row["payload"])
                run_at = now + timedelta(seconds=payload.pop("remaining", 0))
                await tx.execute(
                    "UPDATE jobs SET status = 'pending', run_at = ?, payload = ? WHERE id = ?",
                    (to_db(run_at), json.dumps(payload), row["id"]))
                jobs.append(Job(row["id"], row["kind"], row["tournament_id"],
                                from_db(to_db(run_at)), payload))
            return jobs
        return await self.db.write(work)


async def _rewrite_payload(tx, job_id: int, change: Callable[[dict], dict]) -> None:
    """In the transaction ``tx``: a job's payload replaced by ``change`` of it."""
    row = await (await tx.execute("SELECT payload FROM jobs WHERE id = ?", (job_id,))).fetchone()
    if row is not None:
        await tx.execute("UPDATE jobs SET payload = ? WHERE id = ?",
                         (json.dumps(change(json.loads(row[0]))), job_id))


async def insert_job(tx, kind: str, run_at: datetime, tournament_id: int | None,
                     payload: dict[str, Any]) -> Job:
    """In the transaction ``tx``: store a pending job (armed by the caller once ``tx`` has
    committed, :meth:`bot.scheduler.Scheduler.settle` or ``follow``)."""
    stored = to_db(run_at)
    cursor = await tx.execute(
        "INSERT INTO jobs (kind, tournament_id, run_at, payload, match_id)"
        " VALUES (?, ?, ?, ?, ?)",
        (kind, tournament_id, stored, json.dumps(payload), payload.get("match_id")))
    return Job(cursor.lastrowid, kind, tournament_id, from_db(stored), payload)


async def freeze_jobs(tx, jobs: Sequence[Job], now: datetime) -> None:
    """In the transaction ``tx``: stop ``jobs``, each keeping the seconds it had left
    (``remaining``) until :meth:`JobsRepo.thaw`."""
    for job in jobs:
        left = seconds_left(job.run_at, now)
        await tx.execute("UPDATE jobs SET status = 'frozen', payload = ? WHERE id = ?",
                         (json.dumps({**job.payload, "remaining": left}), job.id))


async def cancel_match_jobs(tx, match_id: int, kinds: tuple[str, ...]) -> list[int]:
    """In the transaction ``tx``: cancel the match's pending (or frozen) jobs of ``kinds``;
    their ids."""
    marks = ",".join("?" * len(kinds))
    where = f"match_id = ? AND status IN ('pending', 'frozen') AND kind IN ({marks})"
    rows = await (await tx.execute(
        f"UPDATE jobs SET status = 'cancelled' WHERE {where} RETURNING id",
        (match_id, *kinds))).fetchall()
    return sorted(r[0] for r in rows)


async def replace_match_jobs(tx, match_id: int, kinds: tuple[str, ...],
                             new: Sequence[NewJob], tournament_id: int | None,
                             paused_at: datetime | None = None
                             ) -> tuple[list[int], list[Job]]:
    """In the transaction ``tx``: :meth:`JobsRepo.replace_for_match`. Jobs set while the
    match is paused (``paused_at``: now) are frozen at once, with all their time left,
    until :meth:`JobsRepo.thaw`: none of them is returned to arm."""
    cancelled = await cancel_match_jobs(tx, match_id, kinds)
    added = [await insert_job(tx, kind, run_at, tournament_id, {"match_id": match_id, **payload})
             for kind, run_at, payload in new]
    if paused_at is None:
        return cancelled, added
    await freeze_jobs(tx, added, paused_at)
    return cancelled, []


async def move_match_jobs(tx, match_id: int, kinds: tuple[str, ...], seq: int) -> None:
    """In the transaction ``tx``: :meth:`JobsRepo.move_for_match`'s one statement."""
    marks = ",".join("?" * len(kinds))
    await tx.execute(
        f"UPDATE jobs SET payload = json_set(payload, '$.seq', ?)"
        f" WHERE match_id = ? AND status = 'pending' AND kind IN ({marks})"
        f" AND json_extract(payload, '$.seq') IS NOT ?", (seq, match_id, *kinds, seq))
