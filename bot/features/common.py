"""Commands anyone can use: /start (also ``/start m-<match id>``: that match's private panel),
/hand, /help, /rules, /try, /lang."""

from __future__ import annotations

import difflib
import re

from aiogram import F, Router
from aiogram.enums import ContentType
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot import games, menu
from bot.config import SUPPORTED_LANGUAGES
from bot.features.access import is_organiser
from bot.features.applications import tell_decisions
from bot.features.game_names import game_named, not_a_game
from bot.features.handlers import Handlers
from bot.features.keyboards import (
    add_to_group_keyboard,
    link_keyboard,
    register_keyboard,
    stacked,
)
from bot.features.registration import prompt
from bot.features.welcome import greeted_just_now
from bot.i18n import Translator, clip, lines
from bot.middlewares.filters import IN_GROUP, IN_PRIVATE, command_names
from bot.middlewares.scope import Scope, game_commands
from bot.play import hidden
from bot.play.refusal import GROUP_ONLY, Refusal
from bot.services import ADDED_BY_LINK, Services
from storage.repositories.tournaments import Tournament

router = Handlers("common")
_PANEL_LINK = re.compile(r"m-(\d+)")
_NUMBER_FIRST = re.compile(r"#(\d+)\s+/([A-Za-z0-9_]+)(?:@\w+)?(.*)", re.S)
_SENT_CONTENT = frozenset({
    ContentType.PHOTO, ContentType.STICKER, ContentType.VOICE, ContentType.VIDEO,
    ContentType.VIDEO_NOTE, ContentType.AUDIO, ContentType.DOCUMENT, ContentType.ANIMATION,
    ContentType.LOCATION, ContentType.CONTACT, ContentType.VENUE, ContentType.POLL})
"""What a user sends besides text and dice (service messages are not answered)."""


class LanguagePick(CallbackData, prefix="lang"):
    code: str


_LINK_ANSWERS = {hidden.Resent.OVER: "play.panel_over",
                 hidden.Resent.NO_MATCH: "play.panel_no_match",
                 hidden.Resent.NOT_THEIRS: "play.panel_not_yours",
                 hidden.Resent.NO_PANEL: "play.panel_none"}
"""Why a match's deep link shows no panel, said above the welcome."""


@router.message(CommandStart(), IN_PRIVATE)
async def start(message: Message, command: CommandObject, services: Services,
                tr: Translator) -> None:
    """Welcome; a deep link ``m-<match id>`` (from a match announcement) shows the sender's
    private panel of that match instead, or, when there is none to show (the link pressed
    after the match), says why above the welcome."""
    why = None
    if found := _PANEL_LINK.fullmatch(command.args or ""):
        resent = await hidden.resend(services, message.from_user.id, int(found[1]))
        if resent in (hidden.Resent.SENT, hidden.Resent.UNDELIVERED):
            return
        why = tr(_LINK_ANSWERS[resent], match=found[1])
    await message.answer(lines(why, tr("start.welcome", name=message.from_user.first_name)),
                         reply_markup=add_to_group_keyboard(services, tr))
    await _pending(services, tr, message)


@router.message(CommandStart(), IN_GROUP)
async def start_in_group(message: Message, command: CommandObject, services: Services,
                         tr: Translator) -> None:
    """/start typed in a group (what people try first with a new bot): where to begin — the
    tournaments taking entrants there and how to join them (a Register button each), the
    organisers' /new after them; with none, how an organiser creates one. The ``/start``
    Telegram sends for whoever added the bot by its link is left unanswered when the
    bot's greeting has just said all that."""
    if command.args == ADDED_BY_LINK and greeted_just_now(services, message.chat.id):
        return
    active = await services.repos.tournaments.active_in_chat(message.chat.id)
    joinable = await _joinable(services, active)
    if not joinable:
        await message.answer(tr("start.group"))
        return
    if len(joinable) == 1:  # a bare /register is for the newest open tournament
        only = joinable[0]
        said = tr("start.group_open", title=only.title,
                  command="/register" if only is active[0] else f"/register #{only.id}")
        markup = register_keyboard(services, tr, only)
    else:
        said = lines(tr("start.group_open_heading"), *(
            tr("start.group_open_line", title=t.title, id=t.id) for t in joinable))
        markup = stacked(*(link_keyboard(tr("start.register_button", title=t.title),
                                         services.deep_link(f"reg-{t.id}")) for t in joinable))
    await message.answer(lines(said, tr("start.group_organisers")), reply_markup=markup)


