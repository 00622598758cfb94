"""The start notices: the reminders before a start and the opening of its check-in, those of
a group's tournaments due together said in one message, and the check-in status such a
notice becomes (the opening, then each reminder after it), redrawn in place as check-ins
come."""

from __future__ import annotations

from datetime import datetime

from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message, Update

from bot.features.checkin import CHECKIN_OPENED, checkin_ahead, checkin_open, checkin_opens
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
from storage.repositories.tournaments import UNFINISHED, Entrant, Tournament
from storage.timefmt import from_db, to_db

CHECKIN_STATUS = "checkin_status"
"""The tournament's state key of its check-in status: the newest start notice counting
check-ins it is in (a check-in opening, a reminder once check-in has opened) — its id and the
notices it joins (``[tournament id, minutes, start, opens check-in]`` each) — redrawn in place
at each check-in, change of the entrants, registration closed or reopened and change of the
settings (:func:`redraw_checkin_status`), after a restart too."""

NOTICES = ("reminder", "checkin")
"""The jobs that tell a group of a coming start: those of its tournaments due together are
said in one message."""

Shown = tuple[Tournament, int | None, bool]
"""One paragraph of a start notice: its tournament, the minutes before the start of the
reminder it says (None: a check-in opening at no reminder's time), whether it opens check-in."""


@job_kind(*NOTICES)
async def _notice_job(services: Services, job: Job) -> None:
    """A reminder or the opening of check-in, joined by the chat's other tournaments' due
    with it (within :data:`bot.scheduler.TOGETHER`): one message, a paragraph each, each
    one's buttons naming its tournament; a message that opens check-in or counts check-ins
    is each one's check-in status."""
    if not (found := await not_started(services, job)):
        return
    tournament, tr = found
    due = [(tournament, job)]
    for other in await services.scheduler.take_due(job, chat_id=tournament.chat_id,
                                                   kinds=NOTICES):
        if more := await not_started(services, other):
            due.append((more[0], other))
    for each, one in due:
        if one.kind == "checkin":
            await services.repos.tournaments.set_state(each.id, CHECKIN_OPENED,
                                                       to_db(services.clock.now()))
    shown = [(each, one.payload.get("minutes"), one.kind == "checkin") for each, one in due]
    text, markup = await _said(services, tr, shown)
    message_id = await services.outbox.board(tournament.chat_id, None, text, markup)
    if any(opens or _counts_checkins(services, each, minutes) for each, minutes, opens in shown):
        status = {"message_id": message_id, "shows": [
            [each.id, minutes, to_db(each.starts_at), opens] for each, minutes, opens in shown]}
        for each, _, _ in shown:
            await services.repos.tournaments.set_state(each.id, CHECKIN_STATUS, status)


async def _said(services: Services, tr: Translator, shown: list[Shown]
                ) -> tuple[str, InlineKeyboardMarkup | None]:
    """One message of the chat's start notices: a paragraph each, several naming their
    tournament on their buttons; several check-in openings say how to check in once, after
    them."""
    named = len(shown) > 1
    brief = sum(opens for _, _, opens in shown) > 1
    said = [await _opening(services, tr, each, minutes, named, brief) if opens
            else await _reminder(services, tr, each, minutes or 0, named)
            for each, minutes, opens in shown]
    markups = [markup for _, markup in said if markup is not None]
    return (paragraphs(*(text for text, _ in said), tr("checkin.open_hint") if brief else None),
            stacked(*markups) if markups else None)


async def statuses_again(services: Services, update: Update) -> None:
    """``update``, which wrote before this process started (a ``/register``, ``/settings``,
    ``/withdraw`` … in a group), is delivered again: the process that wrote may have stopped
    before redrawing the check-in status, so the statuses of the group's tournaments before
    their start are drawn again as they now stand (their Register button, their entrants).
    An update in private names no group: its tournament's status waits for the next change."""
    event = update.event
    message = event.message if isinstance(event, CallbackQuery) else event
    if isinstance(message, Message) and message.chat.type != "private":
        tournaments = await services.repos.tournaments.active_in_chat(message.chat.id)
        await redraw_checkin_status(
            services, *(tournament for tournament in tournaments if not tournament.started))


