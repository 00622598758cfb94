"""How dice become a score: the order and drop numbers and the final's combinations."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from games.common.errors import IllegalAction

from .actions import is_int

FullHouseRule = Literal["higher", "lower"]

# Best first; the index is the rank used to compare two hands.
COMBINATIONS = ("three", "straight", "full_house", "pair", "max", "nothing")
MULTIPLIERS = {"three": 5, "straight": 4, "full_house": 3, "pair": 2, "max": 1, "nothing": 0}


def check_dice(dice: Iterable[Any], count: int) -> tuple[int, ...]:
    """``count`` die values 1–6 as a tuple, else ``bad_dice``."""
    try:
        values = tuple(dice)
    except TypeError:
        raise IllegalAction("bad_dice") from None
    if len(values) != count or not all(is_int(v) and 1 <= v <= 6 for v in values):
        raise IllegalAction("bad_dice", dice=values)
    return values


def check_order(order: Any) -> tuple[int, int, int]:
    """A permutation of throw positions (1, 2, 3), e.g. ``[3, 1, 2]``, else ``bad_order``.

    Text such as ``"312"`` is refused: parsing what players type is the bot's job.
    """
    try:
        positions = tuple(order)
    except TypeError:
        raise IllegalAction("bad_order", order=order) from None
    if not all(is_int(p) for p in positions) or sorted(positions) != [1, 2, 3]:
        raise IllegalAction("bad_order", order=order)
    return positions[0], positions[1], positions[2]


def check_drop(drop: Any) -> int:
    """A throw position 1–4, else ``bad_drop``."""
    if not is_int(drop) or not 1 <= drop <= 4:
        raise IllegalAction("bad_drop", drop=drop)
    return drop


def _digits(values: Iterable[int]) -> int:
    number = 0
    for value in values:
        number = number * 10 + value
    return number


def order_number(dice: Iterable[int], order: Iterable[int]) -> int:
    """The number read from three dice taken in the declared throw order.

    >>> order_number((1, 4, 2), (3, 1, 2))
    214
    """
    values = check_dice(dice, 3)
    positions = check_order(order)
    return _digits(values[p - 1] for p in positions)


def drop_number(dice: Iterable[int], drop: int) -> int:
    """The largest number from four dice after removing the die thrown at ``drop``.

    >>> drop_number((1, 2, 3, 4), 3)
    421
    """
    values = list(check_dice(dice, 4))
    del values[check_drop(drop) - 1]
    return _digits(sorted(values, reverse=True))


def combination(dice: Iterable[int], full_house: FullHouseRule = "higher") -> tuple[str, int]:
    """The final's combination of three dice and its multiplier.

    The seed describes "full house" and "pair" with the same words (a pair and another die);
    its examples (3-3-5 full house, 5-5-2 pair) split them by the odd die being higher or
    lower than the pair. ``full_house="lower"`` swaps that split for organisers who read it
    the other way.
    """
    if full_house not in ("higher", "lower"):
        raise ValueError(f"full_house must be 'higher' or 'lower', not {full_house!r}")
    low, mid, high = sorted(check_dice(dice, 3))
    if low == high:
        name = "three"
    elif mid == low + 1 and high == mid + 1:
        name = "straight"
    elif low == mid or mid == high:
        odd_die_higher = low == mid
        name = "full_house" if odd_die_higher == (full_house == "higher") else "pair"
    elif high == 6:
        name = "max"
    else:
        name = "nothing"
    return name, MULTIPLIERS[name]


def rank(name: str) -> int:
    """0 for the best combination ("three") up to 5 for "nothing"."""
    return COMBINATIONS.index(name)
