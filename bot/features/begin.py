"""/begin: an organiser starts a tournament now.

Applications still waiting for a decision do not enter a started tournament, so with some
waiting (and enough entrants to start without them) the command first asks, naming them,
with two buttons under the question: start without them, or wait (and decide them on their
cards first). An organiser's press answers it, and the question is edited into what was
done: one group message for the exchange. A start's edit is the opening job's (it follows
the announcement, and a bot stopped right after the start's write still makes it:
``lifecycle.start_tournament``).
"""

from __future__ import annotations

from functools import partial

from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, Message

from bot.features.access import Target, Targeted, organisers_press
from bot.features.handlers import Handlers
from bot.features.keyboards import question_keyboard
from bot.features.lifecycle import minimum_players, start_tournament
from bot.i18n import Translator
from bot.play.refusal import Refusal
from bot.services import Services

router = Handlers("begin")


class BeginAnyway(CallbackData, prefix="tbg"):
    tournament_id: int
    sure: bool


@router.message(Command("begin"), Targeted(organiser=True))
async def begin(message: Message, command: CommandObject, services: Services,
                tr: Translator, target: Target) -> None:
    tournament = target.tournament
    pending = [] if tournament.started else \
        await services.repos.entrants.list(tournament.id, ("pending",))
    if pending and await services.repos.entrants.count(
            tournament.id, ("approved",)) >= minimum_players(tournament):  # (else: too few)
        await message.reply(
            tr("begin.pending_question", count=len(pending), title=tournament.title,
               names=", ".join(entrant.label for entrant in pending)),
            reply_markup=question_keyboard(tr("begin.start_anyway"), tr("begin.wait"), partial(
                BeginAnyway, tournament_id=tournament.id)))
        return
    problem = await start_tournament(services, tournament.id, message.from_user.id)
    if problem:
        await message.answer(problem.text, reply_markup=problem.markup)


@router.callback_query(BeginAnyway.filter())
async def answer(query: CallbackQuery, callback_data: BeginAnyway, services: Services,
                 tr: Translator) -> None:
    tournament = await organisers_press(query, services, callback_data.tournament_id,
                                        question=True)
    message = query.message
    if tournament.started or tournament.status == "cancelled":  # started by the schedule too
        raise Refusal("callback.stale", closes=True)
    await query.answer()
    if not callback_data.sure:
        await services.outbox.board(message.chat.id, message.message_id,
                                    tr("begin.waiting", title=tournament.title))
        return
    problem = await start_tournament(services, tournament.id, query.from_user.id,
                                     question=(message.chat.id, message.message_id))
    if problem:  # (started: the opening job says so on the question)
        await services.outbox.board(message.chat.id, message.message_id, problem.text)
