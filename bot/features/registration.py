"""Registration: /register, the DM form (Имя_Фамилия, then a /stats screenshot) and the
organisers' Approve/Reject. The entrants list itself is managed in ``bot.features.roster``.

The state of an application lives in the ``entrants`` row (status ``name`` → ``photo`` →
``pending`` → ``approved``/``rejected``), so a restart in the middle of the form loses
nothing and the next DM message continues where the user stopped.
"""

from __future__ import annotations

import re

from aiogram import F
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.features.access import organisers_press, target_tournament
from bot.features.checkin import with_checkin
from bot.features.handlers import Handlers
from bot.features.keyboards import link_keyboard, register_keyboard, stacked
from bot.features.lifecycle import called_off, job_kind, not_started
from bot.features.notices import redraw_checkin_status
from bot.games import game_of
from bot.i18n import Translator, clip, lines
from bot.middlewares.filters import IN_GROUP, IN_PRIVATE, topic_of
from bot.play.refusal import Refusal
from bot.sending import raise_failure, settled
from bot.services import Services
from storage.repositories.jobs import Job
from storage.repositories.tournaments import BEFORE_START, UNFINISHED, Entrant, Tournament

router = Handlers("registration")
CARD_JOB = "application_card"
"""Written with an application that waits for the organisers: its card with Approve and
Reject is posted by the update, the job held in its stead, so a bot that stops or cannot
reach Telegram right after the write still posts it (else the application waited for a
card nobody could press, and the applicant was refused a second /register)."""
_WORD = r"[A-ZА-ЯЁÄÖÅ][a-zа-яёäöå]+(?:-[A-ZА-ЯЁÄÖÅ][a-zа-яёäöå]+)?"
NAME_SHAPE = re.compile(rf"^{_WORD}_{_WORD}$")
_SPACED_NAME = re.compile(rf"^({_WORD})\s+({_WORD})$")
MAX_FREE_NAME = 32


class Decision(CallbackData, prefix="app"):
    tournament_id: int
    user_id: int
    approve: bool


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
                       name: str | None = None) -> Job | None:
    """Write the application with the update's claim (:meth:`Database.together`): one
    transaction instead of the application's and then the claim's; one that waits for the
    organisers (``pending``) with the :data:`CARD_JOB` that posts its card."""
    async with services.db.together():
        await services.repos.entrants.put(tournament.id, user_id, status, services.clock.now(),
                                          name)
        if status == "pending":
            return await _card_job(services, tournament, user_id)
    return None


async def _card_job(services: Services, tournament: Tournament, user_id: int) -> Job:
    """The :data:`CARD_JOB` of ``user_id``'s application, in the write under way."""
    return await services.repos.jobs.add(CARD_JOB, services.clock.now(), tournament.id,
                                         user_id=user_id)


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
    card = await _put_claimed(services, tournament, user_id, status, name)
    if not needs_approval:
        said, markup = with_checkin(services, tr, tournament, tr(
            "registration.registered", name=name, title=tournament.title))
        if await _private_chat_needed(services, tournament, user_id):
            said = lines(said, tr("registration.open_private_chat"))
            markup = stacked(markup, link_keyboard(tr("dm.open_button"), services.deep_link()))
        await message.reply(said, reply_markup=markup)
    elif message.chat.id == tournament.chat_id:  # the card answers the /register itself
        await _send_card(services, tournament, user_id, card, reply_to=message)
    else:
        await _send_card(services, tournament, user_id, card)
        await message.reply(tr("registration.sent", title=tournament.title))
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
        card = await _card_job(services, tournament, entry.user_id) if needs_approval else None
    if card is not None:
        await _send_card(services, tournament, entry.user_id, card)
        await message.answer(tr("registration.sent", title=tournament.title))
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


async def _send_card(services: Services, tournament: Tournament, user_id: int, card: Job,
                     reply_to: Message | None = None) -> None:
    """:func:`_send_application` now, in the stead of the ``card`` job written with the
    application (:data:`CARD_JOB`, :meth:`~bot.scheduler.Scheduler.stand_in`)."""
    await services.scheduler.stand_in(
        card, _send_application(services, tournament, user_id, reply_to))


@job_kind(CARD_JOB)
async def _card_owed(services: Services, job: Job) -> None:
    """:data:`CARD_JOB`, left by a bot that stopped (or could not reach Telegram) after
    writing the application: its card posted, while it still waits for the organisers
    and the tournament for its start."""
    if (waiting := await not_started(services, job)) is None:
        return
    tournament, user_id = waiting[0], job.payload["user_id"]
    entry = await services.repos.entrants.get(tournament.id, user_id)
    if entry is not None and entry.status == "pending":
        await _send_application(services, tournament, user_id)


