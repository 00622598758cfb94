"""An application's card in the group and the organisers' Approve/Reject on it, told to
the applicant by DM (or once they open the bot's chat). The form that leads to the card is
``bot.features.registration``.

What each step owes Telegram is written with a job held in its stead
(:meth:`~bot.scheduler.Scheduler.stand_in`): the card with the application
(:data:`CARD_JOB`), the DM and the decided card with the decision (:data:`DECISION_JOB`).
"""

from __future__ import annotations

from aiogram.exceptions import TelegramBadRequest
from aiogram.filters.callback_data import CallbackData
from aiogram.types import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
)

from bot.features.access import organisers_press
from bot.features.checkin import with_checkin
from bot.features.handlers import Handlers
from bot.features.keyboards import link_keyboard
from bot.features.lifecycle import called_off, job_kind, not_started
from bot.features.notices import redraw_checkin_status
from bot.i18n import Translator, lines
from bot.middlewares.filters import topic_of
from bot.play.refusal import Refusal
from bot.sending import settled
from bot.services import Services
from storage.repositories.jobs import Job
from storage.repositories.tournaments import BEFORE_START, Entrant, Tournament

router = Handlers("applications")
CARD_JOB = "application_card"
"""Written with an application that waits for the organisers: its card with Approve and
Reject is posted by the update, the job held in its stead, so a bot that stops or cannot
reach Telegram right after the write still posts it (else the application waited for a
card nobody could press, and the applicant was refused a second /register)."""
DECISION_JOB = "application_decision"
"""Written with an organiser's decision: the applicant told by DM and the card drawn
decided by the press, the job held in their stead, so a bot that stops or cannot reach
Telegram right after the write still tells them (else the applicant never heard, and a
second press only redrew the card)."""


class Decision(CallbackData, prefix="app"):
    tournament_id: int
    user_id: int
    approve: bool


async def card_job(services: Services, tournament: Tournament, user_id: int,
                   applying: Message) -> Job:
    """The :data:`CARD_JOB` of ``user_id``'s application, in the write under way. What tells
    the applicant that it went to the organisers goes with it, also when the job posts the
    card after a stop: ``applying`` (their message that applied) typed in the group, the card
    answers it (in its topic) with that line; typed in private, they are told there."""
    answering = {"reply_to": applying.message_id, "thread": topic_of(applying)} \
        if applying.chat.id == tournament.chat_id else {}  # (else told in private)
    return await services.repos.jobs.add(CARD_JOB, services.clock.now(), tournament.id,
                                         user_id=user_id, **answering)


async def send_card(services: Services, tournament: Tournament, card: Job) -> None:
    """:func:`_send_application` now, in the stead of the ``card`` job written with the
    application (:data:`CARD_JOB`, :meth:`~bot.scheduler.Scheduler.stand_in`)."""
    await services.scheduler.stand_in(card, _send_application(services, tournament, card))


@job_kind(CARD_JOB)
async def _card_owed(services: Services, job: Job) -> None:
    """:data:`CARD_JOB`, left by a bot that stopped (or could not reach Telegram) after
    writing the application: its card posted, while it still waits for the organisers
    and the tournament for its start."""
    if (waiting := await not_started(services, job)) is None:
        return
    entry = await services.repos.entrants.get(waiting[0].id, job.payload["user_id"])
    if entry is not None and entry.status == "pending":
        await _send_application(services, waiting[0], job)


async def _send_application(services: Services, tournament: Tournament, card: Job) -> None:
    """Post the application of ``card`` in the group with Approve/Reject for the organisers
    (unless a try before this one posted it), and tell the applicant that the organisers
    decide: in the card, as the answer to their message in the group (the decision replaces
    that line), or in private."""
    user_id = card.payload["user_id"]
    entry = await services.repos.entrants.get(tournament.id, user_id)
    if entry.application_message_id is None:  # (set when the card is posted)
        await _post_card(services, tournament, entry, card)
    if "reply_to" not in card.payload:  # applied in private: told there
        tr = await services.translator_for_chat(user_id)
        await services.outbox.dm(user_id, tr("registration.sent", title=tournament.title))


async def _post_card(services: Services, tournament: Tournament, entry: Entrant,
                     card: Job) -> None:
    """The card of ``entry``'s application, as the answer to the applicant's message in
    the group (``reply_to`` and ``thread`` in the ``card`` job's payload), if any."""
    tr = await services.translator_for_chat(tournament.chat_id)
    user_id = entry.user_id
    user = await services.repos.users.get(user_id)
    caption = tr("application.text", title=tournament.title, name=entry.label,
                 user=user.mention)
    answering = {}
    if (reply_to := card.payload.get("reply_to")) is not None:
        caption += "\n" + tr("registration.sent", title=tournament.title)
        answering = {"reply_parameters": ReplyParameters(message_id=reply_to,
                                                         allow_sending_without_reply=True),
                     "message_thread_id": card.payload["thread"]}
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


