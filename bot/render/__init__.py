"""Tournament pictures as PNG bytes: a standings table and a single-elimination bracket."""

from bot.render.pictures import bracket_png, find_font, standings_png

__all__ = ["bracket_png", "find_font", "standings_png"]
