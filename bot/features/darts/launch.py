"""How a darts match starts (called by the formats runner) and what a darts tournament
says about its rules when it is created: the Bull rule for Shanghai, drawn games for
FinCricket."""

from __future__ import annotations

from bot.features.darts.play import DartsPlay, show_board
from bot.i18n import Translator
from bot.play.launch import start_match
from bot.services import Services
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament


async def launch(services: Services, tournament: Tournament, match: MatchRow) -> None:
    """Post the match's scoreboard: it asks for the bull-off's winner (or the coin) before
    leg 1 and says how darts are entered until the first one is (one group message for
    the match's start, not an announcement beside it)."""
    ctx = await start_match(services, tournament, match)
    play = DartsPlay(**vars(ctx))
    await show_board(play, await services.matches.state(play.match), new=True)


def bull_note(tr: Translator, settings: dict) -> str:
    return tr(f"darts.bull_{settings.get('bull', 'visit')}", legs=settings.get("legs", 3))


def fincricket_note(tr: Translator, settings: dict) -> str:
    return tr("darts.fincricket_note", legs=settings.get("legs", 1))