async def redraw_checkin_status(services: Services, *tournaments: Tournament) -> set[int]:
    """Redraw in place the check-in status (:data:`CHECKIN_STATUS`) of ``tournaments``
    whose check-ins, entrants, registration or settings changed: each message once, whole
    (its Register button follows registration and the entry limit) — every notice it joins
    whose tournament still waits for the start it was sent for (a check-in opening: with
    check-in still open); with none left (all called off or moved), its buttons are taken
    off. Return the ids of the tournaments a status still shows (not deleted from the chat)."""
    statuses = {status["message_id"]: (tournament.chat_id, status) for tournament in tournaments
                if (status := tournament.state.get(CHECKIN_STATUS))}
    still: set[int] = set()
    for message_id, (chat_id, status) in statuses.items():
        shown: list[Shown] = []
        for tournament_id, minutes, start, *opens in status["shows"]:
            tournament = await services.repos.tournaments.get(tournament_id)
            opening = bool(opens and opens[0])
            if _still_shown(services, tournament, minutes, from_db(start), opening):
                shown.append((tournament, minutes, opening))
        if not shown:
            await services.outbox.drop_buttons(chat_id, message_id)
            continue
        text, markup = await _said(services, await services.translator_for_chat(chat_id), shown)
        if await services.outbox.board(chat_id, message_id, text, markup, resend=False):
            still.update(tournament.id for tournament, _, _ in shown)
    return still


def _still_shown(services: Services, tournament: Tournament | None, minutes: int | None,
                 start: datetime | None, opening: bool) -> bool:
    """Whether a check-in status still shows a notice of ``tournament``: not started or
    cancelled; a reminder (alone or heading an opening) of the start it was sent for, not
    moved since; a check-in opening while check-in is open (its start is said as it is
    now)."""
    if tournament is None or tournament.started or tournament.status == "cancelled":
        return False
    if minutes is not None and tournament.starts_at != start:
        return False
    return not opening or checkin_open(services, tournament)


async def _opening(services: Services, tr: Translator, tournament: Tournament,
                   minutes: int | None, named: bool, brief: bool
                   ) -> tuple[str, InlineKeyboardMarkup | None]:
    """Check-in open; when a reminder falls at the same time (``minutes``), it heads the
    text, and the Register button joins the Check-in one while registration is open; once
    anyone has checked in, how many (the opening is the check-in status until the next
    reminder). ``brief``: one opening of several in a message, which says how to check in
    once."""
    markup = checkin_keyboard(tr, tournament, named)
    suffix = "_brief" if brief else ""
    if minutes is None:
        text = tr(f"checkin.open{suffix}", title=tournament.title,
                  time=said_time(services, tr, tournament))
    else:
        reminder, register = await _reminder(services, tr, tournament, minutes, named,
                                             counting=False)
        text = lines(reminder, tr(f"checkin.open_with_reminder{suffix}"))
        markup = stacked(register, markup)
    approved = await services.repos.entrants.list(tournament.id, ("approved",))
    if any(entrant.checked_in for entrant in approved):
        text += "\n" + _checked_in(tr, approved)
    return text, markup


async def _reminder(services: Services, tr: Translator, tournament: Tournament,
                    minutes: int, named: bool = False, counting: bool = True
                    ) -> tuple[str, InlineKeyboardMarkup | None]:
    """The reminder ``minutes`` before the start, and its Register button while registration
    is open and places are left; before check-in opens, when; once it is open (``counting``:
    unless the reminder heads the opening, which counts them itself), how many have checked
    in (with the Check-in button); the last reminder names the applications still waiting.
    ``named``: the buttons name the tournament (one message of several)."""
    approved = await services.repos.entrants.list(tournament.id, ("approved",))
    markup = register_keyboard(services, tr, tournament, named) \
        if tournament.registration_open and not tournament.full_with(len(approved)) else None
    text = tr(counted_as(tournament, "reminder.text"), title=tournament.title,
              left=duration(tr, minutes), time=said_time(services, tr, tournament),
              count=len(approved))
    if opens := checkin_opens(services, tr, tournament):
        text += "\n" + tr("schedule.checkin_opens", time=opens)
    elif counting and _counts_checkins(services, tournament, minutes):
        text += "\n" + _checked_in(tr, approved)
        markup = stacked(markup, checkin_keyboard(tr, tournament, named))
    if minutes == min(services.settings.reminders):  # the last reminder
        waiting = await services.repos.entrants.list(tournament.id, ("pending", *UNFINISHED))
        if pending := pending_applications(waiting):
            text += "\n" + tr("reminder.pending", names=", ".join(e.label for e in pending))
        text = lines(text, unfinished_forms(tr, waiting))
    return text, markup


def _checked_in(tr: Translator, approved: list[Entrant]) -> str:
    """How many of the approved entrants have checked in (``✅ Checked in: 1 of 3.``)."""
    return tr("reminder.checked_in", total=len(approved),
              count=sum(entrant.checked_in for entrant in approved))


def _counts_checkins(services: Services, tournament: Tournament, minutes: int) -> bool:
    """Whether the reminder ``minutes`` before the start says how many have checked in:
    check-in opened before it."""
    checkin = tournament.settings.get("checkin", 0)
    return bool(checkin) and checkin_ahead(services, tournament) is None and (
        minutes < checkin or CHECKIN_OPENED in tournament.state)
