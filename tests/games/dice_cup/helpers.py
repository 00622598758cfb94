"""Shared test helpers: state snapshots and a random legal player for every format."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.common.errors import IllegalAction
from games.dice_cup import (
    BettingFinal,
    DropMatch,
    GroupMatch,
    HPMatch,
    OrderMatch,
    ThirdPlaceChoice,
)
from games.dice_cup.hp import CHOICES


def snapshot(obj: Any) -> Any:
    """A plain, comparable copy of an engine's whole internal state."""
    if isinstance(obj, list | tuple):
        return [snapshot(item) for item in obj]
    if isinstance(obj, dict):
        return {key: snapshot(value) for key, value in obj.items()}
    if hasattr(obj, "__dict__"):
        return {"__class__": type(obj).__name__, **snapshot(vars(obj))}
    return obj


def assert_illegal(match: Any, action: Any, code: str) -> IllegalAction:
    """The action is refused with ``code`` and the state does not move."""
    before = snapshot(match)
    with pytest.raises(IllegalAction) as caught:
        match.apply(action)
    assert caught.value.code == code
    assert snapshot(match) == before
    return caught.value


def roll(match: Any, player: int, *values: int) -> None:
    for value in values:
        match.apply({"type": "roll", "player": player, "value": value})


def play_round(match: GroupMatch, first: int, second: int) -> None:
    """Both players' single dice: ``first`` for the round's first roller."""
    roller = match.first_roller
    roll(match, roller, first)
    roll(match, 1 - roller, second)


def legal_action(match: Any, rng: random.Random) -> dict[str, Any]:
    """One random action the match accepts now, built from ``expecting``."""
    player, kind = rng.choice(match.expecting)
    action: dict[str, Any] = {"type": kind, "player": player}
    if kind == "roll":
        action["value"] = rng.randint(1, 6)
    elif kind == "declare" and isinstance(match, OrderMatch):
        action["order"] = rng.sample([1, 2, 3], 3)
    elif kind == "declare" and isinstance(match, DropMatch):
        action["drop"] = rng.randint(1, 4)
    elif kind == "choose":
        action["choice"] = rng.choice(CHOICES)
    elif kind == "draw_vote":
        action["vote"] = rng.choice(["draw", "reroll"])
    elif kind == "try":
        action["success"] = rng.random() < 0.5
    elif kind == "pick":
        action["format"] = rng.choice(match.available)
    elif kind == "bet":
        bet = rng.choice(match.legal_bets)
        action["action"] = bet
        if bet == "raise":
            low, high = match.raise_limits
            action["amount"] = rng.randint(low, min(high, low + rng.choice([0, 1, 3, 20])))
    return action


FUZZ_VALUES: list[Any] = [None, -1, 0, 1, 2, 3, 4, 5, 6, 7, True, "1", [3, 1, 2], [1, 1, 2]]
FUZZ_TYPES = ["roll", "declare", "choose", "draw_vote", "bet", "try", "pick", "nope", None]


def fuzz_action(rng: random.Random) -> Any:
    """A random, usually illegal, action (wrong player, type, field or value)."""
    if rng.random() < 0.05:
        return rng.choice([None, [], "roll", 5])
    return {
        "type": rng.choice(FUZZ_TYPES),
        "player": rng.choice([0, 1, 0, 1, 2, -1, None, True, "0"]),
        "value": rng.choice(FUZZ_VALUES),
        "order": rng.choice(FUZZ_VALUES),
        "drop": rng.choice(FUZZ_VALUES),
        "choice": rng.choice(["attack", "defend", "atk", None]),
        "vote": rng.choice(["draw", "reroll", "maybe"]),
        "action": rng.choice(["check", "call", "raise", "fold", "allin", "bluff"]),
        "amount": rng.choice(FUZZ_VALUES + [100]),
        "success": rng.choice([True, False, 1, None]),
        "format": rng.choice(["group", "order", "drop", "hp", "betting", "chess"]),
    }


MATCH_FACTORIES = {
    "group": GroupMatch,
    "group_no_draw": lambda: GroupMatch(allow_draw=False),
    "order": OrderMatch,
    "drop": DropMatch,
    "hp": HPMatch,
    "betting": BettingFinal,
    "betting_pot": lambda: BettingFinal(payout="pot"),
    "betting_short": lambda: BettingFinal(chips=3, ante=1),
    "third_place": ThirdPlaceChoice,
}
