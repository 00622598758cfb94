"""How the bot plays the games it can be practised against (``Game.bot_player``): pure
functions of the match state and the bot's seat, returning its action or None."""

from __future__ import annotations

from typing import Any

from bot.games import BOT_ROLLS


def cup_player(state: Any, seat: int) -> dict[str, Any] | None:
    """A Cup group match: the bot rolls when its die is expected; at a tied 2:2 it votes for
    the draw, so the human's vote decides (their «переброс» re-rolls)."""
    wanted = dict((kind, player) for player, kind in state.expecting if player == seat)
    if "roll" in wanted:
        return BOT_ROLLS
    if "draw_vote" in wanted:
        return {"type": "draw_vote", "player": seat, "vote": "draw"}
    return None
