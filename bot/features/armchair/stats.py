"""Per-match statistics for /export (``docs/armchair.md``, "Statistics"): runs, wickets and
balls of every innings, the decks used and the result — from the public view only, so an
unfinished match shows no hand and no deck order."""

from __future__ import annotations

from typing import Any

from bot.features.armchair.settings import KIND
from bot.games import Table
from bot.play.context import names_of
from bot.services import Services
from storage.repositories.tournaments import Tournament

HEADER = ["match_id", "status", "innings", "side", "batting", "name", "runs", "wickets",
          "balls", "overs", "declared", "target", "first_deck", "last_deck", "decks_used",
          "result", "winner"]


async def armchair_stats(services: Services,
                         tournament: Tournament) -> tuple[Any, Table | None]:
    """Every armchair match's scorecard; no CSV when none was played in the bot
    (``play=report``)."""
    label = await names_of(services, tournament.id)
    data, rows = [], []
    for match in await services.repos.matches.for_tournament(tournament.id):
        if match.kind != KIND or match.status == "pending":
            continue
        public = (await services.matches.state(match)).view(None)
        data.append({"match_id": match.id, "status": match.status,
                     "players": [match.player_a, match.player_b], "deck": public["deck"],
                     "innings": public["innings"], "totals": public["totals"],
                     "outcome": public["outcome"]})
        rows.extend(_rows(match, public, label))
    return data, (HEADER, rows) if data else None


def _rows(match, public: dict[str, Any], label: dict[int, str]) -> list[list]:
    outcome = public["outcome"] or {}
    winner = outcome.get("winner")
    result = outcome.get("result", "")
    players = match.players
    return [[match.id, match.status, inn["number"], inn["side"], players[inn["batting"]],
             label.get(players[inn["batting"]], "?"), inn["runs"], inn["wickets"],
             inn["balls"], inn["overs"], inn["declared"], inn["target"], inn["first_deck"],
             inn["last_deck"], public["deck"], result,
             "" if winner is None else label.get(players[winner], "?")]
            for inn in public["innings"]]
