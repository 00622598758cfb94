"""The Cup engines' outcomes, legal actions in known states and what each seat sees."""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.common.errors import IllegalAction
from games.common.outcome import Outcome
from games.dice_cup import (
    BettingFinal,
    DropMatch,
    GroupMatch,
    HPMatch,
    OrderMatch,
    ThirdPlaceChoice,
)

from .helpers import MATCH_FACTORIES, legal_action, play_round, roll


def choose(match: HPMatch, player: int, choice: str) -> None:
    match.apply({"type": "choose", "player": player, "choice": choice})


def vote(match: GroupMatch, player: int, value: str) -> None:
    match.apply({"type": "draw_vote", "player": player, "vote": value})


def bet(match: BettingFinal, player: int, action: str) -> None:
    match.apply({"type": "bet", "player": player, "action": action})


# -- outcomes -------------------------------------------------------------------------------


def test_group_win_is_played_with_round_wins() -> None:
    match = GroupMatch()
    for _ in range(3):
        assert match.outcome is None
        first_wins = match.first_roller == 0
        play_round(match, 6 if first_wins else 1, 1 if first_wins else 6)
    assert match.outcome == Outcome(0, "win", (3, 0), "played")


def group_at_deciding_tie() -> GroupMatch:
    match = GroupMatch()
    for first, second in [(6, 1), (6, 1), (1, 6), (1, 6), (4, 4)]:
        play_round(match, first, second)
    assert match.score == (2, 2) and match.voting
    return match


def test_group_agreed_draw_is_a_draw_not_a_tie() -> None:
    match = group_at_deciding_tie()
    assert match.legal_actions(1) == [
        {"type": "draw_vote", "player": 1, "vote": "draw"},
        {"type": "draw_vote", "player": 1, "vote": "reroll"},
    ]
    vote(match, 0, "draw")
    assert match.legal_actions(0) == [] and match.outcome is None
    vote(match, 1, "draw")
    assert match.outcome == Outcome(None, "draw", (2, 2), "agreed_draw")
    assert match.view()["outcome"] == {
        "winner": None, "result": "draw", "score": [2, 2], "how": "agreed_draw"}


def test_group_reroll_goes_back_to_rolling() -> None:
    match = group_at_deciding_tie()
    vote(match, 1, "reroll")
    assert match.legal_actions() == [{"type": "roll", "player": match.first_roller}]


@pytest.mark.parametrize(("cls", "fields"), [
    (OrderMatch, {"order": [1, 2, 3]}),
    (DropMatch, {"drop": 4}),
])
def test_declared_formats_list_every_declaration_then_the_roll(cls, fields) -> None:  # type: ignore[no-untyped-def]
    match = cls()
    declarations = [a for a in match.legal_actions(0) if a["type"] == "declare"]
    assert len(declarations) == (6 if cls is OrderMatch else 4)
    assert not any(a["type"] == "roll" for a in match.legal_actions())
    match.apply({"type": "declare", "player": 0, **fields})
    assert {"type": "roll", "player": 0} in match.legal_actions(0)
    roll(match, 0, 5)
    assert match.legal_actions(0) == [{"type": "roll", "player": 0}]  # declaration locked


def test_order_match_outcome() -> None:
    match = OrderMatch(wins_needed=1)
    for p in (0, 1):
        match.apply({"type": "declare", "player": p, "order": [1, 2, 3]})
    roll(match, 0, 6, 6, 6)
    roll(match, 1, 1, 1, 1)
    assert match.outcome == Outcome(0, "win", (1, 0), "played")


def hp_knockout() -> HPMatch:
    match = HPMatch()
    for _ in range(4):
        choose(match, 0, "attack")
        choose(match, 1, "attack")
        roll(match, 0, 6)
        roll(match, 1, 1)
    return match


def test_hp_outcome_is_a_knockout_scored_in_hp() -> None:
    match = hp_knockout()
    assert match.hp == (16, -4)
    assert match.outcome == Outcome(0, "win", (16, -4), "knockout")
    assert match.legal_actions() == []


def test_betting_outcomes_by_how_the_final_ended() -> None:
    showdown = BettingFinal(payout="pot")
    for _ in range(3):
        for die0, die1 in [(6, 1), (6, 3), (6, 5)]:  # 6-6-6 against the nothing 1-3-5
            roll(showdown, 0, die0)
            roll(showdown, 1, die1)
            actor = showdown.to_act
            bet(showdown, actor, "check")
            bet(showdown, 1 - actor, "check")
    assert showdown.outcome == Outcome(0, "win", (3, 0), "played")

    folds = BettingFinal()
    for _ in range(3):
        roll(folds, 0, 6)
        roll(folds, 1, 1)
        bet(folds, 0, "fold")  # the higher die acts first and gives the hand away
    assert folds.outcome == Outcome(1, "win", (0, 3), "fold")

    broke = BettingFinal(chips=2)  # the loser pays 1 × (5 − 1), capped at the 1 chip left
    for die0, die1 in [(6, 1), (6, 3), (6, 5)]:
        roll(broke, 0, die0)
        roll(broke, 1, die1)
        actor = broke.to_act
        bet(broke, actor, "check")
        bet(broke, 1 - actor, "check")
    assert broke.chips == (4, 0)
    assert broke.outcome == Outcome(0, "win", (1, 0), "ante")


