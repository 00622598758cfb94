"""/match and /standings for the Cup."""

from __future__ import annotations

from aiogram import F
from aiogram.filters import Command
from aiogram.types import Message

from bot.features.cup.common import my_play, names_of, running_cup
from bot.features.cup.rolling import match_status
from bot.features.cup.stage import group_table, render_table
from bot.features.handlers import Handlers
from bot.i18n import Markup, Translator
from bot.services import Services

router = Handlers("cup-status")


@router.message(Command("match"), F.chat.type != "private")
async def my_match(message: Message, services: Services, tr: Translator) -> None:
    tournament, play = await my_play(services, tr, message.chat.id, message.from_user.id)
    if play is None:
        await message.reply(tr("cup.not_in_match"))
        return
    state = await services.matches.state(play.match)
    if hasattr(state, "round") and hasattr(state, "score"):
        await message.reply(match_status(play, state))
    else:
        await message.reply(tr("cup.match_other", a=play.names[0], b=play.names[1],
                               format=tr(f"cup.format.{play.match.kind}")))


@router.message(Command("standings"), F.chat.type != "private")
async def standings_command(message: Message, services: Services, tr: Translator) -> None:
    tournament = await running_cup(services, message.chat.id)
    if tournament is None:
        await message.answer(tr("standings.none"))
        return
    rows = await group_table(services, tournament)
    label = await names_of(services, tournament.id)
    await message.answer(tr("cup.table", title=tournament.title,
                            rows=Markup(render_table(tr, rows, label))))
