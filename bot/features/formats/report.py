"""Players report results of games played outside the bot: ``/result 5:3`` (or ``win`` /
``loss``) by one player, then the opponent confirms (button or ``/confirm``). A different
report by the opponent, or the Dispute button (or ``/dispute``), hands the match to the
organisers."""

from __future__ import annotations

from dataclasses import dataclass

from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update

from bot.features.access import id_moved_first
from bot.features.formats.announcements import describe
from bot.features.formats.common import (
    formats_tournament,
    my_open_match,
    parse_claim,
    result_problem,
)
from bot.features.formats.results import ResultRefused, record_result
from bot.features.formats.state import Run, load, names_of
from bot.features.handlers import Handlers
from bot.i18n import Translator
from bot.play.context import handles_of
from bot.play.perform import Alongside
from bot.play.refusal import paused
from bot.sending import at_once
from bot.services import Services
from storage.repositories.jobs import Job, insert_job
from storage.repositories.matches import DuplicateUpdate, MatchRow
from storage.repositories.tournaments import LIVE

router = Handlers("formats-report")
CLAIMS_JOB = "formats_claims_said"
"""What the players' claims call for, said by the update, with a job stored with the
claims in its stead (:meth:`~bot.scheduler.Scheduler.stand_in`), so a bot that dies or
cannot reach Telegram in between loses neither: a first report with the opponent's
Confirm and Dispute buttons (:data:`REPORTED`), a dispute handed to the organisers
(:data:`DISPUTED`)."""
REPORTED, DISPUTED = "report", "dispute"


class Answer(CallbackData, prefix="frep"):
    match_id: int
    agree: bool


def _keyboard(tr: Translator, match: MatchRow) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text=tr("formats.button.confirm"),
                             callback_data=Answer(match_id=match.id, agree=True).pack()),
        InlineKeyboardButton(text=tr("formats.button.dispute"),
                             callback_data=Answer(match_id=match.id, agree=False).pack())]])


@router.message(Command("result"))
async def report(message: Message, command: CommandObject, services: Services, tr: Translator,
                 event_update: Update) -> None:
    found = await formats_tournament(message, services, tr, id_moved_first(command.args))
    if found is None or (match := await my_open_match(message, services, found[0], tr)) is None:
        return  # (a score is never free text: "/result win #2" names tournament #2)
    run, words = found
    claim = parse_claim(" ".join(words))
    if claim is None:
        await message.reply(tr("formats.result_usage"))
        return
    user = message.from_user.id
    winner, score = claim.in_row_terms(match, user)
    if problem := result_problem(tr, run, match, winner, score):
        await message.reply(problem)
        return
    earlier = match.result.get("report")
    if earlier and earlier["by"] == user:
        await message.reply(tr("formats.error.already_reported"))
        return
    claimed = {"by": user, "winner": winner, "score": list(score) if score else None}
    if not earlier:
        await _store_report(services, run, match, claimed, event_update.update_id)
        return
    answer = Answered({"type": "report", **claimed}, user, event_update.update_id)
    if _agrees(earlier, claimed):
        await _confirm(services, tr, run, match, answer)
    else:
        await _dispute(services, run, match, answer, claimed)


def _agrees(report: dict, claimed: dict) -> bool:
    """Whether the opponent's own report confirms ``report``: the same winner (or draw) and
    the same score, or no score (``/result win`` after ``/result 5:3``: the report's score
    stands)."""
    return report["winner"] == claimed["winner"] and claimed["score"] in (None, report["score"])


async def _store_report(services: Services, run: Run, match: MatchRow, claimed: dict,
                        update_id: int) -> None:
    """The first report: logged with the claims it makes (one write), then shown with the
    opponent's Confirm and Dispute buttons."""
    job = await _claim(services, run, match, {"report": claimed}, claimed["by"], update_id,
                       [{"type": "report", **claimed}], REPORTED)
    if job is not None:
        await services.scheduler.stand_in(job, say_claims(services, job))


async def _claim(services: Services, run: Run, match: MatchRow, claims: dict, by: int,
                 update_id: int, actions: list[dict], say: str) -> Job | None:
    """The players' ``claims`` written with the ``actions`` that make them and the
    :data:`CLAIMS_JOB` held to say them (``say``); None when the update was applied
    before."""
    now = services.clock.now()
    try:
        return await services.repos.matches.settle(
            match.id, {"meta": "claims", "result": claims}, by, now, update_id, actions,
            also=lambda tx: insert_job(tx, CLAIMS_JOB, now, run.tournament.id,
                                       {"match_id": match.id, "say": say}))
    except DuplicateUpdate:
        return None


async def say_claims(services: Services, job: Job) -> None:
    """:data:`CLAIMS_JOB`: a first report shown with the opponent's Confirm and Dispute
    buttons, or a dispute handed to the organisers, as the match's claims stand (nothing
    once the match is no longer live)."""
    match = await services.repos.matches.get(job.payload["match_id"])
    if match is None or match.status not in LIVE or "report" not in match.result:
        return
    tournament = await services.repos.tournaments.get(match.tournament_id)
    tr = await services.translator_for_chat(tournament.chat_id)
    label = await names_of(services, tournament.id)
    report = match.result["report"]
    if job.payload["say"] == REPORTED:
        sent = await services.bot.send_message(tournament.chat_id, tr(
            "formats.reported", reporter=label[report["by"]],
            opponent=label[match.opponent(report["by"])],
            result=describe(tr, label, match, report["winner"], report["score"])),
            reply_markup=_keyboard(tr, match))
        await services.repos.matches.update(match.id, services.clock.now(),
                                            board_message_id=sent.message_id)
        return
    handle = await handles_of(services, tournament.id)
    lines = [describe(tr, label, match, report["winner"], report["score"])]
    if isinstance(counter := match.result.get("dispute"), dict):
        lines.append(describe(tr, label, match, counter["winner"], counter["score"]))
    await services.bot.send_message(tournament.chat_id, tr(
        "formats.disputed", a=label[match.player_a], b=label[match.player_b],
        claims=" / ".join(lines), hint=f"/setresult {handle[match.player_a]} "
        f"{handle[match.player_b]}"))


