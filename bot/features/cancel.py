"""/cancel: an organiser calls off a tournament that has not started — made by mistake,
made twice, or one that will not take place.

It cannot be undone, so the command only asks, with two buttons under the question; an
organiser's press on "Cancel it" cancels (the status, the start's reminders, check-in and
start called off, the organiser's log entry: one transaction, under the tournament's lock
that the start takes too), and the question is edited into the answer: one group message
for the whole exchange. A cancelled tournament is gone for every command and button (see
``tournament.cancelled``); nothing of it is deleted.
"""

from __future__ import annotations

from functools import partial

from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, Message, User

from bot.features.access import Target, Targeted, organisers_press
from bot.features.handlers import Handlers
from bot.features.keyboards import question_keyboard
from bot.features.lifecycle import START_JOBS, called_off, job_kind, tell_each_owed
from bot.features.notices import redraw_checkin_status
from bot.i18n import Translator
from bot.play.refusal import Refusal
from bot.services import Services
from storage.repositories.jobs import Job
from storage.repositories.tournaments import ACTIVE_ENTRANT, APPLICANT, Tournament

router = Handlers("cancel")


class Cancel(CallbackData, prefix="tcx"):
    tournament_id: int
    sure: bool


def _refusal(tr: Translator, tournament: Tournament) -> str | None:
    """Why ``tournament`` cannot be cancelled (a started one is finished by its play, or
    paused), or None."""
    if said := called_off(tr, tournament):
        return said
    if tournament.status == "finished":
        return tr("cancel.finished", title=tournament.title)
    if tournament.started:
        return tr("cancel.started", title=tournament.title)
    return None


@router.message(Command("cancel"), Targeted(organiser=True))
async def ask(message: Message, command: CommandObject, services: Services,
              tr: Translator, target: Target) -> None:
    tournament = target.tournament
    if (refusal := _refusal(tr, tournament)) is not None:
        await message.reply(refusal)
        return
    await message.reply(
        await _question(services, tr, tournament),
        reply_markup=question_keyboard(tr("cancel.yes"), tr("cancel.no"), partial(
            Cancel, tournament_id=tournament.id)))


async def _question(services: Services, tr: Translator, tournament: Tournament) -> str:
    """Are you sure? — naming how many play in it and, apart, how many applications wait."""
    entrants = services.repos.entrants
    question = tr("cancel.confirm", title=tournament.title, id=tournament.id,
                  entrants=await entrants.count(tournament.id, ("approved",)))
    if applicants := await entrants.count(tournament.id, APPLICANT):
        question += " " + tr("cancel.applicants", count=applicants)
    return question


CANCELLED_JOB = "tournament_cancelled"
"""Written with a cancellation: the question edited into the answer and every entrant and
applicant told in private, the job held in their stead, so a bot that stops or cannot reach
Telegram right after the write still tells them, as promised when they applied (else they
never heard, and a second press only took the question's buttons off)."""


@router.callback_query(Cancel.filter())
async def answer(query: CallbackQuery, callback_data: Cancel, services: Services,
                 tr: Translator) -> None:
    tournament = await organisers_press(query, services, callback_data.tournament_id,
                                        question=True)
    message = query.message
    if not callback_data.sure:
        await query.answer()
        await services.outbox.board(message.chat.id, message.message_id,
                                    tr("cancel.kept", title=tournament.title))
        return
    try:
        held = await _cancel(services, tournament.id, query.from_user, tr, message)
    except Refusal as refusal:  # started or cancelled meanwhile (a second press): stale
        refusal.closes = True
        raise

    async def answer_and_tell() -> None:
        await query.answer()
        await _tell_cancelled(services, tr, tournament, held)
    await services.scheduler.stand_in(held, answer_and_tell())


async def _tell_cancelled(services: Services, tr: Translator, tournament: Tournament,
                          held: Job) -> None:
    """The question edited into the answer (a second press edits it again: unchanged), the
    check-in status redrawn, and everyone who entered or applied told in private
    (:func:`tell_each_owed`)."""
    chat_id, message_id = held.payload["question"]
    await services.outbox.board(chat_id, message_id, tr(
        "cancel.done", title=tournament.title, id=tournament.id,
        organiser=held.payload["organiser"]))
    await redraw_checkin_status(services, tournament)
    await tell_each_owed(services, held, "entrants", partial(_tell_entrant, services, tournament))


async def _tell_entrant(services: Services, tournament: Tournament, user_id: int) -> None:
    user_tr = await services.translator_for_chat(user_id)
    await services.outbox.dm(user_id, user_tr("registration.cancelled_dm", title=tournament.title))


@job_kind(CANCELLED_JOB)
async def _cancellation_owed(services: Services, job: Job) -> None:
    """:data:`CANCELLED_JOB`, left by a bot that stopped (or could not reach Telegram) after
    writing a cancellation."""
    tournament = await services.repos.tournaments.get(job.tournament_id)
    if tournament is not None and tournament.status == "cancelled":
        tr = await services.translator_for_chat(tournament.chat_id)
        await _tell_cancelled(services, tr, tournament, job)


async def _cancel(services: Services, tournament_id: int, organiser: User,
                  tr: Translator, question: Message) -> Job:
    """Cancel the tournament unless it started (or was cancelled) meanwhile (a Refusal),
    with the :data:`CANCELLED_JOB` that says it (``question``: the message asking)."""
    async with services.lock(f"tournament-{tournament_id}"):
        tournament = await services.repos.tournaments.get(tournament_id)
        if (refusal := _refusal(tr, tournament)) is not None:
            raise Refusal(text=refusal)
        entrants = await services.repos.entrants.list(tournament.id, ACTIVE_ENTRANT)
        now = services.clock.now()
        async with services.db.together():
            await services.repos.tournaments.set_status(tournament.id, "cancelled", now)
            await services.scheduler.cancel(tournament.id, START_JOBS)
            await services.repos.organiser_log.record(organiser.id, "cancel", now,
                                                      tournament_id=tournament.id,
                                                      chat_id=tournament.chat_id)
            return await services.repos.jobs.add(
                CANCELLED_JOB, now, tournament.id, organiser=organiser.first_name,
                question=[question.chat.id, question.message_id],
                entrants=[entrant.user_id for entrant in entrants])
