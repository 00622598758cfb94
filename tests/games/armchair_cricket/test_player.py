"""The bot player: legal, deterministic, blind to hidden cards, and better than chance."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from games.armchair_cricket import (
    ArmchairMatch,
    ArmchairSettings,
    chance_action,
    choose_action,
    delivery_outcome,
)
from games.armchair_cricket.state import Innings

from .helpers import ball, done, random_action, started, with_innings

HAND = ["BAT 8", "BALL 9", "PADS 3", "GLOVES 2", "STUMPS 4", "BAT 1"]
OTHER = ["BAT 5", "BAT 6", "BALL 7", "STUMPS 8", "GLOVES 10", "PADS 11"]


def bot_versus_random(seed: int) -> tuple[int, ArmchairMatch]:
    """One match; the bot sits in seat ``seed % 2``. The bot's batting side is asked
    before each ball whether it declares."""
    rng = random.Random(seed)
    bot = seed % 2
    match = ArmchairMatch()
    while not match.finished:
        turn = match.to_act
        assert turn is not None
        action: dict[str, Any] | None = None
        if turn.seat is None:
            action = chance_action(match.state, rng)
        elif bot in (turn.seat, match.state.batter):
            action = choose_action(match.state, bot)
        action = action or rng.choice(match.legal_actions())
        match.apply(action)
    return bot, match


def test_the_bot_beats_a_random_player() -> None:
    wins = 0
    for seed in range(500):
        bot, match = bot_versus_random(seed)
        wins += match.winner == bot
    assert wins >= 0.7 * 500


def greedy(match: ArmchairMatch) -> dict[str, Any]:
    """A simple baseline: bowl the highest card; bat for the most runs without a wicket,
    else the lowest safe card; never exchange."""
    options = match.legal_actions()
    turn = match.to_act
    assert turn is not None
    if turn.kind == "bowl":
        return max(options, key=lambda action: int(action["card"].split()[1]))
    if turn.kind == "bat":
        bowled = str(match.view().bowled)

        def gain(action: dict[str, Any]) -> tuple[bool, int, int]:
            result, runs = delivery_outcome(bowled, action["card"])
            return result != "wicket", runs, -int(action["card"].split()[1])

        return max(options, key=gain)
    return options[0]


def test_the_bot_beats_a_greedy_baseline() -> None:
    wins = 0
    for seed in range(200):
        rng, bot, match = random.Random(seed), seed % 2, ArmchairMatch()
        while not match.finished:
            turn = match.to_act
            assert turn is not None
            if turn.seat is None:
                match.apply(chance_action(match.state, rng))
                continue
            action = (
                choose_action(match.state, bot) if bot in (turn.seat, match.state.batter) else None
            )
            match.apply(action or greedy(match))
        wins += match.winner == bot
    assert wins >= 0.6 * 200


def test_every_bot_action_is_legal_and_the_bot_plays_itself_to_the_end() -> None:
    for seed in range(10):
        rng = random.Random(seed)
        match = ArmchairMatch(ArmchairSettings(deck_limit=3))
        while not match.finished:
            turn = match.to_act
            assert turn is not None
            if turn.seat is None:
                match.apply(chance_action(match.state, rng))
                continue
            action = choose_action(match.state, turn.seat, rng)
            assert action in match.legal_actions()
            match.apply(action)
        assert match.state.deck <= 4


def test_the_same_state_gives_the_same_action() -> None:
    rng = random.Random(7)
    match = ArmchairMatch()
    while not match.finished:
        turn = match.to_act
        assert turn is not None
        if turn.seat is not None:
            first = choose_action(match.state, turn.seat)
            assert all(choose_action(match.state, turn.seat) == first for _ in range(3))
        match.apply(random_action(match, rng))


def test_hidden_cards_do_not_change_the_bots_choice() -> None:
    """Swap the opponent's hand with cards from the draw pile: the same decision."""
    rng = random.Random(3)
    match = ArmchairMatch()
    checked = 0
    while not match.finished:
        turn = match.to_act
        assert turn is not None
        if turn.seat is not None and turn.kind in ("bowl", "bat", "exchange"):
            seat = turn.seat
            state = match.state
            theirs, pile = state.hands[1 - seat], state.pile
            if len(pile) >= len(theirs):
                hands = list(state.hands)
                hands[1 - seat] = tuple(sorted(pile[: len(theirs)]))
                swapped = replace(
                    state, hands=(hands[0], hands[1]), pile=theirs + pile[len(theirs) :]
                )
                assert choose_action(swapped, seat) == choose_action(state, seat)
                checked += 1
        match.apply(random_action(match, rng))
    assert checked > 20


