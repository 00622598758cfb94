"""Match state and its log: lock → state → engine check → log → commit.

State is the replay of the match's action log through its engine. The last replayed state
is kept in memory per live match (dropped whenever an append fails). A finished match, as its
last action left it or as read again for a table, statistics or an export, is kept among the
last :data:`FINISHED_REMEMBERED` finished ones only, so memory does not grow with the matches
played, and what follows its last action (its announcement, panels, result) reads it free.
A cold start (after a restart, or once the state left the cache) starts from the match's
latest snapshot (``bot.snapshots``: written every :data:`bot.snapshots.EVERY` actions, used
only when its fingerprint still matches) and replays only the actions after it.

Engines apply in place and promise that a refused action changes nothing
(``tests/games/common/test_contract.py``). The next change applies to a replica of the
current state, so the "before" it reports is the untouched previous state. An engine that
copies itself cheaply (``__replica__``, see ``games.common.match``: armchair cricket, a
backgammon match played in the bot, darts, the Cup's rolling rounds and HP battle) gives
that replica as its own copy, taken afresh for each change. The others are never copied
per action: each cached match keeps two replicas (:class:`_Replicas`), the one handed out as
"after" the last change and a spare one step behind, and the next change first brings the spare up to date by replaying that change on
it — two applies per action, whatever the length of the match. :meth:`MatchService.apply`
(called by ``bot.play.perform``, which holds the lock) raises the engine's
:class:`IllegalAction` or :class:`DuplicateUpdate` (the update was applied before); either
way nothing is written.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot import snapshots
from bot.games import EngineFactory, game_of
from games.common.errors import IllegalAction
from games.common.match import ReplayableMatch, copies_itself, replay, replica
from storage.cache import Recent
from storage.db import Write
from storage.repositories.jobs import Job, insert_job
from storage.repositories.matches import MatchRow
from storage.repositories.snapshots import Snapshot

if TYPE_CHECKING:
    from bot.play.clock import Onward

log = logging.getLogger(__name__)
REWIND = "rewind"
RESULT_OWED = "match_result_owed"
"""The job stored with the action that ends a match's play, held in the stead of the game's
``finish`` (the result into the tournament), which the update runs
(:meth:`~bot.scheduler.Scheduler.stand_in`): a process that stopped in between, or a
finish that failed, leaves it to run (:func:`bot.play.board.result_owed`)."""
FINISHED_REMEMBERED = 256
"""Finished matches whose states stay in memory (the live ones all do)."""
Clocks = Callable[[ReplayableMatch], "Onward | None"]
"""What an action's new state does to its match's clocks (``bot.play.clock.Onward``)."""


@dataclass(frozen=True)
class Change:
    """One accepted step of a match: the state before it and after it (both read-only)."""

    before: ReplayableMatch
    after: ReplayableMatch
    owed: Job | None = None
    """The :data:`RESULT_OWED` job written with a change that ended the match's play."""


@dataclass
class _Replicas:
    """The state after the last change (``current``) and a replica that is ``pending``
    actions behind it (``spare``; None until the first change needs it)."""

    current: ReplayableMatch
    fingerprint: str | None
    """What a snapshot of this match carries (:func:`bot.snapshots.fingerprint`)."""
    spare: ReplayableMatch | None = None
    pending: tuple[dict[str, Any], ...] = ()
    draft: Any = None
    """What a player has chosen on the match's board without acting yet (see
    :meth:`MatchService.keep_draft`)."""
    play: int = 0
    """Which play of the match the state is: the seq of the log's last rewind marker (0:
    the first play; see :meth:`MatchService.play`)."""

    def next_base(self) -> ReplayableMatch:
        """A replica equal to ``current`` that nobody holds: the engine's own copy where it
        makes one (cheaper than a replay), else the spare brought up to date."""
        copied = replica(self.current)
        if copied is not None:
            return copied
        if self.spare is None:
            return snapshots.replica(self.current)  # once per match (after a load)
        replay(self.spare, self.pending)
        return self.spare


CLOSED = ("finished", "void")
"""Row statuses of a match that takes no more actions, whatever its game's state says (a
walkover, an organiser's result, a resignation, a match voided by a withdrawal)."""


