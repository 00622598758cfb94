"""The engine contract on every engine: legal_actions agrees with apply, views are JSON.

Random playouts pick among the listed actions. At every state each listed action, with
every valid value filled into a template, is accepted by a copy; a random sample of the
other actions in a fixed universe is refused without changing anything.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from itertools import permutations
from typing import Any

import pytest

from games.common.errors import IllegalAction
from games.common.match import ReplayableMatch
from games.darts.fincricket import FinCricket, FinCricketMatch
from games.darts.shanghai import ShanghaiLeg, ShanghaiMatch
from games.dice_cup import FORMATS, MATCH_CLASSES, GroupMatch, ThirdPlaceChoice
from tests.games.dice_cup.helpers import snapshot

CUP: dict[str, Callable[[], Any]] = {
    **MATCH_CLASSES,
    "group_no_draw": lambda: GroupMatch(allow_draw=False),
    "betting_short": lambda: MATCH_CLASSES["betting"](chips=4),
    "third_place": ThirdPlaceChoice,
}
DARTS_ENGINES: dict[str, Callable[[], Any]] = {
    "fincricket": FinCricket,
    "fincricket_match": lambda: FinCricketMatch(legs=3, starter=1),
    "shanghai": ShanghaiLeg,
    "shanghai_strict_match": lambda: ShanghaiMatch(legs=3, bull="strict"),
}
ENGINES = CUP | DARTS_ENGINES
# (engine, seed, steps): darts legs are long and copying them is slow, so fewer and shorter.
PLAYOUTS = [(name, seed, 200) for name in sorted(CUP) for seed in range(6)] + [
    (name, seed, 80) for name in sorted(DARTS_ENGINES) for seed in range(2)
]
DARTS = [f"{m}{s}" for s in range(1, 21) for m in "SDT"] + ["25", "50", "MISS"]
UNLISTED_SAMPLE = 15
DARTS_TRIED = 4


def dart_values(match: Any) -> list[str]:
    """The darts a template accepts: every notation on a sector in play, and a miss."""
    sectors = (match.leg if hasattr(match, "leg") else match).sectors

    def sector(dart: str) -> int:
        return 25 if dart in ("25", "50") else int(dart[1:])

    return [d for d in DARTS if d == "MISS" or sector(d) in sectors]


def fillings(match: Any, action: dict[str, Any]) -> list[dict[str, Any]]:
    """Every complete action a listed one stands for (itself unless it is a template)."""
    kind = action["type"]
    if kind == "roll" and "value" not in action:
        return [action | {"value": v} for v in range(1, 7)]
    if kind == "try" and "success" not in action:
        return [action | {"success": s} for s in (True, False)]
    if kind == "dart" and "dart" not in action:
        return [action | {"dart": d} for d in dart_values(match)]
    return [action]


def universe() -> list[dict[str, Any]]:
    """Seat actions of every type any engine knows, with values in their ranges."""
    fields: list[dict[str, Any]] = [
        *({"type": "roll", "value": v} for v in range(1, 7)),
        *({"type": "declare", "order": list(o)} for o in permutations((1, 2, 3))),
        *({"type": "declare", "drop": d} for d in range(1, 5)),
        *({"type": "draw_vote", "vote": v} for v in ("draw", "reroll")),
        *({"type": "choose", "choice": c} for c in ("attack", "defend")),
        *({"type": "bet", "action": a} for a in ("check", "call", "fold", "allin")),
        *({"type": "bet", "action": "raise", "amount": n} for n in range(0, 42)),
        *({"type": "try", "success": s} for s in (True, False)),
        *({"type": "pick", "format": f} for f in FORMATS),
        *({"type": "dart", "dart": d} for d in DARTS),
        {"type": "undo"},
        {"type": "end_visit"},
    ]
    return [f | {"player": p} for f in fields for p in (0, 1)]


UNIVERSE = universe()


def key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def pick_action(match: Any, listed: list[dict[str, Any]], rng: random.Random) -> dict:
    """A random legal action; darts favour trebles and end full visits so legs finish."""
    action = rng.choice(listed)
    if action["type"] == "undo" and rng.random() < 0.8:
        action = next(a for a in listed if a["type"] != "undo")
    options = fillings(match, action)
    if action["type"] == "dart":
        trebles = [a for a in options if a["dart"].startswith("T")]
        options = trebles if trebles and rng.random() < 0.7 else options
    return rng.choice(options)


def check_views(match: Any) -> None:
    for seat in (None, 0, 1):
        view = match.view(seat)
        assert json.loads(json.dumps(view)) == view
        assert view["outcome"] == (None if match.outcome is None else match.outcome.to_dict())


def check_listed(match: Any, rng: random.Random) -> set[str]:
    """Filled-in listed actions are accepted by a copy; returns the keys of all of them.

    Every die value and ``/try`` result is tried; darts (some thirty notations) are sampled.
    """
    accepted = set()
    for action in match.legal_actions():
        every = fillings(match, action)
        tried = rng.sample(every, DARTS_TRIED) if action["type"] == "dart" else every
        for full in tried:
            copy.deepcopy(match).apply(full)
        accepted |= {key(full) for full in every}
    return accepted


def check_unlisted(match: Any, accepted: set[str], rng: random.Random) -> None:
    before = snapshot(match)
    unlisted = [a for a in UNIVERSE if key(a) not in accepted]
    for action in rng.sample(unlisted, min(UNLISTED_SAMPLE, len(unlisted))):
        with pytest.raises(IllegalAction):
            match.apply(action)
        assert snapshot(match) == before


def check_state(match: ReplayableMatch) -> None:
    every = match.legal_actions()
    assert every == match.legal_actions(None)
    for seat in (0, 1):
        assert match.legal_actions(seat) == [a for a in every if a["player"] == seat]
    if hasattr(match, "expecting"):
        assert set(match.expecting) <= {(a["player"], a["type"]) for a in every}
    if match.finished:
        assert every == []
        assert match.outcome is not None and match.outcome.winner == match.winner
    else:
        assert every and match.outcome is None


@pytest.mark.parametrize(("name", "seed", "steps"), PLAYOUTS)
def test_listed_actions_are_exactly_what_apply_accepts(name: str, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    match = ENGINES[name]()
    for _ in range(steps):
        check_state(match)
        check_views(match)
        accepted = check_listed(match, rng)
        check_unlisted(match, accepted, rng)
        if match.finished:
            break
        match.apply(pick_action(match, match.legal_actions(), rng))


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_seats_other_than_0_1_and_none_are_refused(name: str) -> None:
    match = ENGINES[name]()
    for seat in (2, -1, True, "0"):
        with pytest.raises(ValueError):
            match.legal_actions(seat)
        with pytest.raises(ValueError):
            match.view(seat)
