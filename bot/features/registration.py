"""Registration: /register and the DM form (Имя_Фамилия, then a /stats screenshot). The
application's card and the organisers' Approve/Reject are ``bot.features.applications``; the
entrants list itself is managed in ``bot.features.roster``.

The state of an application lives in the ``entrants`` row (status ``name`` → ``photo`` →
``pending`` → ``approved``/``rejected``), so a restart in the middle of the form loses
nothing and the next DM message continues where the user stopped.
"""

from __future__ import annotations

import re

from aiogram import F
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import Message

from bot.features.access import target_tournament
from bot.features.applications import card_job, send_card
from bot.features.checkin import with_checkin
from bot.features.handlers import Handlers
from bot.features.keyboards import link_keyboard, register_keyboard, stacked
from bot.features.lifecycle import called_off
from bot.features.notices import redraw_checkin_status
from bot.games import game_of
from bot.i18n import Translator, clip, lines
from bot.middlewares.filters import IN_GROUP, IN_PRIVATE
from bot.sending import raise_failure, settled
from bot.services import Services
from storage.repositories.jobs import Job
from storage.repositories.tournaments import UNFINISHED, Entrant, Tournament

router = Handlers("registration")
_WORD = r"[A-ZА-ЯЁÄÖÅ][a-zа-яёäöå]+(?:-[A-ZА-ЯЁÄÖÅ][a-zа-яёäöå]+)?"
NAME_SHAPE = re.compile(rf"^{_WORD}_{_WORD}$")
_SPACED_NAME = re.compile(rf"^({_WORD})\s+({_WORD})$")
MAX_FREE_NAME = 32


def valid_name(text: str) -> bool:
    return bool(NAME_SHAPE.match(text))


def form_name(text: str) -> str:
    """The form's name as typed, with ``Ivan Petrov`` (the two words most people type
    with a space) kept as ``Ivan_Petrov``; anything else is left to :func:`valid_name`."""
    text = text.strip()
    found = _SPACED_NAME.match(text)
    return f"{found[1]}_{found[2]}" if found else text


async def _open_for(services: Services, tr: Translator, tournament: Tournament,
                    user_id: int) -> str | None:
    """Why this user cannot apply now (a localized text), or None."""
    if said := called_off(tr, tournament):
        return said
    if not tournament.registration_open:
        key = "registration.started" if tournament.started else "registration.is_closed"
        return tr(key, title=tournament.title)
    entry = await services.repos.entrants.get(tournament.id, user_id)
    if entry and entry.status in ("pending", "approved"):
        key = "registration.duplicate" if entry.status == "pending" else \
            "registration.already_entered"
        return tr(key, title=tournament.title)
    if tournament.full_with(await services.repos.entrants.count(tournament.id, ("approved",))):
        return tr("registration.full", title=tournament.title, max=tournament.max_players)
    return None


@router.message(Command("register"), IN_GROUP)
async def register_in_group(message: Message, command: CommandObject, services: Services,
                            tr: Translator) -> None:
    target = await target_tournament(services, message.chat.id, command.args)
    if target.error:
        await message.reply(tr(target.error, **(target.error_params or {})))
        return
    tournament, user = target.tournament, message.from_user
    if problem := await _open_for(services, tr, tournament, user.id):
        await message.reply(problem)
        return
    name = " ".join(target.words)
    if not game_of(tournament.game).needs_name_and_photo:
        await _apply_directly(services, tr, tournament, user.id, name or user.first_name,
                              message)
        return
    name = form_name(name)
    if name:
        if error := await _name_problem(services, tr, tournament, user.id, name):
            await message.reply(error)
            return
        await _put_claimed(services, tournament, user.id, "photo", name)
    entry = await _form_begun(services, tournament, user.id)
    # a DM Telegram does not take leaves the group's answer with its button to the form
    [asked] = await settled(_ask_in_private(services, tournament, entry))
    key = "registration.continue_photo" if entry.status == "photo" else \
        "registration.continue_dm"
    await message.reply(tr(f"{key}_asked" if asked is True else key, name=entry.display_name),
                        reply_markup=register_keyboard(services, tr, tournament))
    await redraw_checkin_status(services, tournament)
    raise_failure([asked])


