"""Dart notation shared by every darts game.

Accepted (case-insensitive, spaces and hyphens ignored): ``S20``/``D18``/``T15`` with
sectors 1-20, ``25`` (also ``S25``, ``BULL``), ``50`` (also ``D25``, ``DBULL``) and a miss
(``MISS``, ``M``, ``0``). Russian players type С/Д/Т for S/D/T (``ДБУЛЛ`` the bull's
centre), «мимо»/«промах»/«М» for a miss; the Finnish seed's «ohi» is a miss too.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from games.common.errors import IllegalAction

BULL = 25
NUMBERED = range(1, 21)

_PREFIX = {"S": 1, "D": 2, "T": 3}
_CYRILLIC_PREFIX = str.maketrans({"С": "S", "Д": "D", "Т": "T"})
_MISS_WORDS = frozenset({"MISS", "M", "0", "МИМО", "ПРОМАХ", "М", "OHI", "HUTI"})
_OUTER_BULL = frozenset({"25", "S25", "BULL", "SBULL", "SB", "БУЛЛ", "СБУЛЛ", "СБ", "BULLI"})
_INNER_BULL = frozenset({"50", "D25", "DBULL", "DB", "ДБУЛЛ", "ДБ", "Д25"})
NAMED_DARTS = _MISS_WORDS | _OUTER_BULL | _INNER_BULL
"""Darts written as a word or a number instead of a ring and a sector (upper case)."""
_SECTOR_DART = re.compile(r"([SDT])(\d{1,2})")


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


def _read(text: object) -> Dart:
    if not isinstance(text, str):
        raise IllegalAction("bad_notation", text=repr(text))
    word = re.sub(r"[\s\-_]", "", text).upper()
    if word in _MISS_WORDS:
        return MISS
    if word in _OUTER_BULL:
        return Dart(1, BULL)
    if word in _INNER_BULL:
        return Dart(2, BULL)
    found = _SECTOR_DART.fullmatch(word[:1].translate(_CYRILLIC_PREFIX) + word[1:])
    if found is None:
        raise IllegalAction("bad_notation", text=text)
    multiplier, sector = _PREFIX[found[1]], int(found[2])
    if sector != BULL and sector not in NUMBERED:
        raise IllegalAction("bad_notation", text=text)
    return Dart(multiplier, sector)  # T25 is refused by Dart itself
