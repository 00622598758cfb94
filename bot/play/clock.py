"""Per-match clocks: a deadline that belongs to one match and to the position it was set in.

A clock is a scheduled job whose payload carries the match id and the seq of the match's
last logged action when the clock was set (``seq``). It is cancelled by match when the
match moves on (:func:`stop`) and carried over when the match moves within the turn the
clock times (:func:`keep`: one of two hidden choices is in, the other is still awaited).
``/pause`` freezes the running clocks of a tournament with the time each had left and
``/resume`` restarts them with that time (:func:`pause`, :func:`resume`).

A timeout runs under the match's lock and re-reads the log first: if the match has moved on
since the clock was set (another last seq, or the match no longer running) it does nothing,
so a clock that nobody cancelled in time can never act on a later position. The handler
runs inside the lock and must not :func:`~bot.play.perform.perform` on the same match.

A timeout tells the group by what it returns (an :class:`Alert`), not by posting it: the
clocks of one kind of a tournament that run out together (``Scheduler.take_due``, as the
rounds' deadlines do) are said in one message, one line each.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.i18n import Translator
from bot.play.context import MatchContext, in_its_chat
from bot.services import Services
from storage.db import LoopConnection
from storage.repositories.jobs import (
    Job,
    move_match_jobs,
    replace_match_jobs,
)
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament


@dataclass(frozen=True)
class Alert:
    """What a clock that ran out tells its match's group: a line, and a note (what the
    organisers may do) said once under the lines of the clocks that ran out with it."""

    line: str
    note: str | None = None


Timeout = Callable[[MatchContext, Job], Awaitable[Alert | None]]
JobRunner = Callable[[Services, Job], Awaitable[None]]
Resumed = Callable[[Services, Translator, Tournament, Job], Awaitable[str]]
_kinds: set[str] = set()
_resumed: dict[str, Resumed] = {}


def timeout(kind: str, handler: Timeout) -> JobRunner:
    """The job runner of the clock ``kind`` (for ``Game.jobs``): ``handler`` runs when the
    clock is due and the match still stands where it stood when the clock was set, for it
    and for each clock of ``kind`` of the tournament due with it; their alerts go out
    together."""
    _kinds.add(kind)

    async def run(services: Services, job: Job) -> None:
        due = [job, *await services.scheduler.take_due(job)]
        await _say_together([alert for each in due
                             if (alert := await _run_out(services, each, handler))])
    return run


async def _run_out(services: Services, job: Job,
                   handler: Timeout) -> tuple[MatchContext, Alert] | None:
    """``handler`` on the clock ``job``, unless its match moved on: its alert, if any."""
    match = await services.repos.matches.get(job.payload["match_id"])
    if match is None or match.status != "running":
        return None
    async with services.matches.lock(match.id):
        if await last_seq(services, match.id) != job.payload.get("seq"):
            return None  # the match moved on since the clock was set
        ctx = await in_its_chat(services, match)
        alert = await handler(ctx, job)
    return None if alert is None else (ctx, alert)


async def _say_together(alerts: list[tuple[MatchContext, Alert]]) -> None:
    """One message per place (the group, or a match's forum topic): the alerts' lines, each
    note once under the lines it is about (a late toss's «press it for them» under the
    tosses, not under a late card)."""
    places: dict[int | None, list[tuple[MatchContext, Alert]]] = {}
    for ctx, alert in alerts:
        places.setdefault(ctx.match.thread_id, []).append((ctx, alert))
    for said in places.values():
        await said[0][0].say("\n".join(_under_their_notes([alert for _, alert in said])))


def _under_their_notes(alerts: list[Alert]) -> list[str]:
    """The lines without a note, then for each note the lines it is about and the note."""
    by_note: dict[str | None, list[str]] = {}
    for alert in alerts:
        by_note.setdefault(alert.note, []).append(alert.line)
    bare = by_note.pop(None, [])
    return [*bare, *(text for note, said in by_note.items() for text in (*said, note))]


def register(*kinds: str, resumed: Resumed | None = None) -> None:
    """Clocks of ``kinds`` run by a game's own job runners: /pause and /resume freeze and
    restart them like the others, and :func:`stop` without kinds cancels them too;
    ``resumed`` says the time a clock of theirs runs to again, with the /resume."""
    _kinds.update(kinds)
    for kind in kinds if resumed is not None else ():
        _resumed[kind] = resumed


async def running(services: Services, match_id: int) -> bool:
    """Whether a clock of the match is running now (set, not frozen by a pause)."""
    jobs = await services.repos.jobs.for_match(match_id, tuple(sorted(_kinds)))
    return any("remaining" not in job.payload for job in jobs)


async def last_seq(services: Services, match_id: int) -> int:
    """The seq of the match's last logged action (0 before the first): its position."""
    return await services.repos.matches.last_seq(match_id)


async def start(ctx: MatchContext, kind: str, delay: timedelta, **payload: Any) -> None:
    """Set the match's clock ``kind`` (replacing one already running) to fire after
    ``delay`` unless the match moves on first."""
    await reset(ctx, (kind,), (kind, delay, payload))


async def reset(ctx: MatchContext, kinds: tuple[str, ...],
                *clocks: tuple[str, timedelta, dict[str, Any]]) -> None:
    """Cancel the match's clocks of ``kinds`` and set ``clocks`` (each a kind, its delay and
    its payload), in one write: a turn that runs on several clocks sets them all at once.
    Set while the match is paused (a match opened in a pause), they wait for ``/resume``
    with all their time left, as :class:`Onward`'s do."""
    services, match = ctx.services, ctx.match
    now, seq = services.clock.now(), await last_seq(services, match.id)
    await services.scheduler.replace_for_match(
        match.id, kinds, [(kind, now + delay, {"seq": seq, **payload})
                          for kind, delay, payload in clocks], ctx.tournament.id,
        now if match.status == "paused" else None)


@dataclass(frozen=True)
class Onward:
    """What an accepted action does to the match's clocks of ``kinds``: they run on from
    the new position (``keep``), or stop and the ``start`` ones are set (each a kind, its
    delay and its payload, as :func:`reset` takes them). Given to ``perform(...,
    clocks=…)``, it is written in the action's own transaction: an action is never
    committed without its clocks' new position (a restart in between left a clock that
    could never fire), and it costs no transaction of its own."""

    kinds: tuple[str, ...]
    keep: bool = False
    start: tuple[tuple[str, timedelta, dict[str, Any]], ...] = ()

    def __post_init__(self) -> None:
        if self.keep and self.start:
            raise ValueError("clocks that run on are not set anew: keep or start, not both")

    async def write(self, tx: LoopConnection, match: MatchRow, seq: int,
                    now: datetime) -> tuple[list[int], list[Job]]:
        """Its statements in ``tx``, the match now at ``seq``: the jobs it cancelled and
        the jobs it added, for the scheduler once the transaction commits. Clocks set while
        the match is paused (an organiser's action taken in a pause) are frozen at once,
        with all their time left, until ``/resume``."""
        if self.keep:
            await move_match_jobs(tx, match.id, self.kinds, seq)
            return [], []
        return await replace_match_jobs(
            tx, match.id, self.kinds, [(kind, now + delay, {"seq": seq, **payload})
                                       for kind, delay, payload in self.start],
            match.tournament_id, now if match.status == "paused" else None)


async def carry(ctx: MatchContext, onward: Onward) -> None:
    """``onward`` in a write of its own (the match moved again after the action that
    carried it: a random draw logged after it)."""
    if onward.keep:
        await keep(ctx, *onward.kinds)
    else:
        await reset(ctx, onward.kinds, *onward.start)


async def keep(ctx: MatchContext, *kinds: str) -> None:
    """The match moved within the turn the clocks of ``kinds`` (else all of them) time:
    they run on, same deadline."""
    services, chosen = ctx.services, kinds or tuple(sorted(_kinds))
    if chosen:
        await services.repos.jobs.move_for_match(ctx.match.id, chosen,
                                                 await last_seq(services, ctx.match.id))


async def stop(ctx: MatchContext, *kinds: str) -> None:
    """Cancel the match's clocks (of ``kinds``, else all of them)."""
    chosen = kinds or tuple(sorted(_kinds))
    if chosen:
        await ctx.services.scheduler.cancel_for_match(ctx.match.id, chosen)


async def stalled(services: Services, chat_id: int, seconds: float) -> None:
    """The bot is about to wait ``seconds`` before it may post in the group ``chat_id``
    (Telegram's group limit, or the rate windows a restart starts full): its players see
    no board meanwhile, so every match clock of the group runs that much later. A clock
    whose player acts during the wait is charged only what is left after it. A wait under
    a second is nobody's loss on clocks counted in minutes: left alone. The sending layer's
    bookkeeping, not the update's own write: a refusal that waited stays a refusal."""
    if _kinds and seconds >= 1:
        with services.db.untracked():
            await services.scheduler.delay_in_chat(chat_id, tuple(sorted(_kinds)), seconds)


async def held(services: Services, match_id: int, seconds: float) -> None:
    """Match ``match_id``'s board or a player's panel did not reach Telegram, and is drawn
    again in ``seconds``: its players cannot see the position meanwhile, so its clocks run
    that much later."""
    if _kinds and seconds > 0:
        await services.scheduler.delay_for_match(match_id, tuple(sorted(_kinds)), seconds)


async def pause(services: Services, tournament_id: int) -> None:
    """Freeze the tournament's running clocks; each keeps the time it had left."""
    if _kinds:
        await services.scheduler.freeze(tournament_id, tuple(sorted(_kinds)))


async def resume(services: Services, tournament_id: int) -> list[Job]:
    """Restart the tournament's frozen clocks with the time each had left; returns them."""
    return await services.scheduler.thaw(tournament_id)


async def resumed_lines(services: Services, tr: Translator, tournament: Tournament,
                        thawed: list[Job]) -> list[str]:
    """What the /resume says of the clocks it restarted (a round's new deadline), each
    line once."""
    said = [await _resumed[job.kind](services, tr, tournament, job)
            for job in thawed if job.kind in _resumed]
    return list(dict.fromkeys(said))
