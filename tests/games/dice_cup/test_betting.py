"""BettingFinal: acting order, betting rules, showdown payouts, end of the final."""

from __future__ import annotations

from typing import Any

import pytest

from games.dice_cup import BettingFinal

from .helpers import assert_illegal


def rolls(final: BettingFinal, a: int, b: int) -> None:
    final.apply({"type": "roll", "player": 0, "value": a})
    final.apply({"type": "roll", "player": 1, "value": b})


def bet(final: BettingFinal, player: int, action: str, amount: int | None = None) -> None:
    payload: dict[str, Any] = {"type": "bet", "player": player, "action": action}
    if amount is not None:
        payload["amount"] = amount
    final.apply(payload)


def checks(final: BettingFinal) -> None:
    first = final.to_act
    assert first is not None
    bet(final, first, "check")
    bet(final, 1 - first, "check")


def test_antes_and_higher_die_acts_first() -> None:
    final = BettingFinal()
    assert final.chips == (19, 19) and final.pot == 2 and final.hand == 1
    assert final.expecting == [(0, "roll"), (1, "roll")]
    assert_illegal(final, {"type": "bet", "player": 0, "action": "check"}, "roll_first")
    final.apply({"type": "roll", "player": 1, "value": 5})
    assert_illegal(final, {"type": "roll", "player": 1, "value": 5}, "already_rolled")
    final.apply({"type": "roll", "player": 0, "value": 2})
    assert final.to_act == 1 and final.expecting == [(1, "bet")]
    assert final.legal_bets == ("check", "raise", "allin", "fold")
    assert final.raise_limits == (1, 19)
    refused = assert_illegal(final, {"type": "bet", "player": 0, "action": "check"},
                             "not_your_turn")
    assert refused.params["turn"] == 1
    assert_illegal(final, {"type": "bet", "player": 1, "action": "call"}, "nothing_to_call")
    assert_illegal(final, {"type": "bet", "player": 1, "action": "bluff"}, "bad_bet")
    assert_illegal(final, {"type": "roll", "player": 0, "value": 1}, "already_rolled")
    bet(final, 1, "check")
    bet(final, 0, "check")
    assert final.betting_round == 2 and final.expecting == [(0, "roll"), (1, "roll")]


def test_tie_goes_to_a_try_by_player_zero() -> None:
    final = BettingFinal()
    rolls(final, 3, 3)
    assert final.expecting == [(0, "try")] and final.to_act is None
    assert_illegal(final, {"type": "bet", "player": 0, "action": "check"}, "try_first")
    assert_illegal(final, {"type": "try", "player": 1, "success": True}, "not_your_turn")
    final.apply({"type": "try", "player": 0, "success": False})
    assert final.to_act == 1
    assert_illegal(final, {"type": "try", "player": 0, "success": True}, "not_in_tiebreak")


def test_raise_rules() -> None:
    final = BettingFinal()
    rolls(final, 6, 1)
    assert_illegal(
        final, {"type": "bet", "player": 0, "action": "raise", "amount": 0}, "bad_amount"
    )
    error = assert_illegal(
        final, {"type": "bet", "player": 0, "action": "raise", "amount": 20}, "bad_amount"
    )
    assert error.params["max"] == 19
    assert_illegal(final, {"type": "bet", "player": 0, "action": "raise"}, "bad_amount")
    bet(final, 0, "raise", 3)
    assert final.stakes == (4, 1) and final.chips == (16, 19)
    assert final.to_act == 1 and final.to_call == 3
    assert_illegal(final, {"type": "bet", "player": 1, "action": "check"}, "cannot_check")
    bet(final, 1, "raise", 2)  # re-raise: 6 against 4
    assert final.stakes == (4, 6) and final.to_act == 0
    bet(final, 0, "call")
    assert final.stakes == (6, 6) and final.betting_round == 2


