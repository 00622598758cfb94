"""Games whose matches are played away from the bot and reported with /result (confirmed
by the opponent): their tournaments are run by the formats all the same."""

from typing import Any

from bot.features.formats.game import formats_game
from bot.game_settings import odd
from games.tournament.standings import BACKGAMMON_TIEBREAKS


def _match_length_reached(settings: dict[str, Any], won: int, lost: int) -> str | None:
    """A backgammon match ends when the winner reaches the length and the loser has not."""
    length = settings.get("length", 5)
    return None if won >= length > lost else "formats.error.bad_length"


BACKGAMMON = formats_game(
    "backgammon",
    {"max_players": 0, "approval": "off", "checkin": 0, "format": "swiss", "rounds": 5,
     "length": 5},
    {"length": odd(1, 25)},
    tiebreaks=BACKGAMMON_TIEBREAKS, check_score=_match_length_reached)
ARMCHAIR = formats_game(
    "armchair",
    {"max_players": 0, "approval": "off", "checkin": 0, "format": "round_robin"})
