"""A play built checker by checker, die by die (``docs/backgammon.md``, "A match played in
the bot"): the board's buttons let a player pick a point, then a die, and only offer a step
that can still end in one of the legal plays.

A step is ``(source, die)`` in the mover's numbering (25 is the bar); it lands on
``source - die`` (0 or below: borne off). The legal plays decide what is legal: a sequence of
steps counts only when it ends in the position of one of them, so the rules of
``games/backgammon/movegen.py`` (use both dice, the larger die, bar first …) hold here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from games.backgammon.keys import Move, play_key
from games.backgammon.notation import format_play
from games.backgammon.plays import Play, plays_by_key
from games.backgammon.position import BAR, Position

Step = tuple[int, int]  # (source point, die)


def step(position: Position, source: int, die: int) -> Position | None:
    """``position`` (the mover on roll) after moving a checker from ``source`` by ``die``,
    or None when that single move is not possible (told before the sides are copied: the
    picker tries every point with every die left, most of them impossible)."""
    player, opponent = position.player, position.opponent
    if not 1 <= source <= 25 or not 1 <= die <= 6 or player[source - 1] == 0:
        return None
    if player[BAR] and source != 25:
        return None
    target = source - die
    if target <= 0:
        if any(player[6:]) or (target < 0 and any(player[source:6])):
            return None
    elif opponent[24 - target] >= 2:
        return None
    player, opponent = list(player), list(opponent)
    player[source - 1] -= 1
    if target > 0:
        player[target - 1] += 1
        if opponent[24 - target] == 1:
            opponent[24 - target] -= 1
            opponent[BAR] += 1
    return Position(tuple(player), tuple(opponent))


def _dice_list(dice: Sequence[int]) -> tuple[int, ...]:
    return (dice[0],) * 4 if dice[0] == dice[1] else (dice[0], dice[1])


def walk(position: Position, dice: Sequence[int], steps: Sequence[Step]
         ) -> tuple[Position, tuple[int, ...]] | None:
    """The position after ``steps`` and the dice left, or None if a step is impossible."""
    left = list(_dice_list(dice))
    for source, die in steps:
        if die not in left or (position := step(position, source, die)) is None:
            return None
        left.remove(die)
    return position, tuple(sorted(left))


def steps_notation(position: Position, steps: Sequence[Step]) -> str:
    """The steps picked so far in a play's notation (``13/7``, ``bar/22*``), each step
    taken in order from ``position``; "" for none or for an impossible step."""
    moves: list[Move] = []
    for source, die in steps:
        target = max(source - die, 0)
        hit = target > 0 and position.opponent[24 - target] == 1
        if (position := step(position, source, die)) is None:
            return ""
        moves.append((source, target, hit))
    return format_play(tuple(moves))


def next_steps(position: Position, dice: Sequence[int], steps: Sequence[Step]) -> list[Step]:
    """Every step that, after ``steps``, can still end in a legal play (none when the
    steps already make one, or went astray)."""
    plays = plays_by_key(position, dice)
    needed = len(next(iter(plays.values())).moves)
    walked = walk(position, dice, steps)
    if walked is None or len(steps) >= needed:
        return []
    here, left = walked
    goal = _Goal(position.opponent, frozenset(plays))
    found = []
    for die in sorted(set(left), reverse=True):
        for source in _sources(here):
            moved = step(here, source, die)
            if moved is not None and _completes(moved, _minus(left, die),
                                                needed - len(steps) - 1, goal):
                found.append((source, die))
    return found


def play_of(position: Position, dice: Sequence[int], steps: Sequence[Step]) -> Play | None:
    """The legal play ``steps`` make, or None when they make none (yet)."""
    walked = walk(position, dice, steps)
    if walked is None:
        return None
    play = plays_by_key(position, dice).get(result_key(position.opponent, walked[0]))
    return play if play is not None and len(play.moves) == len(steps) else None


def result_key(opponent: tuple[int, ...], here: Position) -> int:
    """The move generator's key of ``here`` (the mover still on roll), reached from a
    position whose opponent was ``opponent``: the mover's side and the points where an
    opponent's blot was hit (:mod:`games.backgammon.keys`)."""
    hits = 0
    if here.opponent[BAR] != opponent[BAR]:  # a blot was hit: which
        for index, count in enumerate(here.opponent[:BAR]):
            if count < opponent[index]:
                hits |= 1 << (24 - index)
    return play_key(here.player, hits)


@dataclass(frozen=True, slots=True)
class _Goal:
    """What a picked play must end in: the keys of the legal plays' results, told from the
    opponent's side before the play (which blots were hit)."""

    opponent: tuple[int, ...]
    keys: frozenset[int]


def _sources(position: Position) -> list[int]:
    """The points the mover has a checker on, highest first: the only ones a step may
    start from (a board has at most 16 of the 25)."""
    player = position.player
    return [source for source in range(25, 0, -1) if player[source - 1]]


def _minus(left: tuple[int, ...], die: int) -> tuple[int, ...]:
    rest = list(left)
    rest.remove(die)
    return tuple(rest)


@lru_cache(maxsize=4096)
def _completes(position: Position, left: tuple[int, ...], count: int, goal: _Goal) -> bool:
    if count == 0:
        return result_key(goal.opponent, position) in goal.keys
    for die in set(left):
        for source in _sources(position):
            moved = step(position, source, die)
            if moved is not None and _completes(moved, _minus(left, die), count - 1, goal):
                return True
    return False
