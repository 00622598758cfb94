"""Organisers' corrections and leaving mid-tournament: ``/setresult @a @b 5:3 reason``,
``/dq @user reason``, ``/reentry @user`` / ``/reentry close`` and a player's ``/withdraw``
once a tournament runs. Every organiser action needs a reason where it changes results,
and is logged."""

from __future__ import annotations

from functools import partial

from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, Message, Update

from bot.features.formats.announcements import describe
from bot.features.formats.common import (
    formats_tournament,
    parse_claim,
    result_problem,
    stage_of,
)
from bot.features.formats.progress import round_said
from bot.features.formats.results import (
    next_begun,
    outcome_key,
    record_result,
    removal_said,
    remove_player,
)
from bot.features.formats.runner import ADVANCE_JOB
from bot.features.formats.state import Run, load, log_event, names_of
from bot.features.handlers import Handlers
from bot.features.keyboards import pressed_on_its_question, question_keyboard
from bot.games import game_of
from bot.i18n import Translator, clip, lines, mid_sentence
from bot.middlewares.filters import IN_GROUP
from bot.middlewares.scope import Scope
from bot.play.board import retire_board
from bot.play.context import own_text
from bot.play.refusal import Refusal
from bot.services import Services
from games.common.errors import IllegalAction
from storage.repositories.matches import DuplicateUpdate, MatchRow
from storage.repositories.organiser_log import log_entry
from storage.repositories.tournaments import Tournament

router = Handlers("formats-admin")


async def _players(services: Services, run: Run, words: list[str], count: int
                   ) -> list[int] | None:
    """The first ``count`` words as @handles of this tournament's players (a group stage's too,
    once its playoff plays); None when
    they are fewer or not @handles. An @handle of no entrant is refused as such (a typo in
    a name is not a wrong command)."""
    found = []
    for word in words[:count]:
        if not word.startswith("@"):
            return None
        user = await services.repos.users.by_username(word)
        if user is None or user.id not in run.players:
            raise Refusal("access.not_entrant", name=clip(word), title=run.tournament.title)
        found.append(user.id)
    return found if len(found) == count else None


def _latest_between(run: Run, a: int, b: int) -> MatchRow | None:
    """The pair's match an organiser's result is for: the one open now (a rematch in a
    playoff or a grand final is not their earlier match), else the one created last (the
    table's rows are ordered by round, and a playoff's round 1 comes after a group's 3)."""
    rows = [row for row in run.rows if set(row.players) == {a, b}
            and row.status in ("running", "paused", "finished")]
    open_now = [row for row in rows if row.status != "finished"]
    return max(open_now or rows, key=lambda row: row.id, default=None)


async def _no_match_yet(services: Services, tr: Translator, run: Run,
                        players: list[int]) -> str:
    """Why a pair has no match to set: they meet in a round robin's round not open yet
    (named: its result is set once it opens), or not at all."""
    coming = next((row for row in run.rows
                   if set(row.players) == set(players) and row.status == "pending"), None)
    if coming is None:
        return tr("formats.error.no_such_match")
    label = await names_of(services, run.tournament.id)
    return tr("formats.error.meet_later", a=label[players[0]], b=label[players[1]],
              round=round_said(run, coming.round))


async def _order(message: Message, command: CommandObject, services: Services,
                 tr: Translator, count: int, usage: str, values: int = 0, *,
                 ended: bool = False) -> tuple[Run, list[int], list[str], str] | None:
    """An organiser's command naming ``count`` players, then ``values`` words, then a
    reason (``ended``: also in a finished tournament): the run, the players, those words
    and the reason; None after saying what is wrong."""
    found = await formats_tournament(message, services, tr, command.args, organiser=True,
                                     ended=ended)
    if found is None:
        return None
    run, words = found
    players = await _players(services, run, words, count)
    if players is None or len(words) < count + values:
        await message.reply(_usage(tr, run, usage))
        return None
    reason = " ".join(words[count + values:]).strip()
    if not reason:
        await message.reply(tr("formats.error.reason_required"))
        return None
    return run, players, words[count:count + values], reason


