"""One darts match in the chat: who may enter, the live scoreboard, and what is said when a
leg or the match ends — the darts playbook of the match-play module (:mod:`bot.play`).

A typed line of several darts is applied as one step: a bad dart anywhere in the line
changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial

from bot.features.access import is_organiser
from bot.features.darts.keypad import keypad, opening_pad, position
from bot.features.darts.kinds import KINDS, DartsKind
from bot.features.formats.results import record_played
from bot.i18n import Markup, Translator
from bot.match_service import Change
from bot.middlewares.scope import Scope
from bot.play.board import show_board as show_live_board
from bot.play.context import LIVE, MatchContext, load_match
from bot.play.perform import Actions, Alongside, Playbook, error_params
from bot.play.perform import perform as perform_action
from bot.play.refusal import Refusal
from bot.play.said import Said
from bot.play.topics import other_match_topic
from bot.services import Services
from games.common.errors import IllegalAction
from games.darts.match import LegsMatch
from storage.db import Write
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament

log = logging.getLogger(__name__)


class DartsPlay(MatchContext):
    """A darts match: the match context plus the scoring rules of its kind."""

    @property
    def kind(self) -> DartsKind:
        return KINDS[self.match.kind]

    async def may_enter(self, user_id: int) -> bool:
        """Either player of the match, or an organiser, enters for the player at the oche."""
        return self.seat(user_id) is not None or await is_organiser(
            self.services, self.tournament.chat_id, user_id)


async def load(services: Services, tr: Translator, match_id: int) -> DartsPlay | None:
    """The darts match ``match_id`` (whatever its status); None if there is none."""
    found = await load_match(services, tr, match_id, tuple(KINDS))
    return None if found is None else DartsPlay(**vars(found))


async def running_tournaments(services: Services, chat_id: int) -> list[Tournament]:
    return [t for t in await services.repos.tournaments.active_in_chat(chat_id)
            if t.game in KINDS and t.status in LIVE]


async def match_for(scope: Scope, tr: Translator) -> DartsPlay | None:
    """The sender's live darts match in the chat (in a match's forum topic: that match, if
    they play it; with several, the one where they are at the oche, refused when that does
    not decide — :meth:`Scope.live_match`); for an organiser outside every match, the
    topic's match, else the chat's only live match (with several, they use the buttons)."""
    found = await scope.live_match(of=KINDS)  # the darts games: their kinds are their keys
    mine = [found] if found else []
    if not mine and await scope.organiser():
        mine = await _organiser_may_type(scope)
        mine = mine if len(mine) == 1 else []
    return await load(scope.services, tr, mine[0].id) if mine else None


async def _organiser_may_type(scope: Scope) -> list[MatchRow]:
    """The live darts matches an organiser may type darts for: in a match's topic, that
    match; elsewhere, all of the chat's."""
    topic = await scope.topic_match()
    if topic is None:
        return await _live_matches(scope.services,
                                   await running_tournaments(scope.services, scope.chat.id))
    return [topic] if topic.status in LIVE and topic.kind in KINDS else []


async def _live_matches(services: Services, tournaments: list[Tournament]) -> list[MatchRow]:
    return [match for tournament in tournaments
            for match in await services.repos.matches.for_tournament(tournament.id)
            if match.status in LIVE and match.kind in KINDS]


async def no_match_answer(scope: Scope, tr: Translator) -> str | None:
    """The answer to darts typed by someone :func:`match_for` found no match for: an
    organiser while several matches are played is sent to a board's keypad; an entrant is
    told whose topic they typed in (another live match's), else that they play none now;
    anyone else is chatting (None: no answer)."""
    services, chat_id = scope.services, scope.chat.id
    if await scope.organiser():
        several = len(await _organiser_may_type(scope)) > 1
        return tr("darts.organiser_several") if several else None
    for tournament in await running_tournaments(services, chat_id):
        entry = await services.repos.entrants.get(tournament.id, scope.user.id)
        if entry is not None and entry.status == "approved":
            return await other_match_topic(scope, tr, KINDS) or tr("darts.not_in_match")
    return None


def error_text(tr: Translator, error: IllegalAction, match: MatchRow | None = None) -> str:
    params = error_params(error)
    key = f"darts.error.{error.code}"
    if not tr.has(key):
        return tr("darts.error.other", code=error.code)
    if error.code == "sector_not_in_play":
        params["hint"] = tr("darts.key_miss")
    own = f"{key}.{match.kind}" if match else key
    return tr(own if tr.has(own) else key, **params)


async def perform(play: DartsPlay, actions: Actions, actor_id: int,
                  update_id: int | None, expect: tuple[int, int, int] | None = None,
                  alongside: Alongside = (), *, logged: Write | None = None,
                  in_pause: bool = False, said: Sequence[Said] = ()) -> LegsMatch | None:
    """Apply ``actions`` together through the match-play module.

    ``expect`` is the position the pressed board showed: the press only counts when the
    match is still there; ``alongside``: said with the announcement once accepted (the
    press answered); ``logged``: written with the actions (an organiser's log entry);
    ``in_pause``: taken while the match is paused (an organiser's correction); ``said``:
    said after the announcement (its confirmation). Returns the new state, or None when
    nothing changed."""
    change = await perform_action(play, PLAYBOOK, actions, actor_id=actor_id,
                                  update_id=update_id, alongside=alongside,
                                  check=partial(_refuse_stale, play, expect), logged=logged,
                                  in_pause=in_pause, said=said)
    return None if change is None else change.after


