"""One int per play result, so that recording a play costs no tuple building.

A key holds a byte per slot of the mover's board (``board[1..24]`` its points, ``board[25]``
its bar; built from ``bytes`` in one call) and, above them, the mask of the mover's points
where an opponent blot was hit. Two plays with the same key lead to the same position.
"""

from __future__ import annotations

Move = tuple[int, int, bool]  # (source, target, hit): 25 is the bar, target 0 is "off"

BAR = 25
HITS_SHIFT = 8 * 26
WEIGHT = [0] + [1 << (8 * slot) for slot in range(1, 26)]  # one checker on a slot; 0: off


def board_code(player: tuple[int, ...]) -> int:
    """The key part of the mover's 25 slots (index 0–24 as in :class:`Position`)."""
    return int.from_bytes(bytes(player), "little") << 8


def play_key(player: tuple[int, ...], hits: int) -> int:
    """The key of a play's result: the mover's 25 slots (as :func:`board_code`) and ``hits``,
    the mask of the mover's points (bit ``n`` for point ``n``) where an opponent blot was
    hit."""
    return board_code(player) | hits << HITS_SHIFT


def decode_key(key: int) -> tuple[tuple[int, ...], int]:
    """(mover's 25 slots, hit mask) of a play key."""
    side = tuple(((key >> 8) & ((1 << 200) - 1)).to_bytes(25, "little"))
    return side, key >> HITS_SHIFT
