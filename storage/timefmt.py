"""Times are stored as ISO-8601 UTC strings; these two helpers are the only conversion."""

from __future__ import annotations

import math
from datetime import UTC, datetime


def to_db(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def from_db(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def seconds_left(due: datetime, now: datetime) -> int:
    """Whole seconds from ``now`` to ``due`` (0 once due), a time read back from the
    database: stored cut to the second, it may be up to a second early, so what is left is
    rounded up. A match clock read so (a turn's time left, a clock frozen by a pause) never
    charges a player for the storage's resolution."""
    return max(0, math.ceil((due - now).total_seconds()))
