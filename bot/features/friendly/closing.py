"""The end of a friendly match, and /match about it.

A finished friendly match closes through its stage's hooks — the Cup's ``on_finish`` and the
formats' ``outside_formats`` — so no table, bracket or tournament round is touched: the
match row keeps the result, the friendly's row is finished and the chat is told who won.
"""

from __future__ import annotations

from typing import Any

from aiogram.filters import Command
from aiogram.types import Message

from bot.features.cup.common import on_finish
from bot.features.cup.rolling import match_status
from bot.features.darts.kinds import KINDS as DARTS_KINDS
from bot.features.formats.results import outside_formats
from bot.features.friendly.start import STAGE
from bot.features.handlers import Handlers
from bot.i18n import Translator
from bot.middlewares.filters import IN_GROUP
from bot.middlewares.scope import Scope
from bot.play.context import MatchContext, context_for
from bot.services import Services
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament

router = Handlers("friendly-status")


async def _close(ctx: MatchContext, winner: int | None) -> None:
    """Finish the friendly's row and say how it ended (its result counts for nothing)."""
    services = ctx.services
    await services.repos.tournaments.set_status(ctx.tournament.id, "finished",
                                                services.clock.now())
    if winner is None:
        await ctx.say(ctx.tr("friendly.over_drawn", title=ctx.tournament.title))
    else:
        await ctx.say(ctx.tr("friendly.over_won", title=ctx.tournament.title,
                             winner=ctx.names[ctx.match.players.index(winner)]))


@on_finish(STAGE)
async def _cup_friendly_over(ctx: MatchContext, told: dict[str, Any]) -> None:
    """The Cup has written the match's result (``close_match``); the friendly ends."""
    await _close(ctx, ctx.match.winner)


@outside_formats(STAGE)
async def _played_friendly_over(ctx: MatchContext, winner: int | None,
                                score: tuple[int, int] | None) -> None:
    """A formats game's friendly (darts) has ended: its result into the match row."""
    services = ctx.services
    user = None if winner is None else ctx.match.players[winner]
    await services.repos.matches.settle(
        ctx.match.id, {"meta": "result", "winner": user,
                       "result": {"score": list(score) if score else None}},
        None, services.clock.now())
    await _close(ctx, user)


async def _live_friendly(message: Message, scope: Scope) -> dict | bool:
    """Filter: the sender plays a friendly match in this group now."""
    match = await scope.live_match()
    if match is None:
        return False
    friendly = await scope.services.repos.tournaments.get(match.tournament_id)
    return {"friendly": friendly, "match": match} if friendly.friendly else False


@router.message(Command("match"), IN_GROUP, _live_friendly)
async def my_friendly(message: Message, friendly: Tournament, match: MatchRow,
                      services: Services, tr: Translator) -> None:
    """/match in a friendly: which one, the score and whose turn (the Cup), the scoreboard
    (darts) or, for another game, that it is on."""
    ctx = await context_for(services, tr, friendly, match)
    head = tr("friendly.match_head", title=friendly.title, game=tr(f"game.{friendly.game}"))
    if friendly.game == "cup":
        detail = match_status(ctx, await services.matches.state(match))
    else:
        detail = tr("friendly.match_board" if match.kind in DARTS_KINDS else "friendly.match_on")
    await message.reply(head + "\n" + detail)
