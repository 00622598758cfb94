"""The /schedule forms organisers type (README, "Commands": /schedule): dates (with or without
the year), a bare time, day and weekday words of ru/en/fi, zone abbreviations and cities."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.timeparse import (
    FINNISH_PLACES,
    NoTime,
    PartsDisagree,
    UnknownZone,
    ZoneAlone,
    finnish_genitives,
    parse_start,
    zone_name,
)

MOSCOW = ZoneInfo("Europe/Moscow")
NOW = datetime(2026, 10, 1, 12, 0, tzinfo=MOSCOW)


def _start(text: str, zone: str = "Europe/Moscow", now: datetime = NOW) -> str:
    start, found = parse_start(text.split(), zone, now)
    return f"{start.isoformat()} {zone_name(found)}"


def test_a_bare_time_is_its_next_occurrence_in_the_zone() -> None:
    assert _start("19:00") == "2026-10-01T19:00:00+03:00 Europe/Moscow"
    assert _start("11:00") == "2026-10-02T11:00:00+03:00 Europe/Moscow"
    assert _start("12:00") == "2026-10-02T12:00:00+03:00 Europe/Moscow"  # now is not ahead
    # 12:00 in Moscow is 11:00 in Berlin: 11:30 there is still today
    assert _start("11:30", "Europe/Berlin") == "2026-10-01T11:30:00+02:00 Europe/Berlin"


@pytest.mark.parametrize(("text", "expected"), [
    ("9pm", "2026-10-01T21:00:00"), ("9 pm", "2026-10-01T21:00:00"),
    ("9:30PM", "2026-10-01T21:30:00"), ("9.30 p.m.", "2026-10-01T21:30:00"),
    ("11am", "2026-10-02T11:00:00"),  # 11:00 has passed today
    ("12am", "2026-10-02T00:00:00"), ("12 pm", "2026-10-02T12:00:00"),
    ("tomorrow 7pm", "2026-10-02T19:00:00"), ("friday at 8 pm", "2026-10-02T20:00:00"),
    ("21.10 9pm", "2026-10-21T21:00:00"), ("tomorrow 7 pm London", "2026-10-02T19:00:00"),
])
def test_a_twelve_hour_time(text: str, expected: str) -> None:
    assert _start(text).split("+")[0] == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("в 19", "2026-10-01T19:00:00"), ("в пятницу в 20 по Москве", "2026-10-02T20:00:00"),
    ("pe klo 19", "2026-10-02T19:00:00"), ("huomenna kello 9", "2026-10-02T09:00:00"),
    ("klo 19.30", "2026-10-01T19:30:00"), ("at 20", "2026-10-01T20:00:00"),
])
def test_a_whole_hour_after_its_word(text: str, expected: str) -> None:
    assert _start(text).split("+")[0] == expected


@pytest.mark.parametrize("text", ["19", "friday 19", "at 24", "в 24", "klo 7 19:00"])
def test_a_bare_number_is_not_a_time(text: str) -> None:
    with pytest.raises(ValueError):
        _start(text)


@pytest.mark.parametrize("text", ["13pm", "0am", "9:75pm", "pm", "tomorrow pm", "9 pm pm"])
def test_a_twelve_hour_time_that_is_not_one(text: str) -> None:
    with pytest.raises(ValueError):
        _start(text)


@pytest.mark.parametrize("word", ["tomorrow", "завтра", "huomenna", "Tomorrow", "ЗАВТРА"])
def test_tomorrow_in_every_language(word: str) -> None:
    assert _start(f"{word} 19:00") == "2026-10-02T19:00:00+03:00 Europe/Moscow"


@pytest.mark.parametrize("word", ["today", "сегодня", "tänään"])
def test_today_in_every_language(word: str) -> None:
    assert _start(f"{word} 19:30") == "2026-10-01T19:30:00+03:00 Europe/Moscow"


@pytest.mark.parametrize(("abbreviation", "zone", "offset"), [
    ("MSK", "Europe/Moscow", "+03:00"), ("МСК", "Europe/Moscow", "+03:00"),
    ("msk", "Europe/Moscow", "+03:00"), ("EET", "Europe/Helsinki", "+03:00"),
    ("CET", "Europe/Berlin", "+02:00")])
def test_zone_abbreviations(abbreviation: str, zone: str, offset: str) -> None:
    assert _start(f"tomorrow 19:00 {abbreviation}") == f"2026-10-02T19:00:00{offset} {zone}"


def test_dates_and_zones_as_before() -> None:
    assert _start("2026-10-21 20:00 Europe/Helsinki") == \
        "2026-10-21T20:00:00+03:00 Europe/Helsinki"
    assert _start("21.10.2026 20:00") == "2026-10-21T20:00:00+03:00 Europe/Moscow"
    assert _start("21.10.2026 20:00 +05:00") == "2026-10-21T20:00:00+05:00 UTC+05:00"


@pytest.mark.parametrize("word", ["friday", "Fri", "пятница", "пятницу", "пт", "perjantai",
                                  "pe"])
def test_a_weekday_in_every_language_is_the_next_one(word: str) -> None:
    assert _start(f"{word} 19:00") == "2026-10-02T19:00:00+03:00 Europe/Moscow"  # NOW: Thu


@pytest.mark.parametrize("text", ["в пятницу в 19:00", "в пятницу в 19:00 по Москве",
                                  "on friday at 19:00", "pe klo 19:00",
                                  "perjantai kello 19.00"])
def test_the_little_words_of_speech_are_left_out(text: str) -> None:
    assert _start(text) == "2026-10-02T19:00:00+03:00 Europe/Moscow"


def test_a_weekday_that_is_today_counts_while_its_time_is_ahead() -> None:
    assert _start("четверг 19:00") == "2026-10-01T19:00:00+03:00 Europe/Moscow"
    assert _start("to 11:00") == "2026-10-08T11:00:00+03:00 Europe/Moscow"  # torstai, passed


def test_a_day_and_month_without_a_year_is_the_next_one() -> None:
    assert _start("21.10 20:00") == "2026-10-21T20:00:00+03:00 Europe/Moscow"
    assert _start("01.10 11:00") == "2027-10-01T11:00:00+03:00 Europe/Moscow"  # passed today


@pytest.mark.parametrize(("city", "zone", "offset"), [
    ("Helsinki", "Europe/Helsinki", "+03:00"), ("helsinki", "Europe/Helsinki", "+03:00"),
    ("Хельсинки", "Europe/Helsinki", "+03:00"), ("Москва", "Europe/Moscow", "+03:00"),
    ("New York", "America/New_York", "-04:00"), ("Tukholma", "Europe/Stockholm", "+02:00")])
def test_a_zone_named_by_its_city(city: str, zone: str, offset: str) -> None:
    assert _start(f"tomorrow 19:00 {city}") == f"2026-10-02T19:00:00{offset} {zone}"


@pytest.mark.parametrize(("text", "key"), [
    ("", "schedule.bad_time"), ("25:00", "schedule.bad_time"), ("tomorrow", "schedule.no_time"),
    ("someday 19:00", "schedule.bad_time"), ("19:00 Mars/Olympus", "schedule.bad_zone"),
    ("19:00 MSK extra", "schedule.bad_time"), ("31.02 19:00", "schedule.bad_time"),
    ("19:00 Atlantis", "schedule.bad_zone"), ("08.10 MSK", "schedule.no_time"),
    ("tomorrow 20:00 Europe", "schedule.bad_zone"), ("19:00 America", "schedule.bad_zone"),
    (f"19:00 {'я' * 300}", "schedule.bad_time"), ("in 99999999 hours", "schedule.bad_time"),
    (f"in {'9' * 30} minutes", "schedule.bad_time"), (f"in {'9' * 400} days", "schedule.bad_time")])
def test_what_is_refused(text: str, key: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_start(text.split(), "Europe/Moscow", NOW)
    assert refused.value.args[0] == key


@pytest.mark.parametrize("text", ["3 October 19:00", "Oct 3 19:00", "October 3rd, 19:00",
                                  "3 октября в 19:00", "3. lokakuuta klo 19"])
def test_a_day_and_a_month_name_in_every_language(text: str) -> None:
    assert _start(text) == "2026-10-03T19:00:00+03:00 Europe/Moscow"


@pytest.mark.parametrize("text", ["perjantaina klo 19", "next friday 19:00", "this fri 19:00",
                                  "ensi perjantaina klo 19", "в следующую пятницу в 19"])
def test_a_weekday_said_as_speech_says_it(text: str) -> None:
    assert _start(text) == "2026-10-02T19:00:00+03:00 Europe/Moscow"  # 1 Oct 2026: Thursday


@pytest.mark.parametrize(("text", "expected"), [("tomorrow noon", "2026-10-02T12:00:00"),
                                                ("завтра в полдень", "2026-10-02T12:00:00"),
                                                ("midnight", "2026-10-02T00:00:00")])
def test_noon_and_midnight(text: str, expected: str) -> None:
    assert _start(text) == f"{expected}+03:00 Europe/Moscow"


@pytest.mark.parametrize("text", ["October 19:00", "3 19:00 October"])
def test_a_month_without_its_day_is_not_read(text: str) -> None:
    with pytest.raises(ValueError):
        _start(text)


@pytest.mark.parametrize(("text", "expected"), [
    ("20:00 tomorrow", "2026-10-02T20:00:00"), ("18:00 huomenna", "2026-10-02T18:00:00"),
    ("8pm friday", "2026-10-02T20:00:00"), ("20:00 21.10", "2026-10-21T20:00:00"),
    ("18.30 21.10", "2026-10-21T18:30:00"), ("21.10 20:00", "2026-10-21T20:00:00"),
    ("10.10 11.10", "2026-10-10T11:10:00"),  # either could be the day: the first one is
])
def test_the_time_before_the_day(text: str, expected: str) -> None:
    assert _start(text) == f"{expected}+03:00 Europe/Moscow"


@pytest.mark.parametrize(("text", "expected"), [
    ("in 2 hours", "14:00"), ("in an hour", "13:00"), ("in 30 minutes", "12:30"),
    ("in half an hour", "12:30"), ("in 2h", "14:00"), ("через 2 часа", "14:00"),
    ("через час", "13:00"), ("через полчаса", "12:30"), ("через 15 минут", "12:15"),
    ("2 tunnin päästä", "14:00"), ("tunnin päästä", "13:00"),
    ("puolen tunnin päästä", "12:30"), ("30 minuutin päästä", "12:30"),
    ("in 1.5 hours", "13:30"), ("через 1,5 часа", "13:30"), ("через полтора часа", "13:30"),
    ("puolentoista tunnin päästä", "13:30"), ("1,5 tunnin päästä", "13:30"),
])
def test_a_time_from_now(text: str, expected: str) -> None:
    assert _start(text) == f"2026-10-01T{expected}:00+03:00 Europe/Moscow"


@pytest.mark.parametrize(("text", "expected"), [
    ("завтра в 7 вечера", "19:00"), ("завтра 10 утра", "10:00"), ("завтра в 3 дня", "15:00"),
    ("завтра в 12 дня", "12:00"), ("завтра 7:30 вечера", "19:30"),
    ("huomenna klo 7 illalla", "19:00"), ("huomenna klo 9 aamulla", "09:00"),
    ("завтра в 11 ночи", "23:00"), ("завтра в 2 ночи", "02:00"), ("завтра в 12 ночи", "00:00"),
    ("huomenna klo 11 yöllä", "23:00"),
])
def test_the_part_of_the_day_after_an_hour(text: str, expected: str) -> None:
    assert _start(text) == f"2026-10-02T{expected}:00+03:00 Europe/Moscow"


@pytest.mark.parametrize(("text", "expected"), [
    ("in 2 days", "2026-10-03T12:00"), ("in a day", "2026-10-02T12:00"),
    ("через 2 дня", "2026-10-03T12:00"), ("через сутки", "2026-10-02T12:00"),
    ("через 5 дней", "2026-10-06T12:00"), ("2 päivän päästä", "2026-10-03T12:00"),
])
def test_days_from_now(text: str, expected: str) -> None:
    assert _start(text) == f"{expected}:00+03:00 Europe/Moscow"


@pytest.mark.parametrize(("text", "zone"), [
    ("19:00 Helsinki time", "Europe/Helsinki"), ("klo 19 Suomen aikaa", "Europe/Helsinki"),
    ("в 19 по московскому времени", "Europe/Moscow"), ("klo 19 Helsingin aikaa", "Europe/Helsinki"),
    ("в 19 по хельсинкскому времени", "Europe/Helsinki"), ("klo 19 Lontoo", "Europe/London"),
    ("klo 19 Moskovan aikaa", "Europe/Moscow"), ("klo 19 Suomen aikaan", "Europe/Helsinki"),
    ("klo 19 Tukholman aikaan", "Europe/Stockholm"), ("klo 19 Tokion aikaa", "Asia/Tokyo"),
])
def test_a_zone_said_as_its_time(text: str, zone: str) -> None:
    assert _start(text, "Europe/Berlin").endswith(zone)


@pytest.mark.parametrize(("place", "zone"), FINNISH_PLACES.items())
def test_a_finnish_place_is_known_by_its_name(place: str, zone: str) -> None:
    assert _start(f"huomenna klo 19 {place.capitalize()}").endswith(zone)


def test_every_genitive_names_its_zone_before_aikaa() -> None:
    """Every place known in Finnish, said in the genitive ("Tukholman aikaa", "New Yorkin
    aikaa"); Jan Mayen's first word is January's short name, so it is a month there."""
    wrong = {said: zone for said, zone in finnish_genitives().items()
             if said != "jan_mayenin" and not _start(
                 f"huomenna klo 19 {said.replace('_', ' ').title()} aikaa").endswith(zone)}
    assert not wrong


@pytest.mark.parametrize(("said", "zone"), [
    ("Tukholman", "Europe/Stockholm"), ("Helsingin", "Europe/Helsinki"),
    ("Tallinnan", "Europe/Tallinn"), ("Berliinin", "Europe/Berlin"),
    ("Pariisin", "Europe/Paris"), ("Moskovan", "Europe/Moscow"), ("Riian", "Europe/Riga"),
    ("New Yorkin", "America/New_York"), ("Oslon", "Europe/Oslo"), ("Ruotsin", "Europe/Stockholm"),
    ("Viron", "Europe/Tallinn"), ("Suomen", "Europe/Helsinki"), ("Englannin", "Europe/London"),
    ("Tokion", "Asia/Tokyo"), ("Pekingin", "Asia/Shanghai"), ("Kiovan", "Europe/Kyiv"),
    ("Islannin", "Atlantic/Reykjavik"), ("Alankomaiden", "Europe/Amsterdam"),
    ("Itävallan", "Europe/Vienna"), ("Tšekin", "Europe/Prague"), ("Kreikan", "Europe/Athens"),
])
def test_a_finnish_genitive_names_its_zone(said: str, zone: str) -> None:
    assert _start(f"huomenna klo 19 {said} aikaa", "Europe/Moscow").endswith(zone)



@pytest.mark.parametrize(("text", "expected"), [
    ("через 2 дня в 7 вечера", "2026-10-03T19:00"), ("через 2 дня 19:00", "2026-10-03T19:00"),
    ("через сутки в 10 утра", "2026-10-02T10:00"), ("в 19:00 через 3 дня", "2026-10-04T19:00"),
    ("послезавтра в 19:30", "2026-10-03T19:30"), ("in 2 days at 7 pm", "2026-10-03T19:00"),
    ("in a day at 9am", "2026-10-02T09:00"), ("day after tomorrow 19:00", "2026-10-03T19:00"),
    ("2 päivän päästä klo 19", "2026-10-03T19:00"), ("ylihuomenna klo 19", "2026-10-03T19:00"),
])
def test_days_from_today_at_a_time(text: str, expected: str) -> None:
    assert _start(text) == f"{expected}:00+03:00 Europe/Moscow"


def test_days_from_today_are_counted_in_the_zone() -> None:
    # 23:30 in Moscow on the 1st is already the 2nd in Tokyo: two days on is the 4th there
    late = datetime(2026, 10, 1, 23, 30, tzinfo=MOSCOW)
    assert _start("через 2 дня в 19:00 Asia/Tokyo", now=late) == \
        "2026-10-04T19:00:00+09:00 Asia/Tokyo"


@pytest.mark.parametrize(("text", "key"), [
    ("завтра в 7 вчера", "schedule.bad_time"), ("завтра в 19:00 пжлст", "schedule.bad_time"),
    ("в 7 вчера по Москве", "schedule.bad_time"), ("19:00 helsinky", "schedule.bad_time"),
    ("завтра в 19:00 UTC+25", "schedule.bad_zone"), ("19:00 +25:00", "schedule.bad_zone"),
    ("завтра в 19:00 Europe/Mosow", "schedule.bad_zone"),
    ("завтра в 19 по мосве", "schedule.bad_zone"), ("19:00 Helsinky", "schedule.bad_zone"),
    ("klo 19 Helsingn aikaa", "schedule.bad_zone"), ("klo 19 Helsingn aikaan", "schedule.bad_zone"),
])
def test_an_unread_word_is_a_zone_only_when_one_was_meant(text: str, key: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_start(text.split(), "Europe/Moscow", NOW)
    assert refused.value.args[0] == key


@pytest.mark.parametrize(("text", "key"), [
    ("tomorrow Europe/Mosow", "schedule.bad_zone"), ("завтра Europe/Mosow", "schedule.bad_zone"),
    ("huomenna Europe/Mosow", "schedule.bad_zone"), ("08.10 Europe/Mosow", "schedule.bad_zone"),
    ("завтра по мосве", "schedule.bad_zone"), ("tomorrow UTC+25", "schedule.bad_zone"),
    ("завтра вчера", "schedule.bad_time"), ("tomorrow please", "schedule.bad_time"),
])
def test_a_day_with_an_unknown_zone_and_no_time(text: str, key: str) -> None:
    """"tomorrow Europe/Mosow" was "could not read": a zone was meant, and is unknown, as
    after a time ("tomorrow 19:00 Europe/Mosow")."""
    with pytest.raises(ValueError) as refused:
        parse_start(text.split(), "Europe/Moscow", NOW)
    assert refused.value.args[0] == key


@pytest.mark.parametrize(("text", "expected"), [
    ("2 tunnin kuluttua", "2026-10-01T14:00"), ("puolen tunnin kuluttua", "2026-10-01T12:30"),
    ("2 päivän kuluttua", "2026-10-03T12:00"), ("2 päivän kuluttua klo 19", "2026-10-03T19:00"),
])
def test_kuluttua_reads_as_paasta(text: str, expected: str) -> None:
    assert _start(text) == f"{expected}:00+03:00 Europe/Moscow"


@pytest.mark.parametrize(("text", "expected"), [
    ("tänään 19", "2026-10-01T19:00"), ("сегодня 19", "2026-10-01T19:00"),
    ("today 19", "2026-10-01T19:00"), ("huomenna 9", "2026-10-02T09:00"),
    ("ylihuomenna 18", "2026-10-03T18:00"), ("lauantaina 14", "2026-10-03T14:00"),
    ("в субботу 14", "2026-10-03T14:00"), ("во вторник 9", "2026-10-06T09:00"),
    ("ensi lauantaina 14 Helsinki", "2026-10-03T14:00"),
])
def test_a_whole_hour_after_a_day_that_leaves_no_doubt(text: str, expected: str) -> None:
    assert _start(text).split("+")[0] == f"{expected}:00"


@pytest.mark.parametrize("text", ["lauantai 14", "суббота 14", "saturday 14", "tänään 24",
                                  "tänään 0", "huomenna 120"])
def test_a_number_after_a_day_that_may_be_the_months_day_is_not_an_hour(text: str) -> None:
    with pytest.raises(ValueError):
        _start(text)


@pytest.mark.parametrize(("text", "expected"), [
    ("huomenna illalla klo 7", "19:00"), ("huomenna illalla 7", "19:00"),
    ("huomenna aamulla klo 9", "09:00"), ("завтра вечером в 7", "19:00"),
    ("завтра утром в 10", "10:00"), ("завтра ночью в 2", "02:00"),
    ("tomorrow evening at 7", "19:00"), ("huomenna klo 19 illalla", "19:00"),
    ("huomenna illalla klo 19.30", "19:30"), ("tomorrow night at 11", "23:00"),
    ("tomorrow at 7 in the evening", "19:00"), ("tomorrow at 11 at night", "23:00"),
])
def test_the_part_of_the_day_before_an_hour(text: str, expected: str) -> None:
    assert _start(text) == f"2026-10-02T{expected}:00+03:00 Europe/Moscow"


@pytest.mark.parametrize(("text", "expected"), [
    ("tonight at 8", "20:00"), ("this evening at 7", "19:00"), ("tänä iltana klo 8", "20:00"),
    ("сегодня вечером в 8", "20:00"),
])
def test_this_evening(text: str, expected: str) -> None:
    assert _start(text) == f"2026-10-01T{expected}:00+03:00 Europe/Moscow"


@pytest.mark.parametrize(("text", "expected"), [
    ("tonight at 1", "01:00"), ("tonight at 12", "00:00"), ("сегодня ночью в 1", "01:00"),
    ("сегодня в 12 ночи", "00:00"), ("сегодня в 2 ночи", "02:00"),
])
def test_tonights_hour_after_midnight_is_tomorrows(text: str, expected: str) -> None:
    """They were refused as gone by: today at 01:00 had passed."""
    assert _start(text) == f"2026-10-02T{expected}:00+03:00 Europe/Moscow"


@pytest.mark.parametrize("text", ["tomorrow", "day after tomorrow", "завтра", "послезавтра",
                                  "ylihuomenna", "friday", "3 October", "через 2 дня в", "tonight",
                                  "huomenna illalla"])
def test_a_day_without_its_time_says_the_time_is_missing(text: str) -> None:
    with pytest.raises(ValueError) as refused:
        _start(text)
    assert refused.value.args[0] == "schedule.no_time"


@pytest.mark.parametrize("text", ["huomenna illalla", "huomenna klo 19 aamulla",
                                  "tomorrow morning 19:00"])
def test_a_part_of_the_day_that_is_no_time(text: str) -> None:
    with pytest.raises(ValueError):
        _start(text)


@pytest.mark.parametrize(("text", "day", "clock"), [
    ("08.10", "2026-10-08", "08:10"), ("8.10.", "2026-10-08", None),
    ("08.10.2027", "2027-10-08", None), ("01.10", "2026-10-01", "01:10"),  # today: not over
])
def test_a_day_and_month_alone_is_that_date_with_its_time_missing(
        text: str, day: str, clock: str | None) -> None:
    """``08.10`` was read as the time 08:10; ru and fi write the 8th of October so."""
    with pytest.raises(NoTime) as refused:
        _start(text)
    assert refused.value.args[0] == "schedule.no_time"
    assert refused.value.day.isoformat() == day
    assert (refused.value.clock and refused.value.clock.strftime("%H:%M")) == clock


@pytest.mark.parametrize(("text", "day", "zone"), [
    ("08.10 MSK", "2026-10-08", "MSK"), ("08.10 по Москве", "2026-10-08", "по Москве"),
    ("завтра Helsinki", "2026-10-02", "Helsinki"), ("8.10. UTC+3", "2026-10-08", "UTC+3"),
])
def test_a_day_alone_with_its_zone_says_the_time_is_missing(text: str, day: str,
                                                            zone: str) -> None:
    """``08.10 MSK`` was "could not read": it is the day, its time missing, and the zone
    as said, for the example of how to add the time."""
    with pytest.raises(NoTime) as refused:
        _start(text)
    assert (refused.value.day.isoformat(), refused.value.zone) == (day, zone)


@pytest.mark.parametrize("text", ["08:10", "в 08.10", "klo 8.10", "kello 08.10", "at 8.10"])
def test_a_time_with_a_colon_or_after_its_word_stays_a_time(text: str) -> None:
    assert _start(text) == "2026-10-02T08:10:00+03:00 Europe/Moscow"


@pytest.mark.parametrize("text", ["08.10 завтра", "08.10 huomenna", "08.10 tomorrow",
                                  "завтра 08.10", "huomenna klo 8.10", "tomorrow 08.10"])
def test_a_dotted_time_beside_a_day_word_is_the_time(text: str) -> None:
    assert _start(text) == "2026-10-02T08:10:00+03:00 Europe/Moscow"


EVENING = datetime(2026, 10, 5, 20, 0, tzinfo=MOSCOW)  # a Monday
AFTER_MIDNIGHT = datetime(2026, 10, 6, 1, 0, tzinfo=MOSCOW)  # that night


@pytest.mark.parametrize(("text", "expected"), [
    ("в 2 ночи", "2026-10-06T02:00"), ("в 2 часа ночи", "2026-10-06T02:00"),
    ("сегодня в 2 ночи", "2026-10-06T02:00"), ("завтра в 2 ночи", "2026-10-06T02:00"),
    ("в 11 вечера", "2026-10-05T23:00"), ("в 7 часов вечера", "2026-10-06T19:00"),
    ("в 9 утра", "2026-10-06T09:00"), ("в 3 дня", "2026-10-06T15:00"),
    ("klo 2 yöllä", "2026-10-06T02:00"), ("tänään klo 2 yöllä", "2026-10-06T02:00"),
    ("huomenna klo 2 yöllä", "2026-10-06T02:00"), ("klo 11 illalla", "2026-10-05T23:00"),
    ("2 am", "2026-10-06T02:00"), ("11 pm", "2026-10-05T23:00"),
    ("tonight at 2 am", "2026-10-06T02:00"), ("tonight at 2am", "2026-10-06T02:00"),
    ("tonight at 11 pm", "2026-10-05T23:00"), ("at 2 o'clock at night", "2026-10-06T02:00"),
])
def test_an_hour_and_its_part_of_the_day_said_in_the_evening(text: str, expected: str) -> None:
    assert _start(text, now=EVENING) == f"{expected}:00+03:00 Europe/Moscow"


@pytest.mark.parametrize(("text", "expected"), [
    ("сегодня в 2 ночи", "2026-10-06T02:00"), ("сегодня ночью в 2", "2026-10-06T02:00"),
    ("tänään klo 2 yöllä", "2026-10-06T02:00"), ("tonight at 2 am", "2026-10-06T02:00"),
    ("в 2 ночи", "2026-10-06T02:00"), ("завтра в 2 ночи", "2026-10-07T02:00"),
    ("сегодня в 12 ночи", "2026-10-07T00:00"),
])
def test_tonights_hour_said_after_midnight_is_this_nights(text: str, expected: str) -> None:
    """«сегодня в 2 ночи» at 01:00 was the next night's 02:00, a day late."""
    assert _start(text, now=AFTER_MIDNIGHT) == f"{expected}:00+03:00 Europe/Moscow"


LATER_AFTER_MIDNIGHT = datetime(2026, 10, 6, 1, 30, tzinfo=MOSCOW)


@pytest.mark.parametrize("text", ["сегодня в 1 ночи", "сегодня ночью в 1", "tänään klo 1 yöllä",
                                  "tonight at 1 am", "today at 1 am", "сегодня в 1:00"])
def test_tonights_hour_passed_after_midnight_has_passed(text: str) -> None:
    """«сегодня в 1 ночи» at 01:30 was the next night's 01:00, a day late, while «сегодня в
    1:00» had passed: both have."""
    start, _ = parse_start(text.split(), "Europe/Moscow", LATER_AFTER_MIDNIGHT)
    assert start == datetime(2026, 10, 6, 1, 0, tzinfo=MOSCOW) < LATER_AFTER_MIDNIGHT


@pytest.mark.parametrize(("text", "first", "second"), [
    ("tomorrow morning at 7 pm", "morning", "7 pm"), ("завтра утром в 7 вечера", "утром", "7 вечера"),
    ("huomenna aamulla klo 7 illalla", "aamulla", "7 illalla"),
    ("tomorrow morning at 7pm", "morning", "7pm"), ("tomorrow at 7 pm in the morning", "7 pm", "morning"),
    ("завтра вечером в 7 утра", "вечером", "7 утра"),
])
def test_two_parts_of_the_day_that_disagree(text: str, first: str, second: str) -> None:
    """«завтра утром в 7 вечера» was refused as a time not read at all, "tomorrow morning
    at 7pm" read as 19:00: both are the two parts quoted."""
    with pytest.raises(PartsDisagree) as refused:
        _start(text, now=EVENING)
    assert (refused.value.first, refused.value.second) == (first, second)


@pytest.mark.parametrize(("text", "expected"), [
    ("tonight at 23:00", "2026-10-05T23:00"), ("tänään yöllä klo 23:00", "2026-10-05T23:00"),
    ("сегодня ночью в 23:00", "2026-10-05T23:00"), ("tomorrow night at 23:00", "2026-10-06T23:00"),
    ("tomorrow evening at 19:00", "2026-10-06T19:00"), ("23:30 ночи", "2026-10-05T23:30"),
    ("tonight at 00:30", "2026-10-06T00:30"), ("huomenna iltapäivällä klo 15:00", "2026-10-06T15:00"),
])
def test_a_24_hour_time_in_its_part_of_the_day_is_that_time(text: str, expected: str) -> None:
    """"tonight at 23:00" was refused as not read: the night made 23:00 an invalid 23:00 am."""
    assert _start(text, now=EVENING) == f"{expected}:00+03:00 Europe/Moscow"


@pytest.mark.parametrize(("text", "first", "second"), [
    ("утром в 23:00", "утром", "23:00"), ("morning at 23:00", "morning", "23:00"),
    ("huomenna aamulla klo 13:00", "aamulla", "13:00"), ("сегодня ночью в 15:00", "ночью", "15:00"),
    ("23:00 утра", "23:00", "утра"), ("tomorrow morning at 19:00", "morning", "19:00"),
    ("завтра утром в 19:00", "утром", "19:00"), ("huomenna aamulla klo 19", "aamulla", "19"),
])
def test_a_24_hour_time_out_of_its_part_of_the_day_disagrees(text: str, first: str,
                                                             second: str) -> None:
    """«утром в 23:00» was refused as not read at all: the two parts are quoted."""
    with pytest.raises(PartsDisagree) as refused:
        _start(text, now=EVENING)
    assert (refused.value.first, refused.value.second) == (first, second)


@pytest.mark.parametrize(("text", "zone"), [
    ("08.10 вечером MSK", "MSK"), ("08.10 вечером", None), ("08.10 evening", None),
    ("08.10 illalla", None), ("08.10 in the evening Helsinki", "Helsinki"),
])
def test_a_day_and_month_with_a_part_of_the_day_stays_that_date(text: str,
                                                                zone: str | None) -> None:
    """«08.10 вечером MSK» was read as today's 20:10 (08.10 pm): it is the 8th of October
    in the evening, its time missing, answered as ``08.10`` (and ``08.10 MSK``) are."""
    with pytest.raises(NoTime) as refused:
        _start(text)
    assert (refused.value.day.isoformat(), refused.value.clock.strftime("%H:%M"),
            refused.value.zone) == ("2026-10-08", "08:10", zone)


@pytest.mark.parametrize(("text", "expected"), [
    ("08.10 вечером в 8", "2026-10-08T20:00"), ("08.10 illalla klo 19", "2026-10-08T19:00"),
    ("tomorrow 08.10 evening", "2026-10-02T20:10"), ("в 8.10 вечера", "2026-10-01T20:10"),
    ("klo 8.10 illalla", "2026-10-01T20:10"), ("8.10 pm", "2026-10-01T20:10"),
    ("8.10 вечера", "2026-10-01T20:10"), ("8.10 утра", "2026-10-02T08:10"),
])
def test_a_part_of_the_day_after_a_dotted_time_or_before_an_hour(text: str,
                                                                  expected: str) -> None:
    """Beside its hour, after «в» or "klo", beside a day word or with am/pm (or a part that
    only follows an hour, «8.10 вечера», which was read as the 8th of October), a dotted word
    is a time and the part of the day is its."""
    assert _start(text) == f"{expected}:00+03:00 Europe/Moscow"


@pytest.mark.parametrize(("text", "zone"), [
    ("Europe/Moscow", "Europe/Moscow"), ("по Москве", "Europe/Moscow"), ("MSK", "Europe/Moscow"),
    ("Helsinki", "Europe/Helsinki"), ("Tukholman aikaa", "Europe/Stockholm"),
])
def test_a_zone_alone_is_read_as_the_zone_with_the_day_and_time_missing(text: str,
                                                                      zone: str) -> None:
    """"/schedule Europe/Moscow" was "could not read": the zone was read, the rest missing."""
    with pytest.raises(ZoneAlone) as refused:
        parse_start(text.split(), "Europe/Moscow", NOW)
    assert (zone_name(refused.value.zone), refused.value.said) == (zone, text)


@pytest.mark.parametrize(("text", "meant"), [
    ("Europe/Mosow", "Europe/Moscow"), ("tomorrow Europe/Mosow", "Europe/Moscow"), ("завтра в 19:00 Europe/Mosow", "Europe/Moscow"),
    ("19:00 europe/helsiki", "Europe/Helsinki"), ("19:00 Mars/Olympus", None),
    ("19:00 Helsinky", None), ("завтра по мосве", None),
])
def test_an_unknown_zone_names_the_known_one_it_is_close_to(text: str,
                                                            meant: str | None) -> None:
    """"Europe/Mosow" was only "unknown time zone": the zone it misspells is suggested."""
    with pytest.raises(UnknownZone) as refused:
        parse_start(text.split(), "Europe/Moscow", NOW)
    assert refused.value.meant == meant