@router.message(Command("setresult"))
async def set_result(message: Message, command: CommandObject, services: Services,
                     tr: Translator, event_update: Update) -> None:
    order = await _order(message, command, services, tr, 2, "formats.setresult_usage", 1,
                         ended=True)  # a last result may be corrected after the end
    if order is None:
        return
    run, players, (word,), reason = order
    claim = parse_claim(word, forfeits=True)
    if claim is None:
        await message.reply(_usage(tr, run, "formats.setresult_usage"))
        return
    match = _latest_between(run, *players)
    if match is None:
        await message.reply(await _no_match_yet(services, tr, run, players))
        return
    winner, typed = claim.in_row_terms(match, players[0])
    score, dropped = _counted(run, typed)
    if match.status == "finished" and match.winner == winner and \
            match.result.get("score") == (list(score) if score else None) and \
            bool(match.result.get("forfeit")) == claim.forfeit:  # sent twice: said once
        await message.reply(tr("formats.setresult_same"))
        return
    if problem := result_problem(tr, run, match, winner, score,
                                 next_begun=await next_begun(services, run, match)):
        await message.reply(problem)
        return
    label = await names_of(services, run.tournament.id)
    said = tr("formats.set_by_organiser", reason=reason, stage=mid_sentence(stage_of(tr, run, match)),
              result=describe(tr, label, match, winner, score, claim.forfeit))
    said = lines(said, tr(dropped) if dropped else None)
    try:  # claimed with the result: delivered again after a stop, it is not answered again
        await record_result(services, match.id, winner, score, forfeit=claim.forfeit,
                            actor_id=message.from_user.id, reason=reason, said=said,
                            update_id=event_update.update_id)
    except DuplicateUpdate:
        return
    await retire_board(services, run.tournament, match,  # the job after it says the result
                       corrected=True)


def _counted(run: Run, score: tuple[int, int] | None
             ) -> tuple[tuple[int, int] | None, str | None]:
    """The score an organiser's result keeps, and the catalog key saying why a typed one
    is dropped (:func:`_unscored`)."""
    if score is None or (note := _unscored(run)) is None:
        return score, None
    return None, note


def _unscored(run: Run) -> str | None:
    """``Game.set_score_note`` where the tournament's tables take scores from play in the
    bot only (armchair's runs: an organiser's result counts no score), else None."""
    game = game_of(run.tournament.game)
    return game.set_score_note if game.in_bot(run.tournament.settings) else None


def _usage(tr: Translator, run: Run, key: str) -> str:
    """A command's usage, in the game's own words where an organiser's score is not
    counted (armchair's /setresult: win, loss or draw)."""
    return own_text(tr, key, run.tournament.game) if _unscored(run) else tr(key)


@router.message(Command("dq"))
async def disqualify(message: Message, command: CommandObject, services: Services,
                     tr: Translator) -> None:
    order = await _order(message, command, services, tr, 1, "formats.dq_usage")
    if order is None:
        return
    run, players, _, reason = order
    if players[0] in run.removed:
        await message.reply(tr("formats.error.already_out"))
        return
    label = await names_of(services, run.tournament.id)
    said = removal_said(tr, run, label, players[0], "disqualify",
                        tr("formats.dq.done", name=label[players[0]], reason=reason))
    await remove_player(services, run.tournament.id, players[0], "disqualify", said=said,
                        logged=log_entry(message.from_user.id, "dq", services.clock.now(),
                                         tournament_id=run.tournament.id,
                                         chat_id=message.chat.id, reason=reason,
                                         user_id=players[0]))


async def _started(message: Message, scope: Scope) -> dict | bool:
    """Filter: the command is about a tournament that has started (before the start,
    leaving is the entrants list's /withdraw)."""
    tournament = await scope.tournament()
    return {"tournament": tournament} if tournament and tournament.started else False


class Withdraw(CallbackData, prefix="fwd"):
    """The answer to "withdraw from the running tournament?" (only the asker's counts)."""
    tournament_id: int
    user_id: int
    sure: bool


