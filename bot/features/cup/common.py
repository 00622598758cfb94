"""What every Cup match shares in the chat: finding the sender's match, applying an action
through the match service, announcing what changed, and closing a finished match.

Each match kind registers an announcer (what to say after an action) and, for the stage it
belongs to, what happens when a match ends (:func:`on_finish`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiogram.types import Message

from bot.i18n import Translator
from bot.registry import Registry
from bot.services import Services
from games.common.errors import IllegalAction
from storage.repositories.matches import DuplicateUpdate, MatchRow
from storage.repositories.tournaments import Tournament

DICE_ANIMATION_SECONDS = 4


@dataclass
class Play:
    """One action in one match: who, where, and how to talk back."""

    services: Services
    tr: Translator
    tournament: Tournament
    match: MatchRow
    names: tuple[str, str]

    def index(self, user_id: int) -> int | None:
        if user_id == self.match.player_a:
            return 0
        return 1 if user_id == self.match.player_b else None

    async def say(self, text: str, **kwargs: Any) -> None:
        await self.services.bot.send_message(self.tournament.chat_id, text, **kwargs)


Announcer = Callable[[Play, Any, Any, dict], Awaitable[None]]
Finisher = Callable[[Play, Any], Awaitable[None]]
_announcers: Registry[Announcer] = Registry()
_finishers: Registry[Finisher] = Registry()
announcer = _announcers.register  # what to say after an action, per match kind
on_finish = _finishers.register  # what a finished match does to its stage


async def names_of(services: Services, tournament_id: int) -> dict[int, str]:
    entrants = await services.repos.entrants.list(tournament_id)
    return {e.user_id: e.label for e in entrants}


async def running_cup(services: Services, chat_id: int) -> Tournament | None:
    for tournament in await services.repos.tournaments.active_in_chat(chat_id):
        if tournament.game == "cup" and tournament.status in ("running", "paused"):
            return tournament
    return None


async def play_for(services: Services, tr: Translator, tournament: Tournament,
                   match: MatchRow) -> Play:
    label = await names_of(services, tournament.id)
    return Play(services, tr, tournament, match, (label[match.player_a], label[match.player_b]))


async def my_play(services: Services, tr: Translator, chat_id: int, user_id: int
                  ) -> tuple[Tournament | None, Play | None]:
    """The chat's running Cup and the sender's running match in it (either may be None)."""
    tournament = await running_cup(services, chat_id)
    if tournament is None:
        return None, None
    match = await services.repos.matches.current_for_player(tournament.id, user_id)
    if match is None:
        return tournament, None
    return tournament, await play_for(services, tr, tournament, match)


async def my_play_anywhere(services: Services, tr_for_group, user_id: int) -> Play | None:
    """The user's running Cup match in any group (for choices sent by DM)."""
    row = await services.db.fetchone(
        "SELECT m.id FROM matches m JOIN tournaments t ON t.id = m.tournament_id"
        " WHERE t.game = 'cup' AND t.status IN ('running', 'paused')"
        " AND m.status IN ('running', 'paused') AND ? IN (m.player_a, m.player_b)"
        " ORDER BY m.id DESC LIMIT 1", (user_id,))
    if row is None:
        return None
    match = await services.repos.matches.get(row[0])
    tournament = await services.repos.tournaments.get(match.tournament_id)
    return await play_for(services, await tr_for_group(tournament.chat_id), tournament, match)


async def perform(play: Play, action: dict, actor_id: int, update_id: int | None,
                  reply: Callable[[str], Awaitable[Any]], event: dict | None = None,
                  wait: float = 0) -> bool:
    """Apply ``action``; on success announce it (after ``wait`` seconds) and close the match
    when it ended. Refusals are answered with ``reply``. True when the action was applied."""
    services, match = play.services, play.match
    if match.status == "paused":
        await reply(play.tr("cup.paused"))
        return False
    before = await services.matches.state(match)
    try:
        after = await services.matches.act(match, action, actor_id, update_id)
    except IllegalAction as error:
        await reply(play.tr(f"cup.error.{error.code}", **_error_params(error)))
        return False
    except DuplicateUpdate:
        return False
    if wait:
        await services.clock.sleep(wait)
    await _announcers[match.kind](play, before, after, event or action)
    if after.finished:
        await _finish(play, after)
    return True


def _error_params(error: IllegalAction) -> dict[str, Any]:
    return {k: v for k, v in error.params.items() if isinstance(v, int | str)}


def match_score(state: Any) -> list[int]:
    """What the table shows as a finished match's score, whatever the format."""
    for attribute in ("score", "wins", "hp"):
        if hasattr(state, attribute):
            return list(getattr(state, attribute))
    return [0, 0]


async def _finish(play: Play, state: Any) -> None:
    users = (play.match.player_a, play.match.player_b)
    winner = None if state.winner is None else users[state.winner]
    result = {"score": match_score(state)}
    if getattr(state, "points", None):
        result["points"] = list(state.points)
    await close_match(play, winner, result, state)


async def close_match(play: Play, winner: int | None, result: dict, state: Any = None) -> None:
    """Record a finished match (played, or set by an organiser) and move its stage on."""
    services, match = play.services, play.match
    await services.repos.matches.update(match.id, services.clock.now(), status="finished",
                                        winner=winner, result=result)
    async with services.lock(f"tournament-{play.tournament.id}"):
        finished = await services.repos.matches.get(match.id)
        await _finishers[finished.stage](
            Play(services, play.tr, play.tournament, finished, play.names), state)


async def refuse_outsider(message: Message, tr: Translator, tournament: Tournament | None,
                          play: Play | None) -> bool:
    """Tell a sender with no match that they have none; True when they were refused."""
    if tournament is not None and play is None:
        await message.reply(tr("cup.not_in_match"))
        return True
    return play is None


async def button_play(services: Services, tr: Translator, query, match_id: int,
                      kinds: tuple[str, ...], *, players_only: bool = True
                      ) -> tuple[Play, int | None] | None:
    """The match a button belongs to and the presser's index in it; None after telling the
    presser the button is stale (wrong kind, match over) or not theirs."""
    match = await services.repos.matches.get(match_id)
    if match is None or match.kind not in kinds or match.status not in ("running", "paused"):
        await query.answer(tr("callback.stale"), show_alert=True)
        return None
    tournament = await services.repos.tournaments.get(match.tournament_id)
    play = await play_for(services, tr, tournament, match)
    player = play.index(query.from_user.id)
    if player is None and players_only:
        await query.answer(tr("cup.error.bad_player"), show_alert=True)
        return None
    return play, player