async def _send_application(services: Services, tournament: Tournament, user_id: int,
                            reply_to: Message | None = None) -> None:
    """Post the application in the group with Approve/Reject for the organisers; as the
    answer to ``reply_to`` (the applicant's message in the group), it also tells them that
    the organisers decide (the decision replaces that line)."""
    tr = await services.translator_for_chat(tournament.chat_id)
    entry = await services.repos.entrants.get(tournament.id, user_id)
    user = await services.repos.users.get(user_id)
    caption = tr("application.text", title=tournament.title, name=entry.label,
                 user=user.mention)
    if reply_to is not None:
        caption += "\n" + tr("registration.sent", title=tournament.title)
    answering = {} if reply_to is None else {
        "reply_parameters": reply_to.as_reply_parameters(),
        "message_thread_id": topic_of(reply_to)}
    markup = InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text=tr("application.approve"), callback_data=Decision(
            tournament_id=tournament.id, user_id=user_id, approve=True).pack()),
        InlineKeyboardButton(text=tr("application.reject"), callback_data=Decision(
            tournament_id=tournament.id, user_id=user_id, approve=False).pack())]])
    if entry.photo_file_id:
        sent = await services.bot.send_photo(tournament.chat_id, entry.photo_file_id,
                                             caption=caption, reply_markup=markup,
                                             **answering)
    else:
        sent = await services.bot.send_message(tournament.chat_id, caption, reply_markup=markup,
                                               **answering)
    await services.repos.entrants.update(tournament.id, user_id, services.clock.now(),
                                         application_message_id=sent.message_id)


async def edit_card(services: Services, chat_id: int, message_id: int, photo: bool, text: str,
                    markup: InlineKeyboardMarkup | None = None) -> bool:
    """Edit an application card (``photo``: a screenshot's caption, else its text) into
    ``text`` with ``markup`` (None: no buttons); False when the card is gone."""
    try:
        if photo:
            await services.bot.edit_message_caption(chat_id=chat_id, message_id=message_id,
                                                    caption=text, reply_markup=markup)
        else:
            await services.bot.edit_message_text(text, chat_id=chat_id, message_id=message_id,
                                                 reply_markup=markup)
    except TelegramBadRequest as error:
        if "not found" not in error.message and "can't be edited" not in error.message:
            raise
        return False
    return True


async def close_application(services: Services, tournament: Tournament, entry: Entrant,
                            text: str) -> bool:
    """An application still waiting for a decision (``entry`` as it was) that is withdrawn
    or removed: its card edited into ``text``, its Approve/Reject buttons gone; False when
    there is no such card to edit."""
    return entry.status == "pending" and bool(entry.application_message_id) and await edit_card(
        services, tournament.chat_id, entry.application_message_id, bool(entry.photo_file_id),
        text)


async def _decided_card(services: Services, tr: Translator, entry: Entrant, status: str,
                        organiser: str, *, unreached: bool
                        ) -> tuple[str, InlineKeyboardMarkup | None]:
    """The text and buttons of an application card ``organiser`` decided (``status``);
    ``unreached``: the bot cannot write to the applicant, so an approval's card asks them
    to open the chat (its one button)."""
    verdict = tr(f"application.{status}_by", name=entry.label, organiser=organiser)
    if not unreached or status != "approved":
        return verdict, None
    user = await services.repos.users.get(entry.user_id)
    return (lines(verdict, tr("application.open_chat", user=user.mention)),
            link_keyboard(tr("dm.open_button"), services.deep_link()))


async def _show_decided(services: Services, tr: Translator, tournament: Tournament,
                        entry: Entrant | None, message: Message) -> None:
    """A press on the card of an application decided already: the card drawn as its
    decision drew it (a double tap's second press changes nothing there: its first drew the
    same, and an "Open the chat" button stays); its buttons taken off when no organiser's
    decision is on record (an entrant added or removed meanwhile)."""
    organiser = None if entry is None else await _decider(services, tournament, entry)
    if organiser is None:
        await services.outbox.drop_buttons(message.chat.id, message.message_id)
        return
    # the flag is written once the first press's message was tried: a second press may
    # come before that
    unreached = entry.unreached or not await services.opened_private_chat(entry.user_id)
    await edit_card(services, message.chat.id, message.message_id, bool(message.photo),
                    *await _decided_card(services, tr, entry, entry.status, organiser,
                                         unreached=unreached))


