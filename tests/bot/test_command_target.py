"""``/schedule 20:00 #2`` names tournament #2 as ``/schedule #2 20:00`` does."""

from __future__ import annotations

import pytest

from bot.features.access import id_moved_first


@pytest.mark.parametrize(("args", "read"), [
    ("20:00 #2", "#2 20:00"),
    ("tomorrow 19:00 MSK #12", "#12 tomorrow 19:00 MSK"),
    ("#2 20:00", "#2 20:00"),          # already first
    ("#2 20:00 #3", "#2 20:00 #3"),    # the first one counts; the zone #3 is refused later
    ("#2", "#2"),
    ("20:00", "20:00"),
    ("20:00 #x", "20:00 #x"),
    (None, None),
])
def test_a_last_id_is_read_first(args, read) -> None:
    assert id_moved_first(args) == read
