"""Users and chats the bot has seen."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from storage.cache import (
    AWAITING,
    ENTRANTS,
    MATCH_LISTS,
    MATCH_LOOKUPS,
    MATCH_ROWS,
    TOURNAMENT_CHATS,
    TOURNAMENTS,
    chat_lookups,
    chat_tournaments,
)
from storage.db import Database
from storage.timefmt import from_db, to_db


@dataclass(frozen=True, slots=True)
class User:
    id: int
    username: str | None
    first_name: str
    telegram_language: str | None
    language: str | None
    started: bool

    @property
    def mention(self) -> str:
        return f"@{self.username}" if self.username else self.first_name


def _user(row) -> User:
    return User(row["id"], row["username"], row["first_name"], row["telegram_language"],
                row["language"], bool(row["started"]))


class UsersRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def upsert(self, user_id: int, username: str | None, first_name: str,
                     telegram_language: str | None, now: datetime,
                     started: bool = False, blocked: bool = False) -> None:
        """Remember the user as Telegram shows them now. ``started`` (they wrote to the bot
        in private, so it may write to them) only goes up, unless they ``blocked`` the bot:
        then it is off until they write in private again."""
        kept = "excluded.started" if blocked else "max(users.started, excluded.started)"

        async def work(tx):
            if username:  # a handle moves to whoever holds it now
                await tx.execute(
                    "UPDATE users SET username = NULL WHERE lower(username) = lower(?) AND id != ?",
                    (username, user_id))
            await tx.execute(
                "INSERT INTO users (id, username, first_name, telegram_language, started, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET"
                " username = excluded.username, first_name = excluded.first_name,"
                " telegram_language = excluded.telegram_language,"
                f" started = {kept}, updated_at = excluded.updated_at",
                (user_id, username, first_name, telegram_language, int(started), to_db(now)))
        await self.db.write(work, touches=(ENTRANTS, AWAITING))  # entrants carry users' names

    async def get(self, user_id: int) -> User | None:
        row = await self.db.fetchone("SELECT * FROM users WHERE id = ?", (user_id,))
        return _user(row) if row else None

    async def by_username(self, username: str) -> User | None:
        row = await self.db.fetchone(
            "SELECT * FROM users WHERE lower(username) = lower(?)", (username.lstrip("@"),))
        return _user(row) if row else None

    async def latest_change(self) -> datetime | None:
        """When a user's record was last written (a newcomer, a name changed): someone
        wrote to the bot then (None when nobody has)."""
        row = await self.db.fetchone("SELECT MAX(updated_at) AS at FROM users")
        return from_db(row["at"]) if row and row["at"] else None

    async def set_language(self, user_id: int, language: str) -> None:
        async def work(tx):
            await tx.execute("UPDATE users SET language = ? WHERE id = ?", (language, user_id))
        await self.db.write(work)


@dataclass(frozen=True, slots=True)
class Chat:
    id: int
    type: str
    title: str | None
    language: str | None
    active_tournament_id: int | None
    migrated_from: int | None = None
    """The group's id before Telegram made it this supergroup (``move``)."""


class ChatsRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def upsert(self, chat_id: int, chat_type: str, title: str | None,
                     language: str | None) -> None:
        """Remember a chat; its language is set once (from the first speaker), then by /lang."""
        async def work(tx):
            await tx.execute(
                "INSERT INTO chats (id, type, title, language) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET type = excluded.type, title = excluded.title",
                (chat_id, chat_type, title, language))
        await self.db.write(work)

    async def get(self, chat_id: int) -> Chat | None:
        row = await self.db.fetchone("SELECT * FROM chats WHERE id = ?", (chat_id,))
        if not row:
            return None
        return Chat(row["id"], row["type"], row["title"], row["language"],
                    row["active_tournament_id"], row["migrated_from"])

    async def set_language(self, chat_id: int, language: str) -> None:
        async def work(tx):
            await tx.execute("UPDATE chats SET language = ? WHERE id = ?", (language, chat_id))
        await self.db.write(work)

    async def move(self, old_id: int, new_id: int) -> int:
        """A group Telegram made a supergroup, with a new id: its language, its tournaments
        and their organiser log move to the new id in one transaction (again: nothing left to
        move). The matches forget their boards' message ids: those name messages of the old
        chat, and the same ids in the supergroup are other messages (its ids start again), so
        each board is sent anew when next drawn. Returns how many tournaments moved."""
        async def work(tx) -> int:
            await tx.execute(
                "INSERT INTO chats (id, type, title, language, active_tournament_id,"
                " migrated_from) SELECT ?, 'supergroup', title, language, active_tournament_id,"
                " id FROM chats WHERE id = ? ON CONFLICT (id) DO UPDATE SET"
                " language = COALESCE(excluded.language, chats.language),"
                " migrated_from = excluded.migrated_from",
                (new_id, old_id))
            await tx.execute(
                "UPDATE matches SET board_message_id = NULL WHERE tournament_id IN"
                " (SELECT id FROM tournaments WHERE chat_id = ?)", (old_id,))
            cursor = await tx.execute("UPDATE tournaments SET chat_id = ? WHERE chat_id = ?",
                                      (new_id, old_id))
            await tx.execute("UPDATE organiser_log SET chat_id = ? WHERE chat_id = ?",
                             (new_id, old_id))
            return cursor.rowcount
        regions = (TOURNAMENTS, TOURNAMENT_CHATS, MATCH_LOOKUPS, AWAITING, MATCH_ROWS,
                   MATCH_LISTS, *(region(chat) for chat in (old_id, new_id)
                     for region in (chat_tournaments, chat_lookups)))
        return await self.db.write(work, touches=regions)