async def _joinable(services: Services, active: list[Tournament]) -> list[Tournament]:
    """The ``active`` tournaments open for registration with places left."""
    return [tournament for tournament in active
            if tournament.registration_open and not tournament.friendly
            and not tournament.full_with(
                await services.repos.entrants.count(tournament.id, ("approved",)))]


async def _pending(services: Services, tr: Translator, message: Message) -> None:
    """What the bot waits for from a user who opens the chat late (after "I cannot write
    to you in private"): the organisers' decisions on their applications, the next step of
    a registration form, and every private panel awaiting their choice or never delivered,
    with its buttons."""
    user_id = message.from_user.id
    await tell_decisions(services, user_id)
    if entry := await services.repos.entrants.awaiting_input(user_id):
        await prompt(message, tr, await services.repos.tournaments.get(entry.tournament_id),
                     entry)
    for match in await hidden.live_hidden_matches(services, user_id):
        if await hidden.owed_on_opening(services, match, user_id):
            await hidden.resend(services, user_id, match.id)


@router.message(Command("hand"))
async def hand(message: Message, services: Services, tr: Translator) -> None:
    """Every private panel of the sender's live matches, sent again below their DM. Typed
    in a group, the group is told where the panels went; a player the bot cannot write to
    is told how to open its chat by the panel's own answer instead."""
    user_id = message.from_user.id
    matches = await hidden.live_hidden_matches(services, user_id)
    if not matches:
        await message.answer(tr("play.panels_none"))
        return
    resent = [await hidden.resend(services, user_id, match.id) for match in matches]
    if message.chat.type != "private" and hidden.Resent.SENT in resent:
        await message.reply(tr("play.panels_sent"), reply_markup=link_keyboard(
            tr("dm.open_button"), services.deep_link()))


@router.message(Command("help"))
async def help_(message: Message, services: Services, tr: Translator) -> None:
    """The commands of a group; in a DM, what the private chat is for, and the button that
    adds the bot to a group (where tournaments are played)."""
    if message.chat.type == "private":
        await message.answer(tr("help.dm"), reply_markup=add_to_group_keyboard(services, tr))
    else:
        await message.answer(tr("help.text"))


@router.message(Command("rules"))
async def rules(message: Message, command: CommandObject, services: Services,
                tr: Translator) -> None:
    game = (command.args or "").strip().lower()
    known = game_named(game) if game else None
    if not game:
        await message.answer(await _rules_here(services, tr, message.chat.id))
    elif known is None:
        said = tr("rules.unknown", game=clip(game), games=", ".join(games.keys()))
        await message.answer(not_a_game(tr, said, game))
    else:
        await message.answer(tr(known.rules_key))


async def _rules_here(services: Services, tr: Translator, chat_id: int) -> str:
    """/rules alone: the rules of the game the chat's open tournaments play, when they all
    play one; else which game to name."""
    played = {tournament.game for tournament in
              await services.repos.tournaments.active_in_chat(chat_id) if not tournament.friendly}
    if len(played) == 1:
        return tr(games.game_of(played.pop()).rules_key)
    return tr("rules.pick", games=", ".join(games.keys()))


@router.message(Command("try"))
async def try_luck(message: Message, services: Services, tr: Translator) -> None:
    """A coin for anyone; in private, a player whose match is played in a group is told
    that a match's /try counts only there (a result here would look like one)."""
    if message.chat.type == "private" and (
            title := await _group_match_title(services, message.from_user.id)):
        await message.answer(tr("try.in_group", title=title))
        return
    lucky = services.rng.random() < 0.5
    await message.reply(tr("try.success" if lucky else "try.failure",
                           name=message.from_user.first_name))


