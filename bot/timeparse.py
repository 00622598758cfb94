"""Reading a start time the way organisers type it (README, "Commands": /schedule), with the
little words of speech left out («в пятницу в 19:00 по Москве», "on friday at 19:00",
"pe klo 19:00"):
``2026-10-21 20:00 Europe/Moscow``, ``21.10.2026 20:00``, ``21.10 20:00`` (its next
occurrence), a bare ``19:00`` (its next occurrence; also ``7pm``, ``7:30 pm``, and a whole
hour after «в» or "klo": «в 19», "klo 19", or after a day that leaves no doubt: «tänään
19», «lauantaina 14», «в субботу 14»), ``tomorrow 19:00`` (завтра, huomenna;
today, сегодня, tänään), a weekday (``friday``, ``пт``, ``perjantai``: the next one whose
time is still ahead; «perjantaina», "next friday" too), a day with its month's name
("3 October", «3 октября»), noon and midnight, the time before the day ("20:00 tomorrow"),
a time from now ("in 2 hours", «через 30 минут», "tunnin päästä" or "kuluttua"), a day from today with
its time («через 2 дня в 7 вечера», "in 2 days at 7 pm", «послезавтра в 19:30»), and a zone
as an IANA
name, its city alone (``Helsinki``, also a few in Russian: ``Москва``), an offset
(``+03:00``, ``UTC+3``) or a common abbreviation (MSK, МСК, EET, CET …).
"""

from __future__ import annotations

import difflib
import re
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from functools import cache
from itertools import takewhile
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

_OFFSET = re.compile(r"^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$", re.IGNORECASE)
_DATE_FORMATS = ("%Y-%m-%d", "%d.%m.%Y")
_TIME = re.compile(r"^(\d{1,2})[:.](\d{2})$")
_TWELVE_HOUR = re.compile(r"^(\d{1,2})(?:[:.](\d{2}))?([ap])\.?m\.?$", re.IGNORECASE)
"""``9pm``, ``9:30pm``, ``12 a.m.`` (the am or pm written apart is joined first)."""
_MERIDIEM = re.compile(r"^[ap]\.?m\.?$", re.IGNORECASE)
_HOUR_AND_MINUTES = re.compile(r"^\d{1,2}(?:[:.]\d{2})?$")
_DAY_PARTS = {"вечера": "pm", "дня": "pm", "утра": "am", "ночи": "night", "illalla": "pm",
              "iltapäivällä": "pm", "aamulla": "am", "yöllä": "night", "вечером": "pm",
              "днём": "pm", "днем": "pm", "утром": "am", "ночью": "night", "evening": "pm",
              "afternoon": "pm", "morning": "am", "night": "night", "iltana": "pm",
              "aamuna": "am", "yönä": "night"}
"""The part of the day of an hour, as am or pm, said after it («в 7 вечера» is 19:00, «10
утра», "klo 7 illalla") or before it ("huomenna illalla klo 7", «завтра вечером в 7»,
"tomorrow evening at 7", "tomorrow night at 11", "tomorrow at 7 in the evening", "tänä
iltana klo 8"); the night is pm late in the evening, am after midnight («11 ночи»
is 23:00, «2 ночи» 02:00); a 24-hour time in its part of the day is that time ("klo 19
illalla", "tonight at 23:00"), out of it a contradiction ("morning at 23:00")."""
_OF_THE_HOUR = frozenset({"вечера", "утра", "дня", "ночи"})
"""The parts of the day that only ever follow an hour, as am and pm do («8.10 вечера» is
20:10, never the 8th of October in the evening, which is «08.10 вечером»)."""
_DAY_MONTH = re.compile(r"^(\d{1,2})\.(\d{1,2})\.?$")
_DAY_WORDS = {"today": 0, "сегодня": 0, "tänään": 0,
              "tomorrow": 1, "завтра": 1, "huomenna": 1, "послезавтра": 2, "ylihuomenna": 2}
_DAYS_AHEAD = re.compile(
    r"(?<!\S)(?:in (?P<en>\d+|an?) days?|через (?:(?P<ru>\d+) ?)?(?:дня|дней|день|сутки|суток)"
    r"|(?:(?P<fi>\d+) )?(?:päivän|päivää|vuorokauden) (?:päästä|kuluttua)"
    r"|(?:the )?day after (?P<two>tomorrow))"
    r"(?!\S)", re.IGNORECASE)