def test_the_bot_does_not_give_its_wicket_away() -> None:
    for seed in range(40):
        rng = random.Random(seed)
        match = ArmchairMatch()
        while not match.finished:
            turn = match.to_act
            assert turn is not None
            if turn.kind == "bat":
                bowled = str(match.view().bowled)
                results = {delivery_outcome(bowled, a["card"])[0] for a in match.legal_actions()}
                action = choose_action(match.state, turn.seat)  # type: ignore[arg-type]
                assert action is not None
                if results != {"wicket"}:
                    assert delivery_outcome(bowled, action["card"])[0] != "wicket"
                match.apply(action)
                continue
            match.apply(random_action(match, rng))


def chasing(runs: int) -> ArmchairMatch:
    """B (seat 1, holding HAND) needs 42 − 29 = 13 in the fourth innings against 41."""
    match = started(OTHER, HAND)
    live = Innings(4, 1, 1, runs, 1, 20, target=13)
    return with_innings(match, done(1, 0, 23), done(2, 1, 29), done(3, 0, 18), live)


def test_the_bot_takes_the_winning_run() -> None:
    match = chasing(runs=12)
    match.apply({"type": "bowl", "player": 0, "card": "BAT 5"})
    assert choose_action(match.state, 1) == {"type": "bat", "player": 1, "card": "BAT 8"}


def test_without_the_chase_the_bot_keeps_its_high_card_and_plays_safe() -> None:
    match = chasing(runs=0)
    match.apply({"type": "bowl", "player": 0, "card": "GLOVES 10"})
    action = choose_action(match.state, 1)
    assert action is not None and delivery_outcome("GLOVES 10", action["card"])[0] == "safe"
    assert action["card"] == "GLOVES 2"  # same suit, lower: safe and cheap


def test_the_bowler_prefers_a_card_that_is_hard_to_answer() -> None:
    match = started(HAND, OTHER)
    action = choose_action(match.state, 1)
    assert action is not None and action["card"] in ("PADS 11", "GLOVES 10")


def test_after_a_wicket_the_bot_exchanges_low_cards_it_does_not_need() -> None:
    hand = ["BAT 8", "BAT 1", "BAT 2", "BALL 9", "GLOVES 3", "STUMPS 10"]
    match = started(hand, OTHER, top=["PADS 10", "STUMPS 11"])
    ball(match, "PADS 11", "GLOVES 3")  # a wicket
    action = choose_action(match.state, 0)
    assert action == {"type": "exchange", "player": 0, "cards": ["BAT 1", "BAT 2"]}


def test_the_bot_keeps_a_low_card_that_is_its_only_one_of_a_suit() -> None:
    hand = ["BAT 8", "BALL 1", "PADS 9", "GLOVES 3", "STUMPS 10", "BAT 2"]
    match = started(hand, OTHER, top=["PADS 10", "STUMPS 9"])
    ball(match, "PADS 11", "GLOVES 3")
    action = choose_action(match.state, 0)
    assert action == {"type": "exchange", "player": 0, "cards": ["BAT 2"]}


def third_innings(lead: int, deck: int) -> ArmchairMatch:
    match = started(HAND, OTHER, settings=ArmchairSettings(deck_limit=5))
    match = ArmchairMatch.from_state(replace(match.state, deck=deck))
    live = Innings(3, 0, 1, 10 + lead, 0, 30)
    return with_innings(match, done(1, 0, 20), done(2, 1, 30), live)


def test_the_bot_declares_far_ahead_near_the_deck_limit() -> None:
    assert choose_action(third_innings(lead=40, deck=4).state, 0) == {
        "type": "declare",
        "player": 0,
    }
    assert choose_action(third_innings(lead=40, deck=2).state, 0) is None
    assert choose_action(third_innings(lead=10, deck=5).state, 0) is None


def test_the_bot_waits_when_it_is_not_its_turn() -> None:
    match = started(HAND, OTHER)
    match.apply({"type": "bowl", "player": 1, "card": "BAT 5"})
    assert choose_action(match.state, 1) is None
    assert choose_action(ArmchairMatch().state, 0) is None
