"""Backgammon's own settings (``docs/backgammon.md``): how matches are played (``play``), the
match length, the late-start grace of a board match and the clocks of a match played in the
bot (``clock``, ``idle``); the engine of a match and the breaks it allows."""

from __future__ import annotations

from typing import Any

from bot.game_settings import minutes, settings_line
from bot.i18n import Translator
from games.backgammon.match import LENGTHS
from games.backgammon.protocol import BoardMatch
from games.backgammon.session import LiveMatch

GAME = "backgammon"
"""The game's key (its tournaments'); a player may have a match of another game in the
same group, so its handlers look for their match among this game's."""
KIND = "bg_board"
LIVE_KIND = "bg_live"
PLAY_MODES = ("board", "bot")


def play_mode(text: str) -> str:
    """``bot``: played in the bot, which rolls, takes only legal moves and keeps the clocks;
    ``board``: played on a real board, the bot keeps the protocol."""
    value = text.lower()
    if value not in PLAY_MODES:
        raise ValueError("settings.bad_choice")
    return value


play_mode.hint = "bot|board"  # type: ignore[attr-defined]
play_mode.words = {mode: mode for mode in PLAY_MODES}  # type: ignore[attr-defined]


def match_length(text: str) -> int:
    """1, 3, 5 … 15 points (the Crawford rule needs an odd length; the cube stops at 64)."""
    if not text.isdecimal() or int(text) not in LENGTHS:
        raise ValueError("backgammon.settings.bad_length")
    return int(text)


match_length.hint = "1|3|5…15"  # type: ignore[attr-defined]
def match_clock(text: str) -> str:
    """``move_seconds+bank_minutes`` (``60+10``), or ``auto``: the preset for the length."""
    value = text.lower()
    if value == "auto":
        return value
    move, plus, bank = value.partition("+")
    if not (plus and move.isdecimal() and bank.isdecimal() and 5 <= int(move) <= 3600
            and 0 <= int(bank) <= 600):
        raise ValueError("backgammon.settings.bad_clock")
    return f"{int(move)}+{int(bank)}"


match_clock.hint = "auto|60+10"  # type: ignore[attr-defined]
PARSERS = {"play": play_mode, "length": match_length, "grace": minutes(0, 240),
           "clock": match_clock, "idle": minutes(0, 1440)}
DEFAULTS = {"play": "bot", "length": 5}  # clock=auto, idle=0 and grace when unset
GRACE_MINUTES = 15  # a board match's late-start grace unless ``grace`` says otherwise
MOVE_SECONDS = 60  # the preset per-move (and double-answer) timer


def clock_of(settings: dict[str, Any]) -> tuple[int, int]:
    """(per-move seconds, match bank seconds): the ``clock`` setting, else the preset for
    the match length — 60 s a move and 2 minutes of bank per point, at least 3."""
    value = settings.get("clock", "auto")
    if value != "auto":
        move, _, bank = value.partition("+")
        return int(move), int(bank) * 60
    return MOVE_SECONDS, max(3, 2 * match_length(settings)) * 60


def kind_for(settings: dict[str, Any]) -> str:
    """The match kind of a tournament: played in the bot or on a real board."""
    return KIND if settings.get("play") == "board" else LIVE_KIND


def breaks(length: int) -> int:
    """Breaks each player may take in a match (the seed's §11): none up to 5 points, 1 for
    7–9, 2 for 11–13, 3 from 15."""
    if length <= 5:
        return 0
    return 1 if length <= 9 else 2 if length <= 13 else 3


def match_length(settings: dict[str, Any]) -> int:
    """The match points that win a match (``Game.winning_score``)."""
    return settings.get("length", 5)


def match_score_problem(settings: dict[str, Any], won: int, lost: int
                        ) -> tuple[str, dict] | None:
    """A match's final score in match points: the winner exactly the length, the loser
    less (as a reported match card's, ``games/backgammon/protocol.py``)."""
    length = match_length(settings)
    if won == length and 0 <= lost < length:
        return None
    return "backgammon.error.bad_score", {"length": length}


def board_engine(settings: dict[str, Any]) -> BoardMatch:
    return BoardMatch(match_length(settings))


def live_engine(settings: dict[str, Any]) -> LiveMatch:
    return LiveMatch(match_length(settings), clock_of(settings)[1])


def setup_note(tr: Translator, settings: dict[str, Any]) -> str:
    length = match_length(settings)
    if settings.get("play") != "board":
        move, bank = clock_of(settings)
        return tr("backgammon.note_live", length=length, move=move, bank=bank // 60)
    grace = settings.get("grace", GRACE_MINUTES)
    late = tr("backgammon.note_grace", grace=grace) if grace else \
        tr("backgammon.note_no_grace", setting=settings_line(tr, PARSERS, {"grace": 0}))
    return tr("backgammon.note", length=length, breaks=breaks(length)) + " " + late
