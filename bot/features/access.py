"""Who may do what, and which tournament a command in a chat is about."""

from __future__ import annotations

import re
from dataclasses import dataclass

from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import CommandObject, Filter
from aiogram.types import CallbackQuery, Message

from bot.features.keyboards import pressed_on_its_question
from bot.games import game_of
from bot.middlewares.filters import command_name, topic_of
from bot.play.refusal import GROUP_ONLY, Refusal
from bot.services import Services
from storage.repositories.tournaments import ACTIVE_ENTRANT, Tournament

_ID_ARG = re.compile(r"^#(\d+)$")
# A player's own commands: with several open tournaments in a group they go to the one the
# sender is entered in (about their entry), or the started one they play (about their play).
_ENTRY_COMMANDS = frozenset({"withdraw", "leave", "checkin"})
_PLAY_COMMANDS = frozenset({"match", "result", "confirm", "dispute", "standings", "bracket"})
_REPORT_COMMANDS = frozenset({"result", "confirm", "dispute"})
"""Play commands only a game whose results are reported takes (not one played in the bot)."""
_NAMING_COMMANDS = frozenset({"setresult", "dq"})
"""Organisers' commands naming players (``@a @b``): about the tournament they are in."""


async def is_organiser(services: Services, chat_id: int, user_id: int) -> bool:
    """Administrators of the group, plus the users listed in ADMIN_IDS."""
    if user_id in services.settings.admin_ids:
        return True
    if chat_id > 0:
        return False
    try:
        member = await services.bot.get_chat_member(chat_id, user_id)
    except TelegramBadRequest:
        return False
    return member.status in ("creator", "administrator")


async def organisers_press(query: CallbackQuery, services: Services, tournament_id: int,
                           *, question: bool = False) -> Tournament:
    """The tournament of a button only organisers press, on a message in its group; a
    Refusal (answered as an alert) when the button is stale or the presser no organiser.
    ``question``: the press answers a question, so its data must be a button of the message
    it came with (:func:`~bot.features.keyboards.pressed_on_its_question`)."""
    if question and not pressed_on_its_question(query):
        raise Refusal("callback.stale")
    tournament = await services.repos.tournaments.get(tournament_id)
    message = query.message
    if tournament is None or message is None or message.chat.id != tournament.chat_id:
        raise Refusal("callback.stale")
    if not await is_organiser(services, tournament.chat_id, query.from_user.id):
        raise Refusal("access.organisers_only")
    return tournament


def id_named(args: str | None) -> int | None:
    """The tournament id a command's first word names (``#2``), if it names one."""
    words = (args or "").split()
    found = _ID_ARG.match(words[0]) if words else None
    return int(found.group(1)) if found else None


def id_moved_first(args: str | None) -> str | None:
    """The words with a last ``#id`` put first (``20:00 #2`` reads as ``#2 20:00``), for a
    command whose words are never free text: a title or a reason may end in "#2"."""
    words = (args or "").split()
    if len(words) > 1 and _ID_ARG.match(words[-1]) and not _ID_ARG.match(words[0]):
        return " ".join([words[-1], *words[:-1]])
    return args


@dataclass
class Target:
    """The tournament a command is about, and the command's remaining words."""

    tournament: Tournament | None
    words: list[str]
    error: str | None = None
    error_params: dict | None = None
    named: bool = False
    """Chosen by its ``#id`` or by the match topic the command was sent in, not guessed."""


