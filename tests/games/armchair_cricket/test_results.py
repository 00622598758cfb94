"""Results from the seed: the chase, the innings victory, tie, draw, reshuffles and decks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.armchair_cricket import (
    ArmchairMatch,
    ArmchairSettings,
    Outcome,
    ToAct,
    delivery_outcome,
)
from games.armchair_cricket.state import Innings, changed

from .helpers import accounted, assert_illegal, ball, done, started, with_innings

A_HAND = ["BAT 8", "BALL 9", "PADS 3", "GLOVES 2", "STUMPS 4", "BAT 1"]
B_HAND = ["BAT 5", "BAT 6", "BALL 7", "STUMPS 8", "GLOVES 10", "PADS 11"]
TOP = ["GLOVES 5", "STUMPS 6", "BALL 2", "BALL 3", "BAT 11", "PADS 9"]


def fourth_innings(runs: int, wickets: int = 0, balls: int = 15) -> ArmchairMatch:
    """A 23 + 18 = 41, B 29 in its first innings; B (seat 1) batting again; A (seat 0)
    holds B_HAND, B holds A_HAND."""
    match = started(A_HAND, B_HAND, TOP)
    swapped = replace(match.state, hands=(match.state.hands[1], match.state.hands[0]))
    match = ArmchairMatch.from_state(swapped)
    live = Innings(4, 1, 1, runs, wickets, balls, target=13)
    return with_innings(match, done(1, 0, 23), done(2, 1, 29), done(3, 0, 18), live)


def third_innings(runs: int, wickets: int = 2) -> ArmchairMatch:
    """A 20 in its first innings, B 29; A (seat 0) batting again with A_HAND."""
    match = started(A_HAND, B_HAND, TOP)
    live = Innings(3, 0, 1, runs, wickets, 12)
    return with_innings(match, done(1, 0, 20), done(2, 1, 29), live)


def test_b_wins_the_moment_it_passes_a() -> None:
    match = fourth_innings(runs=12)
    ball(match, "BAT 5", "BAT 8")  # one run: 29 + 13 = 42 > 41
    assert match.outcome == Outcome("win", 1, "chase")
    innings = match.view().innings[-1]
    assert (innings.runs, innings.wickets, innings.overs) == (13, 0, "2.4")
    assert match.finished and match.winner == 1 and match.to_act is None
    assert match.legal_actions() == [] and match.legal_actions(0) == []
    assert_illegal(match, {"type": "bowl", "player": 0, "card": "BAT 6"}, "finished")
    assert match.view().to_dict()["outcome"] == {
        "result": "win",
        "winner": 1,
        "ending": "chase",
    }


def test_levelling_the_scores_is_not_yet_a_win() -> None:
    match = fourth_innings(runs=11)
    ball(match, "BAT 5", "BAT 8")  # 29 + 12 = 41: level
    assert not match.finished and match.view().totals == (41, 41)


def test_a_wins_when_bs_last_wicket_falls_short() -> None:
    match = fourth_innings(runs=5, wickets=2)
    ball(match, "GLOVES 10", "BAT 1")
    assert match.outcome == Outcome("win", 0, "totals")
    assert match.view().innings[-1].closed


def test_equal_totals_after_four_innings_are_a_tie() -> None:
    match = fourth_innings(runs=12, wickets=2)
    ball(match, "GLOVES 10", "BAT 1")  # 41 all
    assert match.outcome == Outcome("tie", None, "totals")
    assert match.winner is None


def test_declaring_the_fourth_innings_ends_the_match() -> None:
    match = fourth_innings(runs=3)
    match.apply({"type": "declare", "player": 1})
    assert match.outcome == Outcome("win", 0, "totals")


def test_b_wins_by_an_innings_when_a_stays_below_bs_first_innings() -> None:
    match = third_innings(runs=8)
    ball(match, "PADS 11", "BAT 1")  # A: 20 + 8 = 28 < 29
    assert match.outcome == Outcome("win", 1, "innings")
    assert len(match.view().innings) == 3


def test_a_declaration_below_bs_first_innings_loses_by_an_innings() -> None:
    match = third_innings(runs=2, wickets=0)
    match.apply({"type": "declare", "player": 0})
    assert match.outcome == Outcome("win", 1, "innings")


def test_level_after_three_innings_b_bats_again_needing_one_run() -> None:
    match = third_innings(runs=9)
    ball(match, "PADS 11", "BAT 1")  # 29 all
    assert not match.finished
    fourth = match.view().innings[-1]
    assert (fourth.number, fourth.batting, fourth.target, fourth.balls) == (4, 1, 1, 0)
    assert match.to_act == ToAct("bowl", 0)


def test_the_target_is_set_for_the_fourth_innings_only() -> None:
    match = third_innings(runs=30, wickets=0)
    match.apply({"type": "declare", "player": 0})
    assert [innings.target for innings in match.view().innings] == [None, None, None, 22]


def emptied_pile(match: ArmchairMatch, keep: int) -> ArmchairMatch:
    """The same match with all but ``keep`` draw-pile cards moved to the discards."""
    state = match.state
    moved = state.pile[keep:]
    return ArmchairMatch.from_state(
        replace(state, pile=state.pile[:keep], discards=moved + state.discards)
    )


def test_a_reshuffle_keeps_the_top_discard_and_counts_the_next_deck() -> None:
    match = emptied_pile(started(A_HAND, B_HAND, TOP), keep=1)
    match.apply({"type": "bowl", "player": 1, "card": "BAT 5"})  # draws the last card
    assert match.view().pile_size == 0 and match.to_act == ToAct("bat", 0)
    match.apply({"type": "bat", "player": 0, "card": "BAT 8"})
    size = match.view().discard_size - 1
    assert match.to_act == ToAct("shuffle", None, size)
    assert match.view().hand_sizes == (5, 6)
    assert_illegal(match, {"type": "bowl", "player": 1, "card": "BAT 6"}, "shuffle_needed")
    assert_illegal(match, {"type": "declare", "player": 0}, "shuffle_needed")
    assert_illegal(match, {"type": "shuffle", "order": list(range(size + 1))}, "bad_shuffle")
    order = list(reversed(range(size)))
    under = match.state.discards[:-1]
    match.apply({"type": "shuffle", "order": order})
    state = match.state
    assert state.deck == 2 and state.discards == (state.discards[0],)
    last = match.view().last
    assert last is not None and state.discards[0] == last.played
    assert state.hands[0][-1] == max(state.hands[0])  # hands stay sorted
    assert under[-1] in state.hands[0] and len(state.hands[0]) == 6
    assert state.pile == tuple(reversed(under))[1:]
    assert accounted(state) and match.to_act == ToAct("bowl", 1)
    ball(match, "BAT 6", "BALL 9")
    assert match.view().deck == 2 and match.view().innings[0].first_deck == 1


def test_an_exchange_draw_may_wait_for_the_reshuffle() -> None:
    match = emptied_pile(started(A_HAND, B_HAND, TOP), keep=3)
    ball(match, "BAT 5", "PADS 3")  # a wicket; one card left in the pile
    match.apply({"type": "exchange", "player": 0, "cards": ["BAT 1", "GLOVES 2"]})
    assert match.state.owed == (1, 0) and match.to_act is not None
    assert match.to_act.kind == "shuffle"
    match.apply({"type": "shuffle", "order": list(range(match.to_act.size))})
    assert match.view().hand_sizes == (6, 6) and match.view().deck == 2
    assert match.to_act == ToAct("bowl", 1) and accounted(match.state)


def chance(match: ArmchairMatch) -> None:
    """Shuffle in place whenever the match waits for one."""
    while match.to_act is not None and match.to_act.kind == "shuffle":
        match.apply({"type": "shuffle", "order": list(range(match.to_act.size))})


def safe_ball(match: ArmchairMatch) -> None:
    """The bowler's highest card, answered without a wicket when possible."""
    chance(match)
    match.apply(match.legal_actions()[-1])
    chance(match)
    bowled = str(match.view().bowled)
    options = match.legal_actions()
    safe = [a for a in options if delivery_outcome(bowled, a["card"])[0] != "wicket"]
    match.apply((safe or options)[0])
    if match.to_act is not None and match.to_act.kind == "exchange":
        match.apply({"type": "exchange", "player": match.to_act.seat, "cards": []})


