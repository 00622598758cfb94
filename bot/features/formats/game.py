"""The declaration of a game whose tournaments the formats run (every game but the Cup)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.features.formats import admin, progress, report, status
from bot.features.formats.deadline import DEADLINE_JOB, deadline_passed
from bot.features.formats.export import pairings_section, standings_section
from bot.features.formats.results import REMOVE_JOB, close_removed
from bot.features.formats.runner import ADVANCE_JOB, advance_after_result, start_format
from bot.game_settings import FORMAT_SETTINGS
from bot.games import ExportSection, Game

ROUTERS = (admin.router, report.router, status.router)


def formats_game(key: str, defaults: dict[str, Any],
                 parsers: Mapping[str, Callable[[str], Any]] | None = None, *,
                 routers: tuple = (), export_sections: Mapping[str, ExportSection] | None = None,
                 **declaration: Any) -> Game:
    """A :class:`~bot.games.Game` started, paired and finished by the tournament formats
    (``format=round_robin|swiss|…``): their settings, routers, jobs (the deadline, going on
    after a result or a player's removal) and export sections come with it. Without
    ``launch`` its matches are played elsewhere and reported with /result; with it,
    ``launch`` starts each match in the chat."""
    return Game(key, defaults, FORMAT_SETTINGS | dict(parsers or {}),
                start=start_format, min_players=progress.minimum,
                routers=ROUTERS + routers,
                jobs={DEADLINE_JOB: deadline_passed, ADVANCE_JOB: advance_after_result,
                      REMOVE_JOB: close_removed, report.CLAIMS_JOB: report.say_claims},
                export_sections=dict(export_sections or {})
                | {"standings": standings_section, "pairings": pairings_section},
                **declaration)
