"""How a tournament's times read in its chat: its time zone, a moment in it (the start, the
opening of check-in) and a number of minutes in words."""

from __future__ import annotations

from datetime import datetime, tzinfo

from bot.i18n import Translator
from bot.services import Services
from bot.timeparse import parse_zone, zone_name
from storage.repositories.tournaments import Tournament


def local_time(services: Services, tournament: Tournament, at: datetime | None = None) -> str:
    """``at`` (default: the start) as the tournament's zone shows it."""
    return (at or tournament.starts_at).astimezone(zone_of(services, tournament)).strftime(
        "%d.%m.%Y %H:%M")


def said_time(services: Services, tr: Translator, tournament: Tournament,
              at: datetime | None = None) -> str:
    """:func:`local_time`, naming the tournament's zone when it is not the one the chat reads
    a time without a zone in (``01.10.2026 20:00, Europe/London`` in a Russian group)."""
    zone = zone_name(zone_of(services, tournament, tr.language))
    time = local_time(services, tournament, at)
    if zone == zone_name(default_zone(services, tr.language)):
        return time
    return tr("time.zoned", time=time, zone=zone)


LANGUAGE_ZONES = {"fi": "Europe/Helsinki"}
"""The zone of a chat language spoken in one: a Finnish group's tournament is timed in
Helsinki until /schedule names another zone (elsewhere the bot's ``TIMEZONE``)."""


def zone_of(services: Services, tournament: Tournament, language: str = "") -> tzinfo:
    """The tournament's time zone: the one its start was scheduled in (or, before that, the
    one its group's last tournament had), else :func:`default_zone`."""
    return parse_zone(tournament.timezone) if tournament.timezone \
        else default_zone(services, language)


def default_zone(services: Services, language: str) -> tzinfo:
    """The zone a chat of ``language`` reads a time without a zone in: its language's
    (:data:`LANGUAGE_ZONES`), else the bot's."""
    return parse_zone(LANGUAGE_ZONES.get(language) or services.settings.timezone)


def duration(tr: Translator, minutes: int) -> str:
    """``2 hours`` when whole hours, else ``90 minutes``."""
    hours, rest = divmod(minutes, 60)
    return tr("time.hours", n=hours) if hours and not rest else tr("time.minutes", n=minutes)
