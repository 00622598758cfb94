"""Read a play as players type it and match it against the legal plays.

Accepted: moves separated by spaces or commas, in any order; ``/`` or ``-`` (or a phone's
en or em dash) between points; a full stop after the last move; the roll before them as a
``.mat`` writes it (``64: 24/18 13/9``, only the roll being played); ``bar``, ``b`` or ``25``
for the bar (in Russian «бар», «б», in Finnish ``bari``) and ``off`` (or ``o``, ``0``; in
Russian «офф», «оф», «о»; in Finnish ``pois``) for bearing off; a hit mark ``*`` (or ``x``,
the Cyrillic «х») optional; a repeat count ``(2)`` or ``x2`` (1 to 4); one checker written through (``24/18``,
``24/21*/18``) or move by move (``24/21 21/18``). The text is played out die by die on the
board, every way its moves fit the dice, and the result is matched by resulting position, so
any spelling of a legal play is accepted. A refused play raises :class:`IllegalAction` whose
code says why: ``bad_notation``, ``wrong_dice``, ``no_checker_there`` (``point`` names it),
``no_checker_on_bar``, ``must_enter_first``, ``blocked_point``, ``cannot_bear_off_yet``,
``higher_point_occupied``, ``must_move``, ``must_use_both_dice``, ``must_use_larger_die``,
``must_use_all_dice``, ``ambiguous_play`` or ``illegal_play``; a roll typed alone where a
play was expected (``4-1``, unplayable as a move) is ``dice_not_move``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from games.backgammon.keys import Move, play_key
from games.backgammon.movegen import opponent_masks
from games.backgammon.plays import Play, check_dice, plays_by_key
from games.backgammon.position import Position
from games.common.errors import IllegalAction

Segment = tuple[int, int, bool]  # from, to (0 = off), written with "*"

_DASH = "-–—−"
"""A hyphen, or the dash a phone makes of it (en, em, minus), between two points."""
_TOKEN = re.compile(
    r"(bar|b|\d{1,2})((?:/(?:\d{1,2}|off|o)[*xх]?)+)(?:\(([1-4])\)|[xх×]([1-4]))?")
_DASHES = re.compile(f"[{_DASH}]")
_STEP = re.compile(r"/(\d{1,2}|off|o)([*xх]?)")
_WORDS = {"бар": "bar", "б": "bar", "офф": "off", "оф": "off", "о": "off", "bari": "bar",
          "pois": "off"}
"""The bar and off as Russian and Finnish players write them."""
_WORD = re.compile(r"[a-zа-яё]+")
_ROLL = re.compile(f"\\s*([1-6])[{_DASH}]?([1-6])\\s*:")
"""The roll written before its play, as a ``.mat`` does: ``64: 24/18 13/9``."""
_DICE = re.compile(f"\\s*[1-6]\\s*[{_DASH}]\\s*[1-6]\\s*")
"""A roll typed alone, as players say it: ``4-1``."""
_START = re.compile(f"(?:{_ROLL.pattern})?\\s*(bari?|b|бар|б|\\d{{1,2}})\\s*[{_DASH}/]",
                    re.IGNORECASE)


def looks_like_play(text: str) -> bool:
    """Whether ``text`` is written as a play (``24/18 …``, ``bar/22``, ``64: 24/18``, or a
    roll ``4-1`` taken for one), not as talk: a point or the bar, then a slash or a dash."""
    return _START.match(text) is not None


def parse_play(text: str, position: Position | str, dice: Sequence[int]) -> Play:
    """The legal play of ``dice`` that ``text`` describes (``position`` may be a Position ID)."""
    if isinstance(position, str):
        position = Position.from_id(position)
    rolled = check_dice(dice)
    try:
        return _parse(_without_roll(text, rolled), position, rolled)
    except IllegalAction as error:
        if _DICE.fullmatch(text) and error.code != "ambiguous_play":
            raise IllegalAction("dice_not_move", text=text.strip(), dice=list(rolled)) from None
        raise


def _without_roll(text: str, dice: tuple[int, int]) -> str:
    """The play of ``64: 24/18 13/9``, when its roll is the one being played."""
    found = _ROLL.match(text)
    if found is None:
        return text
    if sorted(map(int, found.groups())) != sorted(dice):
        raise IllegalAction("wrong_dice", dice=list(dice))
    return text[found.end():]


def _parse(text: str, position: Position, rolled: tuple[int, int]) -> Play:
    segments = read_segments(text)
    legal = plays_by_key(position, rolled)
    walk = _Walk(position)
    walk.search([(start, goal) for start, goal, _ in segments], _dice_list(rolled))
    matches = {}
    for moves, key in walk.successes:
        if key in legal:
            score = _mismatch(moves, segments)
            if key not in matches or score < matches[key]:
                matches[key] = score
    if matches:
        return _pick(matches, legal)
    raise _refusal(walk, legal, rolled)


def read_segments(text: str) -> tuple[Segment, ...]:
    """Each written step of the text as ``(from, to, starred)``; ``bad_notation`` if unreadable."""
    plain = _DASHES.sub("/", text.lower().strip().rstrip(".!;"))  # "13–8 13–11."
    joined = re.sub(r"\s*/\s*", "/", _WORD.sub(lambda word: _WORDS.get(word[0], word[0]), plain))
    cleaned = re.sub(r"\s+(?=\(|[xх×][1-4]\b)", "", joined)  # "13/7 (2)", "8/7 х2"
    segments: list[Segment] = []
    for token in cleaned.replace(",", " ").split():
        found = _TOKEN.fullmatch(token)
        if not found:
            raise IllegalAction("bad_notation", text=token)
        start, steps, count, times = found.groups()
        points = [_source(start, token)]
        stars = [False]
        for point, star in _STEP.findall(steps):
            points.append(_landing(point, token))
            stars.append(bool(star))
        path = [(points[i], points[i + 1], stars[i + 1]) for i in range(len(points) - 1)]
        if any(to >= frm for frm, to, _ in path) or (0 in points[1:-1]):
            raise IllegalAction("bad_notation", text=token)
        segments.extend(path * int(count or times or 1))
    return tuple(segments)


def _source(text: str, token: str) -> int:
    if text in ("bar", "b"):
        return 25
    if 1 <= int(text) <= 25:
        return int(text)
    raise IllegalAction("bad_notation", text=token)


def _landing(text: str, token: str) -> int:
    if text in ("off", "o") or text == "0":
        return 0
    if int(text) <= 24:
        return int(text)
    raise IllegalAction("bad_notation", text=token)


def _dice_list(dice: tuple[int, int]) -> tuple[int, ...]:
    return (dice[0],) * 4 if dice[0] == dice[1] else dice


def _mismatch(moves: tuple[Move, ...], segments: tuple[Segment, ...]) -> int:
    """How far the hits of a reading differ from the stars written: fewer is a better reading."""
    written = sum(star for _, _, star in segments)
    return abs(sum(hit for _, _, hit in moves) - written)


def _pick(matches: dict[int, int], legal: dict[int, Play]) -> Play:
    best = min(matches.values())
    keys = [key for key, score in matches.items() if score == best]
    if len(keys) > 1:
        raise IllegalAction("ambiguous_play", options=[legal[key].notation for key in keys])
    return legal[keys[0]]


def _refusal(walk: _Walk, legal: dict[int, Play], dice: tuple[int, int]) -> IllegalAction:
    if walk.successes:
        return _dice_use_refusal(walk.successes, legal, dice)
    if walk.error:
        return IllegalAction(walk.error, point=walk.error_point)
    return IllegalAction("wrong_dice", dice=list(dice))


def _dice_use_refusal(successes: list, legal: dict[int, Play],
                      dice: tuple[int, int]) -> IllegalAction:
    """The text is playable move by move but does not use the roll as fully as it must."""
    used = max(len(moves) for moves, _ in successes)
    required = len(next(iter(legal.values())).moves)
    if used == 0:
        return IllegalAction("must_move")
    if used < required:
        code = "must_use_all_dice" if dice[0] == dice[1] else "must_use_both_dice"
        return IllegalAction(code, dice=list(dice), playable=required)
    if dice[0] != dice[1] and used == 1:
        return IllegalAction("must_use_larger_die", die=max(dice))
    return IllegalAction("illegal_play")


@dataclass
class _Walk:
    """Plays the written moves die by die, in every order and dice assignment."""

    position: Position
    board: list[int] = field(init=False)
    blocked: int = field(init=False)
    blots: int = field(init=False)
    moves: list[Move] = field(default_factory=list)
    successes: list[tuple[tuple[Move, ...], int]] = field(default_factory=list)
    error: str = ""
    error_point: int = 0
    error_depth: int = -1

    def __post_init__(self) -> None:
        self.board = [0, *self.position.player]
        self.blocked, self.blots = opponent_masks(self.position.opponent)

    def search(self, journeys: list[tuple[int, int]], dice: tuple[int, ...]) -> None:
        """Advance any unfinished written move ``(at, goal)`` by one die, in every order.

        Steps of different moves interleave, so ``bar/17(2)`` with 4-4 enters both checkers
        before either moves on.
        """
        if not journeys:
            self.successes.append((tuple(self.moves), self._result_key()))
            return
        if sum(at - goal for at, goal in journeys) > sum(dice):  # off is goal 0: overshoot ok
            return  # more pips written than the dice left: no point on the way is the reason
        tried = set()
        for index, (at, goal) in enumerate(journeys):
            for die in set(dice):
                target = at - die
                if (at, goal, die) in tried or (goal and target < goal):
                    continue
                tried.add((at, goal, die))
                error = self._illegal(at, die)
                if error:
                    self._fail(error, target if error == "blocked_point" else at)
                    continue
                remaining = list(dice)
                remaining.remove(die)
                rest = journeys[:index] + journeys[index + 1:]
                if target > goal:
                    rest.append((target, goal))
                self._move(at, die)
                self.search(rest, tuple(remaining))
                self._unmove()

    def _illegal(self, source: int, die: int) -> str:
        board = self.board
        if not board[source]:
            return "no_checker_on_bar" if source == 25 else "no_checker_there"
        if board[25] and source != 25:
            return "must_enter_first"
        target = source - die
        if target > 0:
            return "blocked_point" if (self.blocked >> target) & 1 else ""
        if any(board[7:26]):
            return "cannot_bear_off_yet"
        if target < 0 and any(board[source + 1:7]):
            return "higher_point_occupied"
        return ""

    def _fail(self, error: str, point: int) -> None:
        if len(self.moves) > self.error_depth:
            self.error, self.error_point, self.error_depth = error, point, len(self.moves)

    def _move(self, source: int, die: int) -> None:
        target = max(source - die, 0)
        hit = bool(target) and not self.board[target] and bool((self.blots >> target) & 1)
        if hit and any(move[1] == target and move[2] for move in self.moves):
            hit = False
        self.board[source] -= 1
        if target:
            self.board[target] += 1
        self.moves.append((source, target, hit))

    def _unmove(self) -> None:
        source, target, _ = self.moves.pop()
        self.board[source] += 1
        if target:
            self.board[target] -= 1

    def _result_key(self) -> int:
        hits = 0
        for _, target, hit in self.moves:
            if hit:
                hits |= 1 << target
        return play_key(tuple(self.board[1:]), hits)


def apply_play(position: Position, play: Play | str,
               dice: Sequence[int] | None = None) -> Position:
    """The position after ``play`` (a :class:`Play` of this position, or notation with
    ``dice``), with the opponent on roll."""
    if isinstance(play, str):
        if dice is None:
            raise IllegalAction("wrong_dice", dice=None)
        play = parse_play(play, position, dice)
    if play.before != position:
        raise IllegalAction("illegal_play", play=play.notation)
    return play.after
