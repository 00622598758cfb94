"""Group, order and drop matches: turn order, ties, declarations, votes."""

from __future__ import annotations

import pytest

from games.dice_cup import DropMatch, GroupMatch, OrderMatch

from .helpers import assert_illegal, play_round, roll


def test_group_first_roller_alternates_and_higher_wins() -> None:
    match = GroupMatch()
    assert match.expecting == [(0, "roll")]
    refused = assert_illegal(match, {"type": "roll", "player": 1, "value": 3}, "not_your_turn")
    assert refused.params["turn"] == 0  # whose turn it is: the bot names them
    roll(match, 0, 5)
    assert_illegal(match, {"type": "roll", "player": 0, "value": 3}, "already_rolled")
    roll(match, 1, 2)
    assert match.score == (1, 0)
    assert match.round == 2
    assert match.expecting == [(1, "roll")]
    record = match.history[0]
    assert (record.number, record.dice, record.values, record.winner) == (
        1,
        ((5,), (2,)),
        (5, 2),
        0,
    )


def test_group_tie_replays_the_same_round() -> None:
    match = GroupMatch()
    play_round(match, 4, 4)
    assert match.round == 1
    assert match.score == (0, 0)
    assert match.history[-1].winner is None
    assert match.expecting == [(0, "roll")]


def test_group_three_straight_wins() -> None:
    match = GroupMatch()
    for _ in range(3):
        play_round(match, 6, 1) if match.first_roller == 0 else play_round(match, 1, 6)
    assert match.finished and match.winner == 0 and not match.draw
    assert match.points == (3, 0)
    assert match.expecting == []
    assert_illegal(match, {"type": "roll", "player": 0, "value": 3}, "match_over")


def two_all() -> GroupMatch:
    match = GroupMatch()
    play_round(match, 6, 1)  # round 1: 0 first, 0 wins
    play_round(match, 6, 1)  # round 2: 1 first, 1 wins
    play_round(match, 6, 1)  # round 3: 0 wins
    play_round(match, 6, 1)  # round 4: 1 wins
    assert match.score == (2, 2) and match.round == 5
    return match


def test_group_tied_fifth_round_both_vote_draw() -> None:
    match = two_all()
    play_round(match, 3, 3)
    assert match.voting
    assert match.expecting == [(0, "draw_vote"), (1, "draw_vote")]
    assert_illegal(match, {"type": "roll", "player": 0, "value": 3}, "vote_pending")
    assert_illegal(match, {"type": "draw_vote", "player": 0, "vote": "maybe"}, "bad_vote")
    match.apply({"type": "draw_vote", "player": 1, "vote": "draw"})
    assert_illegal(match, {"type": "draw_vote", "player": 1, "vote": "reroll"}, "already_voted")
    assert not match.finished
    match.apply({"type": "draw_vote", "player": 0, "vote": "draw"})
    assert match.finished and match.draw and match.winner is None
    assert match.points == (1, 1)


def test_group_one_reroll_vote_replays_until_decided() -> None:
    match = two_all()
    play_round(match, 3, 3)
    match.apply({"type": "draw_vote", "player": 0, "vote": "reroll"})
    assert not match.voting
    play_round(match, 2, 2)
    assert not match.voting  # no second vote
    play_round(match, 2, 5)
    assert match.finished and match.winner == 1 and match.points == (0, 3)


def test_group_vote_outside_a_tied_deciding_round() -> None:
    match = GroupMatch()
    assert_illegal(match, {"type": "draw_vote", "player": 0, "vote": "draw"}, "not_voting")
    play_round(match, 2, 2)
    assert_illegal(match, {"type": "draw_vote", "player": 0, "vote": "draw"}, "not_voting")


def test_group_without_draws_rerolls_the_deciding_round() -> None:
    match = GroupMatch(allow_draw=False)
    for _ in range(4):
        play_round(match, 6, 1)
    play_round(match, 4, 4)
    assert not match.voting
    assert match.expecting == [(0, "roll")]


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (None, "bad_action"),
        ({"player": 0, "value": 3}, "bad_action"),
        ({"type": "declare", "player": 0, "order": [1, 2, 3]}, "bad_action"),
        ({"type": "roll", "player": 2, "value": 3}, "bad_player"),
        ({"type": "roll", "player": True, "value": 3}, "bad_player"),
        ({"type": "roll", "player": 0, "value": 7}, "bad_roll"),
        ({"type": "roll", "player": 0, "value": "3"}, "bad_roll"),
    ],
)
def test_group_malformed_actions(action: object, code: str) -> None:
    assert_illegal(GroupMatch(), action, code)


