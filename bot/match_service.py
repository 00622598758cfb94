"""Match state and its log: lock → state → engine check → log → commit.

State is the replay of the match's action log through its engine. The last replayed state
is kept in memory per match (dropped whenever an append fails), so a restart only costs one
replay per match. :meth:`MatchService.apply` (called by ``bot.play.perform``, which holds
the lock) raises the engine's :class:`IllegalAction` or :class:`DuplicateUpdate` (the update
was applied before); either way nothing is written.
"""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass
from typing import Any

from bot.games import game_of
from games.common.match import ReplayableMatch, replay
from storage.repositories.matches import MatchRow

REWIND = "rewind"


@dataclass(frozen=True)
class Change:
    """One accepted step of a match: the state before it and after it (both read-only)."""

    before: ReplayableMatch
    after: ReplayableMatch


class MatchService:
    def __init__(self, services) -> None:
        self.services = services
        self._states: dict[int, ReplayableMatch] = {}

    def lock(self, match_id: int) -> asyncio.Lock:
        """The lock every change of one match is made under."""
        return self.services.lock(f"match-{match_id}")

    async def state(self, match: MatchRow) -> ReplayableMatch:
        """The current engine state of ``match`` (a copy: callers cannot corrupt the cache)."""
        return copy.deepcopy(await self.current(match))

    async def current(self, match: MatchRow) -> ReplayableMatch:
        """The cached state itself: read it, never change it (hold :meth:`lock` to rely on it)."""
        if match.id not in self._states:
            engine = await self._fresh_engine(match)
            logged = await self.services.repos.matches.actions(match.id)
            self._states[match.id] = replay(engine, effective_actions(logged))
        return self._states[match.id]

    async def rewind(self, match: MatchRow, to_seq: int, actor_id: int | None) -> None:
        """Take the match back to how it stood after action ``to_seq`` (an organiser's
        correction). Nothing is deleted: a marker in the log says which actions stop counting."""
        async with self.lock(match.id):
            self._states.pop(match.id, None)
            await self.services.repos.matches.append(
                match.id, {"type": REWIND, "to": to_seq}, actor_id, self.services.clock.now())

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
        """A new engine for ``match``, from its game's declaration; the factory sees the
        tournament's settings and its state together (the Cup's playoff seeds …)."""
        tournament = await self.services.repos.tournaments.get(match.tournament_id)
        factory = game_of(tournament.game).engines[match.kind]
        return factory(tournament.settings | tournament.state)

    async def _effective_logged(self, match: MatchRow):
        return effective(await self.services.repos.matches.actions(match.id))

    async def apply(self, match: MatchRow, actions: list[dict[str, Any]],
                    actor_id: int | None, update_id: int | None) -> Change:
        """Check ``actions`` together with the engine and append them in one transaction.

        The caller holds :meth:`lock`. Raises the engine's :class:`IllegalAction` or
        :class:`DuplicateUpdate`; either way nothing is written and the state is unchanged.
        """
        before = await self.current(match)
        after = copy.deepcopy(before)
        for action in actions:
            after.apply(action)
        try:
            await self.services.repos.matches.append_many(
                match.id, actions, actor_id, self.services.clock.now(), update_id)
        except BaseException:
            self._states.pop(match.id, None)
            raise
        self._states[match.id] = after
        return Change(before, after)


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


def effective_actions(logged: list) -> list[dict[str, Any]]:
    return [action.payload for action in effective(logged)]


def _records(engine: ReplayableMatch) -> tuple:
    """The finished rounds (or hands) of a match, whatever the format calls them."""
    return getattr(engine, "history", None) or getattr(engine, "hands", ())
