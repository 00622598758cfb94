"""Semi-final: the HP battle played as hidden choices followed by one die each."""

from __future__ import annotations

from typing import Any

from games.common.errors import IllegalAction
from games.common.match import Action, seats, shallow
from games.common.outcome import Outcome
from games.common.views import expecting_list, jsonable

from .actions import action_type, die_value, one_of, player_of
from .hp import CHOICES, HPBattle, HPRound

LOWEST_HP = 1 - 6
"""The fewest HP a battle can end at: a player at 1 HP hit by a 6."""


class HPMatch:
    """Each round: both ``{"type": "choose", "player": p, "choice": "attack" | "defend"}``
    (hidden, final once sent), then both ``{"type": "roll", "player": p, "value": v}`` in any
    order. The round resolves on the second die; the match ends when the battle has a winner.

    A choice is only readable through :meth:`choice_of` (or :attr:`revealed_choices` once
    both are in) so that rendering code cannot leak it by accident; ``view(seat)`` shows a
    choice to its owner only, and to everyone once both players have chosen that round.

    ``outcome``: a win with ``how="knockout"`` (the battle ends only when a player is at
    0 HP or below) and the final HP as the score; HP may be negative. ``legal_actions``
    lists both choices for a player still to choose, then ``{"type": "roll", "player": p}``
    as a template (any ``value`` 1–6).
    """

    def __init__(self, hp: int = 20) -> None:
        self._battle = HPBattle(hp)
        self._choices: list[str | None] = [None, None]
        self._rolls: list[int | None] = [None, None]
        self._history: list[HPRound] = []

    def __replica__(self) -> HPMatch:
        """An independent copy, cheaper than replaying a choice or a die on a spare: the
        attributes, with the battle and every list the engine changes in place copied."""
        new = shallow(self)
        new._battle = self._battle.__replica__()
        new._choices, new._rolls = list(self._choices), list(self._rolls)
        new._history = list(self._history)
        return new

    @property
    def round(self) -> int:
        """Number of the round being played (the last one once finished)."""
        return len(self._history) + (0 if self.finished else 1)

    @property
    def hp(self) -> tuple[int, int]:
        return self._battle.hp

    def final_scores(self) -> tuple[tuple[int, int], ...] | None:
        """None: the score is the HP left, any two numbers (the winner's the higher)."""
        return None

    @property
    def start_hp(self) -> int:
        return self._battle.start_hp

    def can_end(self, won: int, lost: int) -> bool:
        """Whether the battle can end with the winner at ``won`` HP and the loser at
        ``lost``: the loser at 0 or below (not under :data:`LOWEST_HP`), the winner above
        the loser and at most the starting HP."""
        return LOWEST_HP <= lost <= 0 and lost < won <= self.start_hp

    @property
    def defences(self) -> tuple[int, int]:
        """Defences since each player's last attack: their next heal is roll minus this."""
        return self._battle.defences

    @property
    def history(self) -> tuple[HPRound, ...]:
        return tuple(self._history)

    @property
    def finished(self) -> bool:
        return self._battle.winner is not None

    @property
    def winner(self) -> int | None:
        return self._battle.winner

    @property
    def draw(self) -> bool:
        return False

    @property
    def outcome(self) -> Outcome | None:
        winner = self.winner
        return None if winner is None else Outcome.win(winner, self.hp, "knockout")

    @property
    def both_chosen(self) -> bool:
        return None not in self._choices

    def has_chosen(self, player: int) -> bool:
        return self._choices[player] is not None

    def choice_of(self, player: int) -> str | None:
        """The player's hidden choice this round; show it only to that player."""
        return self._choices[player]

    @property
    def revealed_choices(self) -> tuple[str, str] | None:
        """Both choices once both are in (they may then be shown), else None."""
        c0, c1 = self._choices
        return None if c0 is None or c1 is None else (c0, c1)

    @property
    def rolls(self) -> tuple[int | None, int | None]:
        """This round's dice so far."""
        return self._rolls[0], self._rolls[1]

    @property
    def expecting(self) -> list[tuple[int, str]]:
        if self.finished:
            return []
        if not self.both_chosen:
            return [(p, "choose") for p in (0, 1) if self._choices[p] is None]
        return [(p, "roll") for p in (0, 1) if self._rolls[p] is None]

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """What ``apply`` accepts now; a roll is a template: any ``value`` 1–6."""
        asked = seats(seat)
        if self.finished:
            return []
        if not self.both_chosen:
            return [
                {"type": "choose", "player": p, "choice": choice}
                for p in asked
                if self._choices[p] is None
                for choice in CHOICES
            ]
        return [{"type": "roll", "player": p} for p in asked if self._rolls[p] is None]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see: this round's choices stay hidden until both are in."""
        seats(seat)
        return {
            "round": self.round,
            "start_hp": self.start_hp,
            "hp": list(self.hp),
            "defences": list(self.defences),
            "history": jsonable(self.history),
            "chosen": [self.has_chosen(p) for p in (0, 1)],
            "choices": [self._visible_choice(p, seat) for p in (0, 1)],
            "rolls": list(self.rolls),
            "expecting": expecting_list(self.expecting),
            "finished": self.finished,
            "outcome": jsonable(self.outcome),
        }

    def _visible_choice(self, player: int, seat: int | None) -> str | None:
        return self._choices[player] if self.both_chosen or player == seat else None

    def apply(self, action: Action) -> None:
        """Apply one action or raise :class:`IllegalAction` leaving the state unchanged."""
        kind = action_type(action, ("choose", "roll"))
        player = player_of(action)
        if self.finished:
            raise IllegalAction("match_over")
        if kind == "choose":
            choice = one_of(action, "choice", CHOICES, "bad_choice")
            if self._choices[player] is not None:
                raise IllegalAction("already_chosen")
            self._choices[player] = choice
            return
        value = die_value(action)
        if not self.both_chosen:
            raise IllegalAction("choose_first")
        if self._rolls[player] is not None:
            raise IllegalAction("already_rolled")
        self._rolls[player] = value
        c0, c1 = self._choices
        r0, r1 = self._rolls
        if c0 is not None and c1 is not None and r0 is not None and r1 is not None:
            self._history.append(self._battle.play((c0, r0), (c1, r1)))
            self._choices = [None, None]
            self._rolls = [None, None]
