"""Reading a start time the way organisers type it: ``2026-10-21 20:00 Europe/Moscow``."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_OFFSET = re.compile(r"^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$", re.IGNORECASE)
_DATE_FORMATS = ("%Y-%m-%d %H:%M", "%d.%m.%Y %H:%M")


def parse_zone(text: str) -> tzinfo | None:
    """An IANA zone name, ``UTC``, or an offset such as ``+03:00`` / ``UTC+3``."""
    if text.upper() in ("UTC", "GMT", "Z"):
        return UTC
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


def parse_start(words: list[str], default_zone: str) -> tuple[datetime, tzinfo]:
    """Date, time and an optional zone; ValueError("schedule.bad_time"/"bad_zone") if wrong."""
    if len(words) < 2:
        raise ValueError("schedule.bad_time")
    stamp = f"{words[0]} {words[1]}"
    for fmt in _DATE_FORMATS:
        try:
            naive = datetime.strptime(stamp, fmt)
            break
        except ValueError:
            continue
    else:
        raise ValueError("schedule.bad_time")
    zone = parse_zone(words[2] if len(words) > 2 else default_zone)
    if zone is None or len(words) > 3:
        raise ValueError("schedule.bad_zone")
    return naive.replace(tzinfo=zone), zone
