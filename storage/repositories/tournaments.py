"""Tournaments and their entrants."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from storage.cache import (
    AWAITING,
    ENTRANTS,
    MATCH_LOOKUPS,
    TOURNAMENT_CHATS,
    TOURNAMENTS,
    chat_lookups,
    chat_tournaments,
)
from storage.db import Database, is_row_id
from storage.timefmt import from_db, to_db

LIVE = ("running", "paused")
"""A tournament or a match being played (a paused one is still being played: it resumes)."""
BEFORE_START = ("registration", "closed")
"""A tournament taking entrants, or whose registration is closed, before its start."""
OPEN_STATUSES = (*BEFORE_START, *LIVE)
APPLICANT = ("photo", "pending")
"""Applied, not yet in: the form waits for a photo or the application for an organiser."""
ACTIVE_ENTRANT = (*APPLICANT, "approved")
UNFINISHED = ("name", "photo")
"""A registration form begun and not sent: the name or the screenshot still to come."""


@dataclass(frozen=True, slots=True)
class Tournament:
    id: int
    chat_id: int
    game: str
    title: str
    status: str
    settings: dict[str, Any] = field(hash=False)
    starts_at: datetime | None
    timezone: str | None
    created_by: int
    state: dict[str, Any] = field(default_factory=dict, hash=False)
    """What the tournament has produced while running (``TournamentsRepo.set_state``)."""
    friendly: bool = False
    """A friendly match's own row (/challenge, /practice), not one of the chat's events."""

    @property
    def registration_open(self) -> bool:
        return self.status == "registration"

    @property
    def started(self) -> bool:
        return self.status in ("running", "paused", "finished")

    @property
    def needs_approval(self) -> bool:
        """Whether an organiser approves each application (``approval=on``); else
        registering enters the player at once."""
        return self.settings.get("approval") == "on"

    @property
    def max_players(self) -> int:
        """The places the organiser set (``max_players``); 0: no limit."""
        return self.settings.get("max_players", 0)

    def full_with(self, approved: int) -> bool:
        """Whether ``approved`` entrants take every place (never, with no limit)."""
        return bool(self.max_players) and approved >= self.max_players

    @property
    def opening_status(self) -> str:
        """A match opened now: paused while the tournament is (/resume runs it on, with
        the rest), else running."""
        return "paused" if self.status == "paused" else "running"


def _tournament(row) -> Tournament:
    return Tournament(row["id"], row["chat_id"], row["game"], row["title"], row["status"],
                      json.loads(row["settings"]), from_db(row["starts_at"]), row["timezone"],
                      row["created_by"], json.loads(row["state"] or "{}"),
                      bool(row["friendly"]))


_SELECT = ("SELECT t.*, (SELECT json_group_object(s.key, json(s.value)) FROM tournament_state s"
           " WHERE s.tournament_id = t.id) AS state FROM tournaments t")


@dataclass(frozen=True, slots=True)
class Entrant:
    tournament_id: int
    user_id: int
    display_name: str | None
    status: str
    photo_file_id: str | None
    checked_in: bool
    seed: int | None
    application_message_id: int | None
    username: str | None = None
    first_name: str | None = None
    unreached: bool = False
    """The organisers' decision on the application has not reached the applicant in
    private (they had not opened the chat with the bot)."""

    @property
    def label(self) -> str:
        return self.display_name or self.first_name or str(self.user_id)


def _entrant(row) -> Entrant:
    """An entrant from a row of ``EntrantsRepo._SELECT`` (the entry and its user's names)."""
    return Entrant(row["tournament_id"], row["user_id"], row["display_name"], row["status"],
                   row["photo_file_id"], bool(row["checked_in"]), row["seed"],
                   row["application_message_id"], row["username"], row["first_name"],
                   bool(row["unreached"]))


async def chat_of(db: Database, tournament_id: int) -> int | None:
    """The chat of a tournament (None if there is none), remembered: it changes only when the
    group becomes a supergroup (``ChatsRepo.move`` forgets every answer then). A
    write to a tournament or to one of its matches forgets its chat's reads, so it asks
    this first, and reading the whole row for it would read it again after every write."""
    async def read() -> int | None:
        row = await db.fetchone("SELECT chat_id FROM tournaments WHERE id = ?", (tournament_id,))
        return row[0] if row else None
    return await db.reads.get(TOURNAMENT_CHATS, tournament_id, read)


class TournamentsRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def _write(self, work, chat_id: int | None, tournament_id: int | None = None, *,
                     status: bool = False):
        """Run ``work`` (a write to a tournament of chat ``chat_id``), forgetting that chat's
        tournament lists and the tournament's own row; a ``status`` change also forgets what
        is read through a tournament's status (a player's live match, a registration that
        waits for a name): nothing else there reads a tournament."""
        async def forgetting(tx):
            if tournament_id is not None:
                self.db.reads.forget_key(TOURNAMENTS, ("id", tournament_id))
            return await work(tx)
        regions = [] if chat_id is None else [chat_tournaments(chat_id)]
        if status:
            regions += [MATCH_LOOKUPS, AWAITING, *([] if chat_id is None
                                                   else [chat_lookups(chat_id)])]
        return await self.db.write(forgetting, touches=tuple(regions))

    async def _write_to(self, tournament_id: int, work, *, status: bool = False) -> None:
        """:meth:`_write` to the tournament ``tournament_id`` (of the chat it belongs to)."""
        await self._write(work, await chat_of(self.db, tournament_id), tournament_id,
                          status=status)

    def _created(self, cursor, chat_id: int) -> int:
        """The id of the tournament ``cursor`` inserted in ``chat_id``, whose chat is then
        known (:func:`chat_of`). A "no such tournament" remembered for the id (someone
        named it before it existed: ``/players #2``) is forgotten."""
        self.db.reads.remember_after(TOURNAMENT_CHATS, cursor.lastrowid, chat_id)
        self.db.reads.forget_key(TOURNAMENTS, ("id", cursor.lastrowid))
        return cursor.lastrowid

    async def create(self, chat_id: int, game: str, title: str, settings: dict[str, Any],
                     created_by: int, now: datetime) -> Tournament:
        """A tournament of the chat, open for registration, in the time zone of the chat's
        last tournament that had one (cancelled too: a rehearsal's zone is the group's);
        none when no tournament of the chat was scheduled."""
        async def work(tx):
            cursor = await tx.execute(
                "INSERT INTO tournaments (chat_id, game, title, status, settings, created_by,"
                " created_at, timezone) VALUES (?, ?, ?, 'registration', ?, ?, ?,"
                " (SELECT timezone FROM tournaments WHERE chat_id = ? AND friendly = 0"
                "  AND timezone IS NOT NULL ORDER BY id DESC LIMIT 1))",
                (chat_id, game, title, json.dumps(settings), created_by, to_db(now), chat_id))
            return self._created(cursor, chat_id)
        tournament_id = await self._write(work, chat_id)
        return await self.get(tournament_id)

    async def create_friendly(self, chat_id: int, game: str, title: str,
                              settings: dict[str, Any], created_by: int, status: str,
                              now: datetime) -> Tournament:
        """A friendly match's row: ``invited`` until the opponent answers, or ``running``."""
        async def work(tx):
            cursor = await tx.execute(
                "INSERT INTO tournaments (chat_id, game, title, status, settings, created_by,"
                " created_at, started_at, friendly) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)",
                (chat_id, game, title, status, json.dumps(settings), created_by, to_db(now),
                 to_db(now) if status == "running" else None))
            return self._created(cursor, chat_id)
        return await self.get(await self._write(work, chat_id))

    async def friendlies_in_chat(self, chat_id: int) -> list[Tournament]:
        """Every friendly match of the chat that was played or is being played, oldest first."""
        rows = await self.db.fetchall(
            _SELECT + " WHERE t.chat_id = ? AND t.friendly = 1"
            " AND t.status IN ('running', 'paused', 'finished') ORDER BY t.id", (chat_id,))
        return [_tournament(r) for r in rows]

    async def get(self, tournament_id: int) -> Tournament | None:
        """The tournament, None when there is none of that id (any number a user types)."""
        if not is_row_id(tournament_id):
            return None

        async def read() -> Tournament | None:
            row = await self.db.fetchone(_SELECT + " WHERE t.id = ?", (tournament_id,))
            return _tournament(row) if row else None
        return await self.db.reads.get(TOURNAMENTS, ("id", tournament_id), read)

    async def active_in_chat(self, chat_id: int) -> list[Tournament]:
        async def read() -> tuple[int, ...]:
            rows = await self.db.fetchall(
                "SELECT id FROM tournaments WHERE chat_id = ? AND status IN (?, ?, ?, ?)"
                " ORDER BY id DESC", (chat_id, *OPEN_STATUSES))
            return tuple(row[0] for row in rows)
        return await self._rows(
            await self.db.reads.get(chat_tournaments(chat_id), "active", read))

    async def _rows(self, ids: tuple[int, ...]) -> list[Tournament]:
        """The tournaments of ``ids``, in order. A chat's lists remember ids, so each
        tournament is one object in the read cache (:meth:`get`), not one per list."""
        return [tournament for tournament_id in ids
                if (tournament := await self.get(tournament_id)) is not None]

    async def newest_in_chat(self, chat_id: int, *, game: str | None = None,
                             status: str | None = None) -> Tournament | None:
        """The chat's newest tournament (of ``game``, in ``status``, when given); friendly
        matches and cancelled tournaments are not the chat's tournaments. Remembered until a
        tournament of the chat is written: a group's chatter asks it when no tournament is
        open there (``Scope.game``)."""
        sql, params = ("SELECT id FROM tournaments WHERE chat_id = ? AND friendly = 0"
                       " AND status != 'cancelled'", (chat_id,))
        for column, value in (("game", game), ("status", status)):
            if value is not None:
                sql, params = f"{sql} AND {column} = ?", (*params, value)

        async def read() -> tuple[int, ...]:
            row = await self.db.fetchone(sql + " ORDER BY id DESC LIMIT 1", params)
            return (row[0],) if row else ()
        found = await self._rows(
            await self.db.reads.get(chat_tournaments(chat_id), ("newest", game, status), read))
        return found[0] if found else None

    async def played_by(self, user_id: int, limit: int = 6) -> list[Tournament]:
        """The started tournaments the user was seeded into (running, paused or finished),
        newest first; friendly matches are not tournaments."""
        rows = await self.db.fetchall(
            _SELECT + " JOIN entrants e ON e.tournament_id = t.id WHERE e.user_id = ?"
            " AND e.seed IS NOT NULL AND t.friendly = 0"
            " AND t.status IN ('running', 'paused', 'finished') ORDER BY t.id DESC LIMIT ?",
            (user_id, limit))
        return [_tournament(r) for r in rows]

    async def running_of(self, user_id: int) -> list[Tournament]:
        """The running (or paused) tournaments the user plays in or created, newest first;
        friendly matches are not tournaments."""
        rows = await self.db.fetchall(
            _SELECT + " WHERE t.friendly = 0 AND t.status IN ('running', 'paused')"
            " AND (t.created_by = ? OR EXISTS (SELECT 1 FROM entrants e"
            " WHERE e.tournament_id = t.id AND e.user_id = ? AND e.status = 'approved'))"
            " ORDER BY t.id DESC", (user_id, user_id))
        return [_tournament(r) for r in rows]

    async def friendlies_playing(self, user_id: int) -> list[Tournament]:
        """The user's friendly matches being played now (a friendly is its own row),
        newest first."""
        rows = await self.db.fetchall(
            _SELECT + " JOIN entrants e ON e.tournament_id = t.id WHERE e.user_id = ?"
            " AND t.friendly = 1 AND t.status IN ('running', 'paused') ORDER BY t.id DESC",
            (user_id,))
        return [_tournament(r) for r in rows]

    async def set_status(self, tournament_id: int, status: str, now: datetime) -> None:
        column = {"running": "started_at", "finished": "finished_at"}.get(status)
        async def work(tx):
            await tx.execute("UPDATE tournaments SET status = ? WHERE id = ?",
                             (status, tournament_id))
            if column:
                await tx.execute(f"UPDATE tournaments SET {column} = coalesce({column}, ?)"
                                 " WHERE id = ?", (to_db(now), tournament_id))
        await self._write_to(tournament_id, work, status=True)

    async def set_settings(self, tournament_id: int, settings: dict[str, Any], *,
                           title: str | None = None) -> None:
        """The tournament's settings, and its title when one is given."""
        async def work(tx):
            await tx.execute("UPDATE tournaments SET settings = ?, title = COALESCE(?, title)"
                             " WHERE id = ?", (json.dumps(settings), title, tournament_id))
        await self._write_to(tournament_id, work)

    async def set_state(self, tournament_id: int, key: str, value: Any) -> None:
        async def work(tx):
            await tx.execute(
                "INSERT INTO tournament_state (tournament_id, key, value) VALUES (?, ?, ?)"
                " ON CONFLICT (tournament_id, key) DO UPDATE SET value = excluded.value",
                (tournament_id, key, json.dumps(value, ensure_ascii=False)))
        await self._write_to(tournament_id, work)

    async def clear_state(self, tournament_id: int, key: str) -> None:
        async def work(tx):
            await tx.execute("DELETE FROM tournament_state WHERE tournament_id = ? AND key = ?",
                             (tournament_id, key))
        await self._write_to(tournament_id, work)

    async def set_start(self, tournament_id: int, starts_at: datetime | None,
                        timezone: str | None) -> None:
        async def work(tx):
            await tx.execute("UPDATE tournaments SET starts_at = ?, timezone = ? WHERE id = ?",
                             (to_db(starts_at) if starts_at else None, timezone, tournament_id))
        await self._write_to(tournament_id, work)


class EntrantsRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def _write(self, work) -> None:
        await self.db.write(work, touches=(ENTRANTS, AWAITING))

    _SELECT = ("SELECT e.*, u.username, u.first_name FROM entrants e"
               " JOIN users u ON u.id = e.user_id")

    async def get(self, tournament_id: int, user_id: int) -> Entrant | None:
        row = await self.db.fetchone(
            f"{self._SELECT} WHERE e.tournament_id = ? AND e.user_id = ?", (tournament_id, user_id))
        return _entrant(row) if row else None

    async def list(self, tournament_id: int, statuses: tuple[str, ...] | None = None
                   ) -> list[Entrant]:
        sql = f"{self._SELECT} WHERE e.tournament_id = ?"
        params: tuple = (tournament_id,)
        if statuses:
            sql += f" AND e.status IN ({','.join('?' * len(statuses))})"
            params += statuses
        async def read() -> list[Entrant]:
            rows = await self.db.fetchall(sql + " ORDER BY e.created_at, e.rowid", params)
            return [_entrant(r) for r in rows]
        return list(await self.db.reads.get(ENTRANTS, params, read))

    async def labels(self, tournament_id: int) -> dict[int, str]:
        """Every entrant's shown name by user id, remembered with the entrants (a match's
        context names its players on every update, from a map of the whole field): shared,
        so read-only."""
        async def read() -> dict[int, str]:
            return {e.user_id: e.label for e in await self.list(tournament_id)}
        return await self.db.reads.get(ENTRANTS, ("labels", tournament_id), read)

    async def count(self, tournament_id: int, statuses: tuple[str, ...]) -> int:
        row = await self.db.fetchone(
            f"SELECT count(*) FROM entrants WHERE tournament_id = ?"
            f" AND status IN ({','.join('?' * len(statuses))})", (tournament_id, *statuses))
        return row[0]

    async def name_taken(self, tournament_id: int, name: str, user_id: int) -> bool:
        row = await self.db.fetchone(
            "SELECT 1 FROM entrants WHERE tournament_id = ? AND lower(display_name) = lower(?)"
            f" AND user_id != ? AND status IN ({','.join('?' * len(ACTIVE_ENTRANT))})",
            (tournament_id, name, user_id, *ACTIVE_ENTRANT))
        return row is not None

    async def put(self, tournament_id: int, user_id: int, status: str, now: datetime,
                  display_name: str | None = None) -> None:
        """Create the entry or restart a finished one (rejected/withdrawn may apply again)."""
        async def work(tx):
            await tx.execute(
                "INSERT INTO entrants (tournament_id, user_id, display_name, status, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET"
                " display_name = excluded.display_name, status = excluded.status,"
                " photo_file_id = NULL, checked_in = 0, application_message_id = NULL,"
                " unreached = 0,"
                " updated_at = excluded.updated_at",
                (tournament_id, user_id, display_name, status, to_db(now), to_db(now)))
        await self._write(work)

    async def update(self, tournament_id: int, user_id: int, now: datetime,
                     **fields: Any) -> None:
        await self.update_many(tournament_id, {user_id: fields}, now)

    async def update_many(self, tournament_id: int, changes: dict[int, dict[str, Any]],
                          now: datetime) -> None:
        """:meth:`update` of several entrants in one transaction (a field seeded)."""
        allowed = {"display_name", "status", "photo_file_id", "checked_in", "seed",
                   "application_message_id", "unreached"}
        for fields in changes.values():
            assert set(fields) <= allowed, fields
        if not changes:
            return

        async def work(tx):
            for user_id, fields in changes.items():
                assignments = ", ".join(f"{name} = ?" for name in fields)
                await tx.execute(
                    f"UPDATE entrants SET {assignments}, updated_at = ?"
                    " WHERE tournament_id = ? AND user_id = ?",
                    (*fields.values(), to_db(now), tournament_id, user_id))
        await self._write(work)

    async def forget_form(self, tournament_id: int, user_id: int) -> None:
        """Drop an application stopped before it was sent (its form still waits for a name
        or a screenshot): nobody applied, so nothing is listed."""
        async def work(tx):
            await tx.execute("DELETE FROM entrants WHERE tournament_id = ? AND user_id = ?"
                             " AND status IN ('name', 'photo')", (tournament_id, user_id))
        await self._write(work)

    async def pending_application(self, user_id: int) -> Entrant | None:
        """The user's newest application waiting for the organisers' decision."""
        return await self._newest(user_id, ("pending",), BEFORE_START)

    async def unreached_decisions(self, user_id: int) -> list[Entrant]:
        """The user's applications decided while the bot could not tell them (oldest
        first), still approved or rejected."""
        rows = await self.db.fetchall(
            f"{self._SELECT} WHERE e.user_id = ? AND e.unreached = 1"
            " AND e.status IN ('approved', 'rejected') ORDER BY e.updated_at, e.rowid",
            (user_id,))
        return [_entrant(row) for row in rows]

    async def awaiting_input(self, user_id: int) -> Entrant | None:
        """The user's newest registration that waits for a name or a photo in the DM."""
        return await self.db.reads.get(AWAITING, user_id, lambda: self._newest(
            user_id, ("name", "photo"), ("registration",)))

    async def _newest(self, user_id: int, statuses: tuple[str, ...],
                      tournament_statuses: tuple[str, ...]) -> Entrant | None:
        """The user's newest entry with one of ``statuses`` in a tournament with one of
        ``tournament_statuses``."""
        row = await self.db.fetchone(
            f"{self._SELECT} JOIN tournaments t ON t.id = e.tournament_id"
            f" WHERE e.user_id = ? AND e.status IN ({', '.join('?' * len(statuses))})"
            f" AND t.status IN ({', '.join('?' * len(tournament_statuses))})"
            " ORDER BY e.updated_at DESC, e.rowid DESC LIMIT 1",
            (user_id, *statuses, *tournament_statuses))
        return _entrant(row) if row else None
