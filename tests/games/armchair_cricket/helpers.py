"""Shared helpers: rigged deals, scripted deliveries, random legal play."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from games.armchair_cricket import (
    PACK,
    ArmchairMatch,
    ArmchairSettings,
    chance_action,
    delivery_outcome,
)
from games.armchair_cricket.cards import card_code
from games.armchair_cricket.state import ArmchairState, Innings
from games.common.errors import IllegalAction

FILLER = ("PADS 1", "PADS 2")  # the two discards before the first ball in started()


def deal_order(hand0: Sequence[str], hand1: Sequence[str], top: Sequence[str] = ()) -> list[int]:
    """A shuffle order (indices into PACK) dealing these 7-card hands, then ``top`` as the
    first cards of the draw pile, then the rest of the pack in pack order."""
    dealt = [card for pair in zip(hand0, hand1, strict=True) for card in pair]
    free = list(range(len(PACK)))
    order = []
    for text in [*dealt, *top]:
        index = next(i for i in free if PACK[i] == card_code(text))
        free.remove(index)
        order.append(index)
    return order + free


def started(
    batter_hand: Sequence[str],
    bowler_hand: Sequence[str],
    top: Sequence[str] = (),
    settings: ArmchairSettings | None = None,
) -> ArmchairMatch:
    """Seat 0 won the toss and bats first; both discarded FILLER cards; six cards each."""
    match = ArmchairMatch(settings)
    hand0 = [*batter_hand, FILLER[1]]
    hand1 = [*bowler_hand, FILLER[0]]
    match.apply({"type": "shuffle", "order": deal_order(hand0, hand1, top)})
    match.apply({"type": "toss", "winner": 0})
    match.apply({"type": "choose", "player": 0, "bat_first": 0})
    match.apply({"type": "discard", "player": 1, "card": FILLER[0]})
    match.apply({"type": "discard", "player": 0, "card": FILLER[1]})
    return match


def ball(match: ArmchairMatch, bowled: str, played: str) -> None:
    state = match.state
    match.apply({"type": "bowl", "player": state.bowler, "card": bowled})
    match.apply({"type": "bat", "player": state.batter, "card": played})


def with_innings(match: ArmchairMatch, *innings: Innings) -> ArmchairMatch:
    """The same cards, a scorecard written by hand; the last innings is in play."""
    return ArmchairMatch.from_state(replace(match.state, innings=innings, phase="bowl"))


def done(number: int, batting: int, runs: int, wickets: int = 3) -> Innings:
    return Innings(number, batting, 1, runs, wickets, 30, closed=True, last_deck=1)


def assert_illegal(match: ArmchairMatch, action: Any, code: str) -> IllegalAction:
    before = match.state
    with pytest.raises(IllegalAction) as caught:
        match.apply(action)
    assert caught.value.code == code
    assert match.state == before
    return caught.value


def accounted(state: ArmchairState) -> bool:
    cards = Counter(state.pile) + Counter(state.discards)
    cards += Counter(state.hands[0]) + Counter(state.hands[1])
    return cards == Counter(PACK)


def random_action(
    match: ArmchairMatch, rng: random.Random, careful: bool = False
) -> dict[str, Any]:
    """A random legal action for whoever acts now (the batter declares now and then).

    A ``careful`` batter picks among the cards that do not lose a wicket, if any: matches
    then last long enough to reach the deck limit."""
    turn = match.to_act
    assert turn is not None
    if turn.seat is None:
        return chance_action(match.state, rng)
    if turn.kind == "bowl" and rng.random() < 0.01:
        return {"type": "declare", "player": match.state.batter}
    options = match.legal_actions()
    if careful and turn.kind == "bat":
        bowled = str(match.view().bowled)
        safe = [a for a in options if delivery_outcome(bowled, a["card"])[0] != "wicket"]
        options = safe or options
    return rng.choice(options)


def play_out(
    match: ArmchairMatch, rng: random.Random, careful: bool = False, limit: int = 100_000
) -> list[dict[str, Any]]:
    log = []
    for _ in range(limit):
        if match.finished:
            return log
        action = random_action(match, rng, careful)
        match.apply(action)
        log.append(action)
    raise AssertionError("the match did not end")