async def target_tournament(services: Services, chat_id: int, args: str | None,
                            sender: int | None = None, command: str | None = None,
                            thread: int | None = None) -> Target:
    """Pick the tournament: ``#id`` as the first word, else the one whose match's forum
    topic ``thread`` the command was sent in, else the chat's newest open one (with several,
    for a player's own ``command`` from ``sender``, the newest they are entered in, a
    started one first for a command about their play), else its newest finished one (its
    results stay readable and exportable)."""
    words = (args or "").split()
    if (named := id_named(args)) is not None:
        tournament = await services.repos.tournaments.get(named)
        if tournament is None or tournament.chat_id != chat_id:
            return Target(None, words[1:], "tournament.unknown_id", {"id": str(named)})
        if tournament.status == "cancelled":
            return Target(None, words[1:], "tournament.cancelled",
                          {"id": tournament.id, "title": tournament.title})
        return Target(tournament, words[1:], named=True)
    every = await services.repos.tournaments.active_in_chat(chat_id)
    active = [t for t in every if not t.friendly]  # a friendly match is no command's tournament
    topic = thread and await services.repos.matches.tournament_of_topic(chat_id, thread)
    if found := next((t for t in active if t.id == topic), None):
        return Target(found, words, named=True)  # sent in the topic of one of its matches
    if active:
        if sender is not None and len(active) > 1 and (
                command in _ENTRY_COMMANDS or command in _PLAY_COMMANDS):
            return Target(await _entered(services, active, sender, command), words)
        if len(active) > 1 and command in _NAMING_COMMANDS:
            return Target(await _naming(services, active, words), words)
        return Target(active[0], words)
    newest = await services.repos.tournaments.newest_in_chat(chat_id)  # a finished one
    if newest is None:
        return Target(None, words, await _no_tournament(services, every, sender))
    return Target(newest, words)


async def _no_tournament(services: Services, friendlies: list[Tournament],
                         sender: int | None) -> str:
    """Why a chat with no tournament has none for this command: nothing is open, or only
    friendly matches are, which have no organiser and are played only by their players."""
    if not friendlies:
        return "tournament.none_here"
    if sender is not None and any([await is_entrant(services, t, sender) for t in friendlies]):
        return "tournament.friendly_is_no_tournament"
    return "tournament.only_friendlies"


async def _entered(services: Services, tournaments: list[Tournament], user_id: int,
                   command: str | None) -> Tournament:
    """The first of ``tournaments`` ``user_id`` is entered in (for a command about their
    play, a started one first; for a report, one whose results are reported, not played in
    the bot), else the first."""
    entered = [tournament for tournament in tournaments
               if await is_entrant(services, tournament, user_id)]
    started = [tournament for tournament in entered
               if command in _PLAY_COMMANDS and tournament.started]
    reported = [tournament for tournament in started if command in _REPORT_COMMANDS
                and not game_of(tournament.game).in_bot(tournament.settings)]
    return (reported or started or entered or tournaments)[0]


async def _naming(services: Services, tournaments: list[Tournament],
                  words: list[str]) -> Tournament:
    """The first of ``tournaments`` every ``@user`` among ``words`` is entered in, else the
    first."""
    named = [await services.repos.users.by_username(word) for word in words
             if word.startswith("@")]
    if not named or None in named:
        return tournaments[0]
    for tournament in tournaments:
        if all([await is_entrant(services, tournament, user.id) for user in named]):
            return tournament
    return tournaments[0]


async def is_entrant(services: Services, tournament: Tournament, user_id: int) -> bool:
    entry = await services.repos.entrants.get(tournament.id, user_id)
    return entry is not None and entry.status in ACTIVE_ENTRANT


async def command_target(message: Message, services: Services, args: str | None, *,
                         organiser: bool = False) -> Target:
    """The tournament a group command is about (:func:`target_tournament`); refused
    (:class:`Refusal`, told why) when the command was sent in a DM, by a non-organiser (when
    ``organiser``), or names no open tournament of this group."""
    if message.chat.type == "private":
        raise Refusal(GROUP_ONLY)
    if organiser and not await is_organiser(services, message.chat.id, message.from_user.id):
        raise Refusal("access.organisers_only")
    target = await target_tournament(services, message.chat.id, args, message.from_user.id,
                                     command_name(message.text), topic_of(message))
    if target.error:
        raise Refusal(target.error, **(target.error_params or {}))
    return target


class Targeted(Filter):
    """A group command's tournament (:func:`command_target`), resolved once before the
    handler and given to it as ``target``; an organiser's command (``organiser``) is refused
    to anyone else before the handler runs."""

    def __init__(self, *, organiser: bool = False) -> None:
        self.organiser = organiser

    async def __call__(self, message: Message, services: Services,
                       command: CommandObject) -> dict[str, Target]:
        return {"target": await command_target(message, services, command.args,
                                               organiser=self.organiser)}
