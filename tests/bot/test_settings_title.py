"""/settings renames with ``title=`` or ``title`` without «=» (README, "Settings"): the
rest of the line is the title, the words before it are settings."""

from __future__ import annotations

import pytest

from bot.features.organiser import _new_title


@pytest.mark.parametrize(("words", "expected"), [
    ("title Spring Darts", ([], "Spring Darts")),
    ("title=Spring Darts", ([], "Spring Darts")),
    ("Title «Spring Darts»", ([], "Spring Darts")),
    ("legs 5 title Spring Darts", (["legs", "5"], "Spring Darts")),
    ("title", ([], "")),
    ("legs=5", (["legs=5"], None)),
])
def test_the_title_is_the_rest_of_the_line(words: str, expected: tuple) -> None:
    """«/settings title Spring Darts» was refused as no setting “title”."""
    assert _new_title(words.split()) == expected