"""Whole days from today with a time beside them: «через 2 дня в 19:00», "in 2 days at
7 pm", "2 päivän päästä klo 19" (or «kuluttua»), "day after tomorrow 19:00" (a count of
days alone is a time from now: :data:`_FROM_NOW`)."""
_DAY_AND_PART = {"tonight": "today night"}
"""A word that says a day and its part at once: "tonight at 8" is today at 20:00."""
_TONIGHT = "tonight:"
"""How :func:`_into_the_night` writes "today" said before an hour after midnight: this
night's date when said in the small hours (before :data:`_NIGHT_ENDS`), else the coming
night's (tomorrow's date); midnight, which ends today, is always tomorrow's."""
_NIGHT_ENDS = 6
"""The hour the night's hours after midnight end before: «5 ночи» is 05:00, «11 ночи» 23:00."""
_DAYS_WORD = "days:"
"""How :func:`_days_ahead` writes such a phrase as one day word: ``days:2``."""
_WEEKDAYS = (
    ("monday", "mon", "понедельник", "пн", "maanantai", "maanantaina", "ma"),
    ("tuesday", "tue", "вторник", "вт", "tiistai", "tiistaina", "ti"),
    ("wednesday", "wed", "среда", "среду", "ср", "keskiviikko", "keskiviikkona", "ke"),
    ("thursday", "thu", "четверг", "чт", "torstai", "torstaina", "to"),
    ("friday", "fri", "пятница", "пятницу", "пт", "perjantai", "perjantaina", "pe"),
    ("saturday", "sat", "суббота", "субботу", "сб", "lauantai", "lauantaina", "la"),
    ("sunday", "sun", "воскресенье", "вс", "sunnuntai", "sunnuntaina", "su"),
)
"""Weekday words in the bot's languages (full and short; Russian also as after «в»,
Finnish also as «perjantaina», on Friday)."""
_MONTHS = {
    **{name: number for number, names in enumerate((
        ("january", "jan", "января", "tammikuuta"), ("february", "feb", "февраля", "helmikuuta"),
        ("march", "mar", "марта", "maaliskuuta"), ("april", "apr", "апреля", "huhtikuuta"),
        ("may", "мая", "toukokuuta"), ("june", "jun", "июня", "kesäkuuta"),
        ("july", "jul", "июля", "heinäkuuta"), ("august", "aug", "августа", "elokuuta"),
        ("september", "sep", "sept", "сентября", "syyskuuta"),
        ("october", "oct", "октября", "lokakuuta"), ("november", "nov", "ноября", "marraskuuta"),
        ("december", "dec", "декабря", "joulukuuta")), start=1) for name in names},
}
"""Month names beside a day's number: "3 October", "Oct 3rd", «3 октября», «3. lokakuuta»."""
_DAY_NUMBER = re.compile(r"^(\d{1,2})(?:st|nd|rd|th|\.)?,?$", re.IGNORECASE)
_CLOCK_WORDS = {"noon": "12:00", "midday": "12:00", "midnight": "00:00", "полдень": "12:00",
                "полночь": "00:00", "keskipäivällä": "12:00", "keskiyöllä": "00:00"}
_FILLERS = frozenset({"в", "во", "по", "on", "at", "in", "the", "klo", "kello", "next",
                      "this", "ensi", "час", "часа", "часов", "o'clock", "oclock",
                      "tänä", "следующий", "следующую", "следующее", "ближайший",
                      "ближайшую", "ближайшее", "time", "aikaa", "aikaan", "времени"})
"""Words around a day, a time and a zone that say nothing more: «в пятницу», «по Москве»,
"on friday", "next friday", «в следующую пятницу», "ensi perjantaina" (the next one, as the
weekday alone), the hour's word («в 2 часа ночи», "at 7 o'clock"), "klo 19:00", "in the
evening", "Helsinki time", «по московскому времени», "Suomen aikaa" (or "aikaan")."""
_ZONE_WORDS = frozenset({"по", "time", "aikaa", "aikaan", "времени"})
"""Fillers that say a zone is named: «по Москве», "Helsinki time", "Suomen aikaa" (or
"aikaan")."""
_ZONE_LIKE = re.compile(r"(?i:utc|gmt)|[+-]\d|\S+/|[A-ZА-ЯЁ]")
"""How a word meant as a zone starts: an offset ("UTC+25", "+25:00"), an IANA name
("Europe/Mosow") or a capital (a city, an abbreviation: "Helsinky", "PST")."""
_CLOSE_ZONE = 0.8
"""How alike an Area/City word and a known zone must be for the zone to be suggested."""
_BEFORE_HOUR = frozenset({"в", "во", "klo", "kello", "at"})
"""Fillers after which a whole hour is a time: «в 19», "klo 19", "at 19" (19:00)."""
_ESSIVE_WEEKDAYS = frozenset(word for words in _WEEKDAYS for word in words
                             if word.endswith("na"))
