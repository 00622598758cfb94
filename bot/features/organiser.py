"""Organiser commands in a group: /new, /settings, /closereg, /openreg (/schedule, /begin,
/pause and /resume have modules of their own)."""

from __future__ import annotations

from typing import Any

from aiogram.filters import Command, CommandObject
from aiogram.types import Chat, Message

from bot import games
from bot.features.access import Target, Targeted, is_organiser
from bot.features.checkin import checkin_waits_start
from bot.features.game_names import game_named, not_a_game
from bot.features.handlers import Handlers
from bot.features.keyboards import register_keyboard
from bot.features.lifecycle import (
    answer_where_asked,
    applications_waiting,
    checkin_moved,
    checkin_reply,
    job_kind,
    not_started,
    note_for,
    rights_problem,
    schedule_start,
)
from bot.features.notices import redraw_checkin_status
from bot.game_settings import Refused, hints, refusal, refused_key, said_as, settings_line
from bot.i18n import Markup, Translator, clip, lines
from bot.middlewares.filters import topic_of
from bot.play.refusal import GROUP_ONLY, Refusal
from bot.play.topics import not_forum_line
from bot.services import Services
from storage.repositories.jobs import Job
from storage.repositories.tournaments import Tournament

"""/schedule's words when it only asks what is set (nothing, or the tournament's ``#id``)."""
router = Handlers("organiser")
NEW_JOB = "tournament_announced"
"""Written with a new tournament: its announcement with the Register button is said by
the ``/new`` itself, the job held in its stead, so a bot that stops or cannot reach
Telegram right after the write still says it (else the group never heard of it)."""
MAX_TITLE = 64
_TITLE_KEY = "title"
_CLOSING_QUOTE = {'"': '"', "'": "'", "«": "»", "“": "”", "„": "“", "”": "”"}


async def _allowed(message: Message, services: Services, tr: Translator) -> bool:
    """Organiser commands work only in a group and only for organisers; say so otherwise."""
    if message.chat.type == "private":
        raise Refusal(GROUP_ONLY)
    if not await is_organiser(services, message.chat.id, message.from_user.id):
        await message.reply(tr("access.organisers_only"))
        return False
    return True


@router.message(Command("new"))
async def new_tournament(message: Message, command: CommandObject, services: Services,
                         tr: Translator) -> None:
    if not await _allowed(message, services, tr):
        return
    words = (command.args or "").split()
    game = game_named(words[0]) if words else None
    if game is None:
        await message.answer(_unknown_game(tr, words[0] if words else None))
        return
    title = _title(words[1:])
    if problem := _title_problem(tr, title):
        await message.answer(lines(problem, tr("new.usage", games=", ".join(games.keys()))))
        return
    try:
        settings = game.parse_settings([w for w in words[1:] if "=" in w], game.defaults)
    except ValueError as error:
        await message.answer(_refused_setting(tr, game, error))
        return
    now = services.clock.now()
    earlier = [t for t in await services.repos.tournaments.active_in_chat(message.chat.id)
               if not t.friendly]
    async with services.db.together():
        tournament = await services.repos.tournaments.create(
            message.chat.id, game.key, title, settings, message.from_user.id, now)
        await services.repos.organiser_log.record(
            message.from_user.id, "new", now, tournament_id=tournament.id,
            chat_id=message.chat.id, game=game.key, title=title, settings=settings)
        held = await services.repos.jobs.add(NEW_JOB, now, tournament.id, thread=topic_of(
            message), earlier=[t.id for t in earlier], settings=settings)
    await services.scheduler.stand_in(held, _announce_new(
        services, tr, tournament, message.chat, earlier, settings, topic_of(message)))


async def _announce_new(services: Services, tr: Translator, tournament: Tournament,
                        chat: Chat, earlier: list[Tournament], settings: dict[str, Any],
                        thread: int | None) -> None:
    """Say that ``tournament`` is created with ``settings``, in ``chat`` (in its topic
    ``thread``), naming the ``earlier`` ones still open there, with the Register button."""
    game = games.game_of(tournament.game)
    created = tr("new.created", id=tournament.id, title=tournament.title,
                 game=tr(f"game.{game.key}"), settings=_describe(tr, game, settings))
    also = tr("new.also_open", count=len(earlier), last=earlier[0].id,
              open=Markup(", ".join(tr("new.open_item", id=t.id, title=t.title)
                                    for t in reversed(earlier)))) if earlier else None
    warning = await rights_problem(services, chat.id, tr, tournament)
    await services.bot.send_message(
        chat.id, lines(created, note_for(tr, tournament),
                       not_forum_line(tr, game.key, settings, chat),
                       checkin_waits_start(tr, tournament), tr("new.registration_open"),
                       tr("new.next_step"), also, warning),
        message_thread_id=thread, reply_markup=register_keyboard(services, tr, tournament))


