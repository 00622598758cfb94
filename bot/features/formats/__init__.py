"""Tournament formats in the chat for every game but the Cup (which runs its own stages):
pairings per round, results played in the bot or reported by the players, standings,
brackets and the end of the tournament."""

from importlib import import_module


def modules() -> tuple:
    """The formats' routers; they come first: /withdraw after the start, and /standings,
    /bracket and /match of non-Cup tournaments, are theirs (they skip what is not). Their
    /export sections (standings, pairings) register on import."""
    from bot.features.formats import admin, report, status

    import_module("bot.features.formats.export")
    return (admin, report, status)
