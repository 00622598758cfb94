"""Darts in the chat (seeds 000 and 004, SPEC §4–§5): Cricket-Shanghai and FinCricket
scored on one live scoreboard per match with a keypad, the bull-off or coin before leg 1,
typed darts, legs, statistics (also in /export) and the result handed to the tournament
format."""

from bot.features.darts import launch, stats  # noqa: F401  (registers launchers, export)
from bot.features.darts.entry import router

__all__ = ["router"]