def test_betting_lists_exactly_the_bets_and_each_raise() -> None:
    match = BettingFinal(chips=5)
    roll(match, 0, 2)
    assert match.legal_actions() == [{"type": "roll", "player": 1}]
    roll(match, 1, 2)
    assert match.legal_actions() == [{"type": "try", "player": 0}]
    match.apply({"type": "try", "player": 0, "success": False})
    assert match.legal_actions(0) == []
    assert [(a["action"], a.get("amount")) for a in match.legal_actions(1)] == [
        ("check", None), ("raise", 1), ("raise", 2), ("raise", 3), ("raise", 4),
        ("allin", None), ("fold", None)]
    match.apply({"type": "bet", "player": 1, "action": "raise", "amount": 2})
    assert [a["action"] for a in match.legal_actions(0)] == [
        "call", "raise", "raise", "allin", "fold"]


def test_third_place_outcomes() -> None:
    same = ThirdPlaceChoice()
    same.apply({"type": "pick", "player": 0, "format": "hp"})
    same.apply({"type": "pick", "player": 1, "format": "hp"})
    assert same.outcome == Outcome(None, "tie", (1, 1), "same_pick")

    for success, winner in [(True, 0), (False, 1)]:
        tried = ThirdPlaceChoice()
        tried.apply({"type": "pick", "player": 0, "format": "hp"})
        tried.apply({"type": "pick", "player": 1, "format": "drop"})
        assert tried.legal_actions() == [{"type": "try", "player": 0}]
        tried.apply({"type": "try", "player": 0, "success": success})
        score = (1, 0) if winner == 0 else (0, 1)
        assert tried.outcome == Outcome(winner, "win", score, "try")

    late = ThirdPlaceChoice()
    late.apply({"type": "pick", "player": 0, "format": "hp"})
    assert all(a["player"] == 1 for a in late.legal_actions())  # the organiser is not a seat
    late.apply({"type": "organiser_pick", "format": "hp"})
    assert late.outcome == Outcome(None, "draw", (1, 0), "organiser_pick")


def test_the_deadline_closes_the_vote_to_the_players() -> None:
    vote = ThirdPlaceChoice()
    vote.apply({"type": "pick", "player": 0, "format": "hp"})
    vote.apply({"type": "deadline"})
    assert vote.closed and vote.expecting == [] and vote.legal_actions() == []
    with pytest.raises(IllegalAction) as refused:
        vote.apply({"type": "pick", "player": 1, "format": "drop"})
    assert refused.value.code == "vote_closed" and not vote.has_picked(1)
    with pytest.raises(IllegalAction):
        vote.apply({"type": "deadline"})  # once
    vote.apply({"type": "organiser_pick", "format": "drop"})
    assert vote.result == "drop"


def test_no_deadline_once_both_picked() -> None:
    vote = ThirdPlaceChoice()
    vote.apply({"type": "pick", "player": 0, "format": "hp"})
    vote.apply({"type": "pick", "player": 1, "format": "drop"})
    with pytest.raises(IllegalAction) as refused:
        vote.apply({"type": "deadline"})
    assert refused.value.code == "not_needed"


# -- what each seat sees ----------------------------------------------------------------------


def views(match) -> dict:  # type: ignore[no-untyped-def]
    return {seat: json.dumps(match.view(seat), sort_keys=True) for seat in (None, 0, 1)}


@pytest.mark.parametrize("seed", range(30))
def test_an_hp_choice_is_invisible_to_others_until_both_are_in(seed: int) -> None:
    """Choosing attack or defend changes nothing the opponent or the group can see."""
    rng = random.Random(seed)
    match = HPMatch()
    while not match.finished:
        for player in (0, 1):
            if match.has_chosen(player) or match.both_chosen:
                continue
            attack, defend = copy.deepcopy(match), copy.deepcopy(match)
            choose(attack, player, "attack")
            choose(defend, player, "defend")
            seen_attack, seen_defend = views(attack), views(defend)
            if match.has_chosen(1 - player):  # the second choice reveals both
                assert seen_attack[None] != seen_defend[None]
                assert attack.view(None)["choices"][player] == "attack"
            else:
                assert seen_attack[None] == seen_defend[None]
                assert seen_attack[1 - player] == seen_defend[1 - player]
                assert attack.view(player)["choices"][player] == "attack"
                assert attack.view(None)["choices"] == [None, None]
        match.apply(legal_action(match, rng))


def test_hp_view_before_any_round_has_no_choice_word() -> None:
    match = HPMatch()
    choose(match, 1, "defend")
    for seat in (None, 0):
        text = json.dumps(match.view(seat))
        assert "defend" not in text and "attack" not in text
    assert match.view(1)["choices"] == [None, "defend"]
    assert match.view(None)["chosen"] == [False, True]


def test_third_place_pick_is_hidden_until_both_picked() -> None:
    match = ThirdPlaceChoice()
    match.apply({"type": "pick", "player": 1, "format": "betting"})
    for seat in (None, 0):
        shown = {k: v for k, v in match.view(seat).items() if k != "available"}
        assert "betting" not in json.dumps(shown)
        assert match.view(seat)["picks"] == [None, None]
    assert match.view(1)["picks"] == [None, "betting"]
    match.apply({"type": "pick", "player": 0, "format": "hp"})
    assert match.view(None)["picks"] == ["hp", "betting"]


@pytest.mark.parametrize("name", ["group", "order", "drop", "betting", "betting_pot"])
@pytest.mark.parametrize("seed", range(5))
def test_open_formats_show_every_seat_the_same(name: str, seed: int) -> None:
    rng = random.Random(seed)
    match = MATCH_FACTORIES[name]()
    while not match.finished:
        seen = views(match)
        assert seen[None] == seen[0] == seen[1]
        match.apply(legal_action(match, rng))
    assert match.view()["outcome"] == match.outcome.to_dict()
