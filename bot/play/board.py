"""The live board of a match: one message edited in place as the match moves on.

Its message id is kept on the match row. ``new=True`` posts it again at the bottom of the
chat and takes the buttons off the old one, so a press on an old board is refused by the
game (its buttons carry the position they were drawn for).
"""

from __future__ import annotations

from aiogram.types import InlineKeyboardMarkup

from bot.games import game_of
from bot.play import hidden
from bot.play.context import LIVE, MatchContext
from bot.services import Services
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament


async def show_board(ctx: MatchContext, text: str, markup: InlineKeyboardMarkup | None, *,
                     new: bool = False) -> None:
    services = ctx.services
    match = await services.repos.matches.get(ctx.match.id)
    chat_id = ctx.tournament.chat_id
    if new and match.board_message_id is not None:
        await services.outbox.drop_buttons(chat_id, match.board_message_id)
    current = None if new else match.board_message_id
    message_id = await services.outbox.board(chat_id, current, text, markup,
                                             thread_id=match.thread_id)
    if message_id != match.board_message_id:
        await services.repos.matches.update(match.id, services.clock.now(),
                                            board_message_id=message_id)
    ctx.match = await services.repos.matches.get(match.id)


async def retire_board(services: Services, tournament: Tournament, match: MatchRow) -> None:
    """Show on its board that ``match`` (as it was before) was closed outside its play — a
    walkover, a result an organiser set — so the board takes no more presses: the game's
    own drawing (:attr:`~bot.games.Game.settled_boards`), else its buttons taken off; the
    players' private panels lose their buttons too."""
    if match.status not in LIVE:
        return
    redraw = game_of(tournament.game).settled_boards.get(match.kind)
    if match.board_message_id is not None:
        await (redraw(services, tournament, match) if redraw is not None else
               services.outbox.drop_buttons(tournament.chat_id, match.board_message_id))
    stored = hidden.panels(services)  # the players' private panels (a hand, a choice)
    for user_id in match.players:
        if (message_id := await stored.get(match.id, user_id)) is not None:
            await services.outbox.drop_buttons(user_id, message_id)
