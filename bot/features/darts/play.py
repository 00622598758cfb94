"""One darts match in the chat: who may enter, applying actions through the match service,
the live scoreboard, and what is said when a leg or the match ends.

Every action goes through :class:`~bot.match_service.MatchService` (locked, checked by the
engine, logged with the update id). A typed line of several darts is first tried on a copy
of the state, so a bad dart anywhere in the line changes nothing.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiogram.exceptions import TelegramBadRequest

from bot.features.access import is_organiser
from bot.features.darts.keypad import keypad, opening_pad, position
from bot.features.darts.kinds import KINDS, DartsKind
from bot.i18n import Translator
from bot.services import Services
from games.common.errors import IllegalAction
from games.darts.match import LegsMatch
from storage.repositories.matches import DuplicateUpdate, MatchRow
from storage.repositories.tournaments import Tournament

log = logging.getLogger(__name__)
LIVE = ("running", "paused")
Reply = Callable[[str], Awaitable[Any]]


@dataclass
class DartsPlay:
    services: Services
    tr: Translator
    tournament: Tournament
    match: MatchRow
    names: tuple[str, str]

    @property
    def kind(self) -> DartsKind:
        return KINDS[self.match.kind]

    def index(self, user_id: int) -> int | None:
        players = self.match.players
        return players.index(user_id) if user_id in players else None

    async def may_enter(self, user_id: int) -> bool:
        """Either player of the match, or an organiser, enters for the player at the oche."""
        return self.index(user_id) is not None or await is_organiser(
            self.services, self.tournament.chat_id, user_id)

    def text(self, key: str, **params: Any) -> str:
        """``key`` in this game's words: FinCricket's own text (``key.fincricket``: a "game"
        where Shanghai has a "leg") when the catalogs have one."""
        return kind_text(self.tr, self.match.kind, key, **params)

    async def say(self, text: str) -> None:
        await self.services.bot.send_message(self.tournament.chat_id, text)


async def load(services: Services, tr: Translator, match_id: int) -> DartsPlay | None:
    """The darts match ``match_id`` (whatever its status); None if there is none."""
    match = await services.repos.matches.get(match_id)
    if match is None or match.kind not in KINDS:
        return None
    tournament = await services.repos.tournaments.get(match.tournament_id)
    entrants = await services.repos.entrants.list(tournament.id)
    label = {e.user_id: e.label for e in entrants}
    return DartsPlay(services, tr, tournament, match,
                     (label.get(match.player_a, "?"), label.get(match.player_b, "?")))


async def running_tournaments(services: Services, chat_id: int) -> list[Tournament]:
    return [t for t in await services.repos.tournaments.active_in_chat(chat_id)
            if t.game in KINDS and t.status in LIVE]


async def match_for(services: Services, tr: Translator, chat_id: int,
                    user_id: int) -> DartsPlay | None:
    """The sender's live match in the chat; for an organiser outside every match, the
    chat's only live match (with several, they use the buttons)."""
    live: list[MatchRow] = []
    for tournament in await running_tournaments(services, chat_id):
        for match in await services.repos.matches.for_tournament(tournament.id):
            if match.status in LIVE and match.kind in KINDS:
                if user_id in match.players:
                    return await load(services, tr, match.id)
                live.append(match)
    if len(live) == 1 and await is_organiser(services, chat_id, user_id):
        return await load(services, tr, live[0].id)
    return None


def kind_text(tr: Translator, kind: str | None, key: str, **params: Any) -> str:
    own = f"{key}.{kind}"
    return tr(own if kind and tr.has(own) else key, **params)


def error_text(tr: Translator, error: IllegalAction, kind: str | None = None) -> str:
    params = {k: v for k, v in error.params.items() if isinstance(v, int | str)}
    key = f"darts.error.{error.code}"
    if not tr.has(key):
        return tr("darts.error.other", code=error.code)
    if error.code == "sector_not_in_play":
        params["hint"] = tr("darts.key_miss")
    return kind_text(tr, kind, key, **params)


async def perform(play: DartsPlay, actions: list[dict], actor_id: int,
                  update_id: int | None, reply: Reply,
                  expect: tuple[int, int, int] | None = None) -> LegsMatch | None:
    """Apply ``actions`` together (tried on a copy first); refusals go to ``reply``.

    ``expect`` is the position the pressed board showed: the press only counts when the
    match is still there. Returns the new state, or None when nothing changed."""
    services, match = play.services, play.match
    if match.status == "paused":
        await reply(play.tr("darts.paused"))
        return None
    async with services.lock(f"darts-entry-{match.id}"):
        before = await services.matches.state(match)
        if refusal := _stale(play, before, expect):
            await reply(refusal)
            return None
        try:
            trial = await services.matches.state(match)
            for action in actions:
                trial.apply(action)
            for number, action in enumerate(actions):
                after = await services.matches.act(match, action, actor_id,
                                                   update_id if number == 0 else None)
        except IllegalAction as error:
            await reply(error_text(play.tr, error, match.kind))
            return None
        except DuplicateUpdate:
            return None
    await after_change(play, before, after, actor_id)
    return after


def _stale(play: DartsPlay, state: LegsMatch,
           expect: tuple[int, int, int] | None) -> str | None:
    if expect is None:
        return None
    if state.finished:
        return play.tr("darts.match_over")
    if expect[0] < position(state)[0]:
        return play.text("darts.leg_over", leg=expect[0])
    return play.tr("darts.board_changed") if expect != position(state) else None


