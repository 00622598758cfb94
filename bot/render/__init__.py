"""Tournament pictures as PNG bytes: a standings table and a single-elimination bracket."""

from bot.render.pictures import BAR_MARK, Box, bracket_count, bracket_png, find_font, standings_png

__all__ = ["BAR_MARK", "Box", "bracket_count", "bracket_png", "find_font", "standings_png"]
