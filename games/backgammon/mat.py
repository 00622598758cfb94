"""A backgammon match in the Jellyfish ``.mat`` text format (docs/backgammon.md, "The match
record").

``write_mat`` replays the bot's match log (the ``Game`` action dicts plus the match-level
``resign_match`` and ``timeout``; anything else, such as clock entries, is ignored) through
:class:`Game` and :class:`Match`, and writes what GNU Backgammon and XG import::

     5 point match

     Game 1
     Alice : 0                         Bob : 0
      1) 31: 8/5 6/5                    42: 8/4 6/4
      2)  Doubles => 2                  Takes
     ...
                                       Wins 2 points

Player 0 is the left column, player 1 the right. Dice are written higher first (the opening
roll too: the two players' dice, played by the higher). Every single-die move is written on
its own (``24/21* 21/18``, ``6/3 6/3 6/3 6/3``), with ``bar``, ``off`` and ``*`` for hits: GNU
Backgammon's importer reads exactly that (it rejects repeat counts such as ``(2)``). A roll
that cannot be played is written ``62:``. A resigned game ends with the winner's ``Wins N
points`` and no move (a roll made before resigning is left out, as it was not played); a
resigned match or a timeout ends the game in progress with ``Wins N points and the match``,
``N`` the points the winner needed. ``read_mat`` reads the format back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.backgammon.game import Game
from games.backgammon.match import Match
from games.backgammon.parse import parse_play
from games.backgammon.plays import Play

__all__ = ["MatEntry", "MatGame", "MatLine", "MatRecord", "mat_moves", "read_mat", "write_mat"]

_GAME_ACTIONS = frozenset({"opening_roll", "roll", "move", "double", "take", "pass", "resign"})
_MATCH_ENDINGS = frozenset({"resign_match", "timeout"})
_LEFT_WIDTH = 28  # the left column; with the number and two spaces the right starts at 35
_POINT_NAMES = ("off", *(str(point) for point in range(1, 25)), "bar")


@dataclass(frozen=True, slots=True)
class MatEntry:
    """One column of a line: ``kind`` is "move", "double", "take", "drop" or "win".

    ``dice`` and ``moves`` for a move (``moves`` "" when the roll cannot be played); ``value``
    the new cube of a double or the points of a win; ``match`` a win that ends the match.
    """

    player: int
    kind: str
    dice: tuple[int, int] | None = None
    moves: str = ""
    value: int = 0
    match: bool = False

    def text(self) -> str:
        if self.kind == "move":
            assert self.dice is not None
            return f"{self.dice[0]}{self.dice[1]}: {self.moves}".rstrip()
        if self.kind == "double":
            return f" Doubles => {self.value}"
        if self.kind in ("take", "drop"):
            return f" {self.kind.capitalize()}s"
        points = "point" if self.value == 1 else "points"
        return f" Wins {self.value} {points}{' and the match' if self.match else ''}"


@dataclass(frozen=True, slots=True)
class MatLine:
    """A numbered line (``number`` None for the closing "Wins" line): its two columns."""

    number: int | None
    left: MatEntry | None
    right: MatEntry | None

    def entries(self) -> list[MatEntry]:
        return [entry for entry in (self.left, self.right) if entry is not None]


@dataclass(frozen=True, slots=True)
class MatGame:
    number: int
    score: tuple[int, int]  # at the start of the game
    lines: tuple[MatLine, ...]

    def entries(self) -> list[MatEntry]:
        """Every entry in the order played: each line's left column, then its right."""
        return [entry for line in self.lines for entry in line.entries()]


@dataclass(frozen=True, slots=True)
class MatRecord:
    names: tuple[str, str]
    length: int
    games: tuple[MatGame, ...]


# --------------------------------------------------------------------------- writing


def mat_moves(play: Play) -> str:
    """A play in the ``.mat`` style: each single-die move on its own, in an order that can be
    played move by move, ``*`` on hits (``bar/22* 13/11``, ``6/off 6/off``)."""
    return " ".join(f"{_POINT_NAMES[source]}/{_POINT_NAMES[target]}{'*' if hit else ''}"
                    for source, target, hit in play.moves)


