"""The games this bot runs: one line per game. Adding a game is a new package plus a line
here (``docs/adding-a-game.md``)."""

from __future__ import annotations

from bot import games


def builtin_games() -> tuple[games.Game, ...]:
    from bot.features import armchair, backgammon, cup, darts

    return (cup.GAME, darts.SHANGHAI, darts.FINCRICKET, backgammon.GAME, armchair.GAME)


def install() -> None:
    """Register every built-in game that is not registered yet (a test's own game stays)."""
    for game in builtin_games():
        if games.get(game.key) is None:
            games.register(game)