@router.message(Command("withdraw", "leave"), IN_GROUP, _started)
async def withdraw(message: Message, tournament: Tournament, services: Services,
                   tr: Translator) -> None:
    """Leaving a running tournament cannot be undone: the player is asked first, with what
    becomes of their results, and leaves by the button (out, per the format's rules)."""
    run = await load(services, tournament.id)
    user = message.from_user.id
    _check_leaving(run, user)
    label = await names_of(services, tournament.id)
    await message.reply(
        lines(tr("formats.withdraw.confirm", name=label[user], title=tournament.title),
              tr(outcome_key(run, user, "withdraw", asked=True))),
        reply_markup=question_keyboard(tr("formats.withdraw.yes"), tr("formats.withdraw.no"),
                                       partial(Withdraw, tournament_id=tournament.id,
                                               user_id=user)))


@router.callback_query(Withdraw.filter())
async def withdraw_answer(query: CallbackQuery, callback_data: Withdraw, services: Services,
                          tr: Translator) -> None:
    user, tournament = callback_data.user_id, await services.repos.tournaments.get(
        callback_data.tournament_id)
    if not pressed_on_its_question(query) or tournament is None or \
            tournament.chat_id != query.message.chat.id or not tournament.started:
        raise Refusal("callback.stale")
    if query.from_user.id != user:
        raise Refusal("formats.withdraw.not_yours")
    run = await load(services, tournament.id)
    try:
        _check_leaving(run, user)  # still in, the tournament not over
    except Refusal as refusal:  # out of date: the question takes no more presses
        refusal.closes = True
        raise
    label = await names_of(services, tournament.id)
    await query.answer()
    if not callback_data.sure:
        await query.message.edit_text(tr("formats.withdraw.kept", name=label[user],
                                         title=tournament.title))
        return
    said = removal_said(tr, run, label, user, "withdraw",
                        tr("formats.withdrawn.done", name=label[user]))
    await remove_player(services, run.tournament.id, user, "withdraw", said=said,
                        question=query.message.message_id)


def _check_leaving(run: Run, user: int) -> None:
    """Refuse leaving a tournament the user does not play, that is over, or one already
    left (a paused one may be left: the matches it opens wait for /resume)."""
    if run.tournament.status == "finished" or user not in run.seeds:
        raise Refusal("formats.error.not_running" if user in run.seeds
                      else "withdraw.not_entered")
    if user in run.removed:
        raise Refusal("formats.error.already_withdrawn" if user in run.record.get(
            "withdrawn", []) else "formats.error.you_are_out")


@router.message(Command("reentry"))
async def reentry(message: Message, command: CommandObject, services: Services,
                  tr: Translator) -> None:
    """Re-entry brackets: an organiser lets a knocked-out player into an open first-round
    place, or closes entries (the places left become byes)."""
    found = await formats_tournament(message, services, tr, command.args, organiser=True)
    if found is None:
        return
    run, words = found
    if run.phase != "reentry":
        await message.reply(tr("formats.error.no_reentry"))
        return
    closing = words[:1] == ["close"]
    players = None if closing else await _players(services, run, words, 1)
    if not closing and players is None:
        await message.reply(tr("formats.reentry_usage"))
        return
    bracket = run.bracket()
    try:
        if closing:
            bracket.close_entries()
        else:
            bracket.reenter(players[0])
    except IllegalAction:
        await message.reply(tr("formats.error.cannot_reenter"))
        return
    label = await names_of(services, run.tournament.id)
    said = tr("formats.entries_closed") if closing else \
        tr("formats.reentered", name=label[players[0]])
    now = services.clock.now()
    async with services.lock(f"tournament-{run.tournament.id}"), services.db.together():
        # the event with its entry, the claim and the job that says it and goes on from it
        await log_event(services, run, bracket.log[-1])
        await services.repos.organiser_log.record(
            message.from_user.id, "reentry", now, tournament_id=run.tournament.id,
            chat_id=message.chat.id, event=bracket.log[-1])
        onward = await services.repos.jobs.add(ADVANCE_JOB, now, run.tournament.id, said=said)
    services.scheduler.follow(onward)