@job_kind(NEW_JOB)
async def _announcement_owed(services: Services, job: Job) -> None:
    """:data:`NEW_JOB`, left by a bot that stopped (or could not reach Telegram) after
    creating a tournament: it is announced, while it still waits for its start."""
    if (waiting := await not_started(services, job)) is None:
        return
    tournament, tr = waiting
    earlier = [t for t in [await services.repos.tournaments.get(i)
                           for i in job.payload["earlier"]] if t is not None]
    await _announce_new(services, tr, tournament,
                        await services.bot.get_chat(tournament.chat_id), earlier,
                        job.payload["settings"], job.payload["thread"])


def _title_problem(tr: Translator, title: str) -> str | None:
    """Why ``title`` cannot be a tournament's: missing, or too long (said with its length)."""
    if not title:
        return tr("new.bad_title", max=MAX_TITLE)
    if len(title) > MAX_TITLE:
        return tr("new.title_too_long", count=len(title), max=MAX_TITLE)
    return None


def _title(words: list[str]) -> str:
    """The words that are no ``key=value``, unquoted."""
    return _unquoted(" ".join(word for word in words if "=" not in word))


def _unquoted(title: str) -> str:
    """Quotes around the whole title are dropped (the bot sets a title in quotes of the
    chat's language itself)."""
    title = title.strip()
    if len(title) > 1 and _CLOSING_QUOTE.get(title[0]) == title[-1]:
        title = title[1:-1].strip()
    return title


def _new_title(words: list[str]) -> tuple[list[str], str | None]:
    """/settings' words before ``title=`` (or ``title`` without «=»: ``title Spring Darts``;
    ``название=``, ``nimi=`` too),
    and the new title: the rest of the line, spaces and all (None when there is no title)."""
    for at, word in enumerate(words):
        key, _, first = word.partition("=")
        if key.lower() in _title_words():
            return words[:at], _unquoted(" ".join([first, *words[at + 1:]]))
    return words, None


def _title_words() -> frozenset[str]:
    """``title`` and its words in the bot's languages (``название``, ``nimi``)."""
    return said_as(f"settings.key_words.{_TITLE_KEY}") | {_TITLE_KEY}


def _unknown_game(tr: Translator, word: str | None) -> str:
    """The usage of /new, after saying that ``word`` is no game and which games it may have
    meant (a typo such as ``shangai``), or which games it is a word of («tikka»)."""
    usage = tr("new.usage", games=", ".join(games.keys()))
    if word is None:
        return usage
    return not_a_game(tr, tr("new.unknown_game", game=clip(word)), word) + "\n" + usage


def _describe(tr: Translator, game: games.Game, settings: dict) -> str:
    """The settings line of /new and /settings, in the chat's language."""
    return settings_line(tr, game.all_parsers(), settings)


def _refused_setting(tr: Translator, game: games.Game, error: ValueError,
                     together: bool = False) -> str:
    """Why a ``key=value`` was refused, then (``together``: said with other settings or a
    title, none of them saved) that nothing was saved, then what that key allows."""
    parsers = game.all_parsers()
    return lines(refusal(tr, parsers, error), tr("settings.nothing_saved") if together else None,
                 tr("settings.hint", hints=hints(tr, parsers, refused_key(error))))


