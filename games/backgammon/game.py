"""One game of backgammon as the bot runs it: opening roll, turns, cube, resignations.

The game is driven by small JSON-able action dicts (the bot logs them and replays them with
``games.common.match.replay``); the engine never draws random numbers, the dice come in the
actions. Players are 0 and 1.

    {"type": "opening_roll", "dice": [a, b]}     a is player 0's die, b player 1's; equal dice
                                                  are rolled again, the higher die moves first
                                                  and plays both numbers (the seed's §2)
    {"type": "double", "player": p}               before rolling, not in the Crawford game,
                                                  only with the cube centred or owned by p,
                                                  never past 64 (the seed's §7)
    {"type": "take", "player": p} / {"type": "pass", "player": p}
    {"type": "roll", "player": p, "dice": [d1, d2]}
    {"type": "move", "player": p, "play": "8/5 6/5"}   "" when the roll cannot be played
    {"type": "resign", "player": p}               scored by position times the cube (§6, §9);
                                                  "idle": true when the bot resigns for a
                                                  player idle too long (reason "idle")

Every refused action raises :class:`IllegalAction` and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.backgammon.match import MAX_CUBE
from games.backgammon.parse import parse_play
from games.backgammon.plays import check_dice, plays_of
from games.backgammon.position import Position
from games.backgammon.result import game_result
from games.common.errors import IllegalAction
from games.common.match import shallow

Action = dict[str, Any]
OPENING, TURN, MOVE, DOUBLED, OVER = "opening", "turn", "move", "doubled", "over"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended; ``Match.record_game(winner, points_per_cube, cube, passed)`` takes it."""

    winner: int
    points_per_cube: int
    cube: int
    passed: bool
    reason: str  # "borne_off", "passed", "resigned" or "idle" (lost by inactivity)

    @property
    def points(self) -> int:
        return self.points_per_cube * self.cube


@dataclass(frozen=True, slots=True)
class Played:
    """A move as it was played: who, with which dice, in notation ("" when nothing could
    be played)."""

    player: int
    dice: tuple[int, int]
    notation: str


