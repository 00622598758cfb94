import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.errors import IllegalAction
from games.tournament import (
    DICE_CUP_POINTS,
    Result,
    lookahead,
    swiss_inputs,
    swiss_most_rounds,
    swiss_pairings,
    swiss_rounds_left,
    swiss_rounds_warning,
)


def legal_round_exists(players, played, had_bye):
    """Brute force: can the players be paired with no rematch and no second bye?"""

    def search(rest):
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        for i, other in enumerate(others):
            if other == "BYE":
                allowed = first not in had_bye
            elif first == "BYE":
                allowed = other not in had_bye
            else:
                allowed = frozenset((first, other)) not in played
            if allowed and search(others[:i] + others[i + 1 :]):
                return True
        return False

    return search(list(players) + (["BYE"] if len(players) % 2 else []))


def test_first_round_top_half_meets_bottom_half():
    assert swiss_pairings({p: 0 for p in range(1, 9)}, set(), set()) == [
        (1, 5),
        (2, 6),
        (3, 7),
        (4, 8),
    ]


def test_odd_field_gives_the_bye_to_the_lowest_ranked():
    assert swiss_pairings({p: 0 for p in range(1, 8)}, set(), set())[-1] == (7, None)


def test_bye_skips_players_who_already_had_one():
    pairs = swiss_pairings({1: 2, 2: 2, 3: 1, 4: 1, 5: 0}, [frozenset((1, 2))], {5})
    assert (4, None) in pairs
    assert all(frozenset(p) != frozenset((1, 2)) for p in pairs)


def test_equal_scores_meet_and_the_lowest_of_a_group_floats():
    assert swiss_pairings({1: 1, 2: 1, 3: 1, 4: 0}, set(), set()) == [(1, 2), (3, 4)]
    scores = {1: 2, 2: 2, 3: 1, 4: 1, 5: 0, 6: 0}
    assert swiss_pairings(scores, set(), set()) == [(1, 2), (3, 4), (5, 6)]


def test_the_leaders_meet_when_the_floats_can_lie_lower():
    """Two on 1 point, two on ½ (drawn together), two on 0: the leaders meet, and the ½s
    float down, rather than each leader meeting a ½ (the same squared differences)."""
    scores = {1: 0.5, 2: 0, 3: 0, 4: 0.5, 5: 1, 6: 1}
    played = {frozenset((1, 4)), frozenset((5, 2)), frozenset((6, 3))}
    assert swiss_pairings(scores, played, set()) == [(5, 6), (1, 2), (4, 3)]


def test_no_rematch_even_if_scores_are_further_apart():
    scores = {1: 2, 2: 2, 3: 0, 4: 0}
    pairs = swiss_pairings(scores, {frozenset((1, 2)), frozenset((3, 4))}, set())
    assert pairs == [(1, 3), (2, 4)]


def test_ranking_orders_equal_scores():
    pairs = swiss_pairings({1: 0, 2: 0, 3: 0, 4: 0}, set(), set(), ranking=[4, 3, 2, 1])
    assert pairs == [(4, 2), (3, 1)]
    for bad in ([1], [1, 1, 2]):
        with pytest.raises(IllegalAction, match="bad_ranking"):
            swiss_pairings({1: 0, 2: 0}, set(), set(), ranking=bad)


def test_half_points_are_exact():
    assert swiss_pairings({1: 1.5, 2: 0.5, 3: 1.5, 4: 0.5}, set(), set()) == [(1, 3), (2, 4)]


def test_no_legal_pairing_is_a_value_error_with_a_reason():
    with pytest.raises(ValueError, match="rematch") as rematch:
        swiss_pairings({1: 1, 2: 0}, {frozenset((1, 2))}, set())
    assert rematch.value.code == "no_legal_pairing"
    assert rematch.value.params["players"] == [1, 2]
    assert rematch.value.params["reason"] == "rematch"  # a code: the bot gives the words
    with pytest.raises(ValueError, match="bye") as bye:
        swiss_pairings({1: 1, 2: 0, 3: 0}, set(), {1, 2, 3})
    assert bye.value.params["reason"] == "bye"
    with pytest.raises(ValueError, match="too_few") as too_few:
        swiss_pairings({1: 0}, set(), set())
    assert too_few.value.params["reason"] == "too_few"


def test_six_players_left_with_two_triangles_cannot_pair():
    # Rounds 1-3 used every pair except the two triangles {1,2,3} and {4,5,6}.
    played = {frozenset((a, b)) for a in (1, 2, 3) for b in (4, 5, 6)}
    assert not legal_round_exists([1, 2, 3, 4, 5, 6], played, set())
    with pytest.raises(IllegalAction):
        swiss_pairings({p: 0 for p in range(1, 7)}, played, set())


