"""Ends of innings and of the match: the seed's results and the deck limit.

* After A's second innings (the 3rd), A's total below B's first innings: B wins without
  batting again ("innings").
* In B's second innings (the 4th), B wins the moment its total passes A's ("chase").
* After both sides completed two innings, the higher total wins; equal totals are a tie.
* Once the ``deck_limit``-th deck is used up the current over is finished; if the match
  is still undecided at the end of that over (or when an innings ends first), it is a
  draw — not a tie.
"""

from __future__ import annotations

from .state import (
    BALLS_PER_OVER,
    INNINGS_PER_MATCH,
    ArmchairState,
    Innings,
    Outcome,
    changed,
)

A_SECOND = 3  # the number of A's second innings


def side_totals(state: ArmchairState) -> tuple[int, int]:
    """Runs of side A and side B."""
    a = sum(innings.runs for innings in state.innings[0::2])
    b = sum(innings.runs for innings in state.innings[1::2])
    return a, b


def chase_won(state: ArmchairState) -> bool:
    a, b = side_totals(state)
    return len(state.innings) == INNINGS_PER_MATCH and b > a


def finish(state: ArmchairState, outcome: Outcome) -> ArmchairState:
    return changed(state, phase="over", outcome=outcome, bowled=None, owed=(0, 0))


def close_innings(state: ArmchairState, declared: bool) -> ArmchairState:
    """Close the current innings, then decide the match or start the next innings."""
    closed = changed(state.innings[-1], closed=True, declared=declared, last_deck=state.deck)
    state = changed(state, innings=(*state.innings[:-1], closed), bowled=None)
    a_seat = state.side_a
    assert a_seat is not None
    a, b = side_totals(state)
    number = closed.number
    if number == A_SECOND and a < state.innings[1].runs:
        return finish(state, Outcome("win", 1 - a_seat, "innings"))
    if number == INNINGS_PER_MATCH:
        if a == b:
            return finish(state, Outcome("tie", None, "totals"))
        return finish(state, Outcome("win", a_seat if a > b else 1 - a_seat, "totals"))
    target = a - state.innings[1].runs + 1 if number == A_SECOND else None
    following = Innings(number + 1, 1 - closed.batting, state.deck, target=target)
    return changed(state, innings=(*state.innings, following), phase="bowl")


def settle(state: ArmchairState) -> ArmchairState:
    """The deck-limit draw, checked after every action: once the limit deck is used up
    the match stops at the first over boundary with no delivery in progress."""
    if state.phase not in ("bowl", "exchange") or not state.deck_limit_reached:
        return state
    innings = state.innings[-1]
    if innings.balls % BALLS_PER_OVER:
        return state
    closed = changed(innings, last_deck=state.deck)
    state = changed(state, innings=(*state.innings[:-1], closed))
    return finish(state, Outcome("draw", None, "deck_limit"))
