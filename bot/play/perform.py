"""One path for every action of a match played in the bot.

:func:`perform` holds the match's lock from the state before the action to what is said
about it, so two updates of one match handled at the same moment read exactly as if they had
been handled one after the other. The engine checks the action(s) on a copy; the log append
claims the update id in the same transaction; only then is anything said. A refusal is raised
as :class:`~bot.play.refusal.Refusal`, answered by the dispatcher's one error handler.
"""

from __future__ import annotations

import copy
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

from bot import games
from bot.games import BOT_ROLLS
from bot.i18n import Translator
from bot.match_service import Change, Clocks
from bot.play import clock
from bot.play.context import LIVE, MatchContext
from bot.play.refusal import Refusal, unless_paused
from bot.play.said import Said, held, say
from bot.scheduler import PASSING_FAULTS, RETRY_DELAYS
from bot.sending import at_once
from bot.services import Services
from games.common.errors import IllegalAction
from storage.db import Write, in_order
from storage.repositories.matches import DuplicateUpdate, MatchRow

Action = dict[str, Any]
Actions = list[Action] | Callable[[Any], list[Action]]
"""The actions of a step, or what makes them under the match's lock (see :func:`perform`)."""
Alongside = Sequence[Callable[[], Awaitable[Any]]]
"""What else is said once an action is accepted, at the same time as its announcement."""
BOARD_OWED = "match_board_owed"
"""The job that draws a match's board and panels again in place when an action's
announcement did not reach Telegram (:func:`bot.play.board.board_owed`)."""
DICE_ANIMATION_SECONDS = 4  # Telegram's 🎲 animation, before the result is said


@dataclass(frozen=True)
class Playbook:
    """What a game says and does around its accepted actions."""

    explain: Callable[[Translator, IllegalAction, MatchRow], str]
    """The localized reason an illegal action was refused."""
    announce: Callable[[MatchContext, Change, list[Action]], Awaitable[None]]
    """What the chat is told (boards redrawn …) after an accepted change; runs in the lock."""
    finish: Callable[[MatchContext, Any, int | None], Awaitable[None]]
    """What a match that has just ended does: its result into the tournament."""
    chance: Callable[[Any, random.Random], Action | None] | None = None
    """The bot's random draw the state waits for (a shuffle of cards), from the random
    source passed in; None when it waits for none. Drawn and logged under the lock before
    and after every accepted action, so a replay deals the same cards."""
    clocks: Callable[[MatchContext], Awaitable[Clocks]] | None = None
    """What the game's actions do to its clocks (the ``clocks`` of :func:`perform` when the
    caller gives none), resolved once per action (it may ask which seat the bot plays)."""
    preview: Callable[[MatchContext, Any], None] | None = None
    """Sees the new state as soon as the engine has taken the actions, while they are being
    written (read-only, and only before it returns): slow work that only reads the state
    starts there, alongside the write (backgammon starts drawing its board). The actions may
    still not be written (a redelivered update): what it starts must be safe to drop."""


