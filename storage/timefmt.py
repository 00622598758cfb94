"""Times are stored as ISO-8601 UTC strings; these two helpers are the only conversion."""

from __future__ import annotations

from datetime import UTC, datetime


def to_db(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def from_db(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None