@router.message(Command("settings"), Targeted(organiser=True))
async def settings_(message: Message, command: CommandObject, services: Services,
                    tr: Translator, target: Target) -> None:
    tournament, game = target.tournament, games.game_of(target.tournament.game)
    if not target.words:
        await message.answer(tr("settings.show", title=tournament.title,
                                settings=_describe(tr, game, tournament.settings),
                                hints=hints(tr, game.all_parsers())))
        return
    pairs, title = _new_title(target.words)
    if title is not None and (problem := _title_problem(tr, title)):
        await message.answer(problem)
        return
    if pairs and tournament.started:  # a title may change at any time
        await message.answer(tr("settings.finished" if tournament.status == "finished"
                                else "settings.locked"))
        return
    try:
        updated = game.parse_settings(pairs, tournament.settings)
    except Refused as error:
        await message.answer(_refused_setting(tr, game, error,
                                              error.with_others or title is not None))
        return
    if updated == tournament.settings and title in (None, tournament.title):
        await message.answer(tr("settings.unchanged", title=tournament.title,
                                settings=_describe(tr, game, updated)))
        return
    moved = checkin_moved(tournament, updated, services.clock.now())
    async with services.db.together():
        await services.repos.tournaments.set_settings(tournament.id, updated, title=title)
        scheduled = moved and await schedule_start(
            services, await services.repos.tournaments.get(tournament.id))
        await services.repos.organiser_log.record(
            message.from_user.id, "settings", services.clock.now(), tournament_id=tournament.id,
            chat_id=message.chat.id,
            changes=[*pairs, *([] if title is None else [f"title={title}"])])  # as one
    renamed = None if title is None else tr("settings.renamed", id=tournament.id,
                                            old=tournament.title, title=title)
    saved = note = checkin = markup = waiting = None
    before = tournament.settings
    if updated != before:
        saved = tr("settings.saved", title=title or tournament.title,
                   settings=_describe(tr, game, updated))
        tournament = await services.repos.tournaments.get(tournament.id)
        note = lines(note_for(tr, tournament),
                     not_forum_line(tr, game.key, updated, message.chat, before))
        if scheduled:
            checkin, markup = checkin_reply(services, tr, tournament, scheduled)
        elif updated.get("checkin") != before.get("checkin"):
            checkin = checkin_waits_start(tr, tournament)
        waiting = await _still_waiting(services, tr, tournament)
    await message.answer(lines(renamed, saved, note, checkin, waiting), reply_markup=markup)
    await redraw_checkin_status(services, tournament)


async def _still_waiting(services: Services, tr: Translator,
                         tournament: Tournament) -> str | None:
    """With approval switched off, the applications sent before it still wait for an
    organiser's decision (a new one is entered at once): named, so none is forgotten."""
    if tournament.settings.get("approval") != "off":
        return None
    return applications_waiting(tr, await services.repos.entrants.list(tournament.id,
                                                                       ("pending",)))


@router.message(Command("closereg", "openreg"), Targeted(organiser=True))
async def toggle_registration(message: Message, command: CommandObject, services: Services,
                              tr: Translator, target: Target) -> None:
    tournament, opening = target.tournament, command.command == "openreg"
    if tournament.started:
        await message.answer(tr("registration.already_started"))
        return
    wanted = "registration" if opening else "closed"
    if tournament.status == wanted:
        await message.answer(tr("registration.already_open" if opening
                                else "registration.already_closed"))
        return
    now = services.clock.now()
    async with services.db.together():
        await services.repos.tournaments.set_status(tournament.id, wanted, now)
        await services.repos.organiser_log.record(
            message.from_user.id, command.command, now, tournament_id=tournament.id,
            chat_id=message.chat.id)
        held = await services.repos.jobs.add(REGISTRATION_JOB, now, tournament.id,
                                             opening=opening, thread=topic_of(message))
    await services.scheduler.stand_in(held, _registration_said(services, held))


REGISTRATION_JOB = "registration_switched"
"""Written with a /closereg or /openreg: the group told (an opening with the Register button)
and the check-in status redrawn, the job held in their stead (a stop right after the write
told the players nothing, and a second /openreg only said it was open already)."""


@job_kind(REGISTRATION_JOB)
async def _registration_said(services: Services, job: Job) -> None:
    """Registration opened or closed, said where the command was typed, while it stands."""
    opening = job.payload["opening"]
    if (waiting := await not_started(services, job)) is None or \
            waiting[0].status != ("registration" if opening else "closed"):
        return
    tournament, tr = waiting
    markup = register_keyboard(services, tr, tournament) if opening else None
    await answer_where_asked(services, tournament.chat_id, job)(
        tr("registration.opened" if opening else "registration.closed_now",
           title=tournament.title), reply_markup=markup)
    await redraw_checkin_status(services, tournament)
