"""Round of 16: declare the order of three dice, roll them, read the number in that order."""

from __future__ import annotations

from itertools import permutations

from games.common.match import Action

from .numbers import check_order, order_number
from .rounds import DeclaredRounds

ORDERS = tuple(permutations((1, 2, 3)))  # every declarable order, 123 first


class OrderMatch(DeclaredRounds):
    """Action ``{"type": "declare", "player": p, "order": [3, 1, 2]}`` then three rolls each."""

    dice_per_round = 3

    def _parse_declaration(self, action: Action) -> tuple[int, int, int]:
        return check_order(action.get("order"))

    def _number(self, dice: tuple[int, ...], declaration: tuple[int, int, int]) -> int:
        return order_number(dice, declaration)

    def _declaration_choices(self) -> list[Action]:
        return [{"order": list(order)} for order in ORDERS]
