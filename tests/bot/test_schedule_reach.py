"""/schedule sets a start that is ahead and at most a year ahead (README, "Commands":
/schedule): a start further on, a typo in the year most often, is refused naming the date
and time read."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.features.schedule import out_of_reach
from bot.i18n import Translator
from bot.timeparse import parse_start

MOSCOW = ZoneInfo("Europe/Moscow")
NOW = datetime(2026, 10, 5, 20, 0, tzinfo=MOSCOW)


def _refusal(text: str, language: str, now: datetime = NOW) -> str | None:
    start, zone = parse_start(text.split(), "Europe/Moscow", now)
    return out_of_reach(Translator(language), start, zone, now)


@pytest.mark.parametrize(("language", "text", "said"), [
    ("ru", "12.05.2062 в 19:00", "Прочитал это как 12.05.2062 19:00 (Europe/Moscow)"),
    ("en", "12.05.2031 at 7 pm", "I read that as 12.05.2031 19:00 (Europe/Moscow)"),
    ("fi", "2062-05-12 klo 19 Helsinki", "Luin sen ajaksi 12.05.2062 19:00 (Europe/Helsinki)"),
])
def test_a_start_years_ahead_is_refused_naming_the_date_read(
        language: str, text: str, said: str) -> None:
    """Such a start was set without a question."""
    assert said in (_refusal(text, language) or "")


@pytest.mark.parametrize("language", ["ru", "en", "fi"])
def test_up_to_a_year_ahead_is_set(language: str) -> None:
    assert _refusal("05.10.2027 20:00", language) is None
    assert _refusal("05.10.2027 20:01", language) == Translator(language)(
        "schedule.too_far", time="05.10.2027 20:01", zone="Europe/Moscow")
    assert _refusal("в 19:00", language) is None


def test_a_year_on_from_the_29th_of_february_is_the_28th() -> None:
    leap = datetime(2028, 2, 29, 12, 0, tzinfo=MOSCOW)
    assert _refusal("28.02.2029 12:00", "en", leap) is None
    assert _refusal("28.02.2029 12:01", "en", leap) is not None


def test_a_start_gone_by_is_still_said_to_have_passed() -> None:
    assert _refusal("05.10.2026 19:00", "en") == Translator("en")("schedule.in_past")
