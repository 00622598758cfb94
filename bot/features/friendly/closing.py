"""The end of a friendly match (played out, or given up with /resign), and what /match says
of it (``bot/features/mine.py`` answers /match).

A finished friendly match closes through its stage's hooks — the Cup's ``on_finish`` and the
formats' ``outside_formats`` — so no table, bracket or tournament round is touched: the
match row keeps the result and the friendly's row is finished. The game's own finish has told
the chat who won; a resignation is told here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aiogram.filters import Command
from aiogram.types import Message, Update

from bot.features.cup.common import on_finish
from bot.features.cup.rolling import match_status
from bot.features.formats.results import outside_formats
from bot.features.friendly.start import STAGE
from bot.features.handlers import Handlers
from bot.features.lifecycle import job_kind
from bot.features.mine import friendly_answer
from bot.games import game_of
from bot.i18n import Translator
from bot.middlewares.filters import IN_GROUP
from bot.middlewares.scope import Scope, game_commands
from bot.play.board import retire_board
from bot.play.context import LIVE, MatchContext, context_for, own_text
from bot.services import Services
from storage.repositories.jobs import Job
from storage.repositories.matches import DuplicateUpdate, MatchRow
from storage.repositories.tournaments import Tournament

router = Handlers("friendly-status")


async def _close(services: Services, friendly: Tournament) -> None:
    """Finish the friendly's row: its result counts for nothing. A match played out has
    said who won in its game's own words; a resignation says it here (:func:`said_resigned`)."""
    await services.repos.tournaments.set_status(friendly.id, "finished", services.clock.now())


@on_finish(STAGE)
async def _cup_friendly_over(ctx: MatchContext, told: dict[str, Any]) -> None:
    """The Cup has written the match's result (``close_match``); the friendly ends."""
    await _close(ctx.services, ctx.tournament)


@outside_formats(STAGE)
async def _played_friendly_over(ctx: MatchContext, winner: int | None,
                                score: tuple[int, int] | None) -> None:
    """A formats game's friendly (darts) has ended: its result into the match row, with the
    friendly's end (apart, a bot stopped in between left the friendly under way for good:
    its result's job finds the match closed)."""
    services = ctx.services
    user = None if winner is None else ctx.match.players[winner]
    async with services.db.together():
        await services.repos.matches.settle(
            ctx.match.id, {"meta": "result", "winner": user,
                           "result": {"score": list(score) if score else None}},
            None, services.clock.now())
        await _close(services, ctx.tournament)


async def _live_friendly(message: Message, scope: Scope) -> dict | bool:
    """Filter: the sender plays a friendly match in this group now (in a match's forum
    topic: that match), whatever tournament matches they play here too."""
    for match in await scope.live_matches():
        friendly = await scope.services.repos.tournaments.get(match.tournament_id)
        if friendly.friendly:
            return {"friendly": friendly, "match": match}
    return False


async def _friendly_without_resign(message: Message, scope: Scope) -> dict | bool:
    """Filter: the sender plays a friendly here, of a game with no /resign of its own (a
    backgammon friendly resigns the game or the match by its game's rules)."""
    found = await _live_friendly(message, scope)
    return found if found and "resign" not in game_commands(found["friendly"].game) else False


@router.message(Command("resign"), IN_GROUP, _friendly_without_resign)
async def resign(message: Message, friendly: Tournament, match: MatchRow, event_update: Update,
                 services: Services) -> None:
    """The sender gives the friendly up: the opponent wins, the match and the friendly end
    (so neither player stays blocked from new challenges by a match left half-played), in
    one write with :data:`RESIGNED_JOB`, which says so."""
    loser, now, repos = message.from_user.id, services.clock.now(), services.repos
    winner = next(user for user in match.players if user != loser)
    async with services.matches.lock(match.id):
        match = await repos.matches.get(match.id)
        if match.status not in LIVE:
            return  # it ended meanwhile, and said so
        try:
            async with services.db.together():
                await repos.matches.settle(match.id, {
                    "meta": "result", "winner": winner,
                    "result": {"score": None, "resigned": loser}},
                    loser, now, event_update.update_id)
                await _close(services, friendly)
                held = await repos.jobs.add(RESIGNED_JOB, now, friendly.id, match_id=match.id)
        except DuplicateUpdate:
            return
    await services.scheduler.stand_in(held, said_resigned(services, held))


RESIGNED_JOB = "friendly_resigned"
"""Written with a friendly's resignation (the match's result and the friendly finished): the
chat told who gave up and who won, the board and panels drawn closed — also by a bot that
stopped right after the write (which used to leave the friendly under way, its end unsaid)."""


@job_kind(RESIGNED_JOB)
async def said_resigned(services: Services, job: Job) -> None:
    """:data:`RESIGNED_JOB`: the resignation said where the match is played (once, even when
    the job runs again), then its board retired (a game's own finish does not run)."""
    match = await services.repos.matches.get(job.payload["match_id"])
    friendly = await services.repos.tournaments.get(job.tournament_id)
    if not job.payload.get("said"):
        tr = await services.translator_for_chat(friendly.chat_id)
        ctx = await context_for(services, tr, friendly, match)
        loser = match.result["resigned"]
        await ctx.say(tr("friendly.over_resigned", title=friendly.title,
                         winner=ctx.names[match.players.index(match.winner)],
                         loser=ctx.names[match.players.index(loser)]))
        await services.repos.jobs.note(job.id, said=True)
    await retire_board(services, friendly, replace(match, status="running"))  # as it was


@friendly_answer
async def my_friendly(services: Services, tr: Translator, friendly: Tournament,
                      user_id: int) -> str:
    """/match in a friendly: which one, and the score and whose turn (the Cup) or where the
    game is played (its tournaments' /match hint: the scoreboard, the board, the hand in
    private); in the group, beside the player's tournament matches there."""
    match = await services.repos.matches.current_for_player(friendly.id, user_id)
    ctx = await context_for(services, tr, friendly, match)
    head = tr("friendly.match_head", a=ctx.names[0], b=ctx.names[1],
              game=tr(f"game.{friendly.game}"))
    if friendly.game == "cup":
        detail = match_status(ctx, await services.matches.state(match))
    else:
        detail = own_text(tr, game_of(friendly.game).match_hint, match.kind)
    return head + "\n" + detail
