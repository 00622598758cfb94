"""The ``.mat`` records of the matches played in the bot in /export (section
``backgammon_mat``): per finished match its round, players, file name and the whole ``.mat``
text, the same as the file sent at the end of the match and by ``/mat``. A match still being
played is left out: its record would be a half-made ``.mat`` that reads like a final one."""

from __future__ import annotations

from typing import Any

from bot.features.backgammon.live.record import match_mat
from bot.features.backgammon.settings import LIVE_KIND
from bot.games import Table
from bot.play.context import names_of
from bot.services import Services
from storage.repositories.tournaments import Tournament


async def backgammon_mat(services: Services, tournament: Tournament
                         ) -> tuple[Any, Table | None]:
    label = await names_of(services, tournament.id)
    length = tournament.settings.get("length", 5)
    records = []
    for match in await services.repos.matches.for_tournament(tournament.id):
        if match.kind != LIVE_KIND or None in match.players:
            continue
        if not (await services.matches.state(match)).finished:
            continue
        names = (label.get(match.player_a, "?"), label.get(match.player_b, "?"))
        records.append({"match_id": match.id, "round": match.round,
                        "players": list(match.players), "file": f"match-{match.id}.mat",
                        "mat": await match_mat(services, match.id, names, length)})
    return records, None
