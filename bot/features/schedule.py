"""/schedule: an organiser sets a tournament's start — a day, a time and a zone — with its
reminders and check-in; alone, it says the start set now, to anyone.

What the start owes the players (the start said with its reminders, and a check-in it
opens at once) is written with a job held in its stead (:data:`SCHEDULED_JOB`), so a bot
that stops right after the write still says it.
"""

from __future__ import annotations

import re
from dataclasses import asdict
from datetime import datetime, timedelta, tzinfo

from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.features.access import command_target, id_moved_first, is_organiser
from bot.features.handlers import Handlers
from bot.features.lifecycle import (
    Scheduled,
    answer_where_asked,
    checkin_reply,
    job_kind,
    not_started,
    schedule_start,
)
from bot.features.times import duration, local_time, said_time, zone_of
from bot.i18n import Translator, lines
from bot.middlewares.filters import topic_of
from bot.services import Services
from bot.timeparse import NoTime, PartsDisagree, UnknownZone, ZoneAlone, parse_start, zone_name
from storage.repositories.jobs import Job
from storage.repositories.tournaments import Tournament
from storage.timefmt import to_db

router = Handlers("schedule")
_ID_ONLY = re.compile(r"(#\d+)?")


def _usage(services: Services, tr: Translator, tournament: Tournament) -> str:
    """How to set a start, its examples a week from today in the zone a time is read in."""
    zone = zone_of(services, tournament, tr.language)
    week = services.clock.now().astimezone(zone) + timedelta(days=7)
    return tr("schedule.usage", date=week.strftime("%Y-%m-%d"), short=week.strftime("%d.%m"),
              zone=zone_name(zone))


def _start_now(services: Services, tr: Translator, tournament: Tournament) -> str:
    """The start set now: none, ahead, or passed without the tournament starting (too few
    players at the time)."""
    if tournament.starts_at is None:
        return tr("schedule.not_set", title=tournament.title)
    if tournament.starts_at <= services.clock.now():
        return tr("schedule.missed", title=tournament.title,
                  time=said_time(services, tr, tournament))
    return tr("schedule.current", title=tournament.title,
              time=local_time(services, tournament), zone=tournament.timezone)


@router.message(Command("schedule"))
async def schedule(message: Message, command: CommandObject, services: Services,
                   tr: Translator) -> None:
    """Set the start: a day, a time and a zone; the tournament's ``#id`` first or last.
    Alone (or with the ``#id`` only) it says the start set now, to anyone."""
    args = id_moved_first(command.args)
    viewing = _ID_ONLY.fullmatch((args or "").strip()) is not None
    target = await command_target(message, services, args, organiser=not viewing)
    tournament = target.tournament
    if tournament.started:
        await message.answer(tr("schedule.already_started"))
        return
    if not target.words:  # what is set now, and how to set it
        said = _start_now(services, tr, tournament)
        how = await is_organiser(services, message.chat.id, message.from_user.id)
        await message.answer(lines(said, _usage(services, tr, tournament) if how else None))
        return
    try:
        start, zone = parse_start(target.words,
                                  zone_name(zone_of(services, tournament, tr.language)),
                                  services.clock.now())
    except ValueError as error:
        await message.answer(_unread_start(tr, error) + "\n" + _usage(services, tr, tournament))
        return
    if refused := out_of_reach(tr, start, zone, services.clock.now()):
        await message.answer(refused)
        return
    async with services.db.together():
        await services.repos.tournaments.set_start(tournament.id, start, zone_name(zone))
        tournament = await services.repos.tournaments.get(tournament.id)
        scheduled = await schedule_start(services, tournament)
        await services.repos.organiser_log.record(
            message.from_user.id, "schedule", services.clock.now(), tournament_id=tournament.id,
            chat_id=message.chat.id, starts_at=start.isoformat(), zone=zone_name(zone))
        held = await services.repos.jobs.add(
            SCHEDULED_JOB, services.clock.now(), tournament.id, starts_at=to_db(start),
            scheduled=asdict(scheduled), thread=topic_of(message))
    await services.scheduler.stand_in(held, _schedule_said(services, held))


SCHEDULED_JOB = "start_scheduled"
"""Written with a /schedule: the start said in the group with its reminders and what became
of check-in (opened at once, with its button; switched off), held in its stead (a stop
right after the write told the players nothing, a check-in opened by it included)."""


@job_kind(SCHEDULED_JOB)
async def _schedule_said(services: Services, job: Job) -> None:
    """The start set, said where the command was typed, while it is the start set."""
    if (waiting := await not_started(services, job)) is None or \
            to_db(waiting[0].starts_at) != job.payload["starts_at"]:
        return
    tournament, tr = waiting
    scheduled = Scheduled(**job.payload["scheduled"])
    reminders = ", ".join(duration(tr, m) for m in scheduled.leads) \
        or tr("schedule.no_reminders")
    checkin, markup = checkin_reply(services, tr, tournament, scheduled)
    await answer_where_asked(services, tournament.chat_id, job)(lines(
        tr("schedule.saved", title=tournament.title, time=local_time(services, tournament),
           zone=tournament.timezone, reminders=reminders), checkin), reply_markup=markup)


def out_of_reach(tr: Translator, start: datetime, zone: tzinfo, now: datetime) -> str | None:
    """Why a start read in ``zone`` is not set: gone by, or more than a year ahead (a
    typo in the year, 2062, or a date meant as another): named as read, to be checked."""
    if start <= now:
        return tr("schedule.in_past")
    if start > _a_year_on(now):
        return tr("schedule.too_far", time=start.strftime("%d.%m.%Y %H:%M"),
                  zone=zone_name(zone))
    return None


def _a_year_on(moment: datetime) -> datetime:
    """The same day and time a year later (the 29th of February: the 28th)."""
    try:
        return moment.replace(year=moment.year + 1)
    except ValueError:
        return moment.replace(year=moment.year + 1, day=28)


def _unread_start(tr: Translator, error: ValueError) -> str:
    """Why the words set no start; a day alone is named as read, and a day and month alone
    (``08.10``) also says how to write the time it may have meant (08:10), with the zone
    said after it (``08.10 MSK``); two parts of the day that disagree are quoted; an unknown
    zone is followed by the known one it may have meant ("Europe/Mosow": Europe/Moscow);
    a zone alone is named with what is missing."""
    if isinstance(error, PartsDisagree):
        return tr("schedule.parts_disagree", first=error.first, second=error.second)
    if isinstance(error, ZoneAlone):
        return tr("schedule.zone_alone", zone=zone_name(error.zone), said=error.said)
    if isinstance(error, UnknownZone) and error.meant:
        return f"{tr(error.args[0])} {tr('schedule.zone_meant', zone=error.meant)}"
    if not isinstance(error, NoTime):
        return tr(error.args[0])
    day = error.day.strftime("%d.%m.%Y")
    if error.clock is None:
        return tr("schedule.no_time", date=day)
    return tr("schedule.date_or_time", date=day, short=error.day.strftime("%d.%m"),
              time=error.clock.strftime("%H:%M"), zone=f" {error.zone}" if error.zone else "")
