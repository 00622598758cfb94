"""Where a player's matches in a group are played: a line a match, naming it, its players
and its game, and its place (its forum topic, or the general chat). Said when a message does
not tell which of the sender's matches it is for, or was sent where none of theirs is."""

from __future__ import annotations

from bot.i18n import Translator
from bot.play.context import context_for
from bot.services import Services
from storage.repositories.matches import MatchRow


async def where_played(services: Services, tr: Translator,
                       matches: list[tuple[str, MatchRow]]) -> str:
    """A line for each of ``matches`` (each with its game's key)."""
    return "\n".join([await _line(services, tr, game, match) for game, match in matches])


async def _line(services: Services, tr: Translator, game: str, match: MatchRow) -> str:
    tournament = await services.repos.tournaments.get(match.tournament_id)
    names = (await context_for(services, tr, tournament, match)).names
    where = tr("play.where_topic" if match.thread_id is not None else "play.where_chat")
    return tr("play.where_line", match=match.id, a=names[0], b=names[1],
              game=tr(f"game.{game}"), where=where)