async def perform(ctx: MatchContext, playbook: Playbook, actions: Actions, *,
                  actor_id: int | None, update_id: int | None, wait: float = 0,
                  check: Callable[[Any], None] | None = None,
                  alongside: Alongside = (), clocks: Clocks | None = None,
                  logged: Write | None = None, in_pause: bool = False,
                  then: Callable[[], Awaitable[None]] | None = None,
                  said: Sequence[Said] = ()) -> Change | None:
    """Apply ``actions`` together (all or none) and announce them.

    ``actions`` may be a function that makes them from the current state, called once
    ``check`` passed: a random draw in them (a coin the bot tosses) is made only for a press
    that counts, not for a second tap of the button that a first has already decided.
    A match closed while the update waited for its lock (an organiser's ``/dq`` or result
    set at the same moment) is refused, not played on.
    ``check`` sees the current state first and may raise a Refusal (a press on an old board);
    ``clocks`` says what the new state does to the match's clocks, written with the actions
    (:class:`~bot.play.clock.Onward`; again on its own when a random draw followed them);
    ``wait`` seconds pass before the announcement (the dice animation); ``alongside`` is what
    is said elsewhere once the action is accepted (the answer to the pressed button, the
    actor's own panel in their DM), at the same time as the announcement
    (:func:`~bot.sending.at_once`); ``logged`` is written with the actions, in their
    transaction (an organiser's correction with its log entry); ``in_pause``: it goes in
    while the match is paused (an organiser's correction of what was played: a pause is
    where disputes are settled). After the lock, when
    the bot itself plays a seat of the match and it is its turn, it makes its move
    (:func:`bot_moves`, with the same ``clocks``), and then ``then``: what the caller's game
    does by itself after an action (backgammon's dice). ``said``: words that go right after
    the announcement (an organiser's decision with its reason, the organisers' copies of a
    hidden action), each written with the actions as a job that says them should this
    update not (:mod:`bot.play.said`). An announcement that failed stops none of that
    (:func:`_announced`); when Telegram was out of reach, the board and panels are drawn
    again a minute later (:data:`BOARD_OWED`), and the bot's move made then if its die
    could not be sent. Returns the change, or None when this update was applied before
    (nothing is said twice).
    """
    services, match = ctx.services, ctx.match
    if not in_pause:
        await unless_paused(services, match)
    if clocks is None and playbook.clocks is not None:
        clocks = await playbook.clocks(ctx)
    words = [held(each, match.tournament_id, services.clock.now()) for each in said]
    logged = in_order(logged, *(each.write for each in words)) if words else logged
    async with services.matches.lock(match.id):
        if (await services.repos.matches.get(match.id)).status not in LIVE:
            raise Refusal("play.match_closed", match=match.id)  # closed while this waited
        await draw_chance(ctx, playbook)
        if check is not None or callable(actions):
            current = await services.matches.current(match)
            if check is not None:
                check(current)
            if callable(actions):
                actions = actions(current)
        try:
            change = await services.matches.apply(
                match, actions, actor_id, update_id, clocks,
                on_applied=None if playbook.preview is None else partial(playbook.preview, ctx),
                logged=logged)
        except IllegalAction as error:
            raise refused(ctx, playbook, error) from None
        except DuplicateUpdate:
            return None
        if (drawn := await draw_chance(ctx, playbook, change.before)) is not None:
            change = Change(drawn.before, drawn.after, drawn.owed or change.owed)
        # the result and the words go in, whatever is said
        with services.scheduler.owing(change.owed, *(each.job for each in words)):
            if drawn is not None:
                await carry_clocks(ctx, clocks, change.after)
            if wait:
                await services.clock.sleep(wait)
        unsaid = await _announced(ctx, playbook, change, actions, alongside)
    failed = None
    if words:
        try:
            await at_once(*(each.done_by(services, say(services, what))
                            for each, what in zip(words, said, strict=True)))
        except Exception as error:  # their jobs say them: the board shown is not owed for them
            failed = error
    if change.owed is not None:  # the result into the tournament
        await services.scheduler.stand_in(change.owed,
                                          playbook.finish(ctx, change.after, actor_id))
    try:
        await bot_moves(ctx, playbook, change.after, clocks)
    except PASSING_FAULTS as error:  # its die never went out: the owed board's job rolls it
        unsaid = unsaid or error
    if then is not None:
        try:
            await then()
        except PASSING_FAULTS as error:  # (backgammon draws its board there)
            unsaid = unsaid or error
    if unsaid is not None:
        if isinstance(unsaid, PASSING_FAULTS):  # the board shown is the one before
            await owe_board(services, match)
        raise unsaid
    if failed is not None:
        raise failed
    return change


async def owe_board(services: Services, match: MatchRow,
                    after: timedelta = RETRY_DELAYS[0]) -> None:
    """Draw ``match``'s board and panels again ``after`` from now, by default a minute
    (:data:`BOARD_OWED`, one a match): what it shows, or a player's panel, did not reach
    Telegram. Its clocks wait as long (:func:`~bot.play.clock.held`): nobody could move
    on a position they were not shown."""
    await services.scheduler.replace(BOARD_OWED, services.clock.now() + after,
                                     match.tournament_id, "match_id", match_id=match.id)
    await clock.held(services, match.id, after.total_seconds())