def write_mat(names: tuple[str, str], length: int, actions: Iterable[Mapping]) -> str:
    """The ``.mat`` text of a match log; an action the engine refuses raises ``ValueError``
    (``IllegalAction``). A game after the first of which only the opening roll was made
    (the match closed or looked at right after it) is not written: the record ends where
    play did; the first game's header stands (a match importers read, moves or not)."""
    writer = _Writer(Match(length))
    for action in actions:
        writer.take(action)
    games = writer.games[:1] + [game for game in writer.games[1:] if game.entries]
    return _format(tuple(_clean_name(name, seat) for seat, name in enumerate(names)),
                   length, games)


@dataclass
class _GameLog:
    score: tuple[int, int]
    entries: list[MatEntry]


class _Writer:
    """Replays the log and collects each game's entries."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.game: Game | None = None
        self.games: list[_GameLog] = []

    def take(self, action: Mapping[str, Any]) -> None:
        kind = action.get("type")
        if kind in _GAME_ACTIONS:
            self._game_action(dict(action))
        elif kind in _MATCH_ENDINGS:
            self._match_ending(action.get("player"))

    def _current(self) -> Game:
        if self.match.finished:
            raise ValueError("the match is over")
        if self.game is None or self.game.finished:
            self.game = Game(crawford=self.match.crawford)
            self.games.append(_GameLog(self.match.score, []))
        return self.game

    def _add(self, entry: MatEntry) -> None:
        self.games[-1].entries.append(entry)

    def _game_action(self, action: dict[str, Any]) -> None:
        game = self._current()
        kind, player = action["type"], game.turn
        if kind == "move":
            position, dice = game.position, game.dice
            game.apply(action)  # checks the phase, the player and the play
            assert dice is not None
            play = parse_play(action["play"], position, dice)
            self._add(MatEntry(player, "move", (max(dice), min(dice)), mat_moves(play)))
        else:
            cube = game.cube
            game.apply(action)
            if kind == "double":
                self._add(MatEntry(player, "double", value=2 * cube))
            elif kind in ("take", "pass"):
                self._add(MatEntry(1 - player, "take" if kind == "take" else "drop"))
        if game.outcome is not None:
            outcome = game.outcome
            self.match.record_game(outcome.winner, outcome.points_per_cube, outcome.cube,
                                   outcome.passed)
            self._add(MatEntry(outcome.winner, "win", value=outcome.points,
                               match=self.match.finished))

    def _match_ending(self, loser: object) -> None:
        if loser not in (0, 1):
            raise ValueError(f"player must be 0 or 1, not {loser!r}")
        winner = 1 - loser
        needed = self.match.away(winner)
        self._current()  # the game in progress, or a new one if none is
        self.match.resign_match(loser)
        self._add(MatEntry(winner, "win", value=needed, match=True))


def _clean_name(name: str, seat: int) -> str:
    """A name the importers read back: one line, no colon (it ends the name), no "Game "
    (it starts a game)."""
    text = " ".join(str(name).replace(":", " ").split()).replace("Game ", "Game-")
    return text or f"Player {seat + 1}"


def _format(names: tuple[str, str], length: int, games: list[_GameLog]) -> str:
    out = [f" {length} point match", ""]
    for number, log in enumerate(games, start=1):
        left = f" {names[0]} : {log.score[0]}"
        out += [f" Game {number}", f"{left.ljust(33)}  {names[1]} : {log.score[1]}".rstrip()]
        out += [_line_text(line) for line in _lines(log.entries)]
        out.append("")
    return "\n".join(out) + "\n"


def _lines(entries: list[MatEntry]) -> list[MatLine]:
    """Lay entries out in two columns: player 0 starts a line, player 1 fills the right of
    the current line; a win stands on its own unnumbered line."""
    lines: list[MatLine] = []
    for entry in entries:
        if entry.kind == "win":
            lines.append(MatLine(None, *((entry, None) if entry.player == 0 else (None, entry))))
            continue
        last = lines[-1] if lines and lines[-1].number is not None else None
        if entry.player == 1 and last is not None and last.right is None:
            lines[-1] = MatLine(last.number, last.left, entry)
            continue
        number = sum(1 for line in lines if line.number is not None) + 1
        lines.append(MatLine(number, *((entry, None) if entry.player == 0 else (None, entry))))
    return lines


def _line_text(line: MatLine) -> str:
    left = line.left.text() if line.left else ""
    prefix = f"{line.number:3d}) " if line.number is not None else "     "
    if line.right is None:
        return (prefix + left).rstrip()
    return f"{prefix}{left.ljust(_LEFT_WIDTH)}  {line.right.text().lstrip()}".rstrip()


# --------------------------------------------------------------------------- reading

_HEADER = re.compile(r"^\s*(\d+)\s+point\s+match\b", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$")
_SCORE = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")
_NUMBER = re.compile(r"^\s*(\d+)\)")
_MOVE = re.compile(r"^([1-6])([1-6]):\s*(.*)$")
_DOUBLE = re.compile(r"^Doubles\s*=>\s*(\d+)$", re.IGNORECASE)
_WIN = re.compile(r"^Wins\s+(\d+)\s+points?(\s+and\s+the\s+match)?$", re.IGNORECASE)


def read_mat(text: str) -> MatRecord:
    """The match in a ``.mat`` text; ``ValueError`` for a line it cannot read."""
    lines = [line.rstrip("\r\n") for line in text.lstrip("\ufeff").splitlines()]
    length, start = _read_header(lines)
    games: list[MatGame] = []
    names = ("", "")
    index = start
    while index < len(lines):
        found = _GAME.match(lines[index])
        if not found:
            if lines[index].strip():
                raise ValueError(f"unexpected line {index + 1}: {lines[index]!r}")
            index += 1
            continue
        game, names, index = _read_game(lines, index + 1, int(found.group(1)))
        games.append(game)
    return MatRecord(names, length, tuple(games))


def _read_header(lines: list[str]) -> tuple[int, int]:
    for index, line in enumerate(lines):
        if line.strip().startswith((";", "#")) or not line.strip():
            continue
        found = _HEADER.match(line)
        if not found:
            raise ValueError(f"not a .mat file: {line!r}")
        return int(found.group(1)), index + 1
    raise ValueError("not a .mat file: no \"N point match\" line")


def _read_game(lines: list[str], index: int,
               number: int) -> tuple[MatGame, tuple[str, str], int]:
    while index < len(lines) and not lines[index].strip():
        index += 1
    found = _SCORE.match(lines[index]) if index < len(lines) else None
    if not found:
        raise ValueError(f"game {number}: no score line")
    names = (found.group(1), found.group(3))
    score = (int(found.group(2)), int(found.group(4)))
    read: list[MatLine] = []
    index += 1
    while index < len(lines) and not _GAME.match(lines[index]):
        if lines[index].strip():
            read.append(_read_line(lines[index]))
        index += 1
    return MatGame(number, score, tuple(read)), names, index


def _read_line(line: str) -> MatLine:
    """Split the columns as GNU Backgammon does: at the second "NN:" if there are two, else at
    the first double space after the 15th character."""
    numbered = _NUMBER.match(line)
    number = int(numbered.group(1)) if numbered else None
    split = _column_split(line)
    left_text = line[:split] if split is not None else line
    if numbered:
        left_text = left_text[numbered.end():] if numbered.end() <= len(left_text) else ""
    right_text = line[split:] if split is not None else ""
    return MatLine(number, _read_entry(left_text, 0), _read_entry(right_text, 1))


def _column_split(line: str) -> int | None:
    first = line.find(":")
    second = line.find(":", first + 1) if first >= 0 else -1
    if second > 3:
        return second - 2
    if len(line) > 15:
        gap = line.find("  ", 15)
        if gap >= 0:
            return gap
    return None


def _read_entry(text: str, player: int) -> MatEntry | None:
    text = text.strip()
    if not text:
        return None
    if found := _MOVE.match(text):
        dice = (int(found.group(1)), int(found.group(2)))
        return MatEntry(player, "move", dice, " ".join(found.group(3).split()))
    if found := _DOUBLE.match(text):
        return MatEntry(player, "double", value=int(found.group(1)))
    if text.lower() in ("takes", "drops"):
        return MatEntry(player, "take" if text.lower() == "takes" else "drop")
    if found := _WIN.match(text):
        return MatEntry(player, "win", value=int(found.group(1)), match=bool(found.group(2)))
    raise ValueError(f"unreadable .mat entry: {text!r}")

