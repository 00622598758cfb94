"""The one path every match action takes: lock → state → engine check → log → commit.

State is the replay of the match's action log through its engine. The last replayed state
is kept in memory per match (dropped whenever an append fails), so a restart only costs one
replay per match. ``act`` raises the engine's :class:`IllegalAction` (nothing is written)
or :class:`DuplicateUpdate` (the update was applied before; nothing is written).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from games.common.match import ReplayableMatch, replay
from storage.repositories.matches import MatchRow

EngineFactory = Callable[[dict[str, Any]], ReplayableMatch]
_factories: dict[str, EngineFactory] = {}


def engine_kind(kind: str) -> Callable[[EngineFactory], EngineFactory]:
    """Register how to build a fresh engine for matches of ``kind`` from tournament settings."""
    def register(factory: EngineFactory) -> EngineFactory:
        _factories[kind] = factory
        return factory
    return register


class MatchService:
    def __init__(self, services) -> None:
        self.services = services
        self._states: dict[int, ReplayableMatch] = {}

    async def state(self, match: MatchRow) -> ReplayableMatch:
        """The current engine state of ``match`` (a copy: callers cannot corrupt the cache)."""
        return copy.deepcopy(await self._current(match))

    async def _current(self, match: MatchRow) -> ReplayableMatch:
        if match.id not in self._states:
            tournament = await self.services.repos.tournaments.get(match.tournament_id)
            engine = _factories[match.kind](tournament.settings)
            logged = await self.services.repos.matches.actions(match.id)
            self._states[match.id] = replay(engine, [a.payload for a in logged])
        return self._states[match.id]

    async def act(self, match: MatchRow, action: dict[str, Any], actor_id: int | None,
                  update_id: int | None) -> ReplayableMatch:
        """Apply one action under the match's lock and return the new state (a copy)."""
        async with self.services.lock(f"match-{match.id}"):
            engine = copy.deepcopy(await self._current(match))
            engine.apply(action)
            try:
                await self.services.repos.matches.append(
                    match.id, action, actor_id, self.services.clock.now(), update_id)
            except BaseException:
                self._states.pop(match.id, None)
                raise
            self._states[match.id] = engine
            return copy.deepcopy(engine)
