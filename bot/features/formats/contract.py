"""How a game plugs into the formats runner.

The runner (``bot.features.formats``) creates each match row (stage ``"main"``) from the
tournament's ``format`` setting. A game whose matches are played inside the bot registers a
launcher with :func:`match_launcher`; the runner calls it once per match when both players
are known, and the game calls ``bot.features.formats.results.record_result`` when the match
ends. A game without a launcher is played outside the bot and its results are reported
with /result and confirmed by the opponent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.registry import Registry
from bot.services import Services
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament

MatchLauncher = Callable[[Services, Tournament, MatchRow], Awaitable[None]]
_launchers: Registry[MatchLauncher] = Registry()
MATCH_KINDS: dict[str, str] = {}  # game → the engine kind of its match rows


def match_launcher(game: str, kind: str) -> Callable[[MatchLauncher], MatchLauncher]:
    """Register how matches of ``game`` (engine kind ``kind``) start inside the bot."""
    MATCH_KINDS[game] = kind
    return _launchers.register(game)


launcher_for = _launchers.get
