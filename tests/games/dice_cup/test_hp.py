"""HPBattle: the SPEC's defence, cap and double-knockout examples."""

from __future__ import annotations

import pytest

from games.common.errors import IllegalAction
from games.dice_cup import HPBattle

A, D = "attack", "defend"


def wounded() -> HPBattle:
    """Both at 14 after trading 6s."""
    battle = HPBattle()
    battle.play((A, 6), (A, 6))
    assert battle.hp == (14, 14)
    return battle


def test_defence_heals_roll_then_roll_minus_one_then_minus_two() -> None:
    battle = wounded()
    assert battle.play((D, 2), (D, 1)).heals == (2, 1)
    assert battle.play((D, 3), (D, 1)).heals == (2, 0)  # roll − 1
    assert battle.play((D, 4), (D, 3)).heals == (2, 1)  # roll − 2
    assert battle.hp == (20, 16)
    assert battle.defences == (3, 3)


def test_heal_never_goes_below_zero() -> None:
    battle = wounded()
    for _ in range(3):
        battle.play((D, 1), (A, 1))
    assert battle.defences == (3, 0)
    result = battle.play((D, 2), (A, 1))  # 2 − 3 → 0, not −1
    assert result.heals == (0, 0)


def test_attack_resets_the_defence_count() -> None:
    battle = wounded()
    battle.play((D, 1), (A, 1))
    battle.play((D, 1), (A, 1))
    battle.play((A, 1), (A, 1))
    assert battle.defences == (0, 0)
    assert battle.play((D, 4), (A, 1)).heals == (4, 0)


def test_hp_is_capped_at_the_start_and_heals_apply_before_damage() -> None:
    battle = HPBattle()
    battle.play((A, 1), (A, 2))
    assert battle.hp == (18, 19)
    result = battle.play((D, 6), (A, 5))
    assert result.heals == (2, 0)
    assert battle.hp == (15, 19)  # capped at 20, then −5; not 18 + 6 − 5 = 19


def test_full_hp_defence_heals_nothing() -> None:
    battle = HPBattle()
    battle.play((D, 6), (D, 6))
    assert battle.hp == (20, 20)
    assert battle.defences == (1, 1)


def test_both_to_zero_together_plays_on_then_higher_hp_wins() -> None:
    battle = HPBattle(hp=5)
    battle.play((A, 5), (A, 5))
    assert battle.hp == (0, 0)
    assert battle.winner is None
    battle.play((A, 3), (A, 1))
    assert battle.hp == (-1, -3)
    assert battle.winner == 0


def test_both_down_unequal_higher_wins() -> None:
    battle = HPBattle(hp=4)
    battle.play((A, 6), (A, 5))
    assert battle.hp == (-1, -2)
    assert battle.winner == 0


def test_one_down_loses() -> None:
    battle = HPBattle(hp=6)
    battle.play((A, 6), (D, 5))
    assert battle.hp == (6, 0)
    assert battle.winner == 0
    with pytest.raises(IllegalAction) as caught:
        battle.play((A, 1), (A, 1))
    assert caught.value.code == "match_over"


@pytest.mark.parametrize(
    ("a", "b", "code"),
    [
        (("heal", 3), (A, 3), "bad_choice"),
        ((A, 7), (A, 3), "bad_roll"),
        ((A, 3), (A, 0), "bad_roll"),
        ((A, 3), (A, True), "bad_roll"),
        ((A,), (A, 3), "bad_action"),
        (None, (A, 3), "bad_action"),
    ],
)
def test_bad_moves_change_nothing(a: object, b: object, code: str) -> None:
    battle = wounded()
    with pytest.raises(IllegalAction) as caught:
        battle.play(a, b)  # type: ignore[arg-type]
    assert caught.value.code == code
    assert battle.hp == (14, 14)
    assert battle.defences == (0, 0)
