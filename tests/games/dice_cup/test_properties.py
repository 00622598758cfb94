"""Property tests: random legal play always ends, chips and HP invariants, atomic refusals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.errors import IllegalAction
from games.common.match import replay
from games.dice_cup import BettingFinal, HPBattle, HPMatch

from .helpers import MATCH_FACTORIES, fuzz_action, legal_action, snapshot

MAX_ACTIONS = 20_000


@pytest.mark.parametrize("name", sorted(MATCH_FACTORIES))
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_legal_play_ends_and_replays(name: str, seed: int) -> None:
    rng = random.Random(seed)
    match = MATCH_FACTORIES[name]()
    log = []
    for _ in range(MAX_ACTIONS):
        if match.finished:
            break
        action = legal_action(match, rng)
        match.apply(action)
        log.append(action)
    assert match.finished
    assert match.expecting == []
    if name.startswith("group_no_draw") or name in ("order", "drop", "hp", "betting"):
        assert match.winner in (0, 1)
    assert snapshot(replay(MATCH_FACTORIES[name](), log)) == snapshot(match)
    if name != "third_place" and getattr(match, "end_reason", "hands") == "hands":
        assert_settable(match)  # (a final won on chips: the winner may have won fewer hands)


def assert_settable(match) -> None:  # type: ignore[no-untyped-def]
    """The score a match ended with is one an organiser's /setresult may enter."""
    if (possible := match.final_scores()) is not None:
        score = tuple(match.outcome.score)
        assert (score if match.winner != 1 else score[::-1]) in possible


@pytest.mark.parametrize("name", sorted(MATCH_FACTORIES))
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_refused_actions_change_nothing(name: str, seed: int) -> None:
    """Interleave random junk with legal play: every refusal leaves the state as it was."""
    rng = random.Random(seed)
    match = MATCH_FACTORIES[name]()
    for _ in range(400):
        if match.finished and rng.random() < 0.2:
            break
        if not match.finished and rng.random() < 0.5:
            match.apply(legal_action(match, rng))
            continue
        action = fuzz_action(rng)
        before = snapshot(match)
        try:
            match.apply(action)
        except IllegalAction:
            assert snapshot(match) == before


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    chips=st.integers(min_value=1, max_value=30),
    ante=st.integers(min_value=1, max_value=3),
    payout=st.sampled_from(["multiplier", "pot"]),
)
def test_chips_are_conserved(seed: int, chips: int, ante: int, payout: str) -> None:
    rng = random.Random(seed)
    final = BettingFinal(chips=max(chips, ante), ante=ante, payout=payout)  # type: ignore[arg-type]
    total = 2 * max(chips, ante)
    for _ in range(MAX_ACTIONS):
        if final.finished:
            break
        final.apply(legal_action(final, rng))
        assert sum(final.chips) + final.pot == total
        assert min(final.chips) >= 0 and min(final.stakes) >= 0
        if final.to_act is not None:  # a call is always affordable
            assert final.to_call <= final.chips[final.to_act]
    assert final.finished
    for hand in final.hands:
        assert sum(hand.chips) == total
        assert hand.winner is None or hand.extra <= hand.chips[1 - hand.winner] + hand.extra


moves = st.tuples(st.sampled_from(["attack", "defend"]), st.integers(min_value=1, max_value=6))


@settings(max_examples=200)
@given(
    hp=st.integers(min_value=1, max_value=30), rounds=st.lists(st.tuples(moves, moves), max_size=60)
)
def test_hp_never_exceeds_the_start(hp: int, rounds: list) -> None:  # type: ignore[type-arg]
    battle = HPBattle(hp)
    for a, b in rounds:
        if battle.winner is not None:
            break
        result = battle.play(a, b)
        assert max(battle.hp) <= hp
        assert min(result.heals) >= 0
        if battle.winner is not None:
            assert battle.hp[battle.winner] > battle.hp[1 - battle.winner]
            assert battle.hp[1 - battle.winner] <= 0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_hp_match_never_exceeds_the_start(seed: int) -> None:
    rng = random.Random(seed)
    match = HPMatch()
    while not match.finished:
        match.apply(legal_action(match, rng))
        assert max(match.hp) <= match.start_hp
