"""An engine's own copy (``__replica__``) is the replayed state and independent of it.

Over random games of every engine that copies itself: at each step the copy equals the
state replayed from the log on a fresh engine, an action applied to the original leaves
the copy as it was, and the copy then takes the same action to the same state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from games.armchair_cricket import ArmchairSettings
from games.armchair_cricket.contract import ArmchairGame
from games.backgammon.session import LiveMatch
from games.common.match import replay, replica
from games.dice_cup import GroupMatch
from tests.games.armchair_cricket.helpers import random_action
from tests.games.dice_cup.helpers import snapshot

Pick = Callable[[Any, random.Random], dict[str, Any]]


def backgammon_action(match: LiveMatch, rng: random.Random) -> dict[str, Any]:
    """A random legal action with dice filled in; doubles, resignations and clock entries
    now and then."""
    if rng.random() < 0.05:
        return {"type": "clock", "player": rng.randrange(2), "bank": rng.randrange(600)}
    listed = match.legal_actions()
    rare = [a for a in listed if a["type"] in ("double", "resign", "resign_match")]
    common = [a for a in listed if a not in rare]
    action = dict(rng.choice(rare if not common or rng.random() < 0.05 else common))
    if action["type"] in ("opening_roll", "roll"):
        action["dice"] = [rng.randint(1, 6), rng.randint(1, 6)]
    return action


ENGINES: dict[str, tuple[Callable[[], Any], Pick]] = {
    "armchair": (lambda: ArmchairGame(ArmchairSettings(deck_limit=3)), random_action),
    "backgammon_live": (lambda: LiveMatch(3, 600), backgammon_action),
}


@pytest.mark.parametrize("name", sorted(ENGINES))
@pytest.mark.parametrize("seed", range(3))
def test_the_copy_is_the_replayed_state_and_independent(name: str, seed: int) -> None:
    fresh, pick = ENGINES[name]
    rng = random.Random(seed)
    match, log = fresh(), []
    while not match.finished and len(log) < 400:
        copied = replica(match)
        assert type(copied) is type(match) and copied is not match
        before = snapshot(match)
        assert snapshot(copied) == before == snapshot(replay(fresh(), log))
        action = pick(match, rng)
        match.apply(action)
        log.append(action)
        assert snapshot(copied) == before  # the original moved on, the copy did not
        copied.apply(action)
        assert snapshot(copied) == snapshot(match)
    assert match.finished
    assert snapshot(replica(match)) == snapshot(replay(fresh(), log))


def test_engines_without_a_copy_of_their_own_have_none() -> None:
    assert replica(GroupMatch()) is None
