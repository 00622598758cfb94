"""Seed and SPEC examples for the numbers and combinations."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from games.common.errors import IllegalAction
from games.dice_cup import COMBINATIONS, combination, drop_number, order_number, rank


def test_order_number_seed_example() -> None:
    assert order_number((1, 4, 2), (3, 1, 2)) == 214


def test_order_number_identity_and_lists() -> None:
    assert order_number([6, 5, 4], [1, 2, 3]) == 654
    assert order_number((6, 5, 4), (3, 2, 1)) == 456


def test_drop_number_seed_example() -> None:
    assert drop_number((1, 2, 3, 4), 3) == 421


def test_drop_number_sorts_the_rest_descending() -> None:
    assert drop_number((6, 1, 6, 5), 2) == 665
    assert drop_number((2, 2, 2, 2), 1) == 222


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((4, 4, 4), ("three", 5)),
        ((2, 3, 4), ("straight", 4)),
        ((4, 2, 3), ("straight", 4)),
        ((6, 4, 5), ("straight", 4)),
        ((3, 3, 5), ("full_house", 3)),
        ((5, 3, 3), ("full_house", 3)),
        ((5, 5, 2), ("pair", 2)),
        ((2, 5, 5), ("pair", 2)),
        ((6, 3, 1), ("max", 1)),
        ((1, 3, 5), ("nothing", 0)),
        ((6, 6, 1), ("pair", 2)),
        ((1, 1, 6), ("full_house", 3)),
    ],
)
def test_combinations(dice: tuple[int, int, int], expected: tuple[str, int]) -> None:
    assert combination(dice) == expected


def test_full_house_split_is_a_setting() -> None:
    assert combination((3, 3, 5), full_house="lower") == ("pair", 2)
    assert combination((5, 5, 2), full_house="lower") == ("full_house", 3)
    with pytest.raises(ValueError):
        combination((5, 5, 2), full_house="any")  # type: ignore[arg-type]


def test_every_throw_has_exactly_one_combination() -> None:
    seen = {combination(d)[0] for d in itertools.product(range(1, 7), repeat=3)}
    assert seen == set(COMBINATIONS)
    assert [rank(name) for name in COMBINATIONS] == list(range(6))


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: order_number((1, 4), (1, 2, 3)), "bad_dice"),
        (lambda: order_number((1, 4, 7), (1, 2, 3)), "bad_dice"),
        (lambda: order_number((1, 4, 2), (1, 1, 2)), "bad_order"),
        (lambda: order_number((1, 4, 2), (0, 1, 2)), "bad_order"),
        (lambda: order_number((1, 4, 2), "312"), "bad_order"),
        (lambda: order_number((1, 4, 2), 312), "bad_order"),
        (lambda: drop_number((1, 2, 3, 4), 5), "bad_drop"),
        (lambda: drop_number((1, 2, 3, 4), 0), "bad_drop"),
        (lambda: drop_number((1, 2, 3), 1), "bad_dice"),
        (lambda: combination((0, 1, 2)), "bad_dice"),
        (lambda: combination((True, 1, 2)), "bad_dice"),
        (lambda: combination(5), "bad_dice"),
    ],
)
def test_bad_input_is_refused(call: Callable[[], object], code: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        call()
    assert caught.value.code == code