async def _decider(services: Services, tournament: Tournament, entry: Entrant) -> str | None:
    """The first name of the organiser whose decision ``entry`` stands by, or None when no
    organiser's decision is on record for it (an entrant added or removed since)."""
    decided = await services.repos.organiser_log.decision(tournament.id, entry.user_id)
    if decided is None or decided["action"] != entry.status:
        return None
    organiser = await services.repos.users.get(decided["actor_id"])
    return organiser.first_name if organiser else ""


@router.callback_query(Decision.filter())
async def decide(query: CallbackQuery, callback_data: Decision, services: Services,
                 tr: Translator) -> None:
    tournament = await organisers_press(query, services, callback_data.tournament_id)
    message = query.message
    if said := called_off(tr, tournament):
        raise Refusal(text=said)
    async with services.lock(f"tournament-{tournament.id}"):
        entry = await services.repos.entrants.get(tournament.id, callback_data.user_id)
        if entry is not None and entry.status == "withdrawn":  # a card the withdrawal missed
            await query.answer(tr("application.withdrawn", name=entry.label))
            await services.outbox.drop_buttons(message.chat.id, message.message_id)
            return
        if entry is None or entry.status != "pending":  # a double tap, or a card whose
            await query.answer(tr("application.already_decided"))  # edit never went out
            await _show_decided(services, tr, tournament, entry, message)
            return
        if callback_data.approve and tournament.full_with(
                await services.repos.entrants.count(tournament.id, ("approved",))):
            await query.answer(tr("registration.full", title=tournament.title,
                                  max=tournament.max_players), show_alert=True)
            return
        status = "approved" if callback_data.approve else "rejected"
        now = services.clock.now()
        async with services.db.together():
            await services.repos.entrants.update(tournament.id, entry.user_id, now,
                                                 status=status)
            await services.repos.organiser_log.record(
                query.from_user.id, status, now, tournament_id=tournament.id,
                chat_id=tournament.chat_id, user_id=entry.user_id, name=entry.label)
    await query.answer(tr(f"application.{status}_toast", name=entry.label))
    [delivered] = await settled(_tell_decision(services, tournament, entry.user_id, status))
    if unreached := delivered is None:  # told when they open the chat (tell_decisions)
        await services.repos.entrants.update(tournament.id, entry.user_id, now, unreached=1)
    # the chat unopened is said on the card, not in a new message
    await edit_card(services, message.chat.id, message.message_id, bool(message.photo),
                    *await _decided_card(services, tr, entry, status, query.from_user.first_name,
                                         unreached=unreached))
    await redraw_checkin_status(services, tournament)
    if isinstance(delivered, Exception):  # Telegram out of reach for the DM: the card
        raise delivered                   # says the decision all the same


async def _tell_decision(services: Services, tournament: Tournament, user_id: int,
                         status: str) -> Message | None:
    """The organisers' decision (``status``) told to the applicant in private, an approval
    with the Check-in button while check-in is open; None when the bot cannot write to
    them."""
    tr = await services.translator_for_chat(user_id)
    told, markup = tr(f"registration.{status}_dm", title=tournament.title), None
    if status == "approved":
        told, markup = with_checkin(services, tr, tournament, told)
    return await services.outbox.dm(user_id, told, markup=markup)


async def tell_decisions(services: Services, user_id: int) -> None:
    """A user who opens the chat with the bot after the organisers decided on their
    applications, which the bot could not tell them then: each decision told now while the
    tournament has not started, and an approval's card in the group loses the line that
    asked them to open the chat."""
    for unread in await services.repos.entrants.unreached_decisions(user_id):
        tournament = await services.repos.tournaments.get(unread.tournament_id)
        async with services.lock(f"tournament-{tournament.id}"):  # a /start sent twice
            entry = await services.repos.entrants.get(tournament.id, user_id)
            if entry is None or not entry.unreached:
                continue
            # told, then noted as told: a stop (or Telegram out of reach) in between tells
            # it at the next /start, where the other order never told it
            if tournament.status in BEFORE_START and \
                    await _tell_decision(services, tournament, user_id, entry.status) is None:
                continue  # blocked again meanwhile: still owed
            await services.repos.entrants.update(tournament.id, user_id, services.clock.now(),
                                                 unreached=0)
        organiser = await _decider(services, tournament, entry)
        if entry.status == "approved" and entry.application_message_id and organiser is not None:
            tr = await services.translator_for_chat(tournament.chat_id)
            await edit_card(services, tournament.chat_id, entry.application_message_id,
                            bool(entry.photo_file_id), *await _decided_card(
                                services, tr, entry, entry.status, organiser, unreached=False))