async def _put_claimed(services: Services, tournament: Tournament, user_id: int, status: str,
                       name: str | None = None, applying: Message | None = None
                       ) -> Job | None:
    """Write the application with the update's claim (:meth:`Database.together`): one
    transaction instead of the application's and then the claim's; one that waits for the
    organisers (``pending``) with the :data:`~bot.features.applications.CARD_JOB` that posts its card."""
    async with services.db.together():
        await services.repos.entrants.put(tournament.id, user_id, status, services.clock.now(),
                                          name)
        if status == "pending":
            return await card_job(services, tournament, user_id, applying)
    return None


async def _form_begun(services: Services, tournament: Tournament, user_id: int) -> Entrant:
    """The user's form, begun at step 1 unless it is under way (a bare /register after the
    name was noted goes on to the screenshot, the name kept)."""
    entry = await services.repos.entrants.get(tournament.id, user_id)
    if entry is not None and entry.status in UNFINISHED:
        return entry
    await _put_claimed(services, tournament, user_id, "name")
    return await services.repos.entrants.get(tournament.id, user_id)


async def _ask_in_private(services: Services, tournament: Tournament, entry: Entrant) -> bool:
    """The form's next step sent to a user who opened the bot's chat before (no need to
    press the button first); whether it was sent."""
    if not await services.opened_private_chat(entry.user_id):
        return False
    tr = await services.translator_for_chat(entry.user_id)
    return await services.outbox.dm(entry.user_id,
                                    next_step(tr, tournament, entry)) is not None


async def _private_chat_needed(services: Services, tournament: Tournament,
                               user_id: int) -> bool:
    """Whether the game's matches take secret input in the bot's private chat (armchair's
    hands) from a player who has not opened it: told at once, not when a match waits."""
    game = game_of(tournament.game)
    return game.kind_of(tournament.settings) in game.hidden and \
        not await services.opened_private_chat(user_id)


async def _name_problem(services: Services, tr: Translator, tournament: Tournament,
                        user_id: int, name: str) -> str | None:
    if not valid_name(name):
        return tr("registration.bad_name", name=clip(name))
    if await services.repos.entrants.name_taken(tournament.id, name, user_id):
        return tr("registration.name_taken", name=name)
    return None


async def _apply_directly(services: Services, tr: Translator, tournament: Tournament,
                          user_id: int, name: str, message: Message) -> None:
    """Games without a form: the application is the name (Telegram's when none is given)."""
    name = name[:MAX_FREE_NAME]
    if await services.repos.entrants.name_taken(tournament.id, name, user_id):
        await message.reply(tr("registration.name_taken", name=name))
        return
    needs_approval = tournament.needs_approval
    status = "pending" if needs_approval else "approved"
    card = await _put_claimed(services, tournament, user_id, status, name, message)
    if not needs_approval:
        said, markup = with_checkin(services, tr, tournament, tr(
            "registration.registered", name=name, title=tournament.title))
        if await _private_chat_needed(services, tournament, user_id):
            said = lines(said, tr("registration.open_private_chat"))
            markup = stacked(markup, link_keyboard(tr("dm.open_button"), services.deep_link()))
        await message.reply(said, reply_markup=markup)
    else:  # (the card's job tells the applicant it went to the organisers)
        await send_card(services, tournament, card)
    await redraw_checkin_status(services, tournament)


@router.message(CommandStart(deep_link=True, magic=F.args.regexp(r"^reg-\d+$")),
                IN_PRIVATE)
async def start_from_link(message: Message, command: CommandObject, services: Services,
                          tr: Translator) -> None:
    tournament = await services.repos.tournaments.get(int(command.args.split("-")[1]))
    if tournament is None:
        await message.answer(tr("tournament.link_unknown"))
        return
    entry = await services.repos.entrants.get(tournament.id, message.from_user.id)
    if entry and entry.status in UNFINISHED and tournament.registration_open:
        await prompt(message, tr, tournament, entry)
        return
    if problem := await _open_for(services, tr, tournament, message.from_user.id):
        await message.answer(problem)
        return
    if not game_of(tournament.game).needs_name_and_photo:
        await _apply_directly(services, tr, tournament, message.from_user.id,
                              message.from_user.first_name, message)
        return
    await prompt(message, tr, tournament,
                 await _form_begun(services, tournament, message.from_user.id))


