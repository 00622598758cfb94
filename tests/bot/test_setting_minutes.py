"""Settings counted in minutes (check-in, deadline, backgammon's grace and idle) are read as
organisers write them: a bare number of minutes, or with a unit in the bot's languages
(``bot/game_settings.py``, ``minutes``)."""

from __future__ import annotations

import pytest

from bot.game_settings import COMMON_SETTINGS, FORMAT_SETTINGS, hints, minutes, parse_settings
from bot.i18n import Translator


@pytest.mark.parametrize(("text", "value"), [
    ("45", 45), ("30m", 30), ("30min", 30), ("90мин", 90), ("2h", 120), ("2ч", 120),
    ("2t", 120), ("1d", 1440), ("1д", 1440), ("1pv", 1440), ("7D", 10080)])
def test_a_duration_with_or_without_its_unit_is_minutes(text: str, value: int) -> None:
    assert minutes(0, 10080)(text) == value


@pytest.mark.parametrize("text", ["", "h", "2x", "1.5h", "-5", "8d", "2 h"])
def test_what_is_not_a_duration_in_range_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="settings.bad_number"):
        minutes(0, 10080)(text)


def test_the_settings_keep_minutes() -> None:
    parsers = {**COMMON_SETTINGS, **FORMAT_SETTINGS}
    assert parse_settings(parsers, ["checkin=1h", "deadline=2d"], {}) == {
        "checkin": 60, "deadline": 2880}
    assert parsers["deadline"].hint == "0–10080|2h|1d"


@pytest.mark.parametrize(("language", "said"), [
    ("ru", "отметка=0–1440|2ч|1д"), ("en", "checkin=0–1440|2h|1d"),
    ("fi", "paikallaolo=0–1440|2t|1pv")])
def test_a_duration_hint_names_the_languages_units(language: str, said: str) -> None:
    parsers = {**COMMON_SETTINGS, **FORMAT_SETTINGS}
    assert hints(Translator(language), parsers, "checkin") == said
    for example in said.split("|")[1:]:
        assert parsers["checkin"](example)  # each unit shown is one the setting takes
