"""A backgammon match score: games to ``length`` points with the Crawford rule (the seed's §8).

A game is worth 1, 2 or 3 points per cube times the cube (1, 2, 4 … 64). A passed (refused)
double scores the cube's value before the double and never a gammon. The first game after
either player first reaches ``length - 1`` is the Crawford game, played without the cube;
doubling resumes after it. No Jacoby rule. Points beyond the length do not matter: the score
stops at the length, so a finished match always reads ``length`` for the winner.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.common.match import shallow

LENGTHS = frozenset(range(1, 16, 2))
CUBE_VALUES = frozenset(1 << power for power in range(7))
MAX_CUBE = 64


@dataclass(frozen=True, slots=True)
class GameRecord:
    winner: int
    points: int
    cube: int
    points_per_cube: int
    passed: bool
    crawford: bool


class Match:
    """The score of one match; every method either records a result or raises ValueError."""

    def __init__(self, length: int, crawford: bool = True) -> None:
        if length not in LENGTHS or type(length) is not int:
            raise ValueError(f"match length must be odd, 1 to 15, not {length!r}")
        self.length = length
        self.crawford_rule = crawford
        self._score = [0, 0]
        self._crawford_next = False
        self._crawford_played = False
        self._winner: int | None = None
        self.forfeited = False
        self.games: list[GameRecord] = []

    def __replica__(self) -> Match:
        """An independent copy: the score and the list of (frozen) game records copied."""
        new = shallow(self)
        new._score, new.games = list(self._score), list(self.games)
        return new

    @property
    def score(self) -> tuple[int, int]:
        return self._score[0], self._score[1]

    @property
    def dead_cube(self) -> bool:
        """True in a 1-point match: any win wins the match, so no game is doubled."""
        return self.length == 1

    @property
    def crawford(self) -> bool:
        """True when the next game is the Crawford game (no doubling in it)."""
        return self._crawford_next

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def finished(self) -> bool:
        return self._winner is not None

    def away(self, player: int) -> int:
        """Points ``player`` still needs."""
        return self.length - self._score[player]

    def record_game(self, winner: int, points_per_cube: int, cube: int = 1,
                    passed: bool = False) -> int:
        """Add one game; returns the points it scored (before the cap at the length).

        With ``passed=True`` the loser refused a double: ``cube`` is the value before that
        double and ``points_per_cube`` must be 1.
        """
        self._check_game(winner, points_per_cube, cube, passed)
        points = cube * points_per_cube
        crawford_game = self._crawford_next
        self.games.append(GameRecord(winner, points, cube, points_per_cube, passed, crawford_game))
        self._score[winner] = min(self.length, self._score[winner] + points)
        if crawford_game:
            self._crawford_next = False
            self._crawford_played = True
        if self._score[winner] == self.length:
            self._winner = winner
        elif self.crawford_rule and not self._crawford_played and self.length - 1 in self._score:
            self._crawford_next = True
        return points

    def award(self, player: int, points: int = 1) -> None:
        """Points given outside a game (a penalty point, the seed's §11): capped at the
        length like a game's; reaching ``length - 1`` this way starts the Crawford rule too."""
        self._check_open(player)
        if type(points) is not int or points < 1:
            raise ValueError(f"points must be a positive int, not {points!r}")
        self._score[player] = min(self.length, self._score[player] + points)
        if self._score[player] == self.length:
            self._winner = player
        elif self.crawford_rule and not self._crawford_played and self.length - 1 in self._score:
            self._crawford_next = True

    def forfeit(self, winner: int) -> None:
        """The match is not played and counts as "+" for ``winner``, "−" for the other."""
        self._check_open(winner)
        self.forfeited = True
        self._winner = winner

    def resign_match(self, loser: int) -> None:
        """A resigned match or a timeout: the opponent gets the points needed."""
        self._check_open(loser)
        winner = 1 - loser
        self._score[winner] = self.length
        self._winner = winner

    timeout = resign_match

    @staticmethod
    def is_reachable_final(length: int, a: int, b: int) -> bool:
        """Whether ``a``–``b`` can be the recorded final score of a match to ``length``.

        Scores are recorded capped at the length, so the winner has exactly ``length`` and the
        loser anything below it; there are no draws.
        """
        if length not in LENGTHS:
            return False
        if any(type(value) is not int or value < 0 for value in (a, b)):
            return False
        return max(a, b) == length and min(a, b) < length

    def _check_open(self, player: int) -> None:
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, not {player!r}")
        if self.finished:
            raise ValueError("the match is already over")

    def _check_game(self, winner: int, points_per_cube: int, cube: int, passed: bool) -> None:
        self._check_open(winner)
        if points_per_cube not in (1, 2, 3) or type(points_per_cube) is not int:
            raise ValueError(f"points per cube must be 1, 2 or 3, not {points_per_cube!r}")
        if cube not in CUBE_VALUES or type(cube) is not int:
            raise ValueError(f"the cube must be 1, 2, 4 … 64, not {cube!r}")
        if self._crawford_next and (cube > 1 or passed):
            raise ValueError("no doubling in the Crawford game")
        if passed and points_per_cube != 1:
            raise ValueError("a passed double scores the cube, never a gammon")
        if passed and cube == MAX_CUBE:
            raise ValueError("the cube cannot be doubled past 64")
