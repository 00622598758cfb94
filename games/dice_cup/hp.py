"""The semi-final's HP battle as a plain state machine: one call per resolved round."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.common.errors import IllegalAction
from games.common.match import shallow

from .actions import is_int

ATTACK = "attack"
DEFEND = "defend"
CHOICES = (ATTACK, DEFEND)


@dataclass(frozen=True)
class HPRound:
    """One resolved round; every pair is indexed by player."""

    choices: tuple[str, str]
    rolls: tuple[int, int]
    heals: tuple[int, int]  # HP actually gained, after the cap
    damage: tuple[int, int]  # HP lost to the opponent's attack
    hp: tuple[int, int]  # HP after the round


def _move(move: Any) -> tuple[str, int]:
    try:
        choice, roll = move
    except (TypeError, ValueError):
        raise IllegalAction("bad_action", move=move) from None
    if choice not in CHOICES:
        raise IllegalAction("bad_choice", choice=choice)
    if not is_int(roll) or not 1 <= roll <= 6:
        raise IllegalAction("bad_roll", value=roll)
    return choice, roll


class HPBattle:
    """Two players at ``hp``; each round both attack or defend with one die.

    Defence heals ``max(0, roll - k)`` where k counts the player's defences since their last
    attack (an attack resets it). Heals are capped at the starting HP and apply before the
    damage; both sides resolve at once. At 0 HP or below a player loses; if both are down
    after the same round the higher HP wins and equal HP plays on (``winner`` stays None).
    """

    def __init__(self, hp: int = 20) -> None:
        if not is_int(hp) or hp < 1:
            raise ValueError(f"hp must be a positive int, not {hp!r}")
        self._start = hp
        self._hp = [hp, hp]
        self._defences = [0, 0]
        self._winner: int | None = None

    def __replica__(self) -> HPBattle:
        """An independent copy: the attributes, with both lists it changes in place copied."""
        new = shallow(self)
        new._hp, new._defences = list(self._hp), list(self._defences)
        return new

    @property
    def start_hp(self) -> int:
        return self._start

    @property
    def hp(self) -> tuple[int, int]:
        return self._hp[0], self._hp[1]

    @property
    def defences(self) -> tuple[int, int]:
        """Defences since each player's last attack: the k their next heal is reduced by."""
        return self._defences[0], self._defences[1]

    @property
    def winner(self) -> int | None:
        return self._winner

    def play(self, a: tuple[str, int], b: tuple[str, int]) -> HPRound:
        """Resolve one round from each player's ``(choice, roll)``; invalid input changes nothing."""
        if self._winner is not None:
            raise IllegalAction("match_over")
        moves = (_move(a), _move(b))
        heals = [0, 0]
        damage = [0, 0]
        for p, (choice, roll) in enumerate(moves):
            if choice == DEFEND:
                heals[p] = min(self._start - self._hp[p], max(0, roll - self._defences[p]))
                self._defences[p] += 1
            else:
                damage[1 - p] = roll
                self._defences[p] = 0
        for p in (0, 1):
            self._hp[p] += heals[p] - damage[p]
        self._winner = self._decide()
        return HPRound(
            choices=(moves[0][0], moves[1][0]),
            rolls=(moves[0][1], moves[1][1]),
            heals=(heals[0], heals[1]),
            damage=(damage[0], damage[1]),
            hp=self.hp,
        )

    def _decide(self) -> int | None:
        down = [hp <= 0 for hp in self._hp]
        if down[0] and down[1]:
            if self._hp[0] == self._hp[1]:
                return None
            return 0 if self._hp[0] > self._hp[1] else 1
        if down[0]:
            return 1
        if down[1]:
            return 0
        return None
