"""Tournament formats in the chat for every game but the Cup (which runs its own stages):
pairings per round, results played in the bot or reported by the players, standings,
brackets and the end of the tournament."""


def modules() -> tuple:
    """The formats' routers; they come first: /withdraw after the start, and /standings and
    /bracket of non-Cup tournaments, are theirs (they skip what is not)."""
    from bot.features.formats import admin, report, status

    return (admin, report, status)
