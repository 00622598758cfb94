"""Matches and their append-only action log.

A match row holds who plays and the summary the tournament needs (status, winner, result);
the log holds everything that happened. Appending an action claims the Telegram update that
carried it in the same transaction, so a redelivered update can never be applied twice.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from sys import intern
from typing import Any, TypeVar

from storage.cache import (
    LAST_SEQS,
    MATCH_LISTS,
    MATCH_LOOKUPS,
    MATCH_ROWS,
    chat_lookups,
)
from storage.db import Database, LoopConnection, insert_claim, is_row_id
from storage.repositories.tournaments import chat_of
from storage.timefmt import to_db

T = TypeVar("T")
_LOOKED_UP = frozenset({"status", "player_a", "player_b", "thread_id"})
"""The fields a chat's lookups (whose live match, the match of a topic) are read by."""
RECENT_ACTIONS = 10_000
"""How far back :meth:`MatchesRepo.of_update` looks for an update's action."""
Also = Callable[[LoopConnection, list[int]], Awaitable[None]]
"""What is written with appended actions, in their transaction, given their seqs."""

ROW_CHANGES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "result": lambda e: {"status": "finished", "winner": e["winner"], "result": e["result"]},
    "void": lambda e: {"status": "void"} | ({"result": e["result"]} if "result" in e else {}),
    "reopen": lambda e: {"status": "running", "winner": None, "result": {}},
    "claims": lambda e: {"result": e["result"]},
    "bye": lambda e: {"winner": e["winner"]},
    "replace": lambda e: {e["side"]: e["new"]},
}
"""How each kind of settling entry (``{"meta": kind, …}``) changes the match row: the row's
result columns are derived from the log, never written any other way."""


@dataclass(frozen=True)
class NewMatch:
    """A match to create (:meth:`MatchesRepo.create_many`)."""

    round: int
    slot: str
    kind: str
    player_a: int | None
    player_b: int | None
    status: str = "pending"


class DuplicateUpdate(Exception):
    """The update that carried this action was applied before."""


def forfeit_texts(first_won: bool) -> tuple[str, str]:
    """A forfeit's "+" (the winner) and "−" (the loser), the first player's first."""
    return ("+", "−") if first_won else ("−", "+")


@dataclass(frozen=True, slots=True)
class MatchRow:
    id: int
    tournament_id: int
    stage: str
    round: int
    slot: str
    kind: str
    player_a: int | None
    player_b: int | None
    status: str
    winner: int | None
    result: dict[str, Any] = field(hash=False)
    board_message_id: int | None
    thread_id: int | None = None
    """The forum topic the match is played in (``topics=on``), else None."""

    @property
    def players(self) -> tuple[int | None, int | None]:
        return (self.player_a, self.player_b)

    def opponent(self, player: int | None) -> int | None:
        """The other player of the match than ``player`` (player a's for anyone else)."""
        return self.player_b if player == self.player_a else self.player_a

    @property
    def walkover(self) -> bool:
        """Won without being played out: a forfeit, or the Cup's walkover."""
        return bool(self.result.get("forfeit") or self.result.get("walkover"))

    def score_texts(self, first: int | None = None) -> tuple[str, str] | None:
        """A finished match's score as two texts ("+"/"−" for a forfeit, the Cup's walkover
        too), ``first``'s side first (default: player a's), for a bracket picture; None when
        there is none."""
        if self.status != "finished" or self.player_b is None:
            return None
        if self.walkover:
            texts = forfeit_texts(self.winner == self.player_a)
        elif score := self.result.get("score"):
            texts = (str(score[0]), str(score[1]))
        else:
            return None
        return texts[::-1] if first is not None and first == self.player_b else texts


@dataclass(frozen=True)
class LoggedAction:
    seq: int
    actor_id: int | None
    payload: dict[str, Any] = field(hash=False)
    created_at: str