async def prompt(message: Message, tr: Translator, tournament: Tournament,
                 entry: Entrant) -> None:
    """Ask for the next step of the form: the name, or the screenshot."""
    await message.answer(next_step(tr, tournament, entry))


def next_step(tr: Translator, tournament: Tournament, entry: Entrant) -> str:
    if entry.status == "name":
        return tr("registration.ask_name", title=tournament.title)
    return tr("registration.ask_photo", name=entry.display_name)


async def _awaiting(message: Message, services: Services) -> dict | bool:
    """Filter: the DM sender has an application waiting for a name or a screenshot."""
    if message.from_user is None:
        return False
    entry = await services.repos.entrants.awaiting_input(message.from_user.id)
    return {"entry": entry} if entry else False


@router.message(Command("register"), IN_PRIVATE)
async def register_in_dm(message: Message, services: Services, tr: Translator) -> None:
    entry = await services.repos.entrants.awaiting_input(message.from_user.id)
    if entry is None:
        await message.answer(tr("registration.use_group"))
        return
    await prompt(message, tr, await services.repos.tournaments.get(entry.tournament_id), entry)


@router.message(Command("cancel"), IN_PRIVATE, _awaiting)
async def stop_form(message: Message, entry: Entrant, services: Services,
                    tr: Translator) -> None:
    """/cancel in the middle of the form stops it (Telegram's usual word for that): the
    application was never sent, so it is dropped; /register in the group starts it again."""
    tournament = await services.repos.tournaments.get(entry.tournament_id)
    await services.repos.entrants.forget_form(tournament.id, entry.user_id)
    await message.answer(tr("registration.form_stopped", title=tournament.title))
    await redraw_checkin_status(services, tournament)


@router.message(IN_PRIVATE, F.photo, _awaiting)
async def form_photo(message: Message, entry: Entrant, services: Services,
                     tr: Translator) -> None:
    if entry.status == "name":
        await message.answer(tr("registration.name_first"))
        return
    tournament = await services.repos.tournaments.get(entry.tournament_id)
    needs_approval = tournament.needs_approval
    async with services.db.together():
        await services.repos.entrants.update(
            tournament.id, entry.user_id, services.clock.now(),
            photo_file_id=message.photo[-1].file_id,
            status="pending" if needs_approval else "approved")
        card = await card_job(services, tournament, entry.user_id, message) \
            if needs_approval else None
    if card is not None:  # (its job tells the applicant it went to the organisers)
        await send_card(services, tournament, card)
    else:
        said, markup = with_checkin(services, tr, tournament, tr(
            "registration.registered", name=entry.display_name, title=tournament.title))
        await message.answer(said, reply_markup=markup)
    await redraw_checkin_status(services, tournament)


@router.message(IN_PRIVATE, F.text, ~F.text.startswith("/"), _awaiting)
async def form_text(message: Message, entry: Entrant, services: Services,
                    tr: Translator) -> None:
    """The name at step 1; at step 2, where a screenshot is awaited, a text that reads as a
    name replaces the one noted (a corrected typo), any other is told to be a photo."""
    tournament = await services.repos.tournaments.get(entry.tournament_id)
    name = form_name(message.text)
    changing = entry.status == "photo"
    if changing and not valid_name(name):
        await message.answer(tr("registration.photo_not_text"))
        return
    if error := await _name_problem(services, tr, tournament, entry.user_id, name):
        await message.answer(error)
        return
    await services.repos.entrants.update(tournament.id, entry.user_id, services.clock.now(),
                                         display_name=name, status="photo")
    changed = changing and name != entry.display_name
    await message.answer(tr("registration.name_changed" if changed
                            else "registration.ask_photo", name=name))
    await redraw_checkin_status(services, tournament)
