from __future__ import annotations

import pytest

from games.armchair_cricket import CARDS, DEFAULT_RUNS_TABLE, delivery_outcome
from games.armchair_cricket.delivery import check_runs_table, runs_for_excess
from games.common.errors import IllegalAction


def test_the_seed_example() -> None:
    assert delivery_outcome("BAT 5", "BAT 8") == ("runs", 1)
    assert delivery_outcome("BAT 5", "BALL 9") == ("safe", 0)
    assert delivery_outcome("BAT 5", "PADS 3") == ("wicket", 0)


@pytest.mark.parametrize(
    ("bowled", "played", "expected"),
    [
        ("BAT 5", "BAT 5", ("safe", 0)),  # same suit, equal
        ("BAT 5", "BAT 2", ("safe", 0)),  # same suit, lower
        ("BAT 5", "BALL 5", ("safe", 0)),  # other suit, equal
        ("BAT 5", "BALL 4", ("wicket", 0)),  # other suit, lower
        ("GLOVES 11", "GLOVES 1", ("safe", 0)),
        ("GLOVES 11", "PADS 11", ("safe", 0)),
        ("GLOVES 11", "PADS 10", ("wicket", 0)),
        ("STUMPS 1", "STUMPS 11", ("runs", 6)),
        ("стойки 1", "с11", ("runs", 6)),
    ],
)
def test_outcome_rules(bowled: str, played: str, expected: tuple[str, int]) -> None:
    assert delivery_outcome(bowled, played) == expected


@pytest.mark.parametrize(
    ("excess", "runs"),
    [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (7, 3), (8, 4), (9, 4), (10, 6)],
)
def test_default_runs_table(excess: int, runs: int) -> None:
    assert runs_for_excess(excess) == runs
    assert delivery_outcome("BALL 1", f"BALL {1 + excess}") == ("runs", runs)


def test_every_pair_of_faces_follows_the_rules() -> None:
    for bowled in CARDS:
        for played in CARDS:
            result, runs = delivery_outcome(str(bowled), str(played))
            if played.suit == bowled.suit and played.value > bowled.value:
                assert (result, runs) == ("runs", runs_for_excess(played.value - bowled.value))
            elif played.suit == bowled.suit or played.value >= bowled.value:
                assert (result, runs) == ("safe", 0)
            else:
                assert (result, runs) == ("wicket", 0)


def test_a_table_passed_in_is_used() -> None:
    flat = ((10, 1),)
    assert delivery_outcome("PADS 1", "PADS 11", flat) == ("runs", 1)
    linear = tuple((excess, excess) for excess in range(1, 11))
    assert delivery_outcome("PADS 1", "PADS 8", linear) == ("runs", 7)


@pytest.mark.parametrize(
    "table",
    [(), ((9, 4),), ((3, 1), (3, 2), (10, 6)), ((3, 2), (10, 1)), ((0, 1), (10, 6)), ((10, 0),)],
)
def test_unusable_tables_are_refused(table: tuple[tuple[int, int], ...]) -> None:
    with pytest.raises(ValueError):
        check_runs_table(table)


def test_default_table_is_valid() -> None:
    assert check_runs_table(DEFAULT_RUNS_TABLE) == DEFAULT_RUNS_TABLE


def test_bad_card_text_is_refused() -> None:
    with pytest.raises(IllegalAction):
        delivery_outcome("BAT 5", "BAT 12")
