"""A backgammon match on a real board in the chat: the launch (the match card, the late-start
timer), every accepted step redrawing the card, and the finished match into the tournament —
the backgammon playbook of the match-play module (:mod:`bot.play`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from bot.features.access import is_organiser
from bot.features.backgammon.card import card_view
from bot.features.backgammon.settings import GAME, GRACE_MINUTES, KIND, LIVE_KIND
from bot.features.backgammon.summary import post_summary
from bot.features.formats.results import (
    played_in_bot,
    record_played,
)
from bot.i18n import Translator
from bot.match_service import Change
from bot.middlewares.scope import Scope
from bot.play import clock
from bot.play.board import show_board
from bot.play.context import LIVE, MatchContext, load_match
from bot.play.launch import start_match
from bot.play.perform import Alongside, Playbook, error_params, perform
from bot.play.refusal import Refusal
from bot.play.said import Said
from bot.play.topics import other_match_topic
from bot.services import Services
from games.backgammon.protocol import BoardMatch
from games.common.errors import IllegalAction
from storage.db import Write
from storage.repositories.jobs import Job
from storage.repositories.matches import MatchRow
from storage.repositories.organiser_log import log_entry
from storage.repositories.tournaments import Tournament

GRACE_JOB = "backgammon_grace"
clock.register(GRACE_JOB)  # /pause freezes the late-start grace with the match clocks


def explain(tr: Translator, error: IllegalAction, match: MatchRow | None = None) -> str:
    key = f"backgammon.error.{error.code}"
    return tr(key, **error_params(error)) if tr.has(key) else tr("backgammon.error.other",
                                                                  code=error.code)


async def show_card(ctx: MatchContext, state: BoardMatch, *, new: bool = False) -> None:
    """Edit the match card in place (post it when there is none yet, or ``new``): the
    match's live board."""
    await show_board(ctx, *card_view(ctx, state), new=new)


async def _announce(ctx: MatchContext, change: Change, actions: list[dict]) -> None:
    await show_card(ctx, change.after)


async def _finish(ctx: MatchContext, state: BoardMatch, actor_id: int | None) -> None:
    """Hand the result to the tournament (a forfeit as a forfeit); who won is said on the
    record's picture, or, with no game on the record (a final score in one step, a late
    start's forfeit), by the tournament with what follows."""
    names, outcome = ctx.names, state.outcome
    loser = names[1 - outcome.winner]
    if outcome.how == "forfeit":
        await record_played(ctx, outcome.winner, None, actor_id, forfeit=True,
                            reason=ctx.tr("backgammon.late_start_reason"),
                            said=ctx.tr("backgammon.won_forfeit", winner=names[outcome.winner],
                                        loser=loser))
        return
    result = ctx.tr("backgammon.won", winner=names[outcome.winner], loser=loser,
                    score=f"{max(outcome.score)}:{min(outcome.score)}")
    posted = await post_summary(ctx, state, result)
    await record_played(ctx, outcome.winner, tuple(outcome.score), actor_id,
                        said=None if posted else result)


PLAYBOOK = Playbook(explain=explain, announce=_announce, finish=_finish)


async def act(ctx: MatchContext, actions: list[dict], actor_id: int | None,
              update_id: int | None, *, logged: Write | None = None,
              alongside: Alongside = (), said: Sequence[Said] = ()) -> BoardMatch | None:
    """Apply ``actions`` through the match-play module (with ``logged``, an organiser's log
    entry, in their transaction; ``alongside``: said with the card once they are accepted, a
    pressed button's answer; ``said``: after it); the new state, None if repeated."""
    change = await perform(ctx, PLAYBOOK, actions, actor_id=actor_id, update_id=update_id,
                           logged=logged, alongside=alongside, said=said)
    return None if change is None else change.after


async def launch(services: Services, tournament: Tournament, match: MatchRow) -> None:
    """Post the match card; with a grace set, organisers are offered a forfeit once it has
    passed with nothing reported. The grace is set before the card goes out: a stop between
    the two leaves a match without its card, which the tournament's next run launches again
    (setting the grace once more, in place of this one), never a card without its grace."""
    if minutes := tournament.settings.get("grace", GRACE_MINUTES):
        await services.scheduler.replace(GRACE_JOB, services.clock.now() + timedelta(
            minutes=minutes), tournament.id, "match", match=match.id)
    ctx = await start_match(services, tournament, match)
    await show_card(ctx, await services.matches.state(ctx.match))


async def grace_passed(services: Services, job: Job) -> None:
    """The late-start grace of a match is over: logged once, and the card redrawn. A match
    opened during a pause (its grace set then) is looked at again a minute later, until
    /resume: the forfeit is offered once the match is played."""
    match = await services.repos.matches.get(job.payload["match"])
    if match is not None and match.status == "paused":
        await services.scheduler.add(GRACE_JOB, services.clock.now() + timedelta(minutes=1),
                                     job.tournament_id, match=match.id)
        return
    if match is None or match.status != "running":
        return
    tournament = await services.repos.tournaments.get(match.tournament_id)
    ctx = await load_match(services, await services.translator_for_chat(tournament.chat_id),
                           match.id, (KIND,))
    state = await services.matches.state(ctx.match)
    if state.late:  # run again (its card's edit failed, or the bot stopped): logged once
        await show_card(ctx, state)
    else:
        await act(ctx, [{"type": "grace_over"}], None, None)


async def load(services: Services, tr: Translator, match_id: int) -> MatchContext:
    """A live backgammon match by id (a button's), refused when it is over or unknown; a
    card left with buttons by a result entered elsewhere loses them."""
    ctx = await load_match(services, tr, match_id, (KIND,))
    if ctx is None:
        raise Refusal("callback.stale")
    if ctx.match.status not in LIVE:  # settled outside the card (/setresult, a withdrawal)
        await show_card(ctx, await services.matches.state(ctx.match))
        raise Refusal("callback.stale")
    return ctx


async def sender_match(scope: Scope, tr: Translator) -> MatchContext:
    """The sender's live backgammon match reported on its card in this chat (in a match's
    forum topic: that match), refused when there is none (in another match's topic, saying
    whose it is) or it is played in the bot, which records every game itself."""
    match = await scope.live_match(of=(GAME,))
    if match is not None and match.kind == LIVE_KIND:
        raise Refusal(text=await played_in_bot(scope.services, tr, match))
    if match is None or match.kind != KIND:
        raise Refusal(text=await other_match_topic(scope, tr)
                      or tr("backgammon.error.no_live_match"))
    return await load(scope.services, tr, match.id)


async def organiser_only(ctx: MatchContext, user_id: int) -> None:
    if not await is_organiser(ctx.services, ctx.tournament.chat_id, user_id):
        raise Refusal("backgammon.error.organisers_only")


def decision(ctx: MatchContext, actor: int, kind: str, reason: str, **details) -> Write:
    """An organiser's step (or a player's appeal) as an organiser log entry naming the
    match: written with the step's actions (:func:`act`), or alone (:func:`log_decision`)."""
    return log_entry(actor, kind, ctx.services.clock.now(), tournament_id=ctx.tournament.id,
                     chat_id=ctx.tournament.chat_id, reason=reason, match_id=ctx.match.id,
                     **details)


async def log_decision(ctx: MatchContext, actor: int, kind: str, reason: str,
                       **details) -> None:
    """A step that changes no match (an appeal, a decision on it) in the organiser log."""
    await ctx.services.db.write(decision(ctx, actor, kind, reason, **details))