@asynccontextmanager
async def board_owed_after_faults(services: Services, match: MatchRow) -> AsyncIterator[None]:
    """Around a match's opening (its board, its players' first panels): should Telegram be
    out of reach for part of it, what is missing is drawn a minute later (:func:`owe_board`);
    the error goes on to the caller (a job is retried, and finds the match made)."""
    try:
        yield
    except PASSING_FAULTS:
        await owe_board(services, match)
        raise


async def _announced(ctx: MatchContext, playbook: Playbook, change: Change,
                     actions: list[Action], alongside: Alongside) -> Exception | None:
    """The change announced with what is said alongside it; the error that stopped it, if
    any (Telegram out of reach after the sending layer's retries): the match goes on all
    the same (its result, the bot's move), and the error is raised after that, for the
    dispatcher's error handlers (a group the bot was removed from is paused)."""
    try:
        await at_once(playbook.announce(ctx, change, actions), *(say() for say in alongside))
    except Exception as error:
        return error
    return None


async def draw_chance(ctx: MatchContext, playbook: Playbook,
                      before: Any = None) -> Change | None:
    """Draw and log (actor None) every random action the match waits for, the caller
    holding the match's lock; the change from ``before`` (default: the state now) to the
    state after the draws, or None when none was due.

    Applying reuses the cache's spare replica, which may be the very object ``before`` is,
    so the start is copied once when a draw is due (rare: a shuffle), never otherwise."""
    if playbook.chance is None:
        return None
    services, start, last = ctx.services, None, None
    while (action := playbook.chance(await services.matches.current(ctx.match),
                                     services.rng)) is not None:
        if start is None:
            start = copy.deepcopy(before if before is not None
                                  else await services.matches.current(ctx.match))
        last = await services.matches.apply(ctx.match, [action], None, None)
    return None if last is None else Change(start, last.after, last.owed)


async def carry_clocks(ctx: MatchContext, clocks: Clocks | None, state: Any) -> None:
    """The clocks ``clocks`` sets for ``state`` written: the bot's own draws moved the match
    on after the action whose clocks were written with it."""
    if clocks is not None and (onward := clocks(state)) is not None:
        await clock.carry(ctx, onward)


async def bot_moves(ctx: MatchContext, playbook: Playbook, state: Any,
                    clocks: Clocks | None = None) -> None:
    """The bot's own move, when it plays a seat of this match (``/practice``) and the game's
    ``bot_player`` says it is its turn; its die is a real 🎲, logged like a player's."""
    game = games.game_of(ctx.tournament.game)
    if game.bot_player is None or state.finished:
        return
    seat = ctx.seat((await ctx.services.bot.me()).id)
    action = None if seat is None else game.bot_player(state, seat)
    if action is None:
        return
    wait = 0
    if action == BOT_ROLLS:
        sent = await ctx.services.bot.send_dice(ctx.tournament.chat_id, emoji="🎲",
                                                message_thread_id=ctx.match.thread_id)
        action, wait = game.dice(seat, sent.dice.value), DICE_ANIMATION_SECONDS
    await perform(ctx, playbook, [action], actor_id=None, update_id=None, wait=wait,
                  clocks=clocks)


def refused(ctx: MatchContext, playbook: Playbook, error: IllegalAction) -> Refusal:
    """The refusal of an engine's ``error`` in the playbook's words. An engine that says whose
    turn it is (``turn``: a seat) has the player named for its text as ``name``."""
    if isinstance(seat := error.params.get("turn"), int):
        error.params.setdefault("name", ctx.names[seat])
    return Refusal(explain=partial(playbook.explain, error=error, match=ctx.match))


def error_params(error: IllegalAction) -> dict[str, Any]:
    """The parameters of an engine's refusal that a catalog text can show."""
    return {k: v for k, v in error.params.items() if isinstance(v, int | str)}
