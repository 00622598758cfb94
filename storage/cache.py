"""Remembered answers of hot reads, forgotten whenever what they read is written.

A game action reads its tournament and its entrants on almost every update, and both change
only at a few moments of a tournament's life (registration, a start, a status, a setting).
:class:`ReadCache` keeps such answers per *region* (a table, or tables read together); every
write to a region forgets the whole region — at the write, and again when the write's
transaction ends, because reads on the same connection see uncommitted rows and a rolled-back
write must not leave its row remembered.

Cached values are shared: callers must treat them as read-only (they are frozen dataclasses
whose dicts nobody mutates). With :attr:`ReadCache.verify` set — the test suite sets it — every
hit is compared with a fresh read, so a write that forgot its region, or a caller that mutated a
cached value, fails a test instead of serving stale data.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

TOURNAMENTS = "tournaments"
ENTRANTS = "entrants"
"""Entrants joined with their users' names: entrant and user writes both forget it."""
MATCH_ROWS = "match-rows"
"""Match rows by id: a write to a match forgets its own row only (appending to its log
does not)."""
MATCH_LISTS = "match-lists"
"""A tournament's match rows (of one stage, or all), keyed ``(tournament_id, stage or
None)``: creating a match forgets the two lists that hold it; a write that knows a match's
new row (a status, a result, a board message id) leaves them remembered with that row once
it commits (a row's place in a list never changes), any other forgets them."""
PANELS = "panels"
"""Which DM message shows a player's panel of a match: storing a new panel leaves its id
here once the write commits."""
AWAITING = "awaiting-input"
"""A user's registration that waits for a name or a photo (it reads entrants, their users'
names and the tournament's status): every entrant, user and tournament write forgets it."""
LAST_SEQS = "last-seqs"
"""The seq of a match's last logged action: an append leaves its match's new last seq here
once the write commits."""
MATCH_LOOKUPS = "match-lookups"
"""A player's live matches in every chat (``("live-panels", user_id)``): a write to a match
(created, a status, its players) forgets its players' entries, a tournament's status all."""
TOURNAMENT_CHATS = "tournament-chats"
"""The chat of each tournament: it changes only when Telegram makes a group a supergroup
(``ChatsRepo.move``), which forgets the whole region."""


def chat_tournaments(chat_id: int) -> str:
    """The region of one chat's tournament lists (its open ones, its newest): a write to a
    tournament forgets its own chat's region only."""
    return f"{TOURNAMENTS}@{chat_id}"


def chat_lookups(chat_id: int) -> str:
    """The region of which match is a player's live (or last, or current) one in one chat:
    forgotten by every write there that can change the answer — a match created, a match's
    status or players, a tournament's status."""
    return f"{MATCH_LOOKUPS}@{chat_id}"


class Recent(OrderedDict):
    """A mapping of at most ``size`` entries: setting one more forgets the one least
    recently set or read with :meth:`use`."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: Hashable, value: Any) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        if len(self) > self.size:
            self.popitem(last=False)

    def use(self, key: Hashable, default: Any = None) -> Any:
        """The entry of ``key``, now the most recently used one; ``default`` if none."""
        if key not in self:
            return default
        self.move_to_end(key)
        return self[key]


class StaleRead(AssertionError):
    """A cached answer differs from the database (only raised when verifying)."""


class ReadCache:
    verify = False
    """Compare every hit with a fresh read (tests)."""

    def __init__(self, size: int = 4096, regions: int = 1024) -> None:
        self._regions = Recent(regions)
        """At most ``regions`` regions of at most ``size`` entries each: with a region per
        chat (:func:`chat_tournaments`, :func:`chat_lookups`) the least recently used one is
        dropped whole, which only costs reads."""
        self._size = size
        self._dirty: set[str] = set()
        self._dirty_keys: set[tuple[str, Hashable]] = set()
        self._after: dict[tuple[str, Hashable], Any] = {}

    async def get(self, region: str, key: Hashable, read: Callable[[], Awaitable[T]]) -> T:
        entries = self._region(region)
        if key in entries:
            value = entries.use(key)
            if self.verify and (fresh := await read()) != value:
                raise StaleRead(f"{region} {key!r}: cached {value!r}, stored {fresh!r}")
            return value
        value = await read()
        if region not in self._dirty and (region, key) not in self._dirty_keys:
            entries[key] = value  # (else a transaction writing it is still open)
        return value

    def peek(self, region: str, key: Hashable) -> Any:
        """The remembered answer of ``key`` (None when there is none), not counted as a use
        and never verified: for a write that derives the answer it will leave."""
        entries = self._regions.get(region)
        return None if entries is None else entries.get(key)

    def _region(self, region: str) -> Recent:
        """The entries of ``region`` (made empty on first use)."""
        if (entries := self._regions.use(region)) is None:
            entries = self._regions[region] = Recent(self._size)
        return entries

    def forget(self, region: str) -> None:
        """The open write transaction writes ``region``: forget it now and when it ends."""
        self._regions.pop(region, None)
        self._dirty.add(region)

    def forget_key(self, region: str, key: Hashable) -> None:
        """The open write transaction writes what ``key`` of ``region`` read: forget that
        entry now and when the transaction ends."""
        self._regions.get(region, {}).pop(key, None)
        self._dirty_keys.add((region, key))
        self._after.pop((region, key), None)  # a later write of the transaction wins

    def remember_after(self, region: str, key: Hashable, value: Any) -> None:
        """The open write transaction makes ``value`` the answer of ``key`` (a write that
        knows what the next read would find): remembered if the transaction commits and no
        later write of it forgets ``key`` or its region."""
        self.forget_key(region, key)
        self._after[region, key] = value

    def settle(self, *, committed: bool = False) -> None:
        """The write transaction ended (committed, or rolled back or failed)."""
        for region in self._dirty:
            self._regions.pop(region, None)
        for region, key in self._dirty_keys:
            self._regions.get(region, {}).pop(key, None)
        if committed:
            for (region, key), value in self._after.items():
                if region not in self._dirty:
                    self._region(region)[key] = value
        self._dirty.clear()
        self._dirty_keys.clear()
        self._after.clear()
