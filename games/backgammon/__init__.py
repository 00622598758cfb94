"""Backgammon rules engine: positions, legal plays, notation, game results and matches.

The rules as played here are written up in ``docs/backgammon.md``. ``position`` holds the
board and its GNU Backgammon Position ID, ``movegen`` finds the legal plays, ``notation`` and
``parse`` write and read them, ``result`` scores a finished or resigned game, ``match``
keeps a match score with the Crawford rule and ``game`` runs one game from the opening roll.
"""

from games.backgammon.game import Game, Outcome
from games.backgammon.match import Match
from games.backgammon.parse import parse_play
from games.backgammon.plays import Play, legal_plays
from games.backgammon.position import Position
from games.backgammon.result import game_result

__all__ = ["Game", "Match", "Outcome", "Play", "Position", "game_result", "legal_plays",
           "parse_play"]
