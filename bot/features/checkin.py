"""When a scheduled start's check-in opens, whether it is open, and how that is said: to
the settings that switch it on, to ``/begin`` before it opens, to an entrant taken in once it
is open. Opening it, and the check-in status, are the start notices' (``notices``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from aiogram.types import InlineKeyboardMarkup

from bot.features.keyboards import checkin_keyboard
from bot.features.times import duration, said_time
from bot.i18n import Translator, lines
from bot.services import Services
from storage.repositories.tournaments import Tournament
from storage.timefmt import from_db

CHECKIN_OPENED = "checkin_opened"
"""The tournament's state key of the moment its check-in opened: a start moved later
keeps it open (no second opening)."""


def _checkin_opening(tournament: Tournament) -> datetime | None:
    """When a scheduled start's check-in opens, or opened (None: no check-in, or no start
    set)."""
    minutes = tournament.settings.get("checkin", 0)
    if not minutes or tournament.starts_at is None:
        return None
    return (from_db(tournament.state.get(CHECKIN_OPENED))
            or tournament.starts_at - timedelta(minutes=minutes))


def checkin_ahead(services: Services, tournament: Tournament) -> datetime | None:
    """When a scheduled start's check-in opens, while that is still ahead."""
    opens = _checkin_opening(tournament)
    return None if opens is None or opens <= services.clock.now() else opens


def checkin_opens(services: Services, tr: Translator, tournament: Tournament) -> str | None:
    """:func:`checkin_ahead` as the chat reads it (:func:`said_time`)."""
    opens = checkin_ahead(services, tournament)
    return None if opens is None else said_time(services, tr, tournament, opens)


def checkin_open(services: Services, tournament: Tournament) -> bool:
    """Whether check-in is open now: on, and its start's opening has come (with no start
    set it is not: it opens with a start, its minutes before it)."""
    opens = _checkin_opening(tournament)
    return opens is not None and opens <= services.clock.now()


def _opens_with_start(tr: Translator, tournament: Tournament) -> str | None:
    """With check-in on and no start set, when it opens, in words: its minutes before the
    start, once one is set."""
    minutes = tournament.settings.get("checkin", 0)
    if not minutes or tournament.starts_at is not None:
        return None
    return tr("checkin.opens_unscheduled", left=duration(tr, minutes))


def checkin_opens_said(services: Services, tr: Translator, tournament: Tournament
                       ) -> str | None:
    """When check-in opens, while that is still ahead, in words: the time a scheduled
    start's opens, or, with no start set, its minutes before a start once one is set."""
    return _opens_with_start(tr, tournament) or checkin_opens(services, tr, tournament)


def checkin_waits_start(tr: Translator, tournament: Tournament) -> str | None:
    """What settings switching check-in on (or changing its minutes) with no start set
    say: it opens once a start is set, its minutes before it."""
    opens = _opens_with_start(tr, tournament)
    return tr("schedule.checkin_opens", time=opens) if opens else None


def with_checkin(services: Services, tr: Translator, tournament: Tournament,
                 said: str) -> tuple[str, InlineKeyboardMarkup | None]:
    """``said`` to an entrant just taken in (added, approved, registered): once check-in
    has opened, and the tournament has not started, with the line that they still have to
    check in and the Check-in button."""
    if not checkin_open(services, tournament) or tournament.started:
        return said, None
    return lines(said, tr("checkin.now_open")), checkin_keyboard(tr, tournament)
