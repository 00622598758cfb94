"""/match, /standings and /bracket in a private chat: about the sender's own tournaments
(README, "Commands"). One tournament (or the one named by ``#id``) is answered at once; with
several, the sender picks one with a button — but /match names each match the sender is
playing now in one reply. Each game says what these commands show (:func:`dm_answer`,
:func:`match_answer`), as its group handlers do in the group.

In a group, /match from a player in live matches there is answered here too, before any
game's routers, with each of those matches (a darts league and a backgammon cup in one
group, a friendly beside them): a game's own /match handler knows only its tournaments,
and the update reaches one game's."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TypeVar

from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.features.access import id_named
from bot.features.handlers import Handlers
from bot.games import game_of
from bot.i18n import Markup, Translator
from bot.middlewares.filters import IN_GROUP, IN_PRIVATE
from bot.middlewares.scope import Scope
from bot.play import hidden
from bot.services import Services
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import LIVE, Tournament

DmAnswer = Callable[[Services, Translator, Tournament, int, int], Awaitable[None]]
"""(services, the reader's translator, tournament, user id, chat to answer in)."""
MatchText = Callable[[Services, Translator, Tournament, int], Awaitable[str]]
"""(services, the reader's translator, tournament, user id) → what /match tells that user
about their play in the tournament."""
COMMANDS = ("match", "standings", "bracket")
T = TypeVar("T")

router = Handlers("mine")
here = Handlers("mine-here")
"""/match in a group from a player in live matches there: before every game's /match."""
_answers: dict[str, dict[str, DmAnswer]] = {"standings": {}, "bracket": {}}
_match_texts: dict[str, MatchText] = {}
FRIENDLY = "friendly"
"""The key of what /match tells about a friendly match, whatever its game."""


class Mine(CallbackData, prefix="mine"):
    command: str
    tournament_id: int


def dm_answer(table: Handlers, command: str) -> Callable[[DmAnswer], DmAnswer]:
    """Declare what ``command`` (/standings, /bracket) says in a DM about a tournament whose
    game has ``table`` among its routers."""
    def register(answer: DmAnswer) -> DmAnswer:
        _answers[command][table.name] = answer
        return answer
    return register


def match_answer(table: Handlers) -> Callable[[MatchText], MatchText]:
    """Declare what /match tells a player about a tournament whose game has ``table`` among
    its routers (in a DM, and in a group beside the player's other live matches there)."""
    def register(text: MatchText) -> MatchText:
        _match_texts[table.name] = text
        return text
    return register


def friendly_answer(text: MatchText) -> MatchText:
    """Declare what /match tells a player about their friendly match (its head names it)."""
    _match_texts[FRIENDLY] = text
    return text


def _match_text(tournament: Tournament) -> MatchText:
    if tournament.friendly:
        return _match_texts[FRIENDLY]
    return _of_game(tournament, _match_texts)


async def why_no_match(services: Services, tr: Translator, tournaments: list[Tournament],
                       user_id: int) -> str:
    """What /match tells a player with no match now in any of ``tournaments`` (a group's
    running ones) about the first they entered — resting this round, through to the next,
    out —; to anyone else, that they have no match."""
    for tournament in tournaments:
        told = _match_text(tournament)
        if told and await services.repos.entrants.get(tournament.id, user_id):
            return await told(services, tr, tournament, user_id)
    return tr("play.not_in_match")


def about(tr: Translator, tournament: Tournament, text: str) -> str:
    """``text`` about a player's match as their private chat shows it: under the
    tournament's title, since that chat is not the tournament's group (a picture's caption
    names it already)."""
    return tr("mine.about", title=tournament.title) + "\n" + text


def _of_game(tournament: Tournament, declared: Mapping[str, T]) -> T | None:
    """What the first of the routers of the tournament's game declared in ``declared``."""
    return next((declared[table.name] for table in game_of(tournament.game).routers
                 if table.name in declared), None)


def _declared(command: str) -> Mapping[str, object]:
    return _match_texts if command == "match" else _answers[command]


async def _match_told(services: Services, tr: Translator, tournament: Tournament,
                      user_id: int) -> str:
    if tournament.status == "finished":
        return tr("match.finished", title=tournament.title)
    text = await _match_text(tournament)(services, tr, tournament, user_id)
    return text if tournament.friendly else about(tr, tournament, text)


async def matches_told(services: Services, tr: Translator, tournaments: list[Tournament],
                       user_id: int) -> str:
    """/match about each of ``tournaments``, each under its title: one message."""
    return "\n\n".join([await _match_told(services, tr, tournament, user_id)
                        for tournament in tournaments])


async def _answer(services: Services, tr: Translator, tournament: Tournament, command: str,
                  user_id: int) -> None:
    if command == "match":
        await services.bot.send_message(
            user_id, await matches_told(services, tr, [tournament], user_id))
        return
    await _of_game(tournament, _answers[command])(services, tr, tournament, user_id, user_id)


@router.message(Command(*COMMANDS), IN_PRIVATE)
async def in_dm(message: Message, command: CommandObject, services: Services,
                tr: Translator) -> None:
    user_id = message.from_user.id
    mine = [t for t in await services.repos.tournaments.played_by(user_id)
            if _of_game(t, _declared(command.command))]
    if (named := id_named(command.args)) is not None:  # /match #2: that one of theirs
        mine = [t for t in mine if t.id == named]
    playing = await _playing(services, mine, user_id) if command.command == "match" else []
    if not mine and named is not None:
        await message.answer(tr("mine.not_yours", id=named))
    elif not mine and command.command == "match" and \
            (friendlies := await services.repos.tournaments.friendlies_playing(user_id)):
        await message.answer(_friendlies(tr, friendlies))
    elif not mine:
        await message.answer(tr("mine.none"))
    elif playing:  # /match: each match being played, in one reply
        await message.answer(await matches_told(services, tr, playing, user_id))
    elif len(mine) == 1:
        await _answer(services, tr, mine[0], command.command, user_id)
    else:
        await message.answer(tr("mine.pick"), reply_markup=_choices(tr, command.command, mine))


async def _playing(services: Services, tournaments: list[Tournament],
                   user_id: int) -> list[Tournament]:
    """Those of ``tournaments`` in which ``user_id`` plays a match now, oldest first (as
    the group's /match names them)."""
    return [tournament for tournament in sorted(tournaments, key=lambda t: t.id)
            if tournament.status in LIVE
            and await services.repos.matches.current_for_player(tournament.id, user_id)]


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
            or _of_game(tournament, _declared(callback_data.command)) is None:
        await query.answer(tr("callback.stale"), show_alert=True)
        return
    if services.second_tap(user_id, query.message.message_id, query.data):
        await query.answer(tr("mine.shown_above"))
        return
    await query.answer()
    await _answer(services, tr, tournament, callback_data.command, user_id)


async def _playing_here(message: Message, scope: Scope) -> dict | bool:
    """Filter: the tournaments of this group in which the sender plays a match now, oldest
    first (only the one ``#id`` names, or whose match's forum topic the command was
    sent in), with those matches; False when there is none, for the game's own /match to
    say why."""
    services = scope.services
    live = await scope.live_matches()
    ids = {match.tournament_id for match in live}
    named = id_named(scope.args)
    if named is None and scope.thread is not None:
        named = await services.repos.matches.tournament_of_topic(message.chat.id, scope.thread)
    if named is not None:
        ids &= {named}
    tournaments = [await services.repos.tournaments.get(number) for number in sorted(ids)]
    return {"tournaments": tournaments,
            "matches": [match for match in live if match.tournament_id in ids]
            } if tournaments else False


@here.message(Command("match"), IN_GROUP, _playing_here)
async def matches_here(message: Message, tournaments: list[Tournament],
                       matches: list[MatchRow], services: Services, tr: Translator) -> None:
    """The sender's match in each tournament of the group they play in now: one reply, each
    under its title when there are several; with the button to the private chat when their
    panel of one could not reach them."""
    user_id = message.from_user.id
    markup = await hidden.open_chat_button(services, tr, matches, user_id)
    if len(tournaments) > 1:
        await message.reply(await matches_told(services, tr, tournaments, user_id),
                            reply_markup=markup)
        return
    tournament = tournaments[0]
    await message.reply(await _match_text(tournament)(services, tr, tournament, user_id),
                        reply_markup=markup)
