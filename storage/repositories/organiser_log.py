"""The log of organiser actions: who did what, when and why."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from storage.db import Database, LoopConnection, Write
from storage.timefmt import to_db


class OrganiserLogRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def record(self, actor_id: int, action: str, now: datetime, *,
                     tournament_id: int | None = None, chat_id: int | None = None,
                     reason: str | None = None, **details: Any) -> None:
        await self.db.write(log_entry(actor_id, action, now, tournament_id=tournament_id,
                                      chat_id=chat_id, reason=reason, **details))

    async def for_tournament(self, tournament_id: int) -> list[dict[str, Any]]:
        rows = await self.db.fetchall(
            "SELECT * FROM organiser_log WHERE tournament_id = ? ORDER BY id", (tournament_id,))
        return [dict(row) | {"details": json.loads(row["details"])} for row in rows]

    async def pause_reason(self, tournament_id: int) -> str | None:
        """The reason an organiser gave with the tournament's last ``/pause``; None when the
        last pause or resume was not a pause with a reason."""
        row = await self.db.fetchone(
            "SELECT action, reason FROM organiser_log WHERE tournament_id = ?"
            " AND action IN ('pause', 'resume') ORDER BY id DESC LIMIT 1", (tournament_id,))
        return row["reason"] if row is not None and row["action"] == "pause" else None

    async def last(self, tournament_id: int, action: str) -> dict[str, Any] | None:
        """The tournament's latest entry of ``action`` (details decoded), or None."""
        row = await self.db.fetchone(
            "SELECT * FROM organiser_log WHERE tournament_id = ? AND action = ?"
            " ORDER BY id DESC LIMIT 1", (tournament_id, action))
        return None if row is None else dict(row) | {"details": json.loads(row["details"])}

    async def decision(self, tournament_id: int, user_id: int) -> dict[str, Any] | None:
        """The organiser's latest decision on ``user_id``'s application (``approved`` or
        ``rejected``, with who made it), or None."""
        row = await self.db.fetchone(
            "SELECT actor_id, action FROM organiser_log WHERE tournament_id = ?"
            " AND action IN ('approved', 'rejected') AND json_extract(details, '$.user_id') = ?"
            " ORDER BY id DESC LIMIT 1", (tournament_id, user_id))
        return None if row is None else dict(row)


def log_entry(actor_id: int, action: str, now: datetime, *, tournament_id: int | None = None,
              chat_id: int | None = None, reason: str | None = None, **details: Any) -> Write:
    """The write of one entry, for the transaction of the action it is about (an
    organiser's correction of a match, written with the match's actions)."""
    async def write(tx: LoopConnection) -> None:
        await tx.execute(
            "INSERT INTO organiser_log (tournament_id, chat_id, actor_id, action, details,"
            " reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (tournament_id, chat_id, actor_id, action, json.dumps(details, ensure_ascii=False),
             reason, to_db(now)))
    return write