class MatchService:
    def __init__(self, services) -> None:
        self.services = services
        self._states: dict[int, _Replicas] = {}
        self._finished: Recent = Recent(FINISHED_REMEMBERED)
        """States of finished matches (just ended, or read again by tables, statistics,
        exports): the most recently used only, apart from the live ones."""

    def lock(self, match_id: int) -> asyncio.Lock:
        """The lock every change of one match is made under."""
        return self.services.lock(f"match-{match_id}")

    async def state(self, match: MatchRow) -> ReplayableMatch:
        """The current engine state of ``match`` (a copy: callers cannot corrupt the cache)."""
        return snapshots.replica(await self.current(match))

    async def current(self, match: MatchRow) -> ReplayableMatch:
        """The cached state itself: read it, never change it. Hold :meth:`lock` to rely on
        it across awaits; without the lock, read what you need before the next await (a
        change after that may reuse the object). :meth:`state` is the copy to keep."""
        return (await self._replicas(match)).current

    async def _replicas(self, match: MatchRow) -> _Replicas:
        """The match's cached replicas, loaded when absent: kept with the live matches', or
        (a finished match, or one closed outside its play) among the last
        :data:`FINISHED_REMEMBERED`."""
        replicas = self._states.get(match.id) or self._finished.use(match.id)
        if replicas is None:
            replicas = await self._load(match)
            if replicas.current.finished or match.status in CLOSED:
                self._finished[match.id] = replicas
            else:
                self._states[match.id] = replicas
        return replicas

    async def _load(self, match: MatchRow) -> _Replicas:
        """The state from the match's snapshot and the log after it, else from the log."""
        factory, settings = await self._factory(match)
        fresh = factory(settings)
        fingerprint = snapshots.fingerprint(fresh, factory.__module__)
        restored = await self._restore(match, fingerprint)
        if restored is not None:
            return _Replicas(restored, fingerprint,
                             play=await self.services.repos.matches.last_seq_of(match.id, REWIND))
        logged = await self.services.repos.matches.actions(match.id)
        return _Replicas(replay(fresh, effective_actions(logged)), fingerprint,
                         play=max((action.seq for action in logged
                                   if action.payload.get("type") == REWIND), default=0))

    async def _restore(self, match: MatchRow, fingerprint: str | None
                       ) -> ReplayableMatch | None:
        """The latest snapshot with the log's tail replayed on it; None when there is no
        snapshot this engine may use."""
        if fingerprint is None:
            return None
        snapshot = await self.services.repos.snapshots.latest(match.id)
        if snapshot is None or snapshot.fingerprint != fingerprint:
            return None
        tail = await self.services.repos.matches.actions(match.id, after=snapshot.seq)
        if _rewound_before(tail, snapshot.seq):
            return None
        state = snapshots.load(snapshot.state)
        try:
            return None if state is None else replay(state, effective_actions(tail))
        except IllegalAction:
            log.warning("match %s: its snapshot does not take its log, replayed", match.id)
            return None

    async def _snapshot(self, match_id: int, seq: int, replicas: _Replicas) -> None:
        """Keep the state after ``seq`` as the match's snapshot (a cache: a failure to
        write it is logged and changes nothing else)."""
        state = snapshots.dump(replicas.current) if replicas.fingerprint else None
        if state is None:
            return
        try:
            await self.services.repos.snapshots.save(
                match_id, Snapshot(seq, replicas.fingerprint, state))
        except Exception:
            log.exception("match %s: snapshot not written", match_id)

    def play(self, match_id: int) -> int:
        """Which play of the match its cached state is (read right after :meth:`current`,
        before the next await): the seq of the log's last rewind marker, 0 for the first.
        A position reached again after a rewind (an HP round played again after /reopen)
        is of another play."""
        replicas = self._states.get(match_id) or self._finished.get(match_id)
        return 0 if replicas is None else replicas.play

    def keep_draft(self, match_id: int, draft: Any) -> None:
        """Keep what a player has chosen on a live match's board buttons without acting yet
        (the backgammon point picker's steps, a report form half filled; None: nothing), so
        that a board drawn again shows it. It is kept across actions, for its game to judge
        whether it still fits the state; a restart or :meth:`forget` drops it."""
        replicas = self._states.get(match_id)
        if replicas is not None:
            replicas.draft = draft

    def draft(self, match_id: int) -> Any:
        """The draft :meth:`keep_draft` kept for the live match, else None."""
        replicas = self._states.get(match_id)
        return None if replicas is None else replicas.draft

    def forget(self, match_id: int) -> None:
        """Drop the cached state of a match (it is rebuilt from the log when next read)."""
        self._states.pop(match_id, None)
        self._finished.pop(match_id, None)

    @property
    def cached(self) -> int:
        """How many matches have their state in memory (live ones, then finished ones)."""
        return len(self._states) + len(self._finished)

    async def rewind(self, match: MatchRow, to_seq: int, actor_id: int | None, *,
                     update_id: int | None = None, logged: Write | None = None) -> Any:
        """Take the match back to how it stood after action ``to_seq`` (an organiser's
        correction). Nothing is deleted: a marker in the log says which actions stop counting.
        ``update_id`` is claimed and ``logged`` written with the marker, as in :meth:`apply`;
        returns what ``logged`` wrote (a job held with it), as ``settle``'s ``also``."""
        written = None
        async with self.lock(match.id):
            self.forget(match.id)
            await self.services.repos.snapshots.drop(match.id)

            async def alongside(tx, seqs: list[int]) -> None:
                nonlocal written
                written = await logged(tx)
            await self.services.repos.matches.append_many(
                match.id, [{"type": REWIND, "to": to_seq}], actor_id, self.services.clock.now(),
                update_id, also=None if logged is None else alongside)
        return written

    async def round_starts(self, match: MatchRow) -> list[int]:
        """For each recorded round (or hand), the seq of the action that came before it."""
        engine = await self._fresh_engine(match)
        starts, before, count = [], 0, 0
        for logged in await self._effective_logged(match):
            engine.apply(logged.payload)
            now = len(_records(engine))
            if now > count:
                starts.append(before)
                count, before = now, logged.seq
        return starts

    async def _fresh_engine(self, match: MatchRow) -> ReplayableMatch:
        factory, settings = await self._factory(match)
        return factory(settings)

    async def _factory(self, match: MatchRow) -> tuple[EngineFactory, dict[str, Any]]:
        """How a new engine for ``match`` is made, from its game's declaration; the factory
        sees the tournament's settings and its state together (the Cup's playoff seeds …)."""
        tournament = await self.services.repos.tournaments.get(match.tournament_id)
        return (game_of(tournament.game).engines[match.kind],
                tournament.settings | tournament.state)

    async def _effective_logged(self, match: MatchRow):
        return effective(await self.services.repos.matches.actions(match.id))

    async def apply(self, match: MatchRow, actions: list[dict[str, Any]],
                    actor_id: int | None, update_id: int | None,
                    clocks: Clocks | None = None,
                    on_applied: Callable[[ReplayableMatch], None] | None = None,
                    logged: Write | None = None) -> Change:
        """Check ``actions`` together with the engine and append them in one transaction,
        with what ``clocks`` says the new state does to the match's clocks and what
        ``logged`` writes (an organiser's log entry); ``on_applied`` sees the new state
        (read-only, before it returns) once the engine has taken them, before they are
        written. Actions that end the match's play are written with :data:`RESULT_OWED`.

        The caller holds :meth:`lock`. Raises the engine's :class:`IllegalAction` or
        :class:`DuplicateUpdate`; either way nothing is written and the state is unchanged.
        """
        replicas = await self._replicas(match)
        before = replicas.current
        after = replicas.next_base()
        replicas.spare, replicas.pending = None, ()  # in use: a failure below drops the cache
        now, jobs, owed = self.services.clock.now(), ([], []), None
        try:
            _apply_all(after, actions, replicas)
            onward = None if clocks is None else clocks(after)
            ends = after.finished and not before.finished
            if on_applied is not None:
                on_applied(after)

            async def alongside(tx, seqs: list[int]) -> None:
                nonlocal jobs, owed
                if onward is not None:
                    jobs = await onward.write(tx, match, seqs[-1], now)
                if logged is not None:
                    await logged(tx)
                if ends:
                    owed = await insert_job(tx, RESULT_OWED, now, match.tournament_id,
                                            {"match_id": match.id, "actor_id": actor_id})
            seqs = await self.services.repos.matches.append_many(
                match.id, actions, actor_id, now, update_id,
                also=None if onward is None and logged is None and not ends else alongside)
        except IllegalAction:
            if replicas.spare is None:
                self.forget(match.id)
            raise
        except BaseException:
            self.forget(match.id)
            raise
        self.services.scheduler.settle(*jobs)
        if after.finished:  # it leaves the live matches for the last finished ones
            self._states.pop(match.id, None)
            self._finished[match.id] = _Replicas(after, replicas.fingerprint,
                                                 play=replicas.play)
        else:
            spare = None if copies_itself(after) else before  # a copy needs no spare
            replicas = _Replicas(after, replicas.fingerprint, spare, tuple(actions),
                                 replicas.draft, replicas.play)
            self._states[match.id] = replicas
            if snapshots.due(seqs):
                await self._snapshot(match.id, seqs[-1], replicas)
        return Change(before, after, owed)


