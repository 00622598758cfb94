"""The clocks of a match played in the bot (the seed's §9, ``docs/backgammon.md``): each
decision (roll or double, a move, the answer to a double) has a short timer, then the player's
match time bank runs; the bank is not refilled between games. They live on the per-match
clocks of :mod:`bot.play.clock`: jobs in the database (they survive a restart) that /pause
freezes with the time left.

- the turn clock fires when the timer and the bank are both spent: a pending double counts as
  passed, otherwise the match is lost on time (the opponent gets the points needed);
- a reminder a minute before the bank runs out (a bank of a minute or less: as it starts);
- with ``idle=N`` (minutes), a player who does nothing that long loses the current game,
  and the bank the wait used is spent;
- while the bot itself is to act (an opening roll, a roll no cube decision comes before, a
  forced move, its decision in ``/practice``), a clock that makes it act
  ``ONWARD_SECONDS`` on: the action before it makes it act at once, so it fires only when
  the bot stopped in between (the match would wait for good: nobody can roll a game's
  opening roll), and then at once at the next start.

What a player spent is logged with their action as ``{"type": "clock", "player": p, "bank":
seconds}``: the time left on the turn clock when they acted, capped at the bank.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

from bot.features.backgammon.live.board import bot_moves_on
from bot.features.backgammon.settings import clock_of
from bot.match_service import Clocks
from bot.play import clock
from bot.play.context import MatchContext
from bot.scheduler import AT_ONCE_AFTER_A_STOP
from games.backgammon.session import LiveMatch
from storage.timefmt import seconds_left

TURN_CLOCK, REMIND_CLOCK, IDLE_CLOCK = "bg_live_turn", "bg_live_remind", "bg_live_idle"
ONWARD_CLOCK = "bg_live_onward"
KINDS = (TURN_CLOCK, REMIND_CLOCK, IDLE_CLOCK, ONWARD_CLOCK)
ONWARD_SECONDS = 30
OPENING_CLOCK = "bg_live_opening"
"""The opening roll of a match opened in a pause: set frozen, due at once on /resume."""
REMIND_BEFORE = 60  # seconds before the bank runs out
clock.register(*KINDS, OPENING_CLOCK)
AT_ONCE_AFTER_A_STOP.add(ONWARD_CLOCK)


async def bot_seat(ctx: MatchContext) -> int | None:
    """The seat the bot itself plays in this match (``/practice``), else None."""
    return ctx.seat((await ctx.services.bot.me()).id)


async def for_actions(ctx: MatchContext) -> Clocks:
    """What each action of the match does to its clocks (the playbook's ``clocks``): set
    those of whoever must act next, written with the action."""
    return partial(onward, await bot_seat(ctx), ctx.tournament.settings)


async def as_they_stand(ctx: MatchContext, state: LiveMatch) -> tuple[list[dict], Clocks]:
    """For an action that is not the turn's (an organiser's ``/addtime``), read once from
    the running turn clock: the clock entry to log (the bank of the player to act as it
    stands, as :func:`spent`) and the ``clocks`` they go on with — the move's seconds they
    had left, not a fresh timer."""
    seat, move, entry = state.to_act, None, []
    if seat is not None and (left := await time_left(ctx, seat)) is not None:
        bank = state.banks[seat]
        move, entry = max(0, left - bank), _bank_entry(seat, bank, left)
    return entry, partial(onward, await bot_seat(ctx), ctx.tournament.settings, move=move)


def onward(robot: int | None, settings: dict[str, Any], state: LiveMatch, *,
           move: int | None = None) -> clock.Onward:
    """The clocks of whoever must act in ``state`` (none for a finished match; for the
    bot, the clock that makes it act should it have stopped), in place of the ones running;
    ``move``: the seconds of the move's timer left (a turn going on), else the whole timer
    of a new turn."""
    seat = state.to_act
    if not state.finished and ((robot is not None and seat == robot) or bot_moves_on(state)):
        return clock.Onward(KINDS, start=((ONWARD_CLOCK, timedelta(seconds=ONWARD_SECONDS),
                                           {"seat": seat, "step": state.steps}),))
    if seat is None:
        return clock.Onward(KINDS)
    timer, whole = clock_of(settings)
    total = (timer if move is None else move) + state.banks[seat]
    stamp: dict[str, Any] = {"seat": seat, "step": state.steps}
    clocks = [(TURN_CLOCK, timedelta(seconds=total), stamp)]
    if left := reminded(state.banks[seat], whole):
        clocks.append((REMIND_CLOCK, timedelta(seconds=total - left), {"left": left, **stamp}))
    idle = settings.get("idle", 0) * 60
    if 0 < idle < total:
        clocks.append((IDLE_CLOCK, timedelta(seconds=idle), stamp))
    return clock.Onward(KINDS, start=tuple(clocks))


def reminded(bank: int, whole: int) -> int:
    """The bank the reminder says is left, 0 for none: once a match, as the bank comes down
    to its last minute. A bank of a minute or less (``clock=60+1``) is in its last minute
    from the start: it is reminded of as it starts running (the move's timer spent), while
    still untouched, so it too is warned once before the match is lost on time."""
    if bank > REMIND_BEFORE or 0 < bank == whole:
        return min(bank, REMIND_BEFORE)
    return 0


async def time_left(ctx: MatchContext, seat: int) -> int | None:
    """Seconds left on ``seat``'s turn clock (timer and bank), running or frozen by a
    pause; None if it has none."""
    services = ctx.services
    for job in await services.repos.jobs.for_match(ctx.match.id, (TURN_CLOCK,)):
        if job.payload.get("seat") == seat:
            return job.payload.get("remaining",
                                   seconds_left(job.run_at, services.clock.now()))
    return None


async def spent(ctx: MatchContext, state: LiveMatch, seat: int | None) -> list[dict]:
    """The clock entry to log with ``seat``'s action: their bank after this decision."""
    if seat is None or state.to_act != seat:
        return []
    left = await time_left(ctx, seat)
    return [] if left is None else _bank_entry(seat, state.banks[seat], left)


def _bank_entry(seat: int, bank: int, left: int) -> list[dict]:
    """The clock entry of ``seat`` with ``left`` seconds on its turn clock: the bank it
    comes to, when the move's timer is spent and the bank was used."""
    return [] if left >= bank else [{"type": "clock", "player": seat, "bank": left}]