_CLOSED = {"withdrawn": "withdraw.done", "removed": "remove.done"}
"""An application closed before a decision (its status), and what its card then says."""


async def _show_closed(services: Services, tr: Translator, tournament: Tournament,
                       entry: Entrant, message: Message) -> None:
    """A press on the card of an application withdrawn or removed, whose edit at the time
    did not go out (Telegram out of reach): the card says it now, without its buttons. Any
    other message pressed with such data (forged) only loses its buttons."""
    if message.message_id != entry.application_message_id:
        await services.outbox.drop_buttons(message.chat.id, message.message_id)
        return
    await edit_card(services, message.chat.id, message.message_id, bool(message.photo),
                    tr(_CLOSED[entry.status], name=entry.label, title=tournament.title))


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
        if entry is not None and entry.status in _CLOSED:  # a card its closing edit missed
            await query.answer(tr(f"application.{entry.status}", name=entry.label))
            await _show_closed(services, tr, tournament, entry, message)
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
            told = await services.repos.jobs.add(DECISION_JOB, now, tournament.id,
                                                 user_id=entry.user_id)

    async def answer_and_tell() -> None:
        await query.answer(tr(f"application.{status}_toast", name=entry.label))
        await _tell_and_show(services, tr, tournament, entry, status,
                             query.from_user.first_name,
                             (message.chat.id, message.message_id, bool(message.photo)))
    await services.scheduler.stand_in(told, answer_and_tell())


Card = tuple[int, int, bool]
"""An application card: its chat id, message id, and whether it is a screenshot's caption."""


async def _tell_and_show(services: Services, tr: Translator, tournament: Tournament,
                         entry: Entrant, status: str, organiser: str, card: Card | None
                         ) -> None:
    """``organiser``'s decision (``status``) on ``entry`` told to the applicant in private
    (noted as owed when the bot cannot write to them: :func:`tell_decisions` tells it once
    they open the chat) and drawn on the ``card``. Telegram out of reach for the DM, the
    card says the decision all the same, and the failure is raised after."""
    [delivered] = await settled(_tell_decision(services, tournament, entry.user_id, status))
    if unreached := delivered is None:
        await services.repos.entrants.update(tournament.id, entry.user_id,
                                             services.clock.now(), unreached=1)
    if card is not None:  # the chat unopened is said on the card, not in a new message
        await edit_card(services, *card, *await _decided_card(
            services, tr, entry, status, organiser, unreached=unreached))
    await redraw_checkin_status(services, tournament)
    if isinstance(delivered, Exception):
        raise delivered


@job_kind(DECISION_JOB)
async def _decision_owed(services: Services, job: Job) -> None:
    """:data:`DECISION_JOB`, left by a bot that stopped (or could not reach Telegram) after
    writing an organiser's decision: told and drawn, while the tournament waits for its
    start and the decision still stands."""
    if (waiting := await not_started(services, job)) is None:
        return
    (tournament, tr), user_id = waiting, job.payload["user_id"]
    entry = await services.repos.entrants.get(tournament.id, user_id)
    if entry is None or (organiser := await _decider(services, tournament, entry)) is None:
        return
    card = None if not entry.application_message_id else (
        tournament.chat_id, entry.application_message_id, bool(entry.photo_file_id))
    await _tell_and_show(services, tr, tournament, entry, entry.status, organiser, card)


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
            # told and the card redrawn, then noted as told: a stop (or Telegram out of
            # reach) in between does both at the next /start, where the other order never did
            if tournament.status in BEFORE_START and \
                    await _tell_decision(services, tournament, user_id, entry.status) is None:
                continue  # blocked again meanwhile: still owed
            await _card_reached(services, tournament, entry)
            await services.repos.entrants.update(tournament.id, user_id, services.clock.now(),
                                                 unreached=0)


async def _card_reached(services: Services, tournament: Tournament, entry: Entrant) -> None:
    """An approval's card in the group without the line that asked the applicant to open
    the chat with the bot (they have)."""
    organiser = await _decider(services, tournament, entry)
    if entry.status == "approved" and entry.application_message_id and organiser is not None:
        tr = await services.translator_for_chat(tournament.chat_id)
        await edit_card(services, tournament.chat_id, entry.application_message_id,
                        bool(entry.photo_file_id), *await _decided_card(
                            services, tr, entry, entry.status, organiser, unreached=False))