def test_after_the_limit_deck_the_over_is_finished_then_a_draw() -> None:
    small = ArmchairSettings(deck_limit=1)
    match = emptied_pile(started(A_HAND, B_HAND, TOP, settings=small), keep=2)
    ball(match, "BAT 5", "BAT 8")  # the first deck is used up on ball 1
    assert match.state.deck_limit_reached and not match.finished
    for _ in range(5):
        assert not match.finished
        safe_ball(match)
    assert match.outcome == Outcome("draw", None, "deck_limit")
    innings = match.view().innings[0]
    assert innings.overs == "1.0" and not innings.closed and innings.last_deck == 2
    assert match.view().deck == 2 and accounted(match.state)


def test_a_limit_deck_used_up_at_the_end_of_an_over_ends_the_match_at_once() -> None:
    small = ArmchairSettings(deck_limit=1)
    match = emptied_pile(started(A_HAND, B_HAND, TOP, settings=small), keep=2)
    match = with_innings(match, Innings(1, 0, 1, runs=4, balls=5))
    ball(match, "BAT 5", "BAT 8")  # ball 6 takes the last card
    assert match.outcome == Outcome("draw", None, "deck_limit")
    assert match.view().innings[0].overs == "1.0" and match.view().deck == 1


def test_an_innings_ending_after_the_limit_deck_ends_the_match() -> None:
    small = ArmchairSettings(deck_limit=1)
    match = emptied_pile(started(A_HAND, B_HAND, TOP, settings=small), keep=2)
    match = with_innings(match, Innings(1, 0, 1, runs=4, wickets=2, balls=2))
    ball(match, "BAT 5", "BAT 8")  # the deck is used up mid-over
    match.apply({"type": "declare", "player": 0})
    assert match.outcome == Outcome("draw", None, "deck_limit")
    assert [innings.closed for innings in match.view().innings] == [True, False]