def _match(row) -> MatchRow:
    """A match row; its few distinct words (stage, slot, kind, status) are interned and the
    rows of matches without a result share one empty result, as thousands of rows stay in
    the read cache (``storage.cache``, whose values nobody changes)."""
    result = _NO_RESULT if row["result"] == "{}" else json.loads(row["result"])
    return MatchRow(row["id"], row["tournament_id"], intern(row["stage"]), row["round"],
                    intern(row["slot"]), intern(row["kind"]), row["player_a"], row["player_b"],
                    intern(row["status"]), row["winner"], result,
                    row["board_message_id"], row["thread_id"])


_NO_RESULT: dict[str, Any] = {}


class MatchesRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(self, tournament_id: int, stage: str, round_no: int, slot: str, kind: str,
                     player_a: int | None, player_b: int | None, now: datetime,
                     status: str = "pending") -> MatchRow:
        return (await self.create_many(tournament_id, stage, [
            NewMatch(round_no, slot, kind, player_a, player_b, status)], now))[0]

    async def create_many(self, tournament_id: int, stage: str, new: Sequence[NewMatch],
                          now: datetime) -> list[MatchRow]:
        """Create the matches ``new`` of one stage in one transaction (a round paired, a
        round robin's every match); their rows, in order."""
        if not new:
            return []
        chat_id = await self._chat_of(tournament_id)

        async def work(tx):
            self._forget_lists(tournament_id, stage)
            ids = []
            for match in new:
                self._forget_live(match.player_a, match.player_b)
                cursor = await tx.execute(
                    "INSERT INTO matches (tournament_id, stage, round, slot, kind, player_a,"
                    " player_b, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (tournament_id, stage, match.round, match.slot, match.kind, match.player_a,
                     match.player_b, match.status, to_db(now)))
                # a "no such match" remembered for the id (a forged button named it) goes
                self.db.reads.forget_key(MATCH_ROWS, cursor.lastrowid)
                ids.append(cursor.lastrowid)
            return ids
        ids = await self.db.write(work, touches=(chat_lookups(chat_id),))
        # Not remembered (as ``get`` would): a new match's row is written again (its start, its
        # board) before it is read often, which forgets it; a later round's rows wait long.
        return [await self._read(match_id) for match_id in ids]

    async def _write(self, changes: dict[int, dict[str, Any]], work,
                     after: dict[int, dict[str, Any]] | None = None) -> Any:
        """Run ``work`` (a write setting each match's ``changes``), forgetting those matches'
        rows and which match is whose (or a topic's) when a status, the players or the topic
        change. ``after``: the rows' new values (fields of :class:`MatchRow`), when the
        write knows them; the rows and the tournaments' match lists holding them are then
        remembered as they will read, instead of read again (a result, a round opened: a
        round robin's 28 rows each).
        Returns what ``work`` returns."""
        rows = {match_id: await self.get(match_id) for match_id in changes}
        chats = set()
        for match_id, row in rows.items():
            if row is not None and changes[match_id].keys() & _LOOKED_UP:
                chats.add(chat_lookups(await self._chat_of(row.tournament_id)))

        async def forgetting(tx):
            new = None if after is None else {match_id: replace(row, **after[match_id])
                                              for match_id, row in rows.items() if row}
            for match_id, row in rows.items():
                self._forget_row(match_id, row, changes[match_id],
                                 None if new is None else new.get(match_id))
            self._lists_after(rows, new)
            return await work(tx)
        return await self.db.write(forgetting, touches=tuple(chats))

    def _forget_row(self, match_id: int, row: MatchRow | None, fields: dict[str, Any],
                    new: MatchRow | None) -> None:
        """What the open write to match ``match_id`` (``row`` before it, ``new`` after it
        when known) makes stale."""
        self.db.reads.forget_key(MATCH_ROWS, match_id)
        if row is None:
            return
        if new is not None:
            self.db.reads.remember_after(MATCH_ROWS, match_id, new)
        if fields.keys() & {"status", "player_a", "player_b"}:
            self._forget_live(row.player_a, row.player_b, fields.get("player_a"),
                              fields.get("player_b"))

    def _lists_after(self, rows: dict[int, MatchRow | None],
                     new: dict[int, MatchRow] | None) -> None:
        """The match lists holding ``rows``: remembered with the ``new`` rows when they are
        remembered now and the write knows its rows, else forgotten (a write changes no
        row's place in a list: neither its round nor its id)."""
        for key in {key for row in rows.values() if row is not None
                    for key in ((row.tournament_id, None), (row.tournament_id, row.stage))}:
            listed = None if new is None else self.db.reads.peek(MATCH_LISTS, key)
            if listed is None:
                self.db.reads.forget_key(MATCH_LISTS, key)
            else:
                self.db.reads.remember_after(MATCH_LISTS, key, tuple(
                    new.get(row.id, row) for row in listed))

    def _forget_live(self, *players: int | None) -> None:
        """The open write changes which matches ``players`` play live: forget their lists."""
        for player in players:
            if player is not None:
                self.db.reads.forget_key(MATCH_LOOKUPS, ("live-panels", player))

    async def _chat_of(self, tournament_id: int) -> int:
        """The chat of a tournament, whose lookups a write to one of its matches forgets."""
        chat_id = await chat_of(self.db, tournament_id)
        if chat_id is None:
            raise LookupError(f"no tournament {tournament_id}")
        return chat_id

    def _forget_lists(self, tournament_id: int, stage: str) -> None:
        """The open write changes a match of the tournament in ``stage``: forget the
        tournament's match lists that hold it (all stages, and that stage)."""
        for key in ((tournament_id, None), (tournament_id, stage)):
            self.db.reads.forget_key(MATCH_LISTS, key)

    async def get(self, match_id: int) -> MatchRow | None:
        """The match, None when there is none of that id (any number a user types or a
        forged button carries)."""
        if not is_row_id(match_id):
            return None
        return await self.db.reads.get(MATCH_ROWS, match_id, lambda: self._read(match_id))

    async def of_update(self, update_id: int) -> int | None:
        """The match an action of update ``update_id`` was logged in, if any, among the
        newest :data:`RECENT_ACTIONS` actions: asked of an update Telegram delivers again
        after a restart, one of the last handled (no index on ``update_id``: every action
        would pay for it)."""
        row = await self.db.fetchone(
            "SELECT match_id FROM (SELECT match_id, update_id FROM match_actions"
            " ORDER BY rowid DESC LIMIT ?) WHERE update_id = ? LIMIT 1",
            (RECENT_ACTIONS, update_id))
        return row[0] if row else None

    async def _read(self, match_id: int) -> MatchRow | None:
        row = await self.db.fetchone("SELECT * FROM matches WHERE id = ?", (match_id,))
        return _match(row) if row else None

    async def _found(self, chat_id: int, key: tuple, sql: str, params: tuple
                     ) -> MatchRow | None:
        """The match ``sql`` finds by its id (the id remembered under ``key`` among the
        lookups of chat ``chat_id``), or None."""
        async def read() -> int | None:
            row = await self.db.fetchone(sql, params)
            return row[0] if row else None
        match_id = await self.db.reads.get(chat_lookups(chat_id), key, read)
        return None if match_id is None else await self.get(match_id)

    async def for_tournament(self, tournament_id: int, stage: str | None = None
                             ) -> list[MatchRow]:
        sql, params = "SELECT * FROM matches WHERE tournament_id = ?", (tournament_id,)
        if stage:
            sql, params = sql + " AND stage = ?", (*params, stage)

        async def read() -> tuple[MatchRow, ...]:
            return tuple(_match(r) for r in await self.db.fetchall(sql + " ORDER BY round, id",
                                                                   params))
        return list(await self.db.reads.get(MATCH_LISTS, (tournament_id, stage or None), read))

    async def current_for_player(self, tournament_id: int, user_id: int) -> MatchRow | None:
        return await self._found(
            await self._chat_of(tournament_id), ("current", tournament_id, user_id),
            "SELECT id FROM matches WHERE tournament_id = ? AND status IN ('running', 'paused')"
            " AND ? IN (player_a, player_b) ORDER BY id LIMIT 1", (tournament_id, user_id))

    async def live_for_player_in_chat(self, chat_id: int, user_id: int,
                                      game: str | None = None) -> MatchRow | None:
        """The user's oldest running (or paused) match in a running tournament of the chat
        (of ``game``'s tournaments, when given: a player may play two games in one group)."""
        for match_game, match in await self.live_in_chat(chat_id, user_id):
            if game is None or match_game == game:
                return match
        return None

    async def live_in_chat(self, chat_id: int, user_id: int) -> list[tuple[str, MatchRow]]:
        """The user's running (or paused) matches in running tournaments of the chat, oldest
        first, each with its tournament's game."""
        async def read() -> tuple[tuple[int, str], ...]:
            rows = await self.db.fetchall(
                "SELECT m.id, t.game FROM matches m JOIN tournaments t ON t.id = m.tournament_id"
                " WHERE t.chat_id = ? AND t.status IN ('running', 'paused')"
                " AND m.status IN ('running', 'paused') AND ? IN (m.player_a, m.player_b)"
                " ORDER BY m.id", (chat_id, user_id))
            return tuple((row[0], row[1]) for row in rows)
        found = await self.db.reads.get(chat_lookups(chat_id), ("live", user_id), read)
        return [(game, await self.get(match_id)) for match_id, game in found]

    async def tournament_of_topic(self, chat_id: int, thread_id: int) -> int | None:
        """The tournament whose match is played in forum topic ``thread_id`` of the chat."""
        match = await self.in_topic(chat_id, thread_id)
        return None if match is None else match.tournament_id

    async def in_topic(self, chat_id: int, thread_id: int) -> MatchRow | None:
        """The match played in forum topic ``thread_id`` of the chat (any status)."""
        return await self._found(
            chat_id, ("topic", thread_id),
            "SELECT m.id FROM matches m JOIN tournaments t ON t.id = m.tournament_id"
            " WHERE t.chat_id = ? AND m.thread_id = ? ORDER BY m.id DESC LIMIT 1",
            (chat_id, thread_id))

    async def last_for_player_in_chat(self, chat_id: int, user_id: int) -> MatchRow | None:
        """The user's newest match in a tournament (or friendly) of the chat, any status."""
        return await self._found(
            chat_id, ("last", user_id),
            "SELECT m.id FROM matches m JOIN tournaments t ON t.id = m.tournament_id"
            " WHERE t.chat_id = ? AND ? IN (m.player_a, m.player_b)"
            " ORDER BY m.id DESC LIMIT 1", (chat_id, user_id))

    async def update(self, match_id: int, now: datetime, **fields: Any) -> None:
        """Where a match stands in its tournament's flow (pending → running ⇄ paused, a
        bye) and its board message. Results and corrections go through :meth:`settle`."""
        await self.update_many({match_id: fields}, now)

    async def update_many(self, changes: dict[int, dict[str, Any]], now: datetime) -> None:
        """:meth:`update` of several matches in one transaction (a round opened)."""
        if not changes:
            return
        allowed = {"status", "board_message_id", "thread_id"}
        for fields in changes.values():
            assert set(fields) <= allowed and fields.get("status") in (
                None, "pending", "running", "paused", "bye"), fields

        async def work(tx):
            for match_id, fields in changes.items():
                await _set_columns(tx, match_id, fields)
        await self._write(changes, work, after=changes)

    async def settle(self, match_id: int, entry: dict[str, Any], actor_id: int | None,
                     now: datetime, update_id: int | None = None,
                     actions: Sequence[dict[str, Any]] = (),
                     also: Callable[[LoopConnection], Awaitable[T]] | None = None) -> T | None:
        """Append a settling entry (a result, a void, a reopening, the players' claims, a
        replaced player …, see :data:`ROW_CHANGES`) to the match's log and derive the row
        from it, in one transaction; ``actions`` (a player's report, or an answer to one,
        that leads to it) are logged first, in the same transaction, and ``also`` writes
        what follows from it (the job that moves the tournament on) last; its answer is
        returned. Raises :class:`DuplicateUpdate` like :meth:`append`."""
        fields = ROW_CHANGES[entry["meta"]](entry)
        row = dict(fields)  # as the row will read: the result as its JSON reads back
        if "result" in fields:
            fields["result"] = json.dumps(fields["result"], ensure_ascii=False)
            row["result"] = json.loads(fields["result"])
        if fields.get("status") == "finished":
            fields["finished_at"] = to_db(now)
        async def work(tx):
            await _append(self.db, tx, match_id, [*actions, entry], actor_id, now, update_id)
            await _set_columns(tx, match_id, fields)
            return None if also is None else await also(tx)
        written = await self._write({match_id: fields}, work, after={match_id: row})
        self._claimed(update_id)
        return written

    def _claimed(self, update_id: int | None) -> None:
        if update_id is not None:
            self.db.claimed.add(update_id)

    async def actions(self, match_id: int, after: int = 0) -> list[LoggedAction]:
        """The match's logged actions in order (only those after seq ``after`` if given)."""
        rows = await self.db.fetchall(
            "SELECT seq, actor_id, payload, created_at FROM match_actions"
            " WHERE match_id = ? AND seq > ? ORDER BY seq", (match_id, after))
        return [LoggedAction(r["seq"], r["actor_id"], json.loads(r["payload"]), r["created_at"])
                for r in rows]

    async def last_seq_of(self, match_id: int, action_type: str) -> int:
        """The seq of the match's last logged action of ``action_type`` (0: none)."""
        row = await self.db.fetchone(
            "SELECT coalesce(max(seq), 0) FROM match_actions WHERE match_id = ?"
            " AND json_extract(payload, '$.type') = ?", (match_id, action_type))
        return row[0]

    async def last_seq(self, match_id: int) -> int:
        """The seq of the match's last logged action (0 before the first)."""
        return await _last_seq(self.db, match_id)

    async def append(self, match_id: int, payload: dict[str, Any], actor_id: int | None,
                     now: datetime, update_id: int | None = None) -> int:
        """Append one action and return its sequence number (see :meth:`append_many`)."""
        return (await self.append_many(match_id, [payload], actor_id, now, update_id))[-1]

    async def append_many(self, match_id: int, payloads: list[dict[str, Any]],
                          actor_id: int | None, now: datetime, update_id: int | None = None,
                          also: Also | None = None) -> list[int]:
        """Append actions in one transaction and return their sequence numbers; ``also``
        writes what goes with them (their clocks) in the same transaction, given the seqs.

        Raises :class:`DuplicateUpdate` (and writes nothing) when ``update_id`` was handled.
        """
        async def work(tx):
            seqs = await _append(self.db, tx, match_id, payloads, actor_id, now, update_id)
            if also is not None:
                await also(tx, seqs)
            return seqs
        seqs = await self.db.write(work)
        self._claimed(update_id)
        return seqs