def declare_order(match: OrderMatch, player: int, order: list[int]) -> None:
    match.apply({"type": "declare", "player": player, "order": order})


def test_order_match_seed_example() -> None:
    match = OrderMatch()
    assert match.expecting == [(0, "declare"), (1, "declare")]
    assert_illegal(match, {"type": "roll", "player": 0, "value": 1}, "declare_first")
    declare_order(match, 0, [3, 1, 2])
    assert match.expecting == [(1, "declare"), (0, "roll")]
    roll(match, 0, 1, 4)
    assert_illegal(match, {"type": "roll", "player": 1, "value": 1}, "not_your_turn")
    roll(match, 0, 2)
    assert match.expecting == [(1, "declare")]
    assert_illegal(match, {"type": "roll", "player": 1, "value": 1}, "declare_first")
    declare_order(match, 1, [1, 2, 3])
    roll(match, 1, 2, 1, 3)
    record = match.history[0]
    assert record.values == (214, 213)
    assert record.declarations == ((3, 1, 2), (1, 2, 3))
    assert record.winner == 0
    assert match.declarations == (None, None)
    assert match.expecting == [(0, "declare"), (1, "declare")]
    assert match.roller == 1  # round 2 starts with player 1


def test_order_declaration_can_change_until_the_first_die() -> None:
    match = OrderMatch()
    declare_order(match, 0, [1, 2, 3])
    declare_order(match, 0, [3, 2, 1])
    assert match.declarations == ((3, 2, 1), None)
    roll(match, 0, 6)
    assert_illegal(match, {"type": "declare", "player": 0, "order": [1, 2, 3]}, "already_declared")
    declare_order(match, 1, [2, 1, 3])  # the other player may declare meanwhile


def test_the_same_declaration_again_changes_nothing() -> None:
    """A double tap on a declaration button logs it once: the second is refused."""
    match = OrderMatch()
    declare_order(match, 0, [1, 2, 3])
    assert_illegal(match, {"type": "declare", "player": 0, "order": [1, 2, 3]},
                   "declared_unchanged")
    assert {"type": "declare", "player": 0, "order": [1, 2, 3]} not in match.legal_actions(0)
    assert {"type": "declare", "player": 0, "order": [3, 2, 1]} in match.legal_actions(0)


@pytest.mark.parametrize("order", [[1, 2], [1, 1, 2], [0, 1, 2], "312", None, [1, 2, True]])
def test_order_bad_declarations(order: object) -> None:
    assert_illegal(OrderMatch(), {"type": "declare", "player": 0, "order": order}, "bad_order")


def test_order_tie_replays_with_new_declarations() -> None:
    match = OrderMatch()
    declare_order(match, 0, [1, 2, 3])
    declare_order(match, 1, [3, 2, 1])
    roll(match, 0, 1, 2, 3)
    roll(match, 1, 3, 2, 1)
    assert match.history[-1].values == (123, 123)
    assert match.round == 1 and match.score == (0, 0)
    assert match.declarations == (None, None)


def test_drop_match_seed_example_and_win() -> None:
    match = DropMatch()
    assert_illegal(match, {"type": "declare", "player": 0, "drop": 5}, "bad_drop")
    for _ in range(3):
        match.apply({"type": "declare", "player": 0, "drop": 3})
        match.apply({"type": "declare", "player": 1, "drop": 1})
        first = match.first_roller
        roll(match, first, *((1, 2, 3, 4) if first == 0 else (6, 1, 1, 1)))
        roll(match, 1 - first, *((6, 1, 1, 1) if first == 0 else (1, 2, 3, 4)))
    assert [r.values for r in match.history] == [(421, 111), (421, 111), (421, 111)]
    assert match.finished and match.winner == 0 and match.score == (3, 0)
    assert_illegal(match, {"type": "declare", "player": 0, "drop": 1}, "match_over")
