"""Backgammon's own settings (``docs/backgammon.md``): how matches are played (``play``), the
match length and the late-start grace; the engine of a match and the breaks it allows."""

from __future__ import annotations

from typing import Any

from bot.game_settings import int_range
from bot.i18n import Translator
from games.backgammon.match import LENGTHS
from games.backgammon.protocol import BoardMatch

KIND = "bg_board"
PLAY_MODES = ("board", "bot")


def play_mode(text: str) -> str:
    """``board``: played on a real board, the bot keeps the protocol; ``bot`` is not yet
    available and is refused with its own reason."""
    value = text.lower()
    if value == "bot":
        raise ValueError("backgammon.settings.play_bot_later")
    if value not in PLAY_MODES:
        raise ValueError("settings.bad_choice")
    return value


play_mode.hint = "board"  # type: ignore[attr-defined]


def match_length(text: str) -> int:
    """1, 3, 5 … 15 points (the Crawford rule needs an odd length; the cube stops at 64)."""
    if not text.isdigit() or int(text) not in LENGTHS:
        raise ValueError("backgammon.settings.bad_length")
    return int(text)


match_length.hint = "1|3|5…15"  # type: ignore[attr-defined]
PARSERS = {"play": play_mode, "length": match_length, "grace": int_range(0, 240)}
DEFAULTS = {"play": "board", "length": 5, "grace": 15}


def breaks(length: int) -> int:
    """Breaks each player may take in a match (the seed's §11): none up to 5 points, 1 for
    7–9, 2 for 11–13, 3 from 15."""
    if length <= 5:
        return 0
    return 1 if length <= 9 else 2 if length <= 13 else 3


def board_engine(settings: dict[str, Any]) -> BoardMatch:
    return BoardMatch(settings.get("length", 5))


def setup_note(tr: Translator, settings: dict[str, Any]) -> str:
    length = settings.get("length", 5)
    return tr("backgammon.note", length=length, breaks=breaks(length),
              grace=settings.get("grace", 15))
