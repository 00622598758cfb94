"""The friendly matches' handler tables, in the order they must match: /match of a player in
a friendly is answered here, before any game's /match."""

from bot.features.friendly import closing, exporting, invite, practice

ROUTERS = (closing.router, exporting.router, invite.router, practice.router)