async def _retire_buttons(services: Services, run: Run, match: MatchRow,
                          alongside: Alongside = ()) -> None:
    """Take Confirm/Dispute off the report once it is answered, so nobody presses them late;
    ``alongside``: said at the same time (the pressed button's answer)."""
    message_id = (await services.repos.matches.get(match.id)).board_message_id
    dropped = () if message_id is None else (
        services.outbox.drop_buttons(run.tournament.chat_id, message_id),)
    await at_once(*dropped, *(say() for say in alongside))


@dataclass(frozen=True)
class Answered:
    """The opponent's answer to a report (a confirmation, a dispute, a report of their own):
    logged in the transaction that writes what it leads to, claiming its update;
    ``alongside``: said once it is written, as the report's buttons go (a press's answer)."""

    action: dict
    by: int
    update_id: int
    alongside: Alongside = ()


async def _confirm(services: Services, tr: Translator, run: Run, match: MatchRow,
                   answer: Answered) -> None:
    """The opponent agrees: the answer and the result written together; the format goes on
    right after the update and says the result first. Nothing is said when the update was
    applied before."""
    report = match.result["report"]
    score = tuple(report["score"]) if report["score"] else None
    label = await names_of(services, run.tournament.id)
    said = tr("formats.confirmed", result=describe(tr, label, match, report["winner"], score))
    try:
        await record_result(services, match.id, report["winner"], score, actor_id=answer.by,
                            update_id=answer.update_id, actions=[answer.action], said=said)
    except DuplicateUpdate:
        return
    except ResultRefused as refused:
        await _retire_buttons(services, run, match, answer.alongside)
        await services.bot.send_message(run.tournament.chat_id, tr(refused.key))
        return
    # the job after the update says the result
    await _retire_buttons(services, run, match, answer.alongside)


async def _dispute(services: Services, run: Run, match: MatchRow,
                   answer: Answered, counter: dict | None) -> None:
    """The players disagree: the answer and the dispute written together, then the
    organisers told (:data:`CLAIMS_JOB`); the match waits for an organiser's /setresult.
    Nothing is said when the update was applied before."""
    claims = {"report": match.result["report"], "dispute": counter or True}
    job = await _claim(services, run, match, claims, answer.by, answer.update_id,
                       [answer.action], DISPUTED)
    if job is None:
        return
    with services.scheduler.owing(job):
        await _retire_buttons(services, run, match, answer.alongside)
    await services.scheduler.stand_in(job, say_claims(services, job))


def _answer_refused(match: MatchRow, user: int) -> str | None:
    """Why ``user`` may not answer the match's report now (None: they may)."""
    report = match.result.get("report")
    if report is None:
        return "formats.error.nothing_to_confirm"
    if user == report["by"]:
        return "formats.error.own_report"
    if user not in match.players:
        return "formats.error.not_your_match"
    if match.result.get("dispute"):
        return "formats.error.with_organisers"
    return None


async def _answer(services: Services, tr: Translator, run: Run, match: MatchRow,
                  answer: Answered, agree: bool) -> None:
    await (_confirm(services, tr, run, match, answer) if agree
                  else _dispute(services, run, match, answer, None))


@router.message(Command("confirm", "dispute"))
async def answer_command(message: Message, command: CommandObject, services: Services,
                         tr: Translator, event_update: Update) -> None:
    """The opponent's answer to a report typed, as the report's buttons answer it."""
    found = await formats_tournament(message, services, tr, None)
    if found is None or (match := await my_open_match(message, services, found[0], tr)) is None:
        return
    user, agree = message.from_user.id, command.command.lower() == "confirm"
    if refused := _answer_refused(match, user):
        await message.reply(tr(refused))
        return
    await _answer(services, tr, found[0], match, Answered(
        {"type": "confirm" if agree else "dispute"}, user, event_update.update_id), agree)


@router.callback_query(Answer.filter())
async def answer_button(query: CallbackQuery, callback_data: Answer, services: Services,
                        tr: Translator, event_update: Update) -> None:
    match = await services.repos.matches.get(callback_data.match_id)
    if match is None or match.status not in LIVE or not match.result.get("report") \
            or query.message is None:
        await query.answer(tr("callback.stale"), show_alert=True)
        return
    user, agree = query.from_user.id, callback_data.agree
    if match.status == "paused" and user in match.players:
        raise await paused(services, match.tournament_id, "formats.error.paused")
    if refused := _answer_refused(match, user):
        await query.answer(tr(refused), show_alert=True)
        return
    run = await load(services, match.tournament_id)
    await _answer(services, tr, run, match, Answered(
        {"type": "confirm" if agree else "dispute"}, user, event_update.update_id,
        alongside=[query.answer]), agree)

