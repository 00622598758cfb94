"""A ``/settings checkin=…`` on a scheduled tournament moves the check-in's opening: switched
on or off, or changed before it opened; once open, check-in is not opened twice."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.features.lifecycle import checkin_moved
from storage.repositories.tournaments import Tournament

START = datetime(2026, 10, 21, 17, 0, tzinfo=UTC)


def _tournament(checkin: int, *, starts_at: datetime | None = START,
                status: str = "registration") -> Tournament:
    return Tournament(1, -100, "shanghai", "Friday", status, {"checkin": checkin}, starts_at,
                      None, 7)


@pytest.mark.parametrize(("before", "after", "minutes_to_start", "moved"), [
    (0, 30, 600, True),      # switched on
    (30, 0, 600, True),      # switched off: its opening is called off
    (30, 60, 600, True),     # changed before it opened
    (30, 60, 20, False),     # already open: it stays open
    (0, 30, 20, True),       # switched on late: opens at once
    (30, 30, 600, False),    # unchanged
])
def test_which_changes_move_the_opening(before, after, minutes_to_start, moved) -> None:
    now = START - timedelta(minutes=minutes_to_start)
    assert checkin_moved(_tournament(before), {"checkin": after}, now) is moved


def test_no_start_time_or_a_started_tournament_has_no_opening_to_move() -> None:
    now = START - timedelta(hours=5)
    assert not checkin_moved(_tournament(0, starts_at=None), {"checkin": 30}, now)
    assert not checkin_moved(_tournament(0, status="running"), {"checkin": 30}, now)
