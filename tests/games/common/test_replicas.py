"""An engine's own copy (``__replica__``) is the replayed state and independent of it.

Over random games of every engine that copies itself: at each step the copy equals the
state replayed from the log on a fresh engine, an action applied to the original leaves
the copy as it was, and the copy then takes the same action to the same state.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from bot.features.darts.opening import Opening, starter_action
from games.armchair_cricket import ArmchairSettings
from games.armchair_cricket.contract import ArmchairGame
from games.backgammon.session import LiveMatch
from games.common.errors import IllegalAction
from games.common.match import replay, replica
from games.darts.fincricket import FinCricketMatch
from games.darts.notation import BULL, Dart
from games.darts.shanghai import ShanghaiMatch
from games.dice_cup import BettingFinal, DropMatch, GroupMatch, HPMatch, OrderMatch
from tests.games.armchair_cricket.helpers import random_action
from tests.games.dice_cup.helpers import legal_action, play_round, snapshot

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


def random_dart(sectors: frozenset[int], rng: random.Random) -> str:
    """A dart on a sector in play (a miss now and then), in notation."""
    if rng.random() < 0.1:
        return "MISS"
    sector = rng.choice(sorted(sectors))
    return str(Dart(rng.randint(1, 2 if sector == BULL else 3), sector))


def darts_action(match: Opening, rng: random.Random) -> dict[str, Any]:
    """The starter first; then mostly darts, undos and visits ended, and now and then an
    organiser's correction of a leg's last visit that the match accepts."""
    if not match.started:
        return starter_action(rng.randrange(2), rng.choice(("bull", "coin")))
    sectors = match.leg.sectors
    if not match.leg.pending and match.leg.history and rng.random() < 0.05:
        darts = [random_dart(sectors, rng) for _ in range(rng.randint(0, 3))]
        correction = {"type": "correct", "leg": rng.randrange(len(match.legs)), "visit": -1,
                      "darts": darts}
        try:
            copy.deepcopy(match).apply(correction)
            return correction
        except IllegalAction:
            pass
    listed = match.legal_actions()
    action = dict(listed[0] if listed[0]["type"] == "dart" and rng.random() < 0.8
                  else rng.choice(listed))
    if action["type"] == "dart":
        action["dart"] = random_dart(sectors, rng)
    return action


SHANGHAI = partial(ShanghaiMatch, 3)
FINCRICKET = partial(FinCricketMatch, 3)

ENGINES: dict[str, tuple[Callable[[], Any], Pick]] = {
    "armchair": (lambda: ArmchairGame(ArmchairSettings(deck_limit=3)), random_action),
    "backgammon_live": (lambda: LiveMatch(3, 600), backgammon_action),
    "darts_shanghai": (lambda: Opening(SHANGHAI), darts_action),
    "darts_fincricket": (lambda: Opening(FINCRICKET), darts_action),
    "cup_group": (GroupMatch, legal_action),
    "cup_drop": (DropMatch, legal_action),
    "cup_order": (OrderMatch, legal_action),
    "cup_hp": (HPMatch, legal_action),
}


@pytest.mark.parametrize("name", sorted(ENGINES))
@pytest.mark.parametrize("seed", range(3))
def test_the_copy_is_the_replayed_state_and_independent(name: str, seed: int) -> None:
    fresh, pick = ENGINES[name]
    rng = random.Random(seed)
    match, replayed, log = fresh(), fresh(), []  # replayed: the log so far on a fresh engine
    while not match.finished and len(log) < 2000:
        copied = replica(match)
        assert type(copied) is type(match) and copied is not match
        before = snapshot(match)
        assert snapshot(copied) == before == snapshot(replayed)
        action = pick(match, rng)
        match.apply(action)
        replayed.apply(action)
        log.append(action)
        assert snapshot(copied) == before  # the original moved on, the copy did not
        copied.apply(action)
        assert snapshot(copied) == snapshot(match)
    assert match.finished
    assert snapshot(replica(match)) == snapshot(replay(fresh(), log))


def test_engines_without_a_copy_of_their_own_have_none() -> None:
    assert replica(BettingFinal()) is None


def test_a_cup_group_matchs_copy_keeps_its_own_draw_votes() -> None:
    """Random games seldom reach the vote of a tied deciding round: one that does."""
    match = GroupMatch(wins_needed=1)
    play_round(match, 3, 3)
    copied = replica(match)
    match.apply({"type": "draw_vote", "player": 0, "vote": "draw"})
    assert copied.votes == (None, None) and match.votes == ("draw", None)
