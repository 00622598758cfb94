"""The Outcome value: consistent fields, a JSON form, immutable."""

import dataclasses
import json

import pytest

from games.common.outcome import Outcome


def test_a_win_names_its_winner() -> None:
    outcome = Outcome.win(1, (2, 3), "played")
    assert (outcome.winner, outcome.result, outcome.score, outcome.how) == (
        1, "win", (2, 3), "played")


def test_tie_and_draw_are_different_outcomes() -> None:
    tie = Outcome(None, "tie", (40, 40), "played")
    draw = Outcome(None, "draw", (2, 2), "agreed_draw")
    assert tie != draw
    assert tie.result == "tie" and draw.result == "draw"


@pytest.mark.parametrize(
    ("winner", "result", "score", "how"),
    [
        (None, "win", (3, 0), "played"),  # a win without a winner
        (0, "tie", (1, 1), "played"),  # a tie with a winner
        (1, "draw", (2, 2), "agreed_draw"),
        (2, "win", (3, 0), "played"),  # not a seat
        (True, "win", (3, 0), "played"),  # bool is not a seat
        (0, "lost", (3, 0), "played"),  # unknown result
        (0, "win", (3,), "played"),  # score is a pair
        (0, "win", (3, "0"), "played"),
        (0, "win", (3, 0), ""),  # how is required
    ],
)
def test_inconsistent_outcomes_are_refused(winner, result, score, how) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        Outcome(winner, result, score, how)


def test_to_dict_is_json() -> None:
    data = Outcome(None, "draw", (2, 2), "agreed_draw").to_dict()
    assert data == {"winner": None, "result": "draw", "score": [2, 2], "how": "agreed_draw"}
    assert json.loads(json.dumps(data)) == data


def test_frozen() -> None:
    outcome = Outcome.win(0, (3, 1), "played")
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.winner = 1  # type: ignore[misc]