def _apply_all(state: ReplayableMatch, actions: list[dict[str, Any]],
               replicas: _Replicas) -> None:
    """Apply ``actions`` in place. When the first is refused nothing changed (the engine
    contract), so ``state`` stays the spare; a later refusal leaves it half-applied."""
    for number, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalAction:
            if number == 0:
                replicas.spare = state
            raise


def effective(logged: list) -> list:
    """The logged actions that make the state: a rewind marker drops those after its ``to``;
    settling entries (``{"meta": …}``: results, corrections) are for the match row."""
    kept = []
    for action in logged:
        if action.payload.get("type") == REWIND:
            kept = [k for k in kept if k.seq <= action.payload["to"]]
        elif "meta" not in action.payload:
            kept.append(action)
    return kept


def _rewound_before(tail: list, seq: int) -> bool:
    """Whether a rewind marker in the logged ``tail`` takes the match back before ``seq``
    (a snapshot at ``seq`` then holds actions that no longer count)."""
    return any(action.payload.get("type") == REWIND and action.payload["to"] < seq
               for action in tail)


def effective_actions(logged: list) -> list[dict[str, Any]]:
    return [action.payload for action in effective(logged)]


def _records(engine: ReplayableMatch) -> tuple:
    """The finished rounds (or hands) of a match, whatever the format calls them."""
    return getattr(engine, "history", None) or getattr(engine, "hands", ())
