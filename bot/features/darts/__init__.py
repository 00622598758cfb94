"""Darts in the chat (seeds 000 and 004, SPEC §4–§5): Cricket-Shanghai and FinCricket
scored on one live scoreboard per match with a keypad, typed darts, legs, statistics and
the result handed to the tournament format."""

from bot.features.darts import launch  # noqa: F401  (registers the launchers)
from bot.features.darts.entry import router

__all__ = ["router"]