"""Finnish weekdays said as "on" that day («lauantaina»): an hour may follow alone."""
_BEFORE_WEEKDAY_HOUR = frozenset({"в", "во"})
"""Fillers before a weekday after which an hour may follow alone: «в субботу 14»."""
_COUNT = r"(\d+(?:[.,]\d+)?|an?|half an|пол|полтора|puolen|puolentoista)"
_FROM_NOW = (
    re.compile(rf"^in (?:{_COUNT} ?)?(hours?|hrs?|h|minutes?|mins?|days?)$"),
    re.compile(rf"^через (?:{_COUNT} ?)?(часа|часов|час|ч|минуту|минуты|минут|мин|"
               r"дня|дней|день|сутки|суток)$"),
    re.compile(rf"^(?:{_COUNT} )?(tunnin|tuntia|tunti|t|minuutin|minuuttia|min|päivän|päivää|"
               r"vuorokauden) (?:päästä|kuluttua)$"),
)
"""A start some time from now, in each language: the count (none: one; a half; one and a
half; «1,5») and the unit."""
_HALVES = {"half an": 0.5, "пол": 0.5, "puolen": 0.5, "полтора": 1.5, "puolentoista": 1.5}
_UNIT_MINUTES = (("д", 1440), ("сут", 1440), ("päiv", 1440), ("vuoro", 1440), ("day", 1440),
                 ("min", 1), ("мин", 1))
"""Minutes in a unit by how its word starts; any other unit is an hour."""
_FARTHEST_FROM_NOW = timedelta(days=10 * 366)
"""Farther "from now" is not read as a time: the start is refused as more than a year ahead
(naming its date) up to here, beyond as unreadable."""
_WEEKDAY = {word: number for number, words in enumerate(_WEEKDAYS) for word in words}
_CITIES = {
    "москва": "Europe/Moscow", "москве": "Europe/Moscow", "санкт-петербург": "Europe/Moscow",
    "питер": "Europe/Moscow",
    "калининград": "Europe/Kaliningrad", "самара": "Europe/Samara",
    "екатеринбург": "Asia/Yekaterinburg", "новосибирск": "Asia/Novosibirsk",
    "минск": "Europe/Minsk", "хельсинки": "Europe/Helsinki", "таллин": "Europe/Tallinn",
    "рига": "Europe/Riga", "берлин": "Europe/Berlin", "лондон": "Europe/London",
    "московскому": "Europe/Moscow", "хельсинкскому": "Europe/Helsinki",
    "калининградскому": "Europe/Kaliningrad", "самарскому": "Europe/Samara",
    "екатеринбургскому": "Asia/Yekaterinburg", "новосибирскому": "Asia/Novosibirsk",
    "минскому": "Europe/Minsk", "лондонскому": "Europe/London",
    "берлинскому": "Europe/Berlin",
}
"""City names in Russian that are not an IANA zone's own English city name."""
FINNISH_PLACES = {
    "tukholma": "Europe/Stockholm", "tallinna": "Europe/Tallinn", "lontoo": "Europe/London",
    "berliini": "Europe/Berlin", "riika": "Europe/Riga", "moskova": "Europe/Moscow",
    "pietari": "Europe/Moscow", "pariisi": "Europe/Paris", "rooma": "Europe/Rome",
    "ateena": "Europe/Athens", "varsova": "Europe/Warsaw", "kööpenhamina": "Europe/Copenhagen",
    "wien": "Europe/Vienna", "vilna": "Europe/Vilnius",
    "suomi": "Europe/Helsinki", "ruotsi": "Europe/Stockholm", "viro": "Europe/Tallinn",
    "norja": "Europe/Oslo", "tanska": "Europe/Copenhagen", "saksa": "Europe/Berlin",
    "ranska": "Europe/Paris", "englanti": "Europe/London", "britannia": "Europe/London",
    "latvia": "Europe/Riga", "liettua": "Europe/Vilnius", "puola": "Europe/Warsaw",
    "venäjä": "Europe/Moscow", "italia": "Europe/Rome", "espanja": "Europe/Madrid",
    "tokio": "Asia/Tokyo", "peking": "Asia/Shanghai", "soul": "Asia/Seoul",
    "kairo": "Africa/Cairo", "kiova": "Europe/Kyiv", "praha": "Europe/Prague",
    "bryssel": "Europe/Brussels", "lissabon": "Europe/Lisbon", "bukarest": "Europe/Bucharest",
    "belgrad": "Europe/Belgrade", "zürich": "Europe/Zurich", "reykjavík": "Atlantic/Reykjavik",
    "japani": "Asia/Tokyo", "kiina": "Asia/Shanghai", "ukraina": "Europe/Kyiv",
    "islanti": "Atlantic/Reykjavik", "irlanti": "Europe/Dublin", "hollanti": "Europe/Amsterdam",
    "alankomaat": "Europe/Amsterdam", "belgia": "Europe/Brussels", "sveitsi": "Europe/Zurich",
    "itävalta": "Europe/Vienna", "unkari": "Europe/Budapest", "tšekki": "Europe/Prague",
    "kreikka": "Europe/Athens", "turkki": "Europe/Istanbul", "portugali": "Europe/Lisbon",
    "romania": "Europe/Bucharest", "serbia": "Europe/Belgrade", "egypti": "Africa/Cairo",
}
"""Cities and countries in Finnish that are not an IANA zone's own English city name (a
country as the zone of its capital); each is also known in the genitive, as "Tukholman
aikaa" says it (:func:`finnish_genitives`); Tokio is Tokyo, Peking Beijing's zone
(Asia/Shanghai)."""
_IRREGULAR_GENITIVES = {"helsinki": "helsingin", "suomi": "suomen", "riika": "riian",
                        "englanti": "englannin", "islanti": "islannin", "irlanti": "irlannin",
                        "hollanti": "hollannin", "alankomaat": "alankomaiden",
                        "itävalta": "itävallan", "tšekki": "tšekin", "kreikka": "kreikan",
                        "turkki": "turkin"}
