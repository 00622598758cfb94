"""A whole backgammon match played in the bot as one action log (``docs/backgammon.md``,
"A match played in the bot").

The log is the :class:`~games.backgammon.game.Game` actions of every game in order (a new
game starts by itself once one ends, until the match is decided), plus match-level entries:

    {"type": "resign_match", "player": p}        the opponent gets the points needed
    {"type": "timeout", "player": p}             time ran out with a move to play: the same
    {"type": "clock", "player": p, "bank": s}    p's time bank is now s seconds
    {"type": "addtime", "player": p, "seconds": s}   an organiser gives time back

Clock entries only keep the banks (the bot times the players); the rules ignore them. Every
refused action raises :class:`IllegalAction` and changes nothing. Follows the engine contract
of ``games/common/match.py``.
"""

from __future__ import annotations

from typing import Any

from games.backgammon.game import DOUBLED, MOVE, OPENING, TURN, Game
from games.backgammon.match import Match
from games.backgammon.plays import plays_of
from games.common.errors import IllegalAction
from games.common.match import seats, shallow
from games.common.outcome import Outcome

Action = dict[str, Any]
GAME_ACTIONS = ("opening_roll", "roll", "move", "double", "take", "pass", "resign")
MATCH_ACTIONS = ("resign_match", "timeout")


class LiveMatch:
    """A match to ``length`` points played move by move: score, Crawford rule, every game."""

    def __init__(self, length: int, bank_seconds: int = 0, crawford: bool = True) -> None:
        self.match = Match(length, crawford)
        self.game = self._next_game()
        self.games: list[Game] = []  # the finished games, in order
        self.banks = [bank_seconds, bank_seconds]
        self.moves = 0  # moves played in the whole match (``/position N``)
        self.ended_by: str | None = None  # "resign_match" or "timeout"
        self.loser_by: int | None = None
        self.steps = 0  # actions accepted so far: a board's buttons carry it

    # -- the engine contract -------------------------------------------------------------

    def __replica__(self) -> LiveMatch:
        """An independent copy without a replay: the match and the game being played copied,
        the lists copied; finished games take no more actions, so they are shared."""
        new = shallow(self)
        new.match, new.game = self.match.__replica__(), self.game.__replica__()
        new.games, new.banks = list(self.games), list(self.banks)
        return new

    @property
    def length(self) -> int:
        return self.match.length

    @property
    def score(self) -> tuple[int, int]:
        return self.match.score

    @property
    def finished(self) -> bool:
        return self.match.finished

    @property
    def winner(self) -> int | None:
        return self.match.winner

    @property
    def outcome(self) -> Outcome | None:
        if not self.finished:
            return None
        return Outcome(self.winner, "win", self.score, self.ended_by or "played")

    def apply(self, action: Action) -> None:
        kind = action.get("type") if isinstance(action, dict) else None
        if kind not in (*GAME_ACTIONS, *MATCH_ACTIONS, "clock", "addtime"):
            raise IllegalAction("unknown_action", action=action)
        if self.finished:
            raise IllegalAction("match_over")
        if kind in GAME_ACTIONS:
            self._game_action(action)
        elif kind in MATCH_ACTIONS:
            self._end_match(kind, _seat(action))
        elif kind == "clock":
            self.banks[_seat(action)] = _seconds(action.get("bank"))
        else:
            self.banks[_seat(action)] += _seconds(action.get("seconds"))
        self.steps += 1

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        if self.finished:
            return []
        actions = [a for a in self.game.legal_actions() if a.get("player", None) in
                   (*seats(seat), None)]
        return actions + [{"type": "resign_match", "player": s} for s in seats(seat)]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        game = self.game
        return {"length": self.length, "score": list(self.score),
                "crawford": game.crawford, "game": len(self.games) + 1,
                "phase": game.phase, "turn": game.turn,
                "position": game.position.id,
                "dice": list(game.dice) if game.dice else None,
                "cube": game.cube, "cube_owner": game.cube_owner,
                "banks": list(self.banks), "moves": self.moves,
                "outcome": None if self.outcome is None else {
                    "winner": self.winner, "how": self.outcome.how}}

    # -- questions the bot asks ----------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """Who must act now: the player on roll, the one answering a double, or None
        (opening roll, match over)."""
        if self.finished or self.game.phase == OPENING:
            return None
        return 1 - self.game.turn if self.game.phase == DOUBLED else self.game.turn

    @property
    def phase(self) -> str:
        return self.game.phase

    def may_double(self) -> bool:
        return self.game.may_double(self.game.turn)

    def plays(self) -> list:
        """The legal plays of the roll to play (MOVE phase), [] when nothing can be played."""
        if self.game.phase != MOVE:
            return []
        return plays_of(self.game.position, self.game.dice)

    # -- inside ----------------------------------------------------------------------------

    def _game_action(self, action: Action) -> None:
        if "player" in action and action["type"] != "opening_roll":
            _seat(action)
        self.game.apply(action)
        if action["type"] == "move":
            self.moves += 1
        if self.game.finished:
            outcome = self.game.outcome
            self.match.record_game(outcome.winner, outcome.points_per_cube, outcome.cube,
                                   outcome.passed)
            self.games.append(self.game)
            if not self.match.finished:  # the last game's board stays on show
                self.game = self._next_game()

    def _next_game(self) -> Game:
        """The match's next game: the Crawford game, or one of a 1-point match, with no cube."""
        return Game(crawford=self.match.crawford, dead_cube=self.match.dead_cube)

    def _end_match(self, kind: str, player: int) -> None:
        self.match.resign_match(player)
        self.ended_by, self.loser_by = kind, player


def _seat(action: Action) -> int:
    player = action.get("player")
    if type(player) is not int or player not in (0, 1):
        raise IllegalAction("not_a_player", player=player)
    return player


def _seconds(value: object) -> int:
    if type(value) is not int or value < 0:
        raise IllegalAction("bad_seconds", seconds=value)
    return value


def after_moves(actions: list[Action], length: int, moves: int) -> LiveMatch:
    """The match as it stood right after its ``moves``-th move (0: before the first), for
    ``/position N``; the rolls and cube actions after that move are not replayed. Raises
    ``IllegalAction("no_such_move")`` when the log has fewer moves."""
    match = LiveMatch(length)
    if moves < 0:
        raise IllegalAction("no_such_move", moves=moves)
    for action in actions:
        if match.moves == moves:
            return match
        match.apply(action)
    if match.moves == moves:
        return match
    raise IllegalAction("no_such_move", moves=moves)


__all__ = ["DOUBLED", "MOVE", "OPENING", "TURN", "LiveMatch", "after_moves"]
