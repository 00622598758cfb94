"""A match's newest message drawn again where it is, by its game's own drawing of it."""

from __future__ import annotations

from bot.games import game_of
from bot.play.context import MatchContext


async def redraw_in_place(ctx: MatchContext, *, owed: bool = False) -> None:
    """The match's newest message drawn again where it is, from the match's state
    (:attr:`~bot.games.Game.settled_boards`): after an organiser's correction (a round
    undone, a player replaced), or once a player it asked to open the private chat has
    opened it; none shown yet, none drawn. ``owed``: an action that shows the match was
    written but maybe not shown (a stop, Telegram out of reach): posted where none was
    shown yet (a Cup match's first roll posts its first message)."""
    redraw = game_of(ctx.tournament.game).settled_boards.get(ctx.match.kind)
    if redraw is not None and (owed or ctx.match.board_message_id is not None):
        await redraw(ctx, await ctx.services.matches.state(ctx.match))