"""Finnish genitives that are not the name and ``n`` (or ``in`` after a consonant)."""
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
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a region's folder of
        pass  # zones ("Europe"), a name too long for a file
    city = text.lower().replace("ё", "е")
    key = city.replace(" ", "_")
    named = (_CITIES.get(city) or FINNISH_PLACES.get(key) or _zones_by_city().get(key)
             or finnish_genitives().get(key))
    return ZoneInfo(named) if named else None


@cache
def finnish_genitives() -> dict[str, str]:
    """Each place :func:`parse_zone` knows by name in Finnish (:data:`FINNISH_PLACES`, and the
    IANA zones' cities, which Finnish writes as they are: ``new_york``) by its genitive, as
    "Tukholman aikaa", "New Yorkin aikaa" say it (``tukholman`` → ``Europe/Stockholm``)."""
    places = {**_zones_by_city(), **FINNISH_PLACES}
    return {_IRREGULAR_GENITIVES.get(name) or name + ("n" if name[-1] in "aeiouyäö" else "in"):
            zone for name, zone in places.items()}


@cache
def _zones_by_city() -> dict[str, str]:
    """Each IANA zone by its city, lower case (``helsinki`` → ``Europe/Helsinki``); a city
    in two zones' names keeps the first in sorted order."""
    zones: dict[str, str] = {}
    for name in sorted(available_timezones()):
        if "/" in name:
            zones.setdefault(name.rsplit("/", 1)[1].lower(), name)
    return zones


def zone_name(zone: tzinfo) -> str:
    return getattr(zone, "key", None) or str(zone)


def parse_start(words: list[str], default_zone: str, now: datetime
                ) -> tuple[datetime, tzinfo]:
    """Day, time and an optional zone; ValueError("schedule.bad_time"/"bad_zone") if wrong,
    :class:`NoTime` for a day alone ("tomorrow", «послезавтра», ``08.10``: a day and month
    alone is that date, not the time 08:10). Without a day the time is its next occurrence
    in the zone; a day is a date or a word such as ``tomorrow``, counted in the zone."""
    if (later := _from_now(words)) is not None:
        zone = parse_zone(default_zone)
        return (now + later).astimezone(zone).replace(second=0, microsecond=0), zone
    said = words
    words = _day_first(_meaningful(_dates(_days_ahead(_parts_apart(words)))))
    if not words:
        raise ValueError("schedule.bad_time")
    if not any(map(_clock, words)) and not any(map(_is_day, words)):
        raise _zone_alone(words, said)
    if refused := _no_time(words, said, default_zone, now):
        raise refused
    timed = 0 if _clock(words[0]) and not _is_day(words[0]) else 1  # "21.10 20:00": a day
    if len(words) <= timed or not (clock := _clock(words[timed])):
        raise ValueError("schedule.bad_time")
    rest = words[timed + 1:]
    zone = parse_zone(" ".join(rest) if rest else default_zone)  # a city may be two words
    if zone is None:
        raise _unread(rest, said)
    today = now.astimezone(zone).date()
    if timed == 0:
        start = datetime.combine(today, clock, tzinfo=zone)
        if start <= now:
            start = datetime.combine(today + timedelta(days=1), clock, tzinfo=zone)
        return start, zone
    day = _day(words[0].lower().replace("ё", "е"), today, clock, zone, now)
    return datetime.combine(day, clock, tzinfo=zone), zone


