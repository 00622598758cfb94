"""The start notices: the reminders before a start and the opening of its check-in, those of
a group's tournaments due together said in one message, and the check-in status such a
reminder becomes, redrawn in place as check-ins come."""

from __future__ import annotations

from datetime import datetime

from aiogram.types import InlineKeyboardMarkup

from bot.features.checkin import CHECKIN_OPENED, checkin_ahead, checkin_opens
from bot.features.keyboards import checkin_keyboard, register_keyboard, stacked
from bot.features.lifecycle import (
    counted_as,
    job_kind,
    not_started,
    pending_applications,
    unfinished_forms,
)
from bot.features.times import duration, said_time
from bot.i18n import Translator, lines, paragraphs
from bot.services import Services
from storage.repositories.jobs import Job
from storage.repositories.tournaments import UNFINISHED, Tournament
from storage.timefmt import from_db, to_db

CHECKIN_STATUS = "checkin_status"
"""The tournament's state key of its check-in status: the newest reminder message counting
check-ins it is in — its id and the reminders it joins (``[tournament id, minutes, start]``
each) — redrawn in place at each check-in, change of the entrants, registration closed or
reopened and change of the settings (:func:`redraw_checkin_status`), after a restart too."""

NOTICES = ("reminder", "checkin")
"""The jobs that tell a group of a coming start: those of its tournaments due together are
said in one message."""


@job_kind(*NOTICES)
async def _notice_job(services: Services, job: Job) -> None:
    """A reminder or the opening of check-in, joined by the chat's other tournaments' due
    with it (within :data:`bot.scheduler.TOGETHER`): one message, a paragraph each, each
    one's buttons naming its tournament (several check-in openings say how to check in once,
    after them); a message of reminders only that counts check-ins is each one's check-in
    status."""
    if not (found := await not_started(services, job)):
        return
    tournament, tr = found
    due = [(tournament, job)]
    for other in await services.scheduler.take_due(job, chat_id=tournament.chat_id,
                                                   kinds=NOTICES):
        if more := await not_started(services, other):
            due.append((more[0], other))
    brief = sum(one.kind == "checkin" for _, one in due) > 1
    said = [await _notice(services, tr, each, one, named=len(due) > 1, brief=brief)
            for each, one in due]
    text, markup = _joined(said)
    message_id = await services.outbox.board(
        tournament.chat_id, None, paragraphs(text, tr("checkin.open_hint") if brief else None),
        markup)
    reminders = [(each, one.payload["minutes"]) for each, one in due if one.kind == "reminder"]
    if len(reminders) == len(due) and any(_counts_checkins(services, each, minutes)
                                          for each, minutes in reminders):
        status = {"message_id": message_id, "shows": [
            [each.id, minutes, to_db(each.starts_at)] for each, minutes in reminders]}
        for each, _ in reminders:
            await services.repos.tournaments.set_state(each.id, CHECKIN_STATUS, status)


async def _reminders(services: Services, tr: Translator,
                     reminders: list[tuple[Tournament, int]]
                     ) -> tuple[str, InlineKeyboardMarkup | None]:
    """One message of the chat's reminders (each a tournament and its minutes before the
    start): a paragraph each, several naming their tournament on their buttons."""
    return _joined([await _reminder(services, tr, each, minutes, named=len(reminders) > 1)
                    for each, minutes in reminders])


def _joined(said: list[tuple[str, InlineKeyboardMarkup | None]]
            ) -> tuple[str, InlineKeyboardMarkup | None]:
    """Notices as one message: their texts a paragraph each, their buttons stacked."""
    markups = [markup for _, markup in said if markup is not None]
    return paragraphs(*(text for text, _ in said)), stacked(*markups) if markups else None


async def redraw_checkin_status(services: Services, *tournaments: Tournament) -> None:
    """Redraw in place the check-in status (:data:`CHECKIN_STATUS`) of ``tournaments``
    whose check-ins, entrants, registration or settings changed: each message once, whole
    (its Register button follows registration and the entry limit) — every reminder it
    joins whose tournament still waits for the start it was sent for; with none left (all
    called off or moved), its buttons are taken off."""
    statuses = {status["message_id"]: (tournament.chat_id, status) for tournament in tournaments
                if (status := tournament.state.get(CHECKIN_STATUS))}
    for message_id, (chat_id, status) in statuses.items():
        reminders = []
        for tournament_id, minutes, start in status["shows"]:
            tournament = await services.repos.tournaments.get(tournament_id)
            if _waits_for(tournament, from_db(start)):
                reminders.append((tournament, minutes))
        if not reminders:
            await services.outbox.drop_buttons(chat_id, message_id)
            continue
        text, markup = await _reminders(
            services, await services.translator_for_chat(chat_id), reminders)
        await services.outbox.board(chat_id, message_id, text, markup, resend=False)


