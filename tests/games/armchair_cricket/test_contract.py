"""The bot's form of the match (``games/armchair_cricket/contract.py``) and typed moves."""

from __future__ import annotations

import json
import random

from games.armchair_cricket import chance_action, choose_action
from games.armchair_cricket.contract import ArmchairGame
from games.armchair_cricket.words import parse_move, resolve


def _played(seed: int, deck_limit: int = 27) -> ArmchairGame:
    rng = random.Random(seed)
    match = ArmchairGame({"deck_limit": deck_limit})
    while not match.finished:
        turn = match.to_act
        if turn.seat is None:
            match.apply(chance_action(match.state, rng))
        else:
            match.apply(choose_action(match.state, turn.seat, rng))
    return match


def test_outcome_is_the_common_one_with_runs_as_score() -> None:
    for seed in range(5):
        match = _played(seed)
        outcome = match.outcome
        assert outcome.score == match.state.totals
        assert outcome.how == match.state.outcome.ending
        assert outcome.result == match.state.outcome.result
        assert outcome.winner == match.state.outcome.winner


def test_a_small_deck_limit_is_a_draw_not_a_tie() -> None:
    outcome = _played(3, deck_limit=1).outcome
    assert outcome.result == "draw" and outcome.winner is None and outcome.how == "deck_limit"


def test_views_are_json_and_the_public_one_holds_no_hand() -> None:
    match = ArmchairGame()
    rng = random.Random(1)
    match.apply(chance_action(match.state, rng))
    public = match.view(None)
    assert public["hand"] is None and json.dumps(public)
    assert len(match.view(0)["hand"]) == 7 and match.view(0) != public


def test_every_action_moves_the_position_on() -> None:
    match = ArmchairGame()
    rng = random.Random(2)
    positions = [match.position]
    for _ in range(12):
        turn = match.to_act
        action = (chance_action(match.state, rng) if turn.seat is None
                  else choose_action(match.state, turn.seat, rng))
        match.apply(action)
        positions.append(match.position)
    assert positions == list(range(13))


def test_typed_cards_and_exchanges() -> None:
    for text in ("bat 8", "BAT8", "б8", "бита 8", "maila 8", "Bat-8"):
        assert parse_move(text) == {"type": "card", "card": "BAT 8"}
    assert parse_move("swap bat 3 gloves 2") == {"type": "exchange",
                                                 "cards": ["BAT 3", "GLOVES 2"]}
    assert parse_move("обмен б3, п2") == {"type": "exchange", "cards": ["BAT 3", "GLOVES 2"]}
    assert parse_move("vaihda maila 3") == {"type": "exchange", "cards": ["BAT 3"]}
    assert parse_move("swap b1 b2 b3") is None  # "b" is no suit
    assert parse_move("swap б1 б2 б3")["cards"] == ["BAT 1", "BAT 2", "BAT 3"]  # refused later
    assert parse_move("keep") == parse_move("оставить") == {"type": "exchange", "cards": []}
    assert parse_move("оставь") == parse_move("keep hand") == {"type": "exchange", "cards": []}
    for button in ("✋ Keep my hand", "Pidän käteni", "pidä kätesi!", "Оставить руку"):
        assert parse_move(button) == {"type": "exchange", "cards": []}, button
    # "swap" alone names no card: it is no move (keeping the hand is a word of its own)
    for text in ("hello", "bat 12", "бита", "8", "bat 8 please", "", "б8 б9", "обмен", "swap",
                 "vaihda"):
        assert parse_move(text) is None


def test_a_word_read_again_is_a_new_move() -> None:
    """The reading of a word is remembered; each move handed out is the caller's own."""
    first = parse_move("swap bat 3 gloves 2")
    first["cards"].append("BAT 4")
    first["player"] = 1
    assert parse_move("Swap  bat 3 gloves 2") == {"type": "exchange",
                                                  "cards": ["BAT 3", "GLOVES 2"]}
    kept = parse_move("keep")
    kept["cards"].append("BAT 4")
    assert parse_move("keep") == {"type": "exchange", "cards": []}


def test_a_card_becomes_the_move_the_match_waits_for() -> None:
    card = {"type": "card", "card": "BAT 8", "player": 0}
    assert resolve("bat", card)["type"] == "bat"
    assert resolve("discard", card)["type"] == "discard"
    assert resolve("exchange", card)["type"] == "bowl"
    swap = {"type": "exchange", "cards": [], "player": 0}
    assert resolve("bowl", swap) == swap