class NoTime(ValueError):
    """A day said without its time ("schedule.no_time"): the day as read, the time its
    word also reads as (``08.10``: 08:10; None for «завтра», ``8.10.``) and the zone said
    after it as said («по Москве», ``MSK``; None when none was)."""

    def __init__(self, day: date, clock: time | None, zone: str | None) -> None:
        super().__init__("schedule.no_time")
        self.day, self.clock, self.zone = day, clock, zone


class UnknownZone(ValueError):
    """A zone meant and not known ("schedule.bad_zone"): ``meant`` is the known IANA zone
    closest to an Area/City word said ("Europe/Mosow": Europe/Moscow), None when none is
    close or no such word was said."""

    def __init__(self, meant: str | None) -> None:
        super().__init__("schedule.bad_zone")
        self.meant = meant


class ZoneAlone(ValueError):
    """A zone said with neither day nor time ("schedule.zone_alone"): the zone as read and
    the words it was said in («по Москве»: Europe/Moscow)."""

    def __init__(self, zone: tzinfo, said: str) -> None:
        super().__init__("schedule.zone_alone")
        self.zone, self.said = zone, said


class PartsDisagree(ValueError):
    """An hour said with a part of the day it is not in ("tomorrow morning at 7 pm",
    «завтра утром в 7 вечера»): the two as said, in their order."""

    def __init__(self, first: str, second: str) -> None:
        super().__init__("schedule.parts_disagree")
        self.first, self.second = first, second


def _no_time(words: list[str], said: list[str], default_zone: str,
             now: datetime) -> ValueError | None:
    """The refusal of a day alone (``words`` read, ``said`` as typed), maybe with a zone
    after it ("08.10 MSK"; said after a part of the day, "08.10 in the evening MSK"): the
    day it is in that zone when any of it is still ahead; None when a time is said ("18.30"
    beside a day is one); when the words after the day are no zone, an unknown zone where one
    was meant ("tomorrow Europe/Mosow": :func:`_unread`), else None."""
    days = len(list(takewhile(_is_day, words)))
    if not days or any(map(_clock, words[1:])):
        return None
    zone = parse_zone(" ".join(words[days:]) or default_zone)
    if zone is None:
        unread = _unread(words[days:], said)
        return unread if isinstance(unread, UnknownZone) else None
    word = words[0]
    today = now.astimezone(zone).date()
    day = _day(word.lower().replace("ё", "е"), today, time(23, 59), zone, now)
    after = said[said.index(word) + 1:] if word in said and days < len(words) else []
    parts = [at for at, said_word in enumerate(after) if said_word.lower() in _DAY_PARTS]
    zone_said = after[parts[-1] + 1:] if parts else after  # «вечером по Москве»
    return NoTime(day, _clock(word), " ".join(zone_said) or None)


def _zone_alone(words: list[str], said: list[str]) -> ValueError:
    """The refusal of words with neither a day nor a time: a known zone alone
    ("Europe/Moscow", «по Москве») is :class:`ZoneAlone`, an unknown one meant
    ("Europe/Mosow") :class:`UnknownZone`, other words not read."""
    if (zone := parse_zone(" ".join(words))) is not None:
        return ZoneAlone(zone, " ".join(said))
    return _unread(words, said)


def _unread(rest: list[str], said: list[str]) -> ValueError:
    """The refusal of words left unread after the time: :class:`UnknownZone` when one was
    meant (named after «по» or before "time", or a last word that looks like one: "UTC+25",
    "Europe/Mosow", "Helsinky"), else a day and time not understood («завтра в 7 вчера»,
    "19:00 MSK please"; «в 7 вчера по Москве» too: the zone after the word is known)."""
    if any(parse_zone(" ".join(rest[start:])) for start in range(1, len(rest))):
        return ValueError("schedule.bad_time")
    if _ZONE_WORDS.intersection(word.lower() for word in said) or _ZONE_LIKE.match(rest[-1]):
        return UnknownZone(_closest_zone(rest[-1]))
    return ValueError("schedule.bad_time")


