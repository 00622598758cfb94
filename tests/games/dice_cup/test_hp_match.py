"""HPMatch: hidden choices, then both dice, then the battle resolves."""

from __future__ import annotations

from games.dice_cup import HPMatch

from .helpers import assert_illegal, roll


def choose(match: HPMatch, player: int, choice: str) -> None:
    match.apply({"type": "choose", "player": player, "choice": choice})


def test_round_flow_and_hidden_choices() -> None:
    match = HPMatch()
    assert match.round == 1
    assert match.expecting == [(0, "choose"), (1, "choose")]
    choose(match, 1, "attack")
    assert match.has_chosen(1) and not match.has_chosen(0)
    assert not match.both_chosen and match.revealed_choices is None
    assert match.choice_of(1) == "attack"
    assert_illegal(match, {"type": "choose", "player": 1, "choice": "defend"}, "already_chosen")
    assert_illegal(match, {"type": "roll", "player": 1, "value": 4}, "choose_first")
    choose(match, 0, "defend")
    assert match.revealed_choices == ("defend", "attack")
    assert match.expecting == [(0, "roll"), (1, "roll")]
    roll(match, 1, 4)
    assert_illegal(match, {"type": "roll", "player": 1, "value": 4}, "already_rolled")
    assert match.rolls == (None, 4)
    roll(match, 0, 3)
    assert match.hp == (16, 20)  # defence at full HP heals nothing
    assert match.defences == (1, 0)
    assert match.round == 2 and not match.both_chosen and match.rolls == (None, None)
    assert match.history[0].rolls == (3, 4)


def test_match_ends_at_the_battle_winner() -> None:
    match = HPMatch(hp=5)
    choose(match, 0, "attack")
    choose(match, 1, "attack")
    roll(match, 0, 6)
    roll(match, 1, 2)
    assert match.finished and match.winner == 0 and not match.draw
    assert match.hp == (3, -1)
    assert match.round == 1 and match.expecting == []
    assert_illegal(match, {"type": "choose", "player": 0, "choice": "attack"}, "match_over")


def test_bad_choice() -> None:
    assert_illegal(HPMatch(), {"type": "choose", "player": 0, "choice": "атака"}, "bad_choice")


def test_the_hp_a_battle_can_end_at() -> None:
    match = HPMatch(hp=20)
    assert match.can_end(3, -2) and match.can_end(20, 0) and match.can_end(0, -2)
    assert not match.can_end(25, 0)  # more than the starting HP
    assert not match.can_end(25, 3) and not match.can_end(3, 1)  # the loser above 0
    assert not match.can_end(-2, 0) and not match.can_end(0, 0)  # the winner not above
    assert not match.can_end(3, -6)  # under the fewest one die leaves
