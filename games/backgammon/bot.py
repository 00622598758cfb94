"""A simple heuristic backgammon player for practice games (docs/backgammon.md, "The bot
player").

Pure: no I/O and no global random numbers; ties between equally good plays are broken with
the ``rng`` the caller passes (none: the first in the engine's order).

``choose_play`` scores the position each legal play leads to, from the mover's side:

- in a race (no contact left) it counts the pip lead twice over a typical contact value, so
  it breaks contact when ahead and keeps it when behind, and bears off as many checkers as it
  can, keeping the rest spread over the home board without gaps;
- with contact it adds the pip lead (a hit counts the pips the opponent loses), the points it
  holds (the 5-, 4-, 6- and bar points most, then the rest of the home board and the golden
  anchors in the opponent's home board), the longest prime, less checkers buried on the 1- and
  2-points, closed points against checkers on
  the bar, and subtracts the risk of each blot — the share of the 36 rolls that hit it
  (directly or through open points) times what being hit costs (the pips lost, more against a
  strong home board); back checkers weigh when ahead in the race, so the bot runs.

``should_double`` and ``should_take`` go by the race: the pip counts, with 4 pips added per
checker on the bar and a margin when the checkers are still in contact (the 8-9-12 rule of
thumb: double with a lead of 8 %, redouble with 9 %, pass above 12 %), and by the match score:
no double when winning the current cube already wins the match, the trailer doubles at once
after the Crawford game, a double that would end the match anyway is always taken.
"""

from __future__ import annotations

import random
from functools import lru_cache

from games.backgammon.game import Game
from games.backgammon.match import Match
from games.backgammon.plays import Play, plays_of
from games.backgammon.position import BAR, CHECKERS, Position

__all__ = ["choose_play", "should_double", "should_take"]

# What a made point (two or more checkers) is worth, by the mover's point number 1–24.
_POINT_VALUE = (0, 2, 3, 5, 7, 10, 9, 8, 5, 3, 2, 1, 1,
                0.5, 0.5, 0.5, 0.5, 0.5, 2, 3, 6, 6, 3, 2, 2)
_RACE_BASE = 25  # about what the points held are worth in a contact position
_BURIED = 1.5  # a checker on my 1- or 2-point while there is contact is out of play
_BAR_ENTERING = 0  # the opponent's bar, in the mover's numbering: they enter on 1–6
_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def choose_play(position: Position, dice: tuple[int, int],
                rng: random.Random | None = None) -> Play:
    """The play the bot makes with ``dice`` in ``position`` (seen by the mover)."""
    plays = plays_of(position, dice)
    if len(plays) == 1:
        return plays[0]
    scores = [evaluate(play.after) for play in plays]
    best = max(scores)
    choices = [play for play, score in zip(plays, scores, strict=True) if score >= best - 1e-9]
    return choices[0] if rng is None else rng.choice(choices)


def evaluate(after: Position) -> float:
    """How good ``after`` (the opponent on roll) is for the player who just moved."""
    mine, theirs = after.opponent, after.player
    if not _contact(mine, theirs):
        return _race_score(mine, theirs)
    return _contact_score(mine, theirs)


def _back(side: tuple[int, ...]) -> int:
    """The side's rearmost checker, in its own numbering (25 the bar, 0 none left)."""
    for index in range(BAR, -1, -1):
        if side[index]:
            return index + 1
    return 0


def _contact(mine: tuple[int, ...], theirs: tuple[int, ...]) -> bool:
    """Whether a checker of one side still has to pass one of the other."""
    return _back(mine) + _back(theirs) > 25


def _pips(side: tuple[int, ...]) -> int:
    return sum((index + 1) * count for index, count in enumerate(side))


def _race_score(mine: tuple[int, ...], theirs: tuple[int, ...]) -> float:
    """The race lead, counted twice (nothing else decides a race) on top of what a contact
    position is typically worth, so that the bot breaks contact when ahead and keeps it when
    behind; then bear off efficiently: checkers off, no stacks or gaps."""
    off = CHECKERS - sum(mine)
    home = mine[:6]
    highest = max((index for index in range(6) if home[index]), default=-1)
    gaps = sum(1 for index in range(highest) if not home[index])
    stacks = sum(max(0, count - 3) for count in home)
    lead = _pips(theirs) - _pips(mine)
    return _RACE_BASE + 2 * lead + 2 * off - 1.5 * gaps - 0.7 * stacks