def _closest_zone(word: str) -> str | None:
    """The IANA zone closest to an Area/City ``word`` that is none ("Europe/Mosow":
    Europe/Moscow, "europe/helsiki": Europe/Helsinki), None for other words or when none is
    close."""
    if "/" not in word:
        return None
    names = {name.lower(): name for name in available_timezones()}
    close = difflib.get_close_matches(word.lower(), names, n=1, cutoff=_CLOSE_ZONE)
    return names[close[0]] if close else None


def _parts_apart(words: list[str]) -> list[str]:
    """Each word of :data:`_DAY_AND_PART` as its day and its part ("tonight": "today
    night")."""
    return " ".join(_DAY_AND_PART.get(word.lower(), word) for word in words).split()


def _days_ahead(words: list[str]) -> list[str]:
    """Each :data:`_DAYS_AHEAD` phrase as one day word (``days:2``)."""
    def day_word(found: re.Match[str]) -> str:
        count = next((n for n in found.group("en", "ru", "fi") if n and n.isdigit()), "1")
        return f"{_DAYS_WORD}{2 if found['two'] else int(count)}"
    return _DAYS_AHEAD.sub(day_word, " ".join(words)).split()


def _dates(words: list[str]) -> list[str]:
    """A day's number and a month's name beside it as one ``DD.MM.`` word ("3 October",
    "Oct 3rd", «3 октября»; its next occurrence, as ``3.10.``: the last dot keeps it from
    being read as the time 03:10 when no time is said); "noon" and «полдень» as the time
    they are."""
    said: list[str] = []
    for word in words:
        lower = word.lower().rstrip(",")
        month = _MONTHS.get(lower.rstrip("."))
        previous = _DAY_NUMBER.match(said[-1]) if said else None
        if month and previous:
            said[-1] = f"{previous[1]}.{month}."
        elif (day := _DAY_NUMBER.match(word)) and said and said[-1].startswith("month:"):
            said[-1] = f"{day[1]}.{said[-1].removeprefix('month:')}."
        else:
            said.append(f"month:{month}" if month else _CLOCK_WORDS.get(lower, word))
    return said  # a month left without its day stays unreadable: "bad time"


def _meaningful(words: list[str]) -> list[str]:
    """The words without :data:`_FILLERS`; ``9 pm`` (or «9 вечера», «вечером в 9») as one
    word, ``9pm``; a whole hour after «в» or "klo", or after a day that leaves no doubt
    (:func:`_hour_may_follow`), as ``19:00``; a dotted time after «в» or "klo" as a time
    (``klo 8.10``: ``8:10``); an hour said with two parts of the day that disagree is
    :class:`PartsDisagree`; a part of the day after a lone day and month is the part of a
    time still to come, not that word read as a time (:func:`_timed_before`)."""
    one_day = sum(map(_is_day, words)) == 1
    said: list[str] = []
    hour_next = parted = False  # parted: the last time has its part said before it
    filler = said_after = part = None  # said_after: the filler before the last word said
    timed = part_said = ""  # the last time and the last part of the day, as said
    for word in words:
        lower = word.lower()
        if lower in _FILLERS:
            hour_next, filler = lower in _BEFORE_HOUR, lower
            continue
        meridiem = _DAY_PARTS.get(lower) or (lower if _MERIDIEM.match(lower) else None)
        before = _timed_before(said, lower, one_day)
        if meridiem and before and _HOUR_AND_MINUTES.match(before):
            _in_its_part(said, meridiem, timed, word)
            timed = f"{timed} {word}"
        elif meridiem and (parted or lower in _DAY_PARTS) and before and _clock(before):
            _said_again(said[-1], meridiem, *((part_said, f"{timed} {word}") if parted
                                              else (timed, word)))
            parted = False  # "tonight at 11 pm", "at 9 pm in the evening": said again
        elif lower in _DAY_PARTS and not (before and _clock(before)):  # "illalla klo 7"
            part, part_said = _DAY_PARTS[lower], word
        else:
            whole_hour = word.isdecimal() and len(word) <= 2 and (
                hour_next or bool(part) or _hour_may_follow(said, said_after, int(word)))
            said.append(f"{word}:00" if whole_hour else _colon(word) if hour_next else word)
            said_after, parted, timed = filler, False, word
            if part and (_HOUR_AND_MINUTES.match(said[-1]) or _TWELVE_HOUR.match(said[-1])):
                if _TWELVE_HOUR.match(said[-1]):  # "tomorrow morning at 7pm"
                    _said_again(said[-1], part, part_said, word)
                _in_its_part(said, part, part_said, word)
                part, parted = None, True
        hour_next, filler = False, None
    return said


