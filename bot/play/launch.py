"""Launching a match in the chat: the formats runner calls a game's ``launch`` once both
players are known."""

from __future__ import annotations

from bot.play.context import MatchContext, context_for
from bot.play.topics import open_topic
from bot.services import Services
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament


async def start_match(services: Services, tournament: Tournament,
                      match: MatchRow) -> MatchContext:
    """Mark the match running, open its forum topic (``topics=on``) and return its context
    (in the group's language)."""
    if match.status == "pending":
        await services.repos.matches.update(match.id, services.clock.now(), status="running")
        match = await services.repos.matches.get(match.id)
    tr = await services.translator_for_chat(tournament.chat_id)
    ctx = await context_for(services, tr, tournament, match)
    ctx.match = await open_topic(services, tournament, ctx.match, ctx.names)
    return ctx


async def announce_match(services: Services, tournament: Tournament, match: MatchRow) -> None:
    """The launch of a game with no board of its own: the pairing is announced; the players
    act by the game's own input (dice, words …)."""
    ctx = await start_match(services, tournament, match)
    await ctx.say(ctx.tr("play.match_start", match=match.id, a=ctx.names[0], b=ctx.names[1]))
