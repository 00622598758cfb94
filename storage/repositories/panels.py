"""Private panels: which DM message shows a player's panel of a match."""

from __future__ import annotations

from collections.abc import Collection

from storage.cache import MATCH_LOOKUPS, PANELS
from storage.db import Database


class PanelsRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, match_id: int, user_id: int) -> int | None:
        """The message id of the player's panel of the match, if one was sent."""
        async def read() -> int | None:
            row = await self.db.fetchone(
                "SELECT message_id FROM match_panels WHERE match_id = ? AND user_id = ?",
                (match_id, user_id))
            return row["message_id"] if row else None
        return await self.db.reads.get(PANELS, (match_id, user_id), read)

    async def unreached(self, match_id: int) -> frozenset[int]:
        """The players of the match whose panel the bot could not send, not reached since."""
        async def read() -> frozenset[int]:
            rows = await self.db.fetchall(
                "SELECT user_id FROM match_unreached WHERE match_id = ?", (match_id,))
            return frozenset(row["user_id"] for row in rows)
        return await self.db.reads.get(PANELS, ("unreached", match_id), read)

    async def put_many(self, match_id: int, panels: list[tuple[int, int]],
                       reached: frozenset[int] = frozenset(),
                       unreached: frozenset[int] = frozenset()) -> None:
        """Store each ``(user_id, message_id)`` as that player's panel of the match, and who
        of its players a panel now reached or failed to reach, in one transaction (nothing
        when none of it changes anything)."""
        before = await self.unreached(match_id)
        after = (before - reached) | unreached
        if not panels and after == before:
            return

        async def work(tx):
            for user_id, message_id in panels:
                self.db.reads.remember_after(PANELS, (match_id, user_id), message_id)
            self.db.reads.remember_after(PANELS, ("unreached", match_id), after)
            await tx.executemany(
                "INSERT INTO match_panels (match_id, user_id, message_id) VALUES (?, ?, ?)"
                " ON CONFLICT (match_id, user_id) DO UPDATE SET message_id = excluded.message_id",
                [(match_id, user_id, message_id) for user_id, message_id in panels])
            await tx.executemany(
                "DELETE FROM match_unreached WHERE match_id = ? AND user_id = ?",
                [(match_id, user_id) for user_id in before - after])
            await tx.executemany(
                "INSERT INTO match_unreached (match_id, user_id) VALUES (?, ?)",
                [(match_id, user_id) for user_id in after - before])
        await self.db.write(work)

    async def owed(self, kinds: Collection[str], bot_id: int) -> list[int]:
        """The live matches of ``kinds`` whose board is out while a player (not the bot
        itself) has no panel and was never found out of reach, oldest first. A panel is
        sent with the board that opens the match, so only a process that stopped between
        the two leaves one: it never went out, or went out and was not noted."""
        if not kinds:
            return []
        marks = ", ".join("?" * len(kinds))
        without_panel = (
            "({player} IS NOT NULL AND {player} != ?"
            " AND NOT EXISTS (SELECT 1 FROM match_panels p"
            " WHERE p.match_id = m.id AND p.user_id = {player})"
            " AND NOT EXISTS (SELECT 1 FROM match_unreached u"
            " WHERE u.match_id = m.id AND u.user_id = {player}))")
        rows = await self.db.fetchall(
            "SELECT m.id FROM matches m JOIN tournaments t ON t.id = m.tournament_id"
            " WHERE t.status IN ('running', 'paused') AND m.status IN ('running', 'paused')"
            f" AND m.board_message_id IS NOT NULL AND m.kind IN ({marks})"
            f" AND ({without_panel.format(player='m.player_a')}"
            f" OR {without_panel.format(player='m.player_b')}) ORDER BY m.id",
            (*kinds, bot_id, bot_id))
        return [row["id"] for row in rows]

    async def live_matches(self, user_id: int) -> list[int]:
        """The user's running (or paused) matches of running tournaments, oldest first:
        the matches whose panels /hand may show."""
        async def read() -> tuple[int, ...]:
            rows = await self.db.fetchall(
                "SELECT m.id FROM matches m JOIN tournaments t ON t.id = m.tournament_id"
                " WHERE t.status IN ('running', 'paused') AND m.status IN ('running', 'paused')"
                " AND ? IN (m.player_a, m.player_b) ORDER BY m.id", (user_id,))
            return tuple(row["id"] for row in rows)
        return list(await self.db.reads.get(MATCH_LOOKUPS, ("live-panels", user_id), read))