async def after_change(play: DartsPlay, before: LegsMatch, after: LegsMatch,
                       actor_id: int | None) -> None:
    """Say who starts (once decided), redraw the board and say what ended: legs, then the
    match."""
    if after.started and not before.started:
        await play.say(starter_text(play, after))
    await show_board(play, after)
    done_before = sum(leg.finished for leg in before.legs)
    for number, leg in enumerate(after.legs):
        if leg.finished and number >= done_before:
            await play.say(leg_text(play, after, number))
    if after.finished and not before.finished:
        await finish(play, after, actor_id)


async def show_board(play: DartsPlay, state: LegsMatch, *, new: bool = False) -> None:
    services = play.services
    match = await services.repos.matches.get(play.match.id)
    if state.finished:
        markup = None
    elif state.started:
        markup = keypad(play.tr, play.kind, match.id, state)
    else:
        markup = opening_pad(play.tr, match.id, state, play.names)
    chat_id = play.tournament.chat_id
    if new and match.board_message_id is not None:
        await _retire(services, chat_id, match.board_message_id)
    current = None if new else match.board_message_id
    message_id = await services.outbox.board(chat_id, current, board_text(play, state), markup)
    if message_id != match.board_message_id:
        await services.repos.matches.update(match.id, services.clock.now(),
                                            board_message_id=message_id)
    play.match = await services.repos.matches.get(match.id)


async def _retire(services: Services, chat_id: int, message_id: int) -> None:
    """Take the keypad off a board that a new one replaces (it may be gone already)."""
    with contextlib.suppress(TelegramBadRequest):
        await services.bot.edit_message_reply_markup(chat_id=chat_id, message_id=message_id,
                                                     reply_markup=None)


def board_text(play: DartsPlay, state: LegsMatch) -> str:
    tr, names = play.tr, play.names
    won = state.legs_won
    lines = [play.text("darts.board_header", game=tr(f"game.{play.match.kind}"), match=play.match.id,
                leg=len(state.legs), best=state.best_of)]
    if state.best_of > 1:
        lines.append(play.text("darts.board_legs", a=names[0], b=names[1], la=won[0], lb=won[1]))
    lines.extend(play.kind.board(tr, state.leg, names))
    lines.append(_turn_line(play, state))
    return "\n".join(lines)


def dart_label(tr: Translator, dart) -> str:
    return tr("darts.key_miss") if dart.is_miss else str(dart)


def _turn_line(play: DartsPlay, state: LegsMatch) -> str:
    tr, leg = play.tr, state.leg
    if state.finished:
        return tr("darts.board_finished", winner=play.names[state.winner])
    if not state.started:
        return play.text("darts.board_opening")
    entered = [dart_label(tr, dart) for dart in leg.pending]
    darts = " · ".join(entered + ["—"] * (3 - len(entered)))
    return tr("darts.board_turn", name=play.names[leg.current],
              visit=len(leg.history) + 1, darts=darts)


def leg_text(play: DartsPlay, state: LegsMatch, number: int) -> str:
    tr, names, leg = play.tr, play.names, state.legs[number]
    won = _tally(state.legs[:number + 1])
    if leg.winner is None:
        lines = [play.text("darts.leg_drawn", leg=number + 1)]
    else:
        lines = [play.text("darts.leg_won", leg=number + 1, winner=names[leg.winner])]
    lines.append(play.text("darts.legs_score", a=names[0], b=names[1], la=won[0], lb=won[1]))
    lines.extend(play.kind.leg_stats(tr, leg, p, names[p]) for p in (0, 1))
    if number == len(state.legs) - 2 and not state.finished:
        lines.append(play.text("darts.next_leg", leg=number + 2, name=names[state.leg.starter]))
    return "\n".join(lines)


def starter_text(play: DartsPlay, state: LegsMatch) -> str:
    name = play.names[state.starter]
    if state.how == "coin":
        return play.text("darts.starter_coin", name=name)
    return play.text("darts.starter_bull", name=name)


def _tally(legs) -> tuple[int, int]:
    wins = [0, 0]
    for leg in legs:
        if leg.winner is not None:
            wins[leg.winner] += 1
    return wins[0], wins[1]


async def finish(play: DartsPlay, state: LegsMatch, actor_id: int | None) -> None:
    """Say the result and hand it to the tournament, which closes the match row."""
    services, match, tr, names = play.services, play.match, play.tr, play.names
    won = state.legs_won
    winner = match.players[state.winner]
    lines = [tr("darts.match_won", winner=names[state.winner], a=names[0], b=names[1],
                la=won[0], lb=won[1])]
    if len(state.legs) > 1:
        lines.extend(play.kind.match_stats(tr, state, p, names[p]) for p in (0, 1))
    await play.say("\n".join(lines))
    try:
        from bot.features.formats.results import ResultRefused, record_result
    except ImportError:  # no tournament format runs this match: close it here
        await services.repos.matches.update(match.id, services.clock.now(), status="finished",
                                            winner=winner, result={"score": list(won)})
        return
    try:
        await record_result(services, match.id, winner, won, actor_id=actor_id)
    except ResultRefused as refused:
        log.warning("result of darts match %s refused: %s", match.id, refused.args[0])