def test_a_result_in_the_last_over_beats_the_draw() -> None:
    match = fourth_innings(runs=11, balls=13)
    small = replace(match.state, settings=ArmchairSettings(deck_limit=1))
    match = emptied_pile(ArmchairMatch.from_state(small), keep=2)
    ball(match, "BAT 5", "BAT 8")  # level at 41; the first deck is used up
    assert match.state.deck_limit_reached and not match.finished
    match.apply({"type": "bowl", "player": 0, "card": "BALL 7"})
    chance(match)
    match.apply({"type": "bat", "player": 1, "card": "BALL 9"})
    assert match.outcome == Outcome("win", 1, "chase")
    assert match.view().deck == 2


def test_a_changed_state_is_what_replace_makes_and_a_non_field_is_refused() -> None:
    """The rules' own copy of a state or an innings (``changed``) gives what
    ``dataclasses.replace`` gives, leaves the old value as it was, and refuses a name that
    is not a field as replace does."""
    match = started(A_HAND, B_HAND, TOP)
    state = match.state
    assert changed(state, phase="bowl", step=9) == replace(state, phase="bowl", step=9)
    assert state == started(A_HAND, B_HAND, TOP).state
    innings = Innings(2, 1, 1, 10, 1, 7)
    assert changed(innings, runs=12, closed=True) == replace(innings, runs=12, closed=True)
    with pytest.raises(TypeError):
        changed(state, phases="bowl")
