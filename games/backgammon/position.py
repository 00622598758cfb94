"""A backgammon position and its GNU Backgammon Position ID.

A :class:`Position` is always seen by the player on roll. Each side is a tuple of 25 counts in
that side's own numbering: index 0–23 are its points 1–24 (its home board is 1–6) and index 24
is its bar. Checkers not on the board have been borne off (15 minus the checkers shown).

The Position ID is the 14-character base64 form of GNU Backgammon's 80-bit key: for each side,
for each of its points 1–24 and then its bar, as many 1 bits as checkers followed by a 0 bit,
packed little-endian. GNU Backgammon's code (and its Python build ``gnubg-nn``) writes the
player who is NOT on roll first and the player on roll second, so this module does the same;
``docs/backgammon.md`` explains why this differs from the wording of GNU Backgammon's manual.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from functools import lru_cache

from games.common.errors import IllegalAction

CHECKERS = 15
BAR = 24
SLOTS = 25
_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_BASE64_CHARACTERS = frozenset(_BASE64)
_NONZERO = bytes([0] + [1] * 255)
_START_SIDE = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


@dataclass(frozen=True, slots=True)
class Position:
    """The board seen by the player on roll (``player``) against ``opponent``."""

    player: tuple[int, ...]
    opponent: tuple[int, ...]

    @classmethod
    def start(cls) -> Position:
        return cls(_START_SIDE, _START_SIDE)

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """Decode a Position ID; anything GNU Backgammon would not write is ``bad_position_id``."""
        return _decode(position_id)

    @property
    def id(self) -> str:
        return _encode(self.player, self.opponent)

    def swapped(self) -> Position:
        """The same board with the other player on roll."""
        return Position(self.opponent, self.player)

    @property
    def pips(self) -> tuple[int, int]:
        """Pip counts (player on roll, opponent): the bar counts 25."""
        return _pips(self.player), _pips(self.opponent)

    @property
    def borne_off(self) -> tuple[int, int]:
        return CHECKERS - sum(self.player), CHECKERS - sum(self.opponent)

    def __str__(self) -> str:
        return self.id

    def __reduce__(self) -> tuple[type[Position], tuple[tuple[int, ...], tuple[int, ...]]]:
        """Pickled as its two sides (a board picture's scene goes to a drawing process): a
        slotted dataclass's own state is gathered and set again field by field in Python."""
        return Position, (self.player, self.opponent)


def _pips(side: tuple[int, ...]) -> int:
    return sum((index + 1) * count for index, count in enumerate(side))


def _encode(player: tuple[int, ...], opponent: tuple[int, ...]) -> str:
    key = 0
    bit = 0
    for side in (opponent, player):
        for count in side:
            if count:
                key |= ((1 << count) - 1) << bit
                bit += count
            bit += 1
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii")[:14]


@lru_cache(maxsize=4096)
def _decode(position_id: str) -> Position:
    if not isinstance(position_id, str) or len(position_id) != 14:
        raise IllegalAction("bad_position_id", position_id=position_id, reason="length")
    if not _BASE64_CHARACTERS.issuperset(position_id):
        raise IllegalAction("bad_position_id", position_id=position_id, reason="characters")
    raw = binascii.a2b_base64(position_id + "==")
    key = int.from_bytes(raw, "little")
    runs = format(key, "080b")[::-1].split("0")
    # 50 zero bits end the 50 slots; after them only padding zeros may follow, and the
    # last character's four bits beyond the 80 must be zero too.
    if len(runs) < 2 * SLOTS + 1 or any(runs[2 * SLOTS:]) or _BASE64.index(position_id[13]) & 15:
        raise IllegalAction("bad_position_id", position_id=position_id, reason="bits")
    counts = list(map(len, runs[: 2 * SLOTS]))
    position = Position(player=tuple(counts[SLOTS:]), opponent=tuple(counts[:SLOTS]))
    _check(position, position_id)
    return position


def _occupied(points: tuple[int, ...]) -> int:
    """One byte per point, 1 where there are checkers."""
    return int.from_bytes(bytes(points).translate(_NONZERO), "little")


def _check(position: Position, position_id: str) -> None:
    """Refuse boards GNU Backgammon never writes: too many checkers, a shared point."""
    player, opponent = position.player, position.opponent
    if sum(player) > CHECKERS or sum(opponent) > CHECKERS:
        raise IllegalAction("bad_position_id", position_id=position_id, reason="checkers")
    if _occupied(player[:24]) & _occupied(opponent[23::-1]):
        raise IllegalAction("bad_position_id", position_id=position_id, reason="shared_point")
