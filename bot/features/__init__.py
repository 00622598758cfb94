"""One router per feature; :func:`routers` lists them in the order they must match."""

from __future__ import annotations

from aiogram import Router


def routers() -> list[Router]:
    from bot.features import (
        common,
        cup,
        darts,
        export,
        formats,
        organiser,
        registration,
        roster,
    )

    modules = (*formats.modules(), registration, roster, organiser, export, *cup.MODULES,
               *darts.MODULES, common)
    return [module.router.build() for module in modules]
