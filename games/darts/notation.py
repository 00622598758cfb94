"""Dart notation shared by every darts game.

Accepted (case-insensitive, spaces and hyphens ignored): ``S20``/``D18``/``T15`` with
sectors 1-20, ``25`` (also ``S25``, ``BULL``), ``50`` (also ``D25``, ``DBULL``) and a miss
(``MISS``, ``M``, ``0``). Russian players type С/Д/Т for S/D/T (``ДБУЛЛ`` the bull's
centre), «мимо»/«промах»/«М» for a miss; the Finnish seed's «ohi» is a miss too, «bulli»
the bull and «tuplabulli» its centre; ``bullseye``, ``inner bull`` and «внутренний булл»
are the centre, ``outer bull`` and «внешний булл» the bull's outer ring. The ring may be a
word or a count of the sector: ``tripla 20``, ``tupla 20``, ``triple 20``, ``treble 20``,
``double 20``, «утроение 20», «удвоение 20», «трипл 20», «требл 20», «дабл 16», «дубль 16»,
«тройное 20», «двойной булл», ``3x20``, ``3 x 20``, ``2x20``. Words that also name a number
(«тройка», «двойка»: the sectors 3 and 2) are no ring.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from games.common.errors import IllegalAction

BULL = 25
NUMBERED = range(1, 21)

_RING_WORDS = {
    "SINGLE": 1, "DOUBLE": 2, "TRIPLE": 3, "TREBLE": 3, "TUPLA": 2, "TRIPLA": 3,
    "СИНГЛ": 1, "ДАБЛ": 2, "ДУБЛЬ": 2, "ТРИПЛ": 3, "ТРЕБЛ": 3, "УДВОЕНИЕ": 2, "УТРОЕНИЕ": 3,
    **dict.fromkeys(("ДВОЙНОЙ", "ДВОЙНОЕ", "ДВОЙНАЯ", "УДВОЕННОЕ", "УДВОЕННАЯ"), 2),
    **dict.fromkeys(("ТРОЙНОЙ", "ТРОЙНОЕ", "ТРОЙНАЯ", "УТРОЕННОЕ", "УТРОЕННАЯ"), 3)}
"""A ring named by a word (upper case): English, Finnish, and the Russian players' own
words, the adjectives in each gender (the sector is «сектор» or «двадцатка»)."""
_RINGS = {"": 1, "S": 1, "D": 2, "T": 3, "С": 1, "Д": 2, "Т": 3, "1X": 1, "2X": 2, "3X": 3,
          **_RING_WORDS}
"""A ring: its letter (Latin or Cyrillic), a word for it or a count of the sector; none is
the single ring, for the bull alone."""
_TIMES = str.maketrans({"Х": "X", "×": "X"})
_MISS_WORDS = frozenset({"MISS", "M", "0", "МИМО", "ПРОМАХ", "М", "OHI", "HUTI"})
_BULL_WORDS = "BULLI?|БУЛЛ"
"""The bull as a word: alone the outer bull, after a ring (``DBULL``, ``tuplabulli``) that
ring of it."""
_OUTER_BULL = frozenset({"25", "SB", "СБ", "OUTERBULL", "ВНЕШНИЙБУЛЛ"})
_INNER_BULL = frozenset({"50", "DB", "ДБ", "BULLSEYE", "DOUBLEBULLSEYE", "INNERBULL",
                         "ВНУТРЕННИЙБУЛЛ"})
_NAMED_DARTS = _MISS_WORDS | _OUTER_BULL | _INNER_BULL
"""Darts written as a word or a number instead of a ring and a sector (upper case)."""
_SEPARATORS = re.compile(r"[\s,;]+")
_IGNORED = re.compile(r"[\s\-_'’]")
"""What parts a line's words, and what a word's notation ignores."""
_SECTOR_DART = re.compile(rf"(\D*?|[123]X)(\d{{1,2}}|{_BULL_WORDS})")


@dataclass(frozen=True, slots=True)
class Dart:
    """One dart: ``multiplier`` 1-3 on ``sector`` 1-20, 1-2 on the bull (25), 0/0 a miss."""

    multiplier: int
    sector: int

    def __post_init__(self) -> None:
        if (self.multiplier, self.sector) == (0, 0):
            return
        if self.sector == BULL:
            if self.multiplier == 3:
                raise IllegalAction("no_t25")
            if self.multiplier in (1, 2):
                return
        elif self.sector in NUMBERED and self.multiplier in (1, 2, 3):
            return
        raise IllegalAction("bad_notation", text=f"{self.multiplier}x{self.sector}")

    @property
    def is_miss(self) -> bool:
        return self.multiplier == 0

    @property
    def is_bull(self) -> bool:
        return self.sector == BULL

    @property
    def points(self) -> int:
        """Face value: T20 is 60, 25 is 25, 50 is 50, a miss 0."""
        return self.multiplier * self.sector

    def __str__(self) -> str:
        if self.is_miss:
            return "MISS"
        if self.is_bull:
            return str(self.points)
        return "SDT"[self.multiplier - 1] + str(self.sector)


MISS = Dart(0, 0)


def parse_dart(value: str | Dart, sectors: Collection[int] | None = None) -> Dart:
    """Read one dart; ``sectors`` (25 standing for the bull) limits what the game accepts.

    A miss is always accepted. A hit outside ``sectors`` is refused with
    ``sector_not_in_play`` and the hint to enter a miss instead.
    """
    dart = value if isinstance(value, Dart) else _read(value)
    if sectors is not None and not dart.is_miss and dart.sector not in sectors:
        raise IllegalAction("sector_not_in_play", sector=dart.sector, hint=str(MISS))
    return dart


def split_line(text: str) -> list[str]:
    """A typed line's words: commas and semicolons part them too (``T20,T19,T18``), and a
    dart written in several words is one (``T 18``, ``tripla 20``, ``tupla bulli``, ``3 x
    20``, ``outer bull``, «двойной булл»)."""
    words: list[str] = []
    for word in (w.strip(".!") for w in _SEPARATORS.split(text)):
        if words and _continues(words[-1], word):
            words[-1] += " " + word
        elif word:
            words.append(word)
    return words


def _continues(begun: str, word: str) -> bool:
    """Whether ``word`` goes on with the dart ``begun`` started: a ring and its sector, a
    count and its ``x`` (``3 x``), the words of a bull (``outer bull``, ``double bull's
    eye``)."""
    if written_as_dart(begun):
        return False
    together = _normal(begun + word)
    return (together.translate(_TIMES) in _RINGS or written_as_dart(together)
            or any(name.startswith(together) for name in _NAMED_DARTS if len(name) > 3))


@lru_cache(maxsize=1024)
def written_as_dart(word: str) -> bool:
    """Whether ``word`` is written as a dart (its value is checked when it is read). Cached:
    every word of a darts group's text is asked when the line is split and again when read."""
    normal = _normal(word)
    return normal in _NAMED_DARTS or _ring_and_sector(normal) is not None


