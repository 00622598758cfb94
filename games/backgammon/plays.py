"""Legal plays as the bot uses them: notation, moves and the position they lead to."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from games.backgammon.keys import Move, decode_key
from games.backgammon.movegen import generate
from games.backgammon.notation import format_play
from games.backgammon.position import BAR, Position
from games.common.errors import IllegalAction

Dice = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Play:
    """One legal play of ``dice`` from ``before``.

    ``moves`` are single-die moves ``(source, target, hit)`` in the mover's numbering (25 is
    the bar, 0 is off); ``key`` is the move generator's key of its result (``after``).
    """

    before: Position
    dice: Dice
    moves: tuple[Move, ...]
    key: int

    @property
    def after(self) -> Position:
        """The resulting position with the opponent on roll, made when asked: a roll's plays
        are listed whole, but only the one played (or the bot's candidates) is looked at."""
        return after(self.before, self.key)

    @property
    def notation(self) -> str:
        """The play written (``8/5 6/5``), when asked: a roll's plays are listed, each
        written, only when the board offers them as buttons (a few of them), and a typed
        play is found by its result."""
        return format_play(self.moves)

    def __str__(self) -> str:
        return self.notation


def check_dice(dice: Sequence[int]) -> Dice:
    """Two whole numbers 1–6, else ``bad_dice``."""
    if len(dice) != 2 or any(type(die) is not int or not 1 <= die <= 6 for die in dice):
        raise IllegalAction("bad_dice", dice=list(dice))
    return dice[0], dice[1]


def legal_plays(position_id: str, dice: Sequence[int]) -> list[str]:
    """Notation of every legal play, one per distinct resulting position; [] if none."""
    position = Position.from_id(position_id)
    die1, die2 = check_dice(dice)
    found = generate(position.player, position.opponent, die1, die2)
    return [format_play(moves) for moves in found.values() if moves]


def plays_of(position: Position, dice: Sequence[int]) -> list[Play]:
    """Every legal play as a :class:`Play`; one empty play when the roll cannot be used."""
    return list(plays_by_key(position, dice).values())


def plays_by_key(position: Position, dice: Sequence[int]) -> Mapping[int, Play]:
    """The legal plays by the move generator's key of their result (read-only: the mapping
    is remembered and shared, see :func:`_plays_by_key`)."""
    return _plays_by_key(position, check_dice(dice))


@lru_cache(maxsize=8)
def _plays_by_key(position: Position, rolled: Dice) -> Mapping[int, Play]:
    """Remembered for the last few rolls: one turn asks for the same plays several times
    (the typed play is looked up among them, its announcement asks whether it was forced,
    the board's buttons list them). Few are kept, as a roll's can be large (356 plays,
    about 270 KB, for a 1-1 seen in sampled games); a live match asks for one roll at a
    time."""
    found = generate(position.player, position.opponent, *rolled)
    return MappingProxyType({
        key: Play(position, rolled, moves, key)
        for key, moves in found.items()
    })


def after(position: Position, key: int) -> Position:
    """The position a play key leads to, with the opponent on roll."""
    player, hits = decode_key(key)
    opponent = list(position.opponent)
    while hits:
        point = hits.bit_length() - 1
        hits ^= 1 << point
        opponent[24 - point] -= 1
        opponent[BAR] += 1
    return Position(tuple(opponent), player)
