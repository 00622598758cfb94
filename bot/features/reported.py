"""Games whose matches are played away from the bot and reported with /result (confirmed
by the opponent): their tournaments are run by the formats all the same."""

from bot.features.formats.game import formats_game

ARMCHAIR = formats_game(
    "armchair",
    {"max_players": 0, "approval": "off", "checkin": 0, "format": "round_robin"})