def darts_word(word: str) -> bool:
    """Whether ``word`` is of the darts' own words, a ring's or the bull's (``double``,
    «трипл», «булл»), though not a dart as written: a line with it is meant as darts."""
    normal = _normal(word)
    return normal in _RING_WORDS or any(bull in normal for bull in ("BULL", "БУЛЛ"))


def _normal(text: str) -> str:
    return _IGNORED.sub("", text).upper()


def _ring_and_sector(word: str) -> tuple[int, int] | None:
    found = _SECTOR_DART.fullmatch(word.translate(_TIMES))
    if found is None or found[1] not in _RINGS or not (found[1] or found[2].isalpha()):
        return None  # no ring, or a number with no ring (a bare 20 is no dart)
    return _RINGS[found[1]], BULL if found[2].isalpha() else int(found[2])


def _read(text: object) -> Dart:
    if not isinstance(text, str):
        raise IllegalAction("bad_notation", text=repr(text))
    return _read_text(text)


@lru_cache(maxsize=1024)
def _read_text(text: str) -> Dart:
    """A dart's notation read once (a Dart is immutable): each dart of a visit is read when
    it is typed, when it is applied and again whenever the match is replayed."""
    word = _normal(text)
    if word in _MISS_WORDS:
        return MISS
    if word in _OUTER_BULL:
        return Dart(1, BULL)
    if word in _INNER_BULL:
        return Dart(2, BULL)
    ring_and_sector = _ring_and_sector(word)
    if ring_and_sector is None or ring_and_sector[1] not in (*NUMBERED, BULL):
        raise IllegalAction("bad_notation", text=text)
    return Dart(*ring_and_sector)  # T25 is refused by Dart itself
