"""Quarter-final: declare which of four throws will not count, roll four dice."""

from __future__ import annotations

from games.common.match import Action

from .numbers import check_drop, drop_number
from .rounds import DeclaredRounds


class DropMatch(DeclaredRounds):
    """Action ``{"type": "declare", "player": p, "drop": 3}`` then four rolls each."""

    dice_per_round = 4

    def _parse_declaration(self, action: Action) -> int:
        return check_drop(action.get("drop"))

    def _number(self, dice: tuple[int, ...], declaration: int) -> int:
        return drop_number(dice, declaration)

    def _declaration_choices(self) -> list[Action]:
        return [{"drop": position} for position in range(1, self.dice_per_round + 1)]