def _waits_for(tournament: Tournament | None, start: datetime | None) -> bool:
    """Whether ``tournament`` still waits for ``start``: not started, cancelled or moved."""
    return (tournament is not None and not tournament.started
            and tournament.status != "cancelled" and tournament.starts_at == start)


async def _notice(services: Services, tr: Translator, tournament: Tournament, job: Job,
                  named: bool, brief: bool) -> tuple[str, InlineKeyboardMarkup | None]:
    """What the notice ``job`` says of ``tournament``, and its buttons (``brief``: see
    :func:`_open_checkin`)."""
    if job.kind == "reminder":
        return await _reminder(services, tr, tournament, job.payload["minutes"], named)
    return await _open_checkin(services, tr, tournament, job.payload.get("minutes"), named,
                               brief)


async def _open_checkin(services: Services, tr: Translator, tournament: Tournament,
                        minutes: int | None, named: bool, brief: bool
                        ) -> tuple[str, InlineKeyboardMarkup | None]:
    """Open check-in; when a reminder falls at the same time (``minutes``), it heads the
    text, and the Register button joins the Check-in one while registration is open.
    ``brief``: one opening of several in a message, which says how to check in once."""
    await services.repos.tournaments.set_state(tournament.id, CHECKIN_OPENED,
                                               to_db(services.clock.now()))
    markup = checkin_keyboard(tr, tournament, named)
    suffix = "_brief" if brief else ""
    if minutes is None:
        return tr(f"checkin.open{suffix}", title=tournament.title,
                  time=said_time(services, tr, tournament)), markup
    reminder, register = await _reminder(services, tr, tournament, minutes, named)
    return lines(reminder, tr(f"checkin.open_with_reminder{suffix}")), stacked(register, markup)


async def _reminder(services: Services, tr: Translator, tournament: Tournament,
                    minutes: int, named: bool = False
                    ) -> tuple[str, InlineKeyboardMarkup | None]:
    """The reminder ``minutes`` before the start, and its Register button while registration
    is open and places are left; when check-in opens, or once it is open, how many have
    checked in (with the Check-in button); the last reminder names the applications still
    waiting. ``named``: the buttons name the tournament (one message of several)."""
    approved = await services.repos.entrants.list(tournament.id, ("approved",))
    markup = register_keyboard(services, tr, tournament, named) \
        if tournament.registration_open and not tournament.full_with(len(approved)) else None
    text = tr(counted_as(tournament, "reminder.text"), title=tournament.title,
              left=duration(tr, minutes), time=said_time(services, tr, tournament),
              count=len(approved))
    if opens := checkin_opens(services, tr, tournament):
        text += "\n" + tr("schedule.checkin_opens", time=opens)
    elif _counts_checkins(services, tournament, minutes):
        text += "\n" + tr("reminder.checked_in", total=len(approved),
                          count=sum(entrant.checked_in for entrant in approved))
        markup = stacked(markup, checkin_keyboard(tr, tournament, named))
    if minutes == min(services.settings.reminders):  # the last reminder
        waiting = await services.repos.entrants.list(tournament.id, ("pending", *UNFINISHED))
        if pending := pending_applications(waiting):
            text += "\n" + tr("reminder.pending", names=", ".join(e.label for e in pending))
        text = lines(text, unfinished_forms(tr, waiting))
    return text, markup


def _counts_checkins(services: Services, tournament: Tournament, minutes: int) -> bool:
    """Whether the reminder ``minutes`` before the start says how many have checked in:
    check-in opened before it."""
    checkin = tournament.settings.get("checkin", 0)
    return bool(checkin) and checkin_ahead(services, tournament) is None and (
        minutes < checkin or CHECKIN_OPENED in tournament.state)