def _language_keyboard() -> InlineKeyboardMarkup:
    names = {"ru": "Русский", "en": "English", "fi": "Suomi"}
    return InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text=names[code], callback_data=LanguagePick(code=code).pack())
        for code in SUPPORTED_LANGUAGES]])


@router.message(Command("lang"))
async def lang(message: Message, command: CommandObject, services: Services,
               tr: Translator) -> None:
    code = (command.args or "").strip().lower()
    if message.chat.id < 0 and not await is_organiser(services, message.chat.id,
                                                      message.from_user.id):
        await message.answer(tr("lang.group_by_organisers"))  # not a picker they cannot use
        return
    if not code:
        await message.answer(tr("lang.pick"), reply_markup=_language_keyboard())
        return
    if code not in SUPPORTED_LANGUAGES:
        await message.answer(tr("lang.unknown", codes=", ".join(SUPPORTED_LANGUAGES)))
        return
    await _set_language(services, message.chat.id, message.from_user.id, code)
    await message.answer(Translator(code)("lang.set"))


@router.callback_query(LanguagePick.filter())
async def lang_button(query: CallbackQuery, callback_data: LanguagePick, services: Services,
                      tr: Translator) -> None:
    code = callback_data.code
    chat_id = query.message.chat.id if query.message else query.from_user.id
    if code not in SUPPORTED_LANGUAGES:
        await query.answer(tr("callback.stale"))
        return
    if chat_id < 0 and not await is_organiser(services, chat_id, query.from_user.id):
        await query.answer(tr("access.organisers_only"))
        return
    await _set_language(services, chat_id, query.from_user.id, code)
    said = Translator(code)("lang.set")
    if not isinstance(query.message, Message):  # too old to edit: the press's answer says it
        await query.answer(said)
        return
    await query.answer()
    await query.message.edit_text(said)  # the picker becomes the answer, for everyone


async def _set_language(services: Services, chat_id: int, user_id: int, code: str) -> None:
    async with services.db.together():
        await services.set_language(chat_id if chat_id < 0 else user_id, code)
        if chat_id < 0:
            await services.repos.organiser_log.record(user_id, "lang", services.clock.now(),
                                                      chat_id=chat_id, language=code)


@router.callback_query()
async def unknown_button(query: CallbackQuery, tr: Translator) -> None:
    """Any button no feature recognises: old, from a removed feature, or forged."""
    await query.answer(tr("callback.stale"), show_alert=True)


def _game_command(message: Message, scope: Scope) -> dict | bool:
    """Filter: a command of some game's router that no game's router took in this group."""
    if message.chat.type == "private":
        return False
    return {"name": scope.command} if scope.command in game_commands() else False


@router.command_message(_game_command)
async def not_for_this_game(message: Message, name: str, scope: Scope, tr: Translator) -> None:
    """Say why a game's command did nothing here: the game the update is about (the
    sender's live match's, a friendly's too, else the tournament's) has no such command;
    or there is no tournament (or no such ``#id``). Where the catalogs have a line saying
    what to do instead, that line answers: the game's own (``play.not_for_game.<game>.<command>``),
    else the command's (``play.not_for_game.<command>``)."""
    game = await scope.game()
    if game is None:
        target = await scope.target()
        raise Refusal(target.error, **(target.error_params or {}))
    keys = (f"play.not_for_game.{game.key}.{name}", f"play.not_for_game.{name}")
    key = next((key for key in keys if tr.has(key)), "play.not_for_game")
    await message.reply(tr(key, command=name, game=tr(f"game.{game.key}")))


def _number_first(message: Message) -> dict | bool:
    """Filter: a tournament's number typed before one of the bot's commands (``#2 /begin``,
    which Telegram does not deliver as a command); given as ``fixed``, the way it works
    (``/begin #2``)."""
    found = _NUMBER_FIRST.fullmatch(message.text or "")
    if found is None or found[2].lower() not in {*menu.PLAYERS, *menu.ORGANISERS,
                                                 *game_commands()}:
        return False
    return {"fixed": " ".join(filter(None, (f"/{found[2]} #{found[1]}", found[3].strip())))}