async def _last_seq(db: Database, match_id: int) -> int:
    """The match's last seq (remembered: every append leaves its new last seq in the cache).
    The same inside a write transaction: the connection reads its own writes."""
    async def read() -> int:
        row = await db.fetchone(
            "SELECT coalesce(max(seq), 0) FROM match_actions WHERE match_id = ?", (match_id,))
        return row[0]
    return await db.reads.get(LAST_SEQS, match_id, read)


async def _append(db: Database, tx, match_id: int, payloads: list[dict[str, Any]],
                  actor_id: int | None, now: datetime, update_id: int | None) -> list[int]:
    if update_id is not None and not await insert_claim(tx, update_id, now):
        raise DuplicateUpdate(update_id)
    last = await _last_seq(db, match_id)
    seqs = list(range(last + 1, last + 1 + len(payloads)))
    if seqs:
        db.reads.remember_after(LAST_SEQS, match_id, seqs[-1])
    await tx.executemany(
        "INSERT INTO match_actions (match_id, seq, actor_id, payload, update_id, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(match_id, seq, actor_id, json.dumps(payload, ensure_ascii=False),
          update_id if number == 0 else None, to_db(now))
         for number, (seq, payload) in enumerate(zip(seqs, payloads, strict=True))])
    return seqs


async def _set_columns(tx, match_id: int, fields: dict[str, Any]) -> None:
    if fields:
        assignments = ", ".join(f"{name} = ?" for name in fields)
        await tx.execute(f"UPDATE matches SET {assignments} WHERE id = ?",
                         (*fields.values(), match_id))