class Game:
    """The state of one game; ``position`` is always seen by ``turn``, the player to act."""

    def __init__(self, crawford: bool = False, dead_cube: bool = False) -> None:
        self.crawford = crawford
        self.dead_cube = dead_cube  # a game of a 1-point match: any win wins the match
        self.phase = OPENING
        self.turn = 0
        self.position = Position.start()
        self.dice: tuple[int, int] | None = None
        self.tied_openings: tuple[int, ...] = ()  # the die of each equal opening roll
        self.cube = 1
        self.cube_owner: int | None = None
        self.moves_played = 0
        self.last_played: Played | None = None  # the game's latest move
        self.outcome: Outcome | None = None

    def __replica__(self) -> Game:
        """An independent copy: every attribute is a frozen value, so a shallow copy is one."""
        return shallow(self)

    @classmethod
    def from_position(cls, position: Position, turn: int = 0, cube: int = 1,
                      cube_owner: int | None = None, crawford: bool = False) -> Game:
        """A game in progress: ``turn`` is about to roll (or double) in ``position``."""
        game = cls(crawford)
        game.position, game.turn, game.phase = position, turn, TURN
        game.cube, game.cube_owner, game.moves_played = cube, cube_owner, 1
        return game

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def winner(self) -> int | None:
        return None if self.outcome is None else self.outcome.winner

    def may_double(self, player: int) -> bool:
        return (self.phase == TURN and player == self.turn and not self.crawford
                and not self.dead_cube
                and self.moves_played > 0 and self.cube < MAX_CUBE
                and self.cube_owner in (None, player))

    def legal_actions(self) -> list[Action]:
        """What may be done now. Roll actions are listed without dice: the caller adds them."""
        player = self.turn
        if self.phase == OPENING:
            return [{"type": "opening_roll"}]
        if self.phase == TURN:
            actions = [{"type": "roll", "player": player}]
            if self.may_double(player):
                actions.append({"type": "double", "player": player})
            return [*actions, {"type": "resign", "player": player}]
        if self.phase == MOVE:
            plays = [{"type": "move", "player": player, "play": play.notation}
                     for play in plays_of(self.position, self.dice)]
            return [*plays, {"type": "resign", "player": player}]
        if self.phase == DOUBLED:
            return [{"type": "take", "player": 1 - player}, {"type": "pass", "player": 1 - player}]
        return []

    def apply(self, action: Action) -> None:
        handler = _HANDLERS.get(action.get("type")) if isinstance(action, dict) else None
        if handler is None:
            raise IllegalAction("unknown_action", action=action)
        if self.phase == OVER:
            raise IllegalAction("game_over")
        handler(self, action)

    def _expect(self, phase: str, player: object) -> None:
        if self.phase != phase:
            raise IllegalAction("wrong_phase", phase=self.phase)
        if player != self.turn:
            raise IllegalAction("not_your_turn", player=player)

    def _opening_roll(self, action: Action) -> None:
        if self.phase != OPENING:
            raise IllegalAction("wrong_phase", phase=self.phase)
        first, second = check_dice(action.get("dice", ()))
        if first == second:
            self.tied_openings += (first,)  # both roll again
            return
        self.turn = 0 if first > second else 1
        self.dice = (first, second)
        self.phase = MOVE

    def _roll(self, action: Action) -> None:
        self._expect(TURN, action.get("player"))
        self.dice = check_dice(action.get("dice", ()))
        self.phase = MOVE

    def _move(self, action: Action) -> None:
        self._expect(MOVE, action.get("player"))
        text = action.get("play")
        if not isinstance(text, str):
            raise IllegalAction("bad_notation", text=text)
        play = parse_play(text, self.position, self.dice or ())
        self.last_played = Played(self.turn, self.dice, play.notation)
        self.moves_played += 1
        self.dice = None
        position = play.after
        if not any(position.opponent):
            points = game_result(position, winner=1)
            self._finish(Outcome(self.turn, points, self.cube, False, "borne_off"))
            self.position = position.swapped()
            return
        self.position = position
        self.turn = 1 - self.turn
        self.phase = TURN

    def _double(self, action: Action) -> None:
        player = action.get("player")
        self._expect(TURN, player)
        if self.crawford:
            raise IllegalAction("no_cube_in_crawford_game")
        if self.dead_cube:
            raise IllegalAction("dead_cube")
        if self.moves_played == 0:
            raise IllegalAction("no_double_on_first_move")
        if self.cube >= MAX_CUBE:
            raise IllegalAction("cube_at_maximum", cube=self.cube)
        if self.cube_owner not in (None, player):
            raise IllegalAction("not_cube_owner", owner=self.cube_owner)
        self.phase = DOUBLED

    def _answer(self, action: Action) -> None:
        if self.phase != DOUBLED:
            raise IllegalAction("wrong_phase", phase=self.phase)
        if action.get("player") != 1 - self.turn:
            raise IllegalAction("not_your_turn", player=action.get("player"))
        if action["type"] == "pass":
            self._finish(Outcome(self.turn, 1, self.cube, True, "passed"))
            return
        self.cube *= 2
        self.cube_owner = 1 - self.turn
        self.phase = TURN

    def _resign(self, action: Action) -> None:
        player = action.get("player")
        if self.phase not in (TURN, MOVE):
            raise IllegalAction("wrong_phase", phase=self.phase)
        if player != self.turn:
            raise IllegalAction("not_your_turn", player=player)
        points = game_result(self.position, winner=1)
        reason = "idle" if action.get("idle") else "resigned"
        self._finish(Outcome(1 - player, points, self.cube, False, reason))

    def _finish(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.phase = OVER
        self.dice = None


_HANDLERS = {
    "opening_roll": Game._opening_roll,
    "roll": Game._roll,
    "move": Game._move,
    "double": Game._double,
    "take": Game._answer,
    "pass": Game._answer,
    "resign": Game._resign,
}
