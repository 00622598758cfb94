"""The bot's own player: deterministic given the state (and an optional ``rng``).

It decides from ``view(state, seat)`` only: its own hand and what is public.

A hand's *risk* is the chance that a uniformly bowled card finds no answer in it. A card
answers a ball of its own suit whatever its value, and a ball of another suit up to its
value, so a hand missing ``k`` suits with highest value ``m`` loses a wicket to
``k × (11 − m)`` of the 55 faces. The batter plays the card whose loss raises that risk
least, valuing runs against it (a winning run always first); the bowler plays the card a
six-card hand is least likely to answer, less the runs it may give away; after a wicket
it exchanges low cards that neither cover a missing suit nor are its highest.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from .actions import MAX_EXCHANGE
from .cards import CARDS, HIGH, PACK, Suit, card_name
from .delivery import RunsTable, outcome_of_codes, runs_for_excess
from .state import ArmchairState
from .view import View, view

FACES = len(CARDS)
SUITS = len(Suit)
WICKET_RUNS = 12  # what a wicket is worth in runs to both players
LAST_WICKET_RUNS = 25
HAND = 6
LOW = 5  # cards up to this value are exchanged when they do no other job
DECLARE_LEAD = 30


def choose_action(
    state: ArmchairState, seat: int, rng: random.Random | None = None
) -> dict[str, Any] | None:
    """The bot's action for ``seat``; ``None`` when ``seat`` has nothing to do now.

    When the bowler is to act, the batting seat is asked too: it may declare.
    """
    seen = view(state, seat)
    turn = seen.to_act
    if turn is None or turn.seat is None:
        return None
    if turn.seat != seat:
        return _declare(seen) if turn.kind == "bowl" and seat == seen.batter else None
    hand = tuple(card.code for card in seen.hand or ())
    kind = turn.kind
    if kind == "choose":
        return {"type": "choose", "player": seat, "bat_first": 1 - seat}
    if kind == "exchange":
        return _declare(seen) or _exchange(seat, hand)
    if kind == "bat":
        assert seen.bowled is not None
        card = _bat(seen, hand, seen.bowled.code)
    elif kind == "bowl":
        card = _bowl(hand, seen.settings.runs_table, rng)
    else:
        card = _cheapest(hand, hand, rng)
    return {"type": kind, "player": seat, "card": card_name(card)}


def risk(hand: Iterable[int]) -> float:
    """Chance that a uniformly drawn bowled card takes a wicket against ``hand``."""
    codes = tuple(hand)
    if not codes:
        return 1.0
    missing = SUITS - len({code // HIGH for code in codes})
    return missing * (HIGH - 1 - max(code % HIGH for code in codes)) / FACES


def _without(hand: tuple[int, ...], code: int) -> tuple[int, ...]:
    index = hand.index(code)
    return hand[:index] + hand[index + 1 :]


def _cheapest(hand: tuple[int, ...], options: Iterable[int], rng: random.Random | None) -> int:
    """The option whose loss leaves the safest hand; lower values go first."""
    ranked = sorted(set(options), key=lambda code: (risk(_without(hand, code)), code % HIGH))
    best = [
        code for code in ranked if risk(_without(hand, code)) == risk(_without(hand, ranked[0]))
    ]
    return rng.choice(best) if rng is not None else ranked[0]


def _bat(seen: View, hand: tuple[int, ...], bowled: int) -> int:
    innings = seen.innings[-1]
    table = seen.settings.runs_table
    wicket_cost = WICKET_RUNS if innings.wickets + 1 < seen.settings.wickets else LAST_WICKET_RUNS
    needed = _runs_needed(seen)
    best, best_score = hand[0], float("-inf")
    for code in sorted(set(hand)):
        result, runs = outcome_of_codes(bowled, code, table)
        if needed is not None and runs >= needed:
            return code
        score = runs - wicket_cost * risk(_without(hand, code)) - (result == "wicket") * 1000
        if score > best_score:
            best, best_score = code, score
    return best


def _runs_needed(seen: View) -> int | None:
    innings = seen.innings[-1]
    return None if innings.target is None else innings.target - innings.runs


def _bowl(hand: tuple[int, ...], table: RunsTable, rng: random.Random | None) -> int:
    unseen = len(PACK) - len(hand)
    scores = {}
    for code in set(hand):
        suit, value = divmod(code, HIGH)
        mine = [other for other in hand if other // HIGH != suit and other % HIGH < value]
        beaten = 2 * (SUITS - 1) * value - len(mine)
        wicket = (beaten / unseen) ** HAND
        higher = 2 * (HIGH - 1 - value) - sum(
            1 for o in hand if o // HIGH == suit and o % HIGH > value
        )
        runs = (
            0.5 * (1 - (1 - higher / unseen) ** HAND) * runs_for_excess(1, table) if higher else 0
        )
        scores[code] = WICKET_RUNS * wicket - runs - WICKET_RUNS * risk(_without(hand, code)) / 4
    top = max(scores.values())
    best = sorted(code for code, score in scores.items() if score == top)
    return rng.choice(best) if rng is not None else best[0]


def _exchange(seat: int, hand: tuple[int, ...]) -> dict[str, Any]:
    chosen: list[int] = []
    rest = hand
    for code in sorted(hand, key=lambda code: code % HIGH):
        if len(chosen) == MAX_EXCHANGE or code % HIGH >= LOW:
            break
        if risk(_without(rest, code)) <= risk(rest):
            chosen.append(code)
            rest = _without(rest, code)
    return {
        "type": "exchange",
        "player": seat,
        "cards": [card_name(code) for code in sorted(chosen)],
    }


def _declare(seen: View) -> dict[str, Any] | None:
    """Declare A's second innings when far ahead and the deck limit is near: a large lead
    is worth more than a draw at the limit."""
    innings = seen.innings[-1]
    if innings.number != 3 or seen.settings.deck_limit - seen.deck > 1:
        return None
    a, b = seen.innings[0].runs + innings.runs, seen.innings[1].runs
    if a - b < DECLARE_LEAD:
        return None
    return {"type": "declare", "player": innings.batting}
