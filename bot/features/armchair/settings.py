"""Армчер-крикет's own settings (``docs/armchair.md``, "Settings"): where matches are played
(``play=bot``: hands in each player's DM; ``play=report``: at a table, results reported),
the deck limit and the wickets that end an innings; the engine of a match."""

from __future__ import annotations

from typing import Any

from bot.features.formats.state import phase_of
from bot.game_settings import choice, int_range
from bot.play.context import MatchContext
from games.armchair_cricket import ArmchairSettings
from games.armchair_cricket.contract import ArmchairGame

KIND = "armchair"
PARSERS = {"play": choice("bot", "report"), "deck_limit": int_range(1, 99),
           "wickets": int_range(1, 10)}
DEFAULTS = {"play": "bot", "deck_limit": 27, "wickets": 3}
TABLE_PHASES = ("round_robin", "swiss")  # formats that score a tie or a draw as such


def engine(settings: dict[str, Any]) -> ArmchairGame:
    """A fresh match for a tournament's settings (other keys are the platform's)."""
    return ArmchairGame(ArmchairSettings(
        deck_limit=int(settings.get("deck_limit", DEFAULTS["deck_limit"])),
        wickets=int(settings.get("wickets", DEFAULTS["wickets"]))))


def replay_of(ctx: MatchContext, game: ArmchairGame) -> int | None:
    """The match's id when, just ended, it is dealt again: a tie or a draw where the format
    needs a winner (a bracket, Swiss with elimination); None when a table or a friendly
    takes the result as it is (or the match goes on)."""
    replayed = game.finished and game.outcome.result != "win" \
        and ctx.match.stage != "friendly" and phase_of(ctx.tournament) not in TABLE_PHASES
    return ctx.match.id if replayed else None


def reported(settings: dict[str, Any]) -> bool:
    """``play=report``: the matches are played away from the bot and reported."""
    return settings.get("play", DEFAULTS["play"]) == "report"