def test_a_call_may_state_what_it_puts_in() -> None:
    """«колл 3», as the Call button reads: refused unless 3 is what is owed."""
    final = BettingFinal()
    rolls(final, 6, 1)
    bet(final, 0, "raise", 3)
    error = assert_illegal(
        final, {"type": "bet", "player": 1, "action": "call", "amount": 2}, "wrong_call"
    )
    assert error.params == {"amount": 2, "to_call": 3}
    bet(final, 1, "call", 3)
    assert final.stakes == (4, 4) and final.betting_round == 2


def test_a_bet_is_a_raise_only_while_nothing_is_owed() -> None:
    """«bet 3», the poker word for a first bet: a raise by 3; while chips are owed it is
    refused with what is owed (a player meaning to call would raise on top of it)."""
    final = BettingFinal()
    rolls(final, 6, 1)
    bet(final, 0, "bet", 3)
    assert final.stakes == (4, 1) and final.bets[-1].action == "raise"
    error = assert_illegal(
        final, {"type": "bet", "player": 1, "action": "bet", "amount": 2}, "bet_while_owed"
    )
    assert error.params == {"to_call": 3} and final.stakes == (4, 1)


def test_later_rounds_start_with_the_last_raiser_else_the_higher_total() -> None:
    final = BettingFinal()
    rolls(final, 6, 1)
    bet(final, 0, "check")
    bet(final, 1, "raise", 1)
    bet(final, 0, "call")
    rolls(final, 1, 1)
    assert final.to_act == 1  # last raiser of round 1, though player 0 has the higher total
    checks(final)
    rolls(final, 1, 1)
    assert final.to_act == 0  # no raise in round 2: totals 8 against 3


def test_equal_totals_in_a_later_round_go_to_a_try() -> None:
    final = BettingFinal()
    rolls(final, 6, 1)
    checks(final)
    rolls(final, 1, 6)
    assert final.expecting == [(0, "try")]


def test_fold_gives_pot_and_hand() -> None:
    final = BettingFinal()
    rolls(final, 6, 1)
    bet(final, 0, "raise", 4)
    bet(final, 1, "fold")
    hand = final.hands[0]
    assert (hand.outcome, hand.winner, hand.stakes, hand.combinations) == ("fold", 0, (5, 1), None)
    assert hand.chips == (21, 19) and final.wins == (1, 0)
    assert final.hand == 2 and final.pot == 2 and final.chips == (20, 18)


def test_showdown_multiplier_payout() -> None:
    final = BettingFinal()
    rolls(final, 4, 4)
    final.apply({"type": "try", "player": 0, "success": True})
    checks(final)
    rolls(final, 4, 5)
    assert final.to_act == 1
    bet(final, 1, "raise", 2)
    bet(final, 0, "call")
    rolls(final, 4, 1)
    assert final.to_act == 1
    checks(final)
    hand = final.hands[0]
    assert hand.combinations == (("three", 5), ("nothing", 0))
    assert hand.stakes == (3, 3)
    assert hand.extra == 12  # loser's stake 3 × (5 − 1)
    assert hand.chips == (35, 5)
    assert final.wins == (1, 0)


def test_extra_payment_is_capped_at_the_losers_chips() -> None:
    final = BettingFinal()
    rolls(final, 4, 1)
    bet(final, 0, "raise", 10)
    bet(final, 1, "call")
    rolls(final, 4, 3)
    checks(final)
    rolls(final, 4, 5)
    checks(final)
    hand = final.hands[0]
    assert hand.stakes == (11, 11)
    assert hand.combinations == (("three", 5), ("nothing", 0))
    assert hand.extra == 9  # 11 × 4 owed, only 9 left
    assert hand.chips == (40, 0)
    assert final.finished and final.winner == 0 and final.end_reason == "chips"


def test_pot_payout_ignores_multipliers() -> None:
    final = BettingFinal(payout="pot")
    for second in (1, 2, 4):
        rolls(final, 4, second)
        checks(final)
    hand = final.hands[0]
    assert hand.combinations == (("three", 5), ("nothing", 0))
    assert hand.extra == 0 and hand.chips == (21, 19)