def test_inputs_from_results():
    results = [
        Result(1, 2, 1, score=(3, 1), round=1),
        Result(3, None, round=1),
        Result(1, 3, None, score=(2, 2), round=2),
        Result(2, None, round=2),
    ]
    scores, played, had_bye = swiss_inputs([1, 2, 3], results, DICE_CUP_POINTS)
    assert scores == {1: 4, 2: 3, 3: 4}
    assert played == {frozenset((1, 2)), frozenset((1, 3))}
    assert had_bye == {2, 3}
    assert swiss_pairings(scores, played, had_bye) == [(3, 2), (1, None)]


def test_rounds_warning():
    assert [swiss_most_rounds(n) for n in (2, 3, 4, 5, 8)] == [1, 3, 3, 5, 7]
    assert swiss_rounds_warning(8, 7) is None
    assert swiss_rounds_warning(8, 8) == "rounds_impossible"
    assert swiss_rounds_warning(7, 7) is None


def test_a_round_leaves_the_rounds_after_it_pairable():
    # After two rounds, the best round 3 (2 v 3, 1 v 6, 4 v 5) would leave two triangles
    # of pairs not met, {1, 3, 5} and {2, 4, 6}: no round 4. Told of two rounds to come,
    # the pairing plays one of the two next best rounds (level on every rule), each of
    # which leaves a cycle of six instead.
    results = [Result(1, 4, 1), Result(2, 5, 2), Result(3, 6, 3),
               Result(1, 2, 2), Result(3, 4, 3), Result(5, 6, 6)]
    scores, played, had_bye = swiss_inputs(range(1, 7), results)
    assert swiss_pairings(scores, played, had_bye) == [(2, 3), (1, 6), (4, 5)]
    pairs = swiss_pairings(scores, played, had_bye, rounds_after=2)
    assert pairs in ([(2, 6), (3, 1), (4, 5)], [(2, 3), (1, 5), (6, 4)])
    assert legal_round_exists(range(1, 7), played | {frozenset(p) for p in pairs}, set())


def test_the_rounds_left_to_a_field_after_withdrawals():
    # six players after three rounds (1-4, 2-5, 3-6; 1-2, 3-4, 5-6; 2-3, 1-5, 6-4): 5
    # gone, the five left (a bye each round) can still play two rounds; 6 gone too, the
    # four left have 1-3 and 2-4 unmet: one round; nobody left to meet, none
    met = {frozenset(p) for p in [(1, 4), (2, 5), (3, 6), (1, 2), (3, 4), (5, 6),
                                   (2, 3), (1, 5), (6, 4)]}
    assert swiss_rounds_left([1, 2, 3, 4, 6], met, set(), 2) == 2
    assert swiss_rounds_left([1, 2, 3, 4], met, set(), 2) == 1
    assert swiss_rounds_left([1, 2], met, set(), 2) == 0
    assert swiss_rounds_left([1], set(), set(), 2) == 0
    # an odd field whose players have all had the bye has no round left
    assert swiss_rounds_left([1, 2, 3], set(), {1, 2, 3}, 3) == 0
    assert swiss_rounds_left([1, 2, 3], set(), {1}, 3) == 2


def test_a_look_ahead_out_of_steps_plays_the_best_round(monkeypatch):
    monkeypatch.setattr(lookahead, "STEPS", 0)
    results = [Result(1, 4, 1), Result(2, 5, 2), Result(3, 6, 3),
               Result(1, 2, 2), Result(3, 4, 3), Result(5, 6, 6)]
    scores, played, had_bye = swiss_inputs(range(1, 7), results)
    assert swiss_pairings(scores, played, had_bye, rounds_after=2) == [(2, 3), (1, 6), (4, 5)]


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 11), rounds=st.integers(1, 11), seed=st.integers(0, 10**6),
       look_ahead=st.booleans())
def test_random_swiss_never_rematches_nor_gives_a_second_bye(n, rounds, seed, look_ahead):
    """Paired round by round, a field of n always plays ⌈n/2⌉ rounds (Dirac's theorem);
    paired with the rounds to come in view, it plays every round it can."""
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    results: list[Result] = []
    planned = min(rounds, swiss_most_rounds(n))
    for number in range(1, rounds + 1):
        scores, played, had_bye = swiss_inputs(players, results)
        try:
            pairs = swiss_pairings(scores, played, had_bye,
                                   rounds_after=planned - number if look_ahead else 0)
        except IllegalAction:
            assert number > (planned if look_ahead else (n + 1) // 2)
            assert not legal_round_exists(players, played, had_bye)
            return
        assert Counter(p for pair in pairs for p in pair if p is not None) == Counter(players)
        assert sum(b is None for _, b in pairs) == n % 2
        for a, b in pairs:
            if b is None:
                assert a not in had_bye
                results.append(Result(a, round=number))
            else:
                assert frozenset((a, b)) not in played
                assert scores[a] >= scores[b]
                winner = rng.choice([a, b, None])
                results.append(Result(a, b, winner, round=number))