def _timed_before(said: list[str], word: str, one_day: bool) -> str | None:
    """The word said before ``word`` that ``word`` may be the part of the day of (its hour,
    or its time); None when there is none, or when it is the only day said, a day and month
    such as ``08.10``, and ``word`` a part of the day («08.10 вечером», "08.10 evening" is
    that date in the evening, its time not said; beside another day, "tomorrow 08.10
    evening", ``08.10`` is a time; so it is before a part that follows only an hour, «8.10
    вечера»: :data:`_OF_THE_HOUR`)."""
    if not said or (word in _DAY_PARTS and word not in _OF_THE_HOUR and one_day
                    and _is_day(said[-1])):
        return None
    return said[-1]


def _colon(word: str) -> str:
    """A time with a dot written with a colon (``8.10`` after "klo" is 08:10, not the 8th of
    October); any other word as it is."""
    return word.replace(".", ":") if _TIME.match(word) else word


def _in_its_part(said: list[str], part: str, first: str, second: str) -> None:
    """The hour said last (``said[-1]``) in its part of the day (:func:`_in_part`), tonight's
    hour after midnight as :func:`_into_the_night` reads it; :class:`PartsDisagree`
    (``first`` and ``second`` as said) when the hour is not in that part ("morning at
    23:00")."""
    if (read := _in_part(said[-1], part)) is None:
        raise PartsDisagree(first, second)
    said[-1] = read
    _into_the_night(said, part)


def _said_again(timed: str, meridiem: str, first: str, second: str) -> None:
    """A part of the day said again for a time that has one ("tonight at 11 pm", "tonight
    at 2 at night", "tonight at 2am"), refused as :class:`PartsDisagree` (``first`` and
    ``second`` as said) when it disagrees with it ("tomorrow morning at 7 pm")."""
    read = _in_part(re.sub(r"[ap]\.?m\.?$", "", timed, flags=re.IGNORECASE), meridiem)
    if read is None or _clock(read) != _clock(timed):
        raise PartsDisagree(first, second)


def _into_the_night(said: list[str], part: str) -> None:
    """Tonight's hour after midnight («сегодня в 2 ночи», «сегодня ночью в 1», "tonight at
    1", "tänään klo 2 yöllä") is this night's when said in the small hours (at 01:00
    «сегодня в 2 ночи» is in an hour, «сегодня в 1 ночи» at 01:30 has passed), else the
    coming night's (tomorrow's date): "today" before it is written :data:`_TONIGHT`. A
    later day is left as said: «завтра в 2 ночи» is tomorrow's date at 02:00 (said on a
    Monday evening: the coming night, Tuesday 02:00)."""
    if part != "night" or (clock := _clock(said[-1])) is None or clock.hour >= _NIGHT_ENDS:
        return
    for index in range(len(said) - 2, -1, -1):
        if _days_from_today(said[index].lower()) == 0:
            said[index] = _TONIGHT
            return


def _hour_may_follow(said: list[str], filler: str | None, number: int) -> bool:
    """Whether ``number`` (1-23) said next is an hour, the last word being a day that leaves
    no doubt: a day counted from today («tänään 19», "tomorrow 19", «послезавтра 18»), a
    Finnish weekday said as "on" it («lauantaina 14») or a Russian one after «в» («в субботу
    14», ``filler`` the word before it); after a weekday's name alone the number may be the
    month's day ("friday 19")."""
    if not said or not 1 <= number <= 23:
        return False
    day = said[-1].lower().replace("ё", "е")
    return (_days_from_today(day) is not None or day in _ESSIVE_WEEKDAYS
            or (day in _WEEKDAY and filler in _BEFORE_WEEKDAY_HOUR))