def test_equal_ranks_split() -> None:
    final = BettingFinal()
    rolls(final, 2, 5)
    bet(final, 1, "raise", 2)
    bet(final, 0, "call")
    for _ in range(2):
        rolls(final, 2, 5)
        checks(final)
    hand = final.hands[0]
    assert hand.outcome == "split" and hand.winner is None
    assert hand.combinations == (("three", 5), ("three", 5))
    assert hand.chips == (20, 20) and final.wins == (0, 0)


def test_all_in_then_remaining_rounds_are_just_rolled() -> None:
    final = BettingFinal()
    rolls(final, 5, 2)
    bet(final, 0, "allin")
    assert final.stakes == (20, 1) and final.chips == (0, 19)
    assert final.legal_bets == ("call", "allin", "fold")
    assert final.raise_limits is None
    assert_illegal(
        final, {"type": "bet", "player": 1, "action": "raise", "amount": 1}, "cannot_raise"
    )
    bet(final, 1, "call")
    assert final.expecting == [(0, "roll"), (1, "roll")]
    rolls(final, 5, 2)
    assert final.betting_round == 3 and final.expecting == [(0, "roll"), (1, "roll")]
    rolls(final, 6, 1)
    hand = final.hands[0]
    assert hand.combinations == (("full_house", 3), ("pair", 2))
    assert final.finished and final.winner == 0 and final.end_reason == "chips"
    assert final.chips == (40, 0)


def test_all_in_is_capped_by_what_the_opponent_can_match() -> None:
    final = BettingFinal()
    rolls(final, 6, 1)
    bet(final, 0, "raise", 5)
    bet(final, 1, "fold")
    assert final.chips == (20, 18)  # hand 2, antes posted: 21 against 19 in all
    rolls(final, 6, 1)
    bet(final, 0, "allin")
    assert final.stakes == (19, 1) and final.chips == (2, 18)  # not 21: 19 is all 1 has
    assert final.raise_limits is None
    bet(final, 1, "allin")  # facing everything: all-in is a call
    assert final.stakes == (19, 19) and final.chips == (2, 0)
    assert final.betting_round == 2 and final.expecting == [(0, "roll"), (1, "roll")]


def test_final_ends_at_three_hand_wins() -> None:
    final = BettingFinal()
    for _ in range(3):
        rolls(final, 6, 1)
        bet(final, 0, "raise", 1)
        bet(final, 1, "fold")
    assert final.finished and final.winner == 0 and final.end_reason == "hands"
    assert final.wins == (3, 0) and final.hand == 3
    assert final.expecting == [] and final.to_act is None
    assert sum(final.chips) == 40 and final.pot == 0
    assert_illegal(final, {"type": "roll", "player": 0, "value": 1}, "match_over")


def test_cannot_post_the_ante_ends_the_final() -> None:
    final = BettingFinal(chips=2, ante=1)
    rolls(final, 6, 1)
    bet(final, 0, "check")
    bet(final, 1, "fold")
    assert final.hands[0].chips == (3, 1)
    assert final.chips == (2, 0) and final.hand == 2  # player 1 posted the last chip
    assert final.expecting == [(0, "roll"), (1, "roll")]
    for second in (1, 2, 3):  # no betting: player 1 has nothing behind
        rolls(final, 6, second)
    assert final.hands[1].combinations == (("three", 5), ("straight", 4))
    assert final.hands[1].extra == 0  # nothing left to pay with
    assert final.chips == (4, 0)
    assert final.finished and final.winner == 0 and final.end_reason == "chips"


@pytest.mark.parametrize(
    "kwargs",
    [{"chips": 0}, {"ante": 0}, {"ante": 21}, {"payout": "double"}, {"full_house": "x"}],
)
def test_bad_settings(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        BettingFinal(**kwargs)