def _contact_score(mine: tuple[int, ...], theirs: tuple[int, ...]) -> float:
    my_pips, their_pips = _pips(mine), _pips(theirs)
    score = float(their_pips - my_pips) + 6 * theirs[BAR]
    made = [count >= 2 for count in mine[:24]]
    their_bar = theirs[BAR]
    for index in range(24):
        if made[index]:
            value = _POINT_VALUE[index + 1]
            score += value * (1.5 if index < 6 and their_bar else 1.0)
    score += _prime(made) ** 2
    score -= 0.5 * sum(max(0, count - 3) for count in mine[:24])
    score -= _BURIED * (mine[0] + mine[1])
    score -= _blot_risk(mine, theirs)
    if their_pips - my_pips > 10:
        score -= 2.5 * sum(mine[18:25])  # ahead: bring the back checkers home
    return score


def _prime(made: list[bool]) -> int:
    """The longest run of consecutive made points."""
    longest = run = 0
    for is_made in made:
        run = run + 1 if is_made else 0
        longest = max(longest, run)
    return longest


def _blot_risk(mine: tuple[int, ...], theirs: tuple[int, ...]) -> float:
    """Sum over my blots of (share of rolls that hit it) × (what being hit costs)."""
    shooters = _shooters(theirs)
    if not shooters:
        return 0.0
    their_home = sum(1 for count in theirs[:6] if count >= 2)
    blocked = sum(1 << point for point in range(1, 25) if mine[point - 1] >= 2)
    risk = 0.0
    for point in range(1, 25):
        if mine[point - 1] != 1:
            continue
        hits = 0
        for shooter in shooters:
            if shooter < point:
                distance = point - shooter
                window = (blocked >> (shooter + 1)) & ((1 << (distance - 1)) - 1)
                hits |= _hitting_rolls(distance, window)
        if hits:
            cost = 4 + 0.8 * (25 - point) + 3 * their_home
            risk += hits.bit_count() / 36 * cost
    return risk


def _shooters(theirs: tuple[int, ...]) -> list[int]:
    """The points (in my numbering) with an opposing checker; their bar is my point 0."""
    found = [25 - (index + 1) for index in range(24) if theirs[index]]
    if theirs[BAR]:
        found.append(_BAR_ENTERING)
    return found


@lru_cache(maxsize=8192)
def _hitting_rolls(distance: int, window: int) -> int:
    """The rolls (bits 0–35) that carry a checker ``distance`` points on when ``window`` has
    bit ``k - 1`` set for each blocked point ``k`` points on from the start."""
    mask = 0
    for bit, paths in _paths(distance):
        if any(not any((window >> (step - 1)) & 1 for step in path) for path in paths):
            mask |= 1 << bit
    return mask


@lru_cache(maxsize=32)
def _paths(distance: int) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    """For each roll that covers ``distance`` with one checker: its bit and the ways to go,
    each as the intermediate landings (which must be open)."""
    found = []
    for bit, (a, b) in enumerate(_ROLLS):
        if a == b:
            steps = distance // a if distance % a == 0 else 0
            paths = (tuple(a * j for j in range(1, steps)),) if 1 <= steps <= 4 else ()
        elif distance in (a, b):
            paths = ((),)
        elif distance == a + b:
            paths = ((a,), (b,))
        else:
            paths = ()
        if paths:
            found.append((bit, paths))
    return tuple(found)


# --------------------------------------------------------------------------- the cube

_DOUBLE_LEAD = 0.08
_REDOUBLE_LEAD = 0.09
_PASS_LEAD = 0.12
_CONTACT_MARGIN = 0.06  # contact positions are less certain: ask for a larger lead


def race_lead(position: Position) -> float:
    """The player on roll's lead, as a share of their own count: pips plus 4 per checker on
    the bar, and minus the contact margin while the checkers still have to pass each other."""
    mine = _pips(position.player) + 4 * position.player[BAR]
    theirs = _pips(position.opponent) + 4 * position.opponent[BAR]
    lead = (theirs - mine) / max(mine, 1)
    if _contact(position.player, position.opponent):
        lead -= _CONTACT_MARGIN
    return lead


def should_double(game: Game, match: Match) -> bool:
    """Whether ``game.turn`` doubles before rolling (only asked when they may)."""
    player = game.turn
    if match.away(player) <= game.cube:
        return False  # winning this cube already wins the match: a double gains nothing
    if match.away(1 - player) == 1 and not match.crawford:
        return True  # post-Crawford: the trailer doubles at once
    threshold = _DOUBLE_LEAD if game.cube_owner is None else _REDOUBLE_LEAD
    return race_lead(game.position) >= threshold


def should_take(game: Game, match: Match) -> bool:
    """Whether ``1 - game.turn`` takes the double on offer."""
    doubler = game.turn
    if match.away(doubler) <= game.cube:
        return True  # a pass loses the match: the take costs nothing
    if match.away(1 - doubler) == 1:
        return True  # post-Crawford leader: the trailer's double is always taken
    return race_lead(game.position) <= _PASS_LEAD