def _in_part(hour: str, part: str) -> str | None:
    """An hour said with its part of the day as a 12-hour time (``7`` in the evening:
    ``7pm``; at night: 11 is pm, 2 am); a 24-hour one (0, 13-23) stays as it is when it is
    in that part ("klo 19 illalla", "tonight at 23:00", "tonight at 00:30"), None when it
    is not ("morning at 23:00", «ночью в 15:00»)."""
    if _TWELVE_HOUR.match(hour):  # "tonight at 2am": am or pm said already
        return hour
    number = int(re.split(r"[:.]", hour)[0])
    if 1 <= number <= 12:
        if part == "night":
            part = "pm" if _NIGHT_ENDS <= number <= 11 else "am"
        return hour + part
    if part == "night":
        return hour if number < _NIGHT_ENDS or number >= 12 + _NIGHT_ENDS else None
    return hour if (number >= 12) == part.startswith("p") else None


def _from_now(words: list[str]) -> timedelta | None:
    """How long from now "in 2 hours", «через полтора часа», "2 päivän päästä" say; None
    when the words are not such a phrase."""
    said = " ".join(words).lower()
    for pattern in _FROM_NOW:
        if found := pattern.match(said):
            break
    else:
        return None
    count, unit = found[1], found[2]
    number = _HALVES.get(count or "", 1.0)
    if count and count[0].isdigit():
        number = float(count.replace(",", "."))
    minutes = number * next((m for prefix, m in _UNIT_MINUTES if unit.startswith(prefix)), 60)
    if minutes > _FARTHEST_FROM_NOW / timedelta(minutes=1):  # past any calendar (11,000 years)
        raise ValueError("schedule.bad_time")
    return timedelta(minutes=round(minutes))


def _day_first(words: list[str]) -> list[str]:
    """The day before the time when it was said after it ("20:00 tomorrow", "18.30 21.10",
    "08.10 tomorrow"); a first word that may itself be a day stays first when a time follows
    ("21.10 20:00")."""
    if len(words) > 1 and _clock(words[0]) and _is_day(words[1]) \
            and not (_is_day(words[0]) and _clock(words[1])):
        return [words[1], words[0], *words[2:]]
    return words


def _is_day(word: str) -> bool:
    lower = word.lower().replace("ё", "е")
    if _days_from_today(lower) is not None or lower in _WEEKDAY or lower == _TONIGHT:
        return True
    if match := _DAY_MONTH.match(word):
        return 1 <= int(match[1]) <= 31 and 1 <= int(match[2]) <= 12
    return any(_parses(word, fmt) for fmt in _DATE_FORMATS)


def _parses(word: str, fmt: str) -> bool:
    try:
        datetime.strptime(word, fmt)
    except ValueError:
        return False
    return True


def _clock(word: str) -> time | None:
    if match := _TIME.match(word):
        hour, minute = int(match[1]), int(match[2])
    elif match := _TWELVE_HOUR.match(word):
        hour, minute = int(match[1]), int(match[2] or 0)
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if match[3].lower() == "p" else 0)
    else:
        return None
    return time(hour, minute) if hour <= 23 and minute <= 59 else None


def _days_from_today(word: str) -> int | None:
    """How many days from today a day word says («завтра», ``days:2``); None for others."""
    if word.startswith(_DAYS_WORD) and word[len(_DAYS_WORD):].isdecimal():
        return int(word[len(_DAYS_WORD):])
    return _DAY_WORDS.get(word)


def _day(word: str, today: date, clock: time, zone: tzinfo, now: datetime) -> date:
    if word == _TONIGHT:  # midnight («сегодня в 12 ночи») ends today: tomorrow's date
        this_night = clock.hour > 0 and now.astimezone(zone).hour < _NIGHT_ENDS
        return today if this_night else today + timedelta(days=1)
    if (ahead := _days_from_today(word)) is not None:
        return today + timedelta(days=ahead)
    if word in _WEEKDAY:  # the next such day whose time is still ahead
        day = today + timedelta(days=(_WEEKDAY[word] - today.weekday()) % 7)
        return day if datetime.combine(day, clock, tzinfo=zone) > now \
            else day + timedelta(days=7)
    if match := _DAY_MONTH.match(word):  # 21.10: this year's, or next year's once passed
        try:
            day = date(today.year, int(match[2]), int(match[1]))
        except ValueError:
            raise ValueError("schedule.bad_time") from None
        if datetime.combine(day, clock, tzinfo=zone) > now:
            return day
        try:
            return day.replace(year=today.year + 1)
        except ValueError:  # 29.02 with no leap day next year
            raise ValueError("schedule.bad_time") from None
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(word, fmt).date()
        except ValueError:
            continue
    raise ValueError("schedule.bad_time")
