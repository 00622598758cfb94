"""The platform's routers and every registered game's, in the order they must match."""

from __future__ import annotations

from aiogram import Router

from bot import games


def routers() -> list[Router]:
    from bot.features import (
        anonymous,
        applications,
        begin,
        cancel,
        common,
        export,
        migration,
        mine,
        organiser,
        pause,
        registration,
        roster,
        schedule,
        welcome,
    )
    from bot.features.friendly.routes import ROUTERS as friendly
    from bot.features.handlers import Guarded, Handlers, dispatch_tree
    from bot.middlewares.scope import ForItsGame
    from bot.play import board, dice

    tables = [table for game in games.all_games() for table in game.routers]
    unique = list(dict.fromkeys(tables))  # games may share routers (the formats', darts')
    formats = [table for table in unique if table.name.startswith("formats")]
    others = [table for table in unique if table not in formats]
    platform = [registration.router, applications.router, roster.router, organiser.router,
                schedule.router, pause.router, begin.router, cancel.router, export.router,
                dice.router, board.router, mine.router, welcome.router]
    def for_its_game(table: Handlers) -> Guarded:
        return Guarded(table, (ForItsGame(table),))

    return dispatch_tree([Guarded(anonymous.router), *map(Guarded, friendly),
                          Guarded(mine.here), *map(for_its_game, formats),
                          *map(Guarded, platform),
                          *map(for_its_game, others), Guarded(migration.router),
                          Guarded(common.router)])