def _refuse_stale(play: DartsPlay, expect: tuple[int, int, int] | None,
                  state: LegsMatch) -> None:
    if expect is None:
        return
    if state.finished:
        raise Refusal("darts.match_over")
    if expect[0] < position(state)[0]:
        raise Refusal(text=play.text("darts.leg_over", leg=expect[0]))
    if expect != position(state):  # a busy group's board may not show the change yet
        drawing = play.services.outbox.redrawing(play.tournament.chat_id,
                                                 play.match.board_message_id)
        raise Refusal("darts.board_redrawn_soon" if drawing else "darts.board_changed")


async def _announce(play: DartsPlay, change: Change, actions: list[dict]) -> None:
    """Redraw the board (until the first dart it says who starts and how) and say which
    legs ended (the match's last one with the result: :func:`finish`)."""
    before, after = change.before, change.after
    await show_board(play, after)
    done_before = sum(leg.finished for leg in before.legs)
    last = len(after.legs) - 1 if after.finished else len(after.legs)
    for number, leg in enumerate(after.legs[:last]):
        if leg.finished and number >= done_before:
            await play.say(leg_text(play, after, number))


async def show_board(play: DartsPlay, state: LegsMatch, *, new: bool = False) -> None:
    if state.finished or play.closed:
        markup = None
    elif state.started:
        markup = keypad(play.tr, play.kind, play.match.id, state)
    else:
        markup = opening_pad(play.tr, play.match.id, state, play.names)
    await show_live_board(play, board_text(play, state), markup, new=new)


async def board_again(ctx: MatchContext, state: LegsMatch, *, new: bool = True) -> None:
    """/board: the scoreboard posted again at the bottom of the chat (``new=False``: drawn
    in place, as for a match closed outside its play)."""
    await show_board(DartsPlay(**vars(ctx)), state, new=new)


def board_text(play: DartsPlay, state: LegsMatch) -> str:
    tr, names = play.tr, play.names
    won = state.legs_won
    lines = [play.text("darts.board_header", game=tr(f"game.{play.match.kind}"),
                       match=play.match.id,
                leg=len(state.legs), best=state.best_of)]
    if state.best_of > 1:
        lines.append(play.text("darts.board_legs", a=names[0], b=names[1], la=won[0], lb=won[1]))
    lines.extend(play.kind.board(tr, state.leg, names))
    no_dart_yet = len(state.legs) == 1 and not state.leg.history and not state.leg.pending
    if no_dart_yet and state.started:
        lines.append(starter_text(play, state))
    if state.leg.history and not state.finished:
        lines.append(_last_visit(play, state.leg))
    lines.append(_turn_line(play, state))
    if no_dart_yet and not play.closed:
        lines.append(play.text("darts.board_how_to_enter"))
    return "\n".join(lines)


def dart_label(tr: Translator, dart) -> str:
    return tr("darts.key_miss") if dart.is_miss else str(dart)


def _last_visit(play: DartsPlay, leg) -> str:
    """The visit just committed, whose it was and what it made: a visit typed by the other
    player (either may enter darts) is seen at once as the thrower's."""
    visit = leg.history[-1]
    darts = " · ".join(dart_label(play.tr, dart) for dart in visit.padded)
    return play.text("darts.board_last", name=play.names[visit.player], darts=darts,
                     visit=leg.visits_of(visit.player), number=len(leg.history),
                     marks=Markup(play.text("darts.n_marks", count=visit.marks)))


def _turn_line(play: DartsPlay, state: LegsMatch) -> str:
    tr, leg = play.tr, state.leg
    if state.finished:
        return play.overruled_line(state.outcome) or tr("darts.board_finished",
                                                       winner=play.names[state.winner])
    if play.closed:
        return play.closed_line()
    if not state.started:
        return play.text("darts.board_opening")
    entered = [dart_label(tr, dart) for dart in leg.pending]
    darts = " · ".join(entered + ["—"] * (3 - len(entered)))
    own = leg.visits_of(leg.current) + 1
    return play.text("darts.board_turn", name=play.names[leg.current], visit=own,
                     number=len(leg.history) + 1, darts=darts)


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


async def finish(ctx: MatchContext, state: LegsMatch, actor_id: int | None) -> None:
    """Hand the result to the tournament, which closes the match row and says the last leg
    and the result in one message, with the next matches when they follow from it. ``ctx``
    is the played update's :class:`DartsPlay`, or a plain context at start-up (a result
    owed by a stopped process)."""
    play = DartsPlay(**vars(ctx))
    tr, names = play.tr, play.names
    won = state.legs_won
    lines = [leg_text(play, state, len(state.legs) - 1),
             tr("darts.match_won", winner=names[state.winner], a=names[0], b=names[1],
                la=won[0], lb=won[1])]
    if len(state.legs) > 1:
        lines.extend(play.kind.match_stats(tr, state, p, names[p]) for p in (0, 1))
    stat = [[state.stats(p).marks, state.stats(p).visits] for p in (0, 1)]
    await record_played(play, state.winner, won, actor_id, stat, said="\n".join(lines))


PLAYBOOK = Playbook(explain=error_text, announce=_announce, finish=finish)
