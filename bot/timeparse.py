"""Reading a start time the way organisers type it (README, "Commands": /schedule):
``2026-10-21 20:00 Europe/Moscow``, ``21.10.2026 20:00``, a bare ``19:00`` (its next
occurrence), ``tomorrow 19:00`` (завтра, huomenna; today, сегодня, tänään), and a zone as an
IANA name, an offset (``+03:00``, ``UTC+3``) or a common abbreviation (MSK, МСК, EET, CET …).
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_OFFSET = re.compile(r"^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$", re.IGNORECASE)
_DATE_FORMATS = ("%Y-%m-%d", "%d.%m.%Y")
_TIME = re.compile(r"^(\d{1,2})[:.](\d{2})$")
_DAY_WORDS = {"today": 0, "сегодня": 0, "tänään": 0,
              "tomorrow": 1, "завтра": 1, "huomenna": 1}
_ABBREVIATIONS = {
    "MSK": "Europe/Moscow", "МСК": "Europe/Moscow",
    "EET": "Europe/Helsinki", "EEST": "Europe/Helsinki",
    "CET": "Europe/Berlin", "CEST": "Europe/Berlin",
    "WET": "Europe/Lisbon", "WEST": "Europe/Lisbon",
    "BST": "Europe/London", "SAMT": "Europe/Samara", "YEKT": "Asia/Yekaterinburg",
}
"""Abbreviations organisers write, as the zone they name (its summer time included)."""


def parse_zone(text: str) -> tzinfo | None:
    """An IANA zone name, ``UTC``, an offset such as ``+03:00`` / ``UTC+3``, or an
    abbreviation of :data:`_ABBREVIATIONS`."""
    if text.upper() in ("UTC", "GMT", "Z"):
        return UTC
    if named := _ABBREVIATIONS.get(text.upper()):
        return ZoneInfo(named)
    if match := _OFFSET.match(text):
        sign, hours, minutes = match.groups()
        delta = timedelta(hours=int(hours), minutes=int(minutes or 0))
        if delta > timedelta(hours=14):
            return None
        return timezone(-delta if sign == "-" else delta)
    try:
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def zone_name(zone: tzinfo) -> str:
    return getattr(zone, "key", None) or str(zone)


def parse_start(words: list[str], default_zone: str, now: datetime
                ) -> tuple[datetime, tzinfo]:
    """Day, time and an optional zone; ValueError("schedule.bad_time"/"bad_zone") if wrong.
    Without a day the time is its next occurrence in the zone; a day is a date or a word
    such as ``tomorrow``, counted in the zone."""
    if not words:
        raise ValueError("schedule.bad_time")
    timed = 0 if _TIME.match(words[0]) else 1
    if len(words) <= timed or not (clock := _clock(words[timed])):
        raise ValueError("schedule.bad_time")
    rest = words[timed + 1:]
    zone = parse_zone(rest[0] if rest else default_zone)
    if zone is None or len(rest) > 1:
        raise ValueError("schedule.bad_zone")
    today = now.astimezone(zone).date()
    if timed == 0:
        start = datetime.combine(today, clock, tzinfo=zone)
        if start <= now:
            start = datetime.combine(today + timedelta(days=1), clock, tzinfo=zone)
        return start, zone
    day = _day(words[0].lower(), today)
    return datetime.combine(day, clock, tzinfo=zone), zone


def _clock(word: str) -> time | None:
    match = _TIME.match(word)
    if not match or int(match[1]) > 23 or int(match[2]) > 59:
        return None
    return time(int(match[1]), int(match[2]))


def _day(word: str, today: date) -> date:
    if word in _DAY_WORDS:
        return today + timedelta(days=_DAY_WORDS[word])
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(word, fmt).date()
        except ValueError:
            continue
    raise ValueError("schedule.bad_time")
