"""/reopen: an organiser takes a Cup player's match back to before its last round (a
wrongly closed round), with a reason, written to the organiser log.

A finished match is opened first; the rewind is written with the log entry, the update's
claim and a job held in the stead of what it owes the chats (:data:`REOPENED_JOB`, the
round played again said and the boards and panels drawn back), so a redelivered /reopen
rewinds nothing more and a bot that stops right after the write still says it.
"""

from __future__ import annotations

from functools import partial

from aiogram.filters import Command, CommandObject
from aiogram.types import Message, Update

from bot.features.cup.common import notice
from bot.features.cup.corrections import built_on, match_where, player_and_reason
from bot.features.cup.playoff import THIRD_VOTE
from bot.features.cup.rolling import match_status
from bot.features.handlers import Handlers
from bot.features.lifecycle import answer_where_asked
from bot.i18n import Translator
from bot.middlewares.filters import topic_of
from bot.play import hidden
from bot.play.context import MatchContext, context_for
from bot.play.perform import board_owed_after_faults
from bot.play.redraw import redraw_in_place
from bot.play.refusal import Refusal
from bot.play.topics import typed_in_its_topic
from bot.services import Services
from storage.db import in_order
from storage.repositories.jobs import Job, insert_job
from storage.repositories.matches import MatchRow
from storage.repositories.organiser_log import log_entry
from storage.repositories.tournaments import Tournament

router = Handlers("cup-reopen")


@router.message(Command("reopen"))
async def reopen(message: Message, command: CommandObject, event_update: Update,
                 services: Services, tr: Translator) -> None:
    """Take a player's match back to before its last round (a wrongly closed round). A
    finished match is opened first; the rewind is written with the log entry and the
    update's claim, so a redelivered /reopen (a bot that died before answering) rewinds
    nothing more."""
    found = await player_and_reason(message, command, services, tr)
    if found is None:
        return
    tournament, user, reason = found
    match = await services.repos.matches.current_for_player(tournament.id, user.id)
    if match is None or match.slot == THIRD_VOTE:  # a vote has no round: the match before
        match = await _last_finished(services, tournament.id, user.id)
    if match is None:
        raise Refusal("correction.nothing_to_reopen", user=user.mention)
    starts = await services.matches.round_starts(match)
    why = await _why_not_reopened(services, tr, tournament, match, bool(starts))
    if why is not None:
        raise Refusal("correction.cannot_reopen", user=user.mention, why=why,
                      where=match_where(tr, tournament, match))
    actor_id, now = message.from_user.id, services.clock.now()
    if match.status == "finished":
        await services.repos.matches.settle(match.id, {"meta": "reopen"}, actor_id, now)
    held = await services.matches.rewind(
        match, starts[-1], actor_id, update_id=event_update.update_id, logged=in_order(
            log_entry(actor_id, "reopen", now, tournament_id=tournament.id,
                      chat_id=message.chat.id, reason=reason, match_id=match.id,
                      to_seq=starts[-1]),
            lambda tx: insert_job(tx, REOPENED_JOB, now, tournament.id, {
                "match_id": match.id, "reason": reason, "thread": topic_of(message),
                "in_its_topic": typed_in_its_topic(message, match)})))
    await services.scheduler.stand_in(held, reopened_owed(services, held))


REOPENED_JOB = "cup_reopened"
"""Written with a rewind: the group told which round is played again and why, the board
drawn back and the players' panels asking again, held in their stead (a stop right after
the rewind showed the board back a round with no word of why)."""


async def reopened_owed(services: Services, job: Job) -> None:
    """:data:`REOPENED_JOB`: the rewind said where the command was typed (in the match's
    topic: as a notice there, its board drawn again below it; elsewhere: a line there,
    the board redrawn in place), the panels asking again."""
    match = await services.repos.matches.get(job.payload["match_id"])
    tournament = await services.repos.tournaments.get(match.tournament_id)
    tr = await services.translator_for_chat(tournament.chat_id)
    play: MatchContext = await context_for(services, tr, tournament, match)
    state = await services.matches.state(match)
    status = match_status(play, state) if hasattr(state, "score") else ""
    reason = job.payload["reason"]
    text = tr("correction.reopened", a=play.names[0], b=play.names[1],
              reason=reason) + ("\n" + status if status else "")
    async with board_owed_after_faults(services, match):  # the panels ask again, if late
        if job.payload["in_its_topic"]:
            await notice(play, text)
        else:
            await answer_where_asked(services, tournament.chat_id, job)(text)
            await redraw_in_place(play)
        await hidden.renew(play, partial(_replayed, reason=reason))


def _replayed(tr: Translator, reason: str) -> str:
    """Why a player's HP panel asks again after /reopen, in their language."""
    return tr("cup.hp_replayed", reason=reason)


async def _last_finished(services: Services, tournament_id: int,
                         user_id: int) -> MatchRow | None:
    """The player's last finished match (not the 3rd-place vote, which has no rounds)."""
    mine = [m for m in await services.repos.matches.for_tournament(tournament_id)
            if m.status == "finished" and user_id in m.players and m.slot != THIRD_VOTE]
    return max(mine, key=lambda m: m.id, default=None)


async def _why_not_reopened(services: Services, tr: Translator, tournament: Tournament,
                            match: MatchRow, played: bool) -> str | None:
    """Why /reopen cannot replay ``match``'s last round (``played``: it has one), or None."""
    if match.status == "finished":
        if (why := await built_on(services, tr, tournament, match)) is not None:
            return why
        if match.result.get("set_by") is not None:
            return tr("correction.why_set_by_organiser")
    return None if played else tr("correction.why_no_round")
