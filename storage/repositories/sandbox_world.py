"""The sandbox's stand-in for Telegram, kept in the database file (migration 003).

The repository stores rows as the sandbox hands them over; what they mean is
``bot.sandbox.world``'s business. One :meth:`SandboxWorldRepo.save` is one transaction, so a
process killed mid-way leaves either the old or the new world behind.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from storage.db import Database
from storage.timefmt import from_db

UserRow = tuple[str, int, str, bool, bool]  # handle, id, language, started, blocked
GroupRow = tuple[str, int, int | None, list[int], list[int]]  # name, id, creator, admins, topics
MessageRow = tuple[int, int, bool, dict[str, Any]]  # chat id, message id, from bot, payload


@dataclass
class WorldRows:
    users: list[UserRow] = field(default_factory=list)
    groups: list[GroupRow] = field(default_factory=list)
    messages: list[MessageRow] = field(default_factory=list)
    deleted: list[tuple[int, int]] = field(default_factory=list)
    counters: dict[int, int] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)


class SandboxWorldRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def load(self) -> WorldRows:
        rows = WorldRows()
        for r in await self.db.fetchall("SELECT * FROM sandbox_users ORDER BY id"):
            rows.users.append((r["handle"], r["id"], r["language"], bool(r["started"]),
                               bool(r["blocked"])))
        for r in await self.db.fetchall("SELECT * FROM sandbox_groups ORDER BY id DESC"):
            rows.groups.append((r["name"], r["id"], r["creator"], json.loads(r["admins"]),
                                json.loads(r["topics"])))
        for r in await self.db.fetchall(
                "SELECT * FROM sandbox_messages ORDER BY chat_id, message_id"):
            rows.messages.append((r["chat_id"], r["message_id"], bool(r["from_bot"]),
                                  json.loads(r["payload"])))
        for r in await self.db.fetchall("SELECT * FROM sandbox_counters"):
            rows.counters[r["chat_id"]] = r["last_message_id"]
        for r in await self.db.fetchall("SELECT * FROM sandbox_state"):
            rows.state[r["key"]] = json.loads(r["value"])
        return rows

    async def last_written(self) -> datetime | None:
        """The latest moment the bot wrote down (a match's action, an organiser's entry, an
        update claimed); None in a new file."""
        row = await self.db.fetchone(
            "SELECT MAX(at) FROM (SELECT MAX(created_at) AS at FROM match_actions"
            " UNION ALL SELECT MAX(created_at) FROM organiser_log"
            " UNION ALL SELECT MAX(processed_at) FROM processed_updates)")
        return from_db(row[0])

    async def integrity(self) -> list[str]:
        """SQLite's own check of the whole file: ``["ok"]`` when it is intact."""
        return [row[0] for row in await self.db.fetchall("PRAGMA integrity_check")]

    async def save(self, rows: WorldRows) -> None:
        async def work(tx):
            await tx.executemany(
                "INSERT OR REPLACE INTO sandbox_users VALUES (?, ?, ?, ?, ?)",
                [(h, i, lang, int(s), int(b)) for h, i, lang, s, b in rows.users])
            await tx.executemany(
                "INSERT OR REPLACE INTO sandbox_groups VALUES (?, ?, ?, ?, ?)",
                [(n, i, c, json.dumps(a), json.dumps(t)) for n, i, c, a, t in rows.groups])
            await tx.executemany(
                "INSERT OR REPLACE INTO sandbox_messages VALUES (?, ?, ?, ?)",
                [(c, m, int(b), json.dumps(p, ensure_ascii=False))
                 for c, m, b, p in rows.messages])
            await tx.executemany(
                "DELETE FROM sandbox_messages WHERE chat_id = ? AND message_id = ?",
                rows.deleted)
            await tx.executemany("INSERT OR REPLACE INTO sandbox_counters VALUES (?, ?)",
                                 list(rows.counters.items()))
            await tx.executemany("INSERT OR REPLACE INTO sandbox_state VALUES (?, ?)",
                                 [(k, json.dumps(v)) for k, v in rows.state.items()])
        await self.db.write(work)
