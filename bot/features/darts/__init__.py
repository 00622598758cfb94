"""Darts in the chat (seeds 000 and 004, SPEC §4–§5): Cricket-Shanghai and FinCricket
scored on one live scoreboard per match with a keypad, the bull-off or coin before leg 1,
typed darts, legs, statistics (also in /export) and the result handed to the tournament
format."""

from bot.features.darts import entry, launch, starter, stats  # noqa: F401  (launch, stats register)

MODULES = (starter, entry)
