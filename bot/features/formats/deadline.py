"""A round's deadline: set and said in the round's announcement, moved on by /resume after
a pause, and the job that, once it passes, lists the matches still open in the group."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.features.formats.state import Run, load, names_of
from bot.features.times import duration, zone_of
from bot.games import Game, game_of
from bot.i18n import Markup, Translator
from bot.play import clock
from bot.play.context import load_match
from bot.services import Services
from bot.timeparse import zone_name
from storage.repositories.jobs import Job
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import LIVE, Tournament

DEADLINE_JOB = "formats_deadline"


async def set_deadline(services: Services, tr: Translator, run: Run,
                       played: list[MatchRow], minutes: int) -> str:
    """Set the round's deadline and say when it is; a round opened during a pause gets
    its minutes of play after /resume (the deadline is frozen with the match clocks). Said
    again (its announcement retried after a failed send or a stop), the round's deadline
    replaces the one set before: one deadline, the one said."""
    due = _whole_minute(services.clock.now() + timedelta(minutes=minutes))
    await services.scheduler.replace(DEADLINE_JOB, due, run.tournament.id, key="matches",
                                     matches=[row.id for row in played])
    if run.tournament.status == "paused":
        await services.scheduler.freeze(run.tournament.id, (DEADLINE_JOB,))
        return tr("formats.deadline_after_resume", left=duration(tr, minutes))
    return _deadline_at(services, tr, run.tournament, due, minutes)


def _deadline_at(services: Services, tr: Translator, tournament: Tournament, due: datetime,
                 minutes: int) -> str:
    zone = zone_of(services, tournament, tr.language)
    return tr("formats.deadline_at", time=due.astimezone(zone).strftime("%d.%m %H:%M"),
              zone=zone_name(zone), left=duration(tr, minutes))


async def _deadline_resumed(services: Services, tr: Translator, tournament: Tournament,
                            job: Job) -> str:
    """The round's deadline as /resume moved it on (by the time the pause lasted)."""
    due = _whole_minute(job.run_at)
    left = -(-(due - services.clock.now()) // timedelta(minutes=1))
    return _deadline_at(services, tr, tournament, due, left)


# /pause freezes a round's deadline with the match clocks; /resume says when it falls now
clock.register(DEADLINE_JOB, resumed=_deadline_resumed)


def _whole_minute(moment: datetime) -> datetime:
    """``moment`` rounded up to the minute it is shown as: matches whose deadlines are
    shown alike fall due together and are said in one message."""
    floor = moment.replace(second=0, microsecond=0)
    return floor if floor == moment else floor + timedelta(minutes=1)


async def deadline_passed(services: Services, job: Job) -> None:
    """Remind the players of matches still open and hand them to the organisers: those
    of every deadline of the tournament passed by now, in one message."""
    run = await load(services, job.tournament_id)
    if run.tournament is None or run.tournament.status != "running":
        return
    due = {match for taken in [job, *await services.scheduler.take_due(job)]
           for match in taken.payload["matches"]}
    late = [row for row in run.rows if row.id in due and row.status in LIVE]
    if not late:
        return
    tr = await services.translator_for_chat(run.tournament.chat_id)
    label = await names_of(services, run.tournament.id)
    game = game_of(run.tournament.game)
    in_bot = game.in_bot(run.tournament.settings)
    overdue = [await _overdue(services, tr, game, row, label, in_bot) for row in late]
    await services.bot.send_message(run.tournament.chat_id, tr(
        "formats.deadline_passed_in_bot" if in_bot else "formats.deadline_passed",
        lines=Markup("\n".join(overdue))))


async def _overdue(services: Services, tr: Translator, game: Game, row: MatchRow,
                   label: dict[int, str], in_bot: bool) -> str:
    """A match open at the deadline, and where it stands: a game that tells its state
    (``Game.match_now``) says it (a report awaiting its confirmation, whose move it is)."""
    a, b = label[row.player_a], label[row.player_b]
    if in_bot and game.match_now is not None:
        ctx = await load_match(services, tr, row.id)
        now = game.match_now(ctx, await services.matches.state(ctx.match))
        return tr("formats.late.now", a=a, b=b, now=now.splitlines()[-1])
    return tr(f"formats.late.{_late_state(row, in_bot)}", a=a, b=b)


def _late_state(row: MatchRow, in_bot: bool) -> str:
    """Where a match open at the deadline stands: a match played in the bot is still being
    played (the bot records its result), a reported one is unreported, unconfirmed or
    disputed."""
    if in_bot:
        return "playing"
    if row.result.get("dispute"):
        return "disputed"
    return "unconfirmed" if row.result.get("report") else "unreported"
