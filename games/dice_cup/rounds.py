"""Shared mechanics of the rolling formats (group, order, drop).

A match is a series of rounds; in each round both players roll ``dice_per_round`` dice in
turn, the first roller alternating by round number (player 0 in round 1). Higher value wins
the round; an equal round is played again under the same number. First to ``wins_needed``
round wins takes the match. Subclasses only say how dice become a value and what, if
anything, is declared before rolling.

Contract (``games.common.match``): ``outcome`` is a win with the round wins as the score
and ``how="played"``; ``legal_actions`` lists ``{"type": "roll", "player": p}`` as a
template (any ``value`` 1–6) and every declaration in full; nothing is hidden (declarations
are public), so ``view`` is the same for every seat.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from games.common.errors import IllegalAction
from games.common.match import Action, seats, shallow
from games.common.outcome import Outcome
from games.common.views import expecting_list, jsonable

from .actions import action_type, die_value, player_of


@dataclass(frozen=True)
class RoundRecord:
    """One played round (a tied attempt included); pairs are indexed by player."""

    number: int
    dice: tuple[tuple[int, ...], tuple[int, ...]]
    values: tuple[int, int]
    winner: int | None  # None: tied, the round is played again
    declarations: tuple[Any, Any] = (None, None)


class RollingRounds:
    """First to ``wins_needed`` round wins, ties re-rolled; see the module docstring."""

    dice_per_round: ClassVar[int] = 1

    def __init__(self, wins_needed: int = 3) -> None:
        if wins_needed < 1:
            raise ValueError("wins_needed must be at least 1")
        self._wins_needed = wins_needed
        self._score = [0, 0]
        self._round = 1
        self._dice: tuple[list[int], list[int]] = ([], [])
        self._history: list[RoundRecord] = []
        self._finished = False
        self._winner: int | None = None

    # -- what the bot renders ------------------------------------------------------------

    @property
    def round(self) -> int:
        """Number of the round being played (the last one once finished)."""
        return self._round

    @property
    def score(self) -> tuple[int, int]:
        """Round wins."""
        return self._score[0], self._score[1]

    @property
    def wins_needed(self) -> int:
        return self._wins_needed

    def final_scores(self) -> tuple[tuple[int, int], ...] | None:
        """Every score a finished match can have, the winner's (or a draw's) first: what
        an organiser may set (``None``: any score)."""
        return tuple((self._wins_needed, lost) for lost in range(self._wins_needed))

    @property
    def history(self) -> tuple[RoundRecord, ...]:
        return tuple(self._history)

    @property
    def current_dice(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Dice rolled so far in the round being played."""
        return tuple(self._dice[0]), tuple(self._dice[1])

    @property
    def first_roller(self) -> int:
        return (self._round - 1) % 2

    @property
    def roller(self) -> int | None:
        """The player whose die is expected next, None once finished."""
        if self._finished:
            return None
        first = self.first_roller
        return first if len(self._dice[first]) < self.dice_per_round else 1 - first

    @property
    def expecting(self) -> list[tuple[int, str]]:
        roller = self.roller
        return [] if roller is None else [(roller, "roll")]

    @property
    def finished(self) -> bool:
        return self._finished

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def draw(self) -> bool:
        return False

    @property
    def outcome(self) -> Outcome | None:
        if self._winner is None:
            return None
        return Outcome.win(self._winner, self.score, "played")

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """What ``apply`` accepts now; a roll is a template: any ``value`` 1–6."""
        asked = seats(seat)
        if self._finished:
            return []
        return [action for player in asked for action in self._legal_for(player)]

    def _legal_for(self, player: int) -> list[Action]:
        return [{"type": "roll", "player": player}] if player == self.roller else []

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The public state; every seat sees the same."""
        seats(seat)
        return {
            "round": self._round,
            "score": list(self.score),
            "wins_needed": self._wins_needed,
            "first_roller": self.first_roller,
            "roller": self.roller,
            "dice": jsonable(self.current_dice),
            "history": jsonable(self.history),
            "expecting": expecting_list(self.expecting),
            "finished": self._finished,
            "outcome": jsonable(self.outcome),
            **self._view_extra(),
        }

    def _view_extra(self) -> dict[str, Any]:
        return {}

    # -- actions -------------------------------------------------------------------------

    def _handlers(self) -> dict[str, Callable[[int, Action], None]]:
        return {"roll": self._on_roll}

    def __replica__(self) -> Self:
        """An independent copy, a fifteenth of replaying a roll on a spare: the attributes,
        with every list the engine changes in place copied (a subclass copies its own)."""
        new = shallow(self)
        new._score, new._history = list(self._score), list(self._history)
        new._dice = (list(self._dice[0]), list(self._dice[1]))
        return new

    def apply(self, action: Action) -> None:
        """Apply one action or raise :class:`IllegalAction` leaving the state unchanged."""
        handlers = self._handlers()
        kind = action_type(action, handlers)
        player = player_of(action)
        if self._finished:
            raise IllegalAction("match_over")
        handlers[kind](player, action)

    def _check_can_roll(self, player: int) -> None:
        if len(self._dice[player]) >= self.dice_per_round:
            raise IllegalAction("already_rolled")
        if player != self.roller:
            raise IllegalAction("not_your_turn", turn=self.roller)

    def _on_roll(self, player: int, action: Action) -> None:
        value = die_value(action)
        self._check_can_roll(player)
        self._dice[player].append(value)
        if all(len(d) == self.dice_per_round for d in self._dice):
            self._finish_round()

    # -- hooks ---------------------------------------------------------------------------

    def _value(self, player: int, dice: tuple[int, ...]) -> int:
        return dice[0]

    def _declarations(self) -> tuple[Any, Any]:
        return None, None

    def _start_attempt(self) -> None:
        """Reset per-attempt state; subclasses clear what they keep besides the dice."""
        self._dice = ([], [])

    def _on_tie(self) -> None:
        """A tied round is simply played again; the group stage overrides this."""

    # -- round resolution ----------------------------------------------------------------

    def _finish_round(self) -> None:
        dice = self.current_dice
        values = (self._value(0, dice[0]), self._value(1, dice[1]))
        winner = None if values[0] == values[1] else int(values[1] > values[0])
        self._history.append(RoundRecord(self._round, dice, values, winner, self._declarations()))
        self._start_attempt()
        if winner is None:
            self._on_tie()
            return
        self._score[winner] += 1
        if self._score[winner] >= self._wins_needed:
            self._finished = True
            self._winner = winner
        else:
            self._round += 1


class DeclaredRounds(RollingRounds, ABC):
    """Rolling rounds where each player declares how to read their dice before rolling.

    A declaration is public and may be replaced until the player's first die of the round;
    after that it is locked. A tied round is played again with fresh declarations.
    """

    def __init__(self, wins_needed: int = 3) -> None:
        super().__init__(wins_needed)
        self._declared: list[Any] = [None, None]

    def __replica__(self) -> Self:
        new = super().__replica__()
        new._declared = list(self._declared)
        return new

    @property
    def declarations(self) -> tuple[Any, Any]:
        """Current round's declarations (None: not declared yet)."""
        return self._declarations()

    @property
    def expecting(self) -> list[tuple[int, str]]:
        if self._finished:
            return []
        wanted = [(p, "declare") for p in (0, 1) if self._declared[p] is None]
        roller = self.roller
        if roller is not None and self._declared[roller] is not None:
            wanted.append((roller, "roll"))
        return wanted

    def _handlers(self) -> dict[str, Callable[[int, Action], None]]:
        return {**super()._handlers(), "declare": self._on_declare}

    @abstractmethod
    def _parse_declaration(self, action: Action) -> Any:
        """The validated declaration carried by a ``declare`` action."""

    @abstractmethod
    def _number(self, dice: tuple[int, ...], declaration: Any) -> int:
        """The round value of a player's dice under their declaration."""

    @abstractmethod
    def _declaration_choices(self) -> list[Action]:
        """Every declaration's fields, e.g. ``[{"drop": 1}, …]``, in the order to show them."""

    def _legal_for(self, player: int) -> list[Action]:
        actions: list[Action] = []
        if not self._dice[player]:
            actions += [
                {"type": "declare", "player": player, **fields}
                for fields in self._declaration_choices()
                if self._parse_declaration(fields) != self._declared[player]
            ]
        if self._declared[player] is not None:
            actions += super()._legal_for(player)
        return actions

    def _view_extra(self) -> dict[str, Any]:
        return {"declarations": jsonable(self.declarations)}

    def _on_declare(self, player: int, action: Action) -> None:
        declaration = self._parse_declaration(action)
        if self._dice[player]:
            raise IllegalAction("already_declared")
        if declaration == self._declared[player]:  # a double tap: nothing to change
            raise IllegalAction("declared_unchanged")
        self._declared[player] = declaration

    def _check_can_roll(self, player: int) -> None:
        super()._check_can_roll(player)
        if self._declared[player] is None:
            raise IllegalAction("declare_first")

    def _value(self, player: int, dice: tuple[int, ...]) -> int:
        return self._number(dice, self._declared[player])

    def _declarations(self) -> tuple[Any, Any]:
        return self._declared[0], self._declared[1]

    def _start_attempt(self) -> None:
        super()._start_attempt()
        self._declared = [None, None]
