"""/match, /standings and /bracket in a private chat: about the sender's own tournaments
(README, "Commands"). One tournament (or the one named by ``#id``) is answered at once; with
several, the sender picks one with a button. Each game says what these commands show
(:func:`dm_answer`), as its group handlers do in the group."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.features.handlers import Handlers
from bot.games import game_of
from bot.i18n import Markup, Translator
from bot.middlewares.filters import IN_PRIVATE
from bot.services import Services
from storage.repositories.tournaments import Tournament

DmAnswer = Callable[[Services, Translator, Tournament, int, int], Awaitable[None]]
"""(services, the reader's translator, tournament, user id, chat to answer in)."""
COMMANDS = ("match", "standings", "bracket")

router = Handlers("mine")
_answers: dict[tuple[str, str], DmAnswer] = {}


class Mine(CallbackData, prefix="mine"):
    command: str
    tournament_id: int


def dm_answer(table: Handlers, command: str) -> Callable[[DmAnswer], DmAnswer]:
    """Declare what ``command`` says in a DM about a tournament whose game has ``table``
    among its routers."""
    def register(answer: DmAnswer) -> DmAnswer:
        _answers[table.name, command] = answer
        return answer
    return register


def about(tr: Translator, tournament: Tournament, text: str) -> str:
    """``text`` about a player's match as their private chat shows it: under the
    tournament's title, since that chat is not the tournament's group (a picture's caption
    names it already)."""
    return tr("mine.about", title=tournament.title) + "\n" + text


def _answer_for(tournament: Tournament, command: str) -> DmAnswer | None:
    for table in game_of(tournament.game).routers:
        if (found := _answers.get((table.name, command))) is not None:
            return found
    return None


async def _answer(services: Services, tr: Translator, tournament: Tournament, command: str,
                  user_id: int) -> None:
    if command == "match" and tournament.status == "finished":
        await services.bot.send_message(user_id, tr("match.finished", title=tournament.title))
        return
    await _answer_for(tournament, command)(services, tr, tournament, user_id, user_id)


@router.message(Command(*COMMANDS), IN_PRIVATE)
async def in_dm(message: Message, command: CommandObject, services: Services,
                tr: Translator) -> None:
    user_id = message.from_user.id
    mine = [t for t in await services.repos.tournaments.played_by(user_id)
            if _answer_for(t, command.command)]
    named = (command.args or "").strip().removeprefix("#")
    if named.isdecimal():  # /match #2: that one of the sender's tournaments
        mine = [t for t in mine if t.id == int(named)]
    if not mine and command.command == "match" and \
            (friendlies := await services.repos.tournaments.friendlies_playing(user_id)):
        await message.answer(_friendlies(tr, friendlies))
    elif not mine:
        await message.answer(tr("mine.none"))
    elif len(mine) == 1:
        await _answer(services, tr, mine[0], command.command, user_id)
    else:
        await message.answer(tr("mine.pick"), reply_markup=_choices(tr, command.command, mine))


def _friendlies(tr: Translator, friendlies: list[Tournament]) -> str:
    """Where the sender's friendly matches are played: /match in their group shows each."""
    return tr("mine.friendlies", matches=Markup("\n".join(
        tr("mine.friendly_line", title=t.title) for t in friendlies)))


def _choices(tr: Translator, command: str, tournaments: list[Tournament]
             ) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
        text=tr("mine.choice", title=t.title, id=t.id),
        callback_data=Mine(command=command, tournament_id=t.id).pack())] for t in tournaments])


@router.callback_query(Mine.filter())
async def picked(query: CallbackQuery, callback_data: Mine, services: Services,
                 tr: Translator) -> None:
    user_id = query.from_user.id
    mine = {t.id: t for t in await services.repos.tournaments.played_by(user_id)}
    tournament = mine.get(callback_data.tournament_id)
    if tournament is None or callback_data.command not in COMMANDS \
            or _answer_for(tournament, callback_data.command) is None:
        await query.answer(tr("callback.stale"), show_alert=True)
        return
    await query.answer()
    await _answer(services, tr, tournament, callback_data.command, user_id)