@router.message(IN_GROUP, _number_first)
async def number_first(message: Message, fixed: str, tr: Translator) -> None:
    await message.reply(tr("chat.number_after_command", fixed=clip(fixed)))


async def _mistyped(message: Message, scope: Scope, services: Services,
                    event_router: Router) -> dict | bool:
    """Filter: in a group, a command no handler answers that is either addressed to this
    bot (``/regster@our_bot``) or close to one of its commands (``/regster``); a command of
    another bot, or a word far from every command of ours, is other bots' business."""
    if message.chat.type == "private" or not scope.command:
        return False
    known = _known_commands(event_router)
    if scope.command in known:
        return False
    mention = (message.text or "").split(maxsplit=1)[0].partition("@")[2].lower()
    if mention and mention != ((await services.bot.me()).username or "").lower():
        return False
    close = difflib.get_close_matches(scope.command, known, n=1, cutoff=0.75)
    return {"meant": close[0] if close else None} if close or mention else False


def _known_commands(commands: Router) -> set[str]:
    """Every command a handler of the commands router answers, and the menus'."""
    return {name for handler in commands.message.handlers
            for name in command_names(handler) or ()} | {*menu.PLAYERS, *menu.ORGANISERS}


@router.command_message(IN_GROUP, _mistyped)
async def mistyped_command(message: Message, meant: str | None, scope: Scope,
                           tr: Translator) -> None:
    typed = clip(f"/{scope.command}")
    await message.reply(tr("chat.mistyped_command", command=typed, meant=f"/{meant}")
                        if meant else tr("dm.unknown_command", command=typed))


@router.command_message(IN_PRIVATE)
async def command_unknown_in_private(message: Message, scope: Scope, tr: Translator) -> None:
    """A command no feature took in a private chat: a game's (games are played in the
    group), or one the bot does not know."""
    if scope.command in game_commands():
        raise Refusal(GROUP_ONLY)
    else:
        await message.answer(tr("dm.unknown_command", command=clip(f"/{scope.command}")))


@router.message(IN_PRIVATE, F.dice)
async def dice_in_private(message: Message, tr: Translator) -> None:
    """A die sent to the bot in private counts nowhere: the games take dice in the group."""
    await message.answer(tr("dm.dice"))


@router.message(IN_PRIVATE, F.content_type.in_(_SENT_CONTENT))
async def content_in_private(message: Message, services: Services, tr: Translator) -> None:
    """A picture, sticker, voice or file in private that no feature took (a picture is
    read only as the screenshot an application waits for: one sent again while the
    application is with the organisers is told so)."""
    if not message.photo:
        await message.answer(tr("dm.unread"))
    elif applied := await services.repos.entrants.pending_application(message.from_user.id):
        tournament = await services.repos.tournaments.get(applied.tournament_id)
        await message.answer(tr("dm.photo_pending", title=tournament.title))
    else:
        await message.answer(tr("dm.photo"))


@router.message(IN_PRIVATE, F.text)
async def unread_in_private(message: Message, services: Services, tr: Translator) -> None:
    """Text in a private chat that no feature read (not a move, not a form's answer)."""
    await message.answer(await _unread_answer(services, tr, message.from_user.id,
                                              clip(message.text)))


async def _unread_answer(services: Services, tr: Translator, user_id: int, word: str) -> str:
    """A player with a match that takes private moves is told how to write one; a player
    whose match is played in its group (a move or a result typed here by mistake), where;
    anyone else where the commands are."""
    live = await hidden.live_hidden_matches(services, user_id)
    if live:
        return await hidden.unread_answer(services, tr, live[-1], word)
    if title := await _group_match_title(services, user_id):
        return tr("dm.played_in_group", title=title)
    return tr("dm.unread")


async def _group_match_title(services: Services, user_id: int) -> str | None:
    """The tournament of the user's newest live match played in a group, if any."""
    in_group = await hidden.panels(services).live_matches(user_id)
    if not in_group:
        return None
    match = await services.repos.matches.get(in_group[-1])
    return (await services.repos.tournaments.get(match.tournament_id)).title
