"""Every game of every backgammon match in /export (section ``backgammon_games``): per match
its games in order (winner, value, cube, how it ended, points, corrected or not), penalty
points and the penalties, as JSON and as one CSV table with a line per game or penalty.
Recomputed from the match logs, so corrections are included."""

from __future__ import annotations

from typing import Any

from bot.features.backgammon.settings import KIND
from bot.games import Table
from bot.services import Services
from games.backgammon.protocol import VALUES
from storage.repositories.tournaments import Tournament

COLUMNS = ["match_id", "round", "entry", "game", "winner_id", "winner", "value", "cube", "how",
           "points", "corrected", "penalty", "penalised_id", "penalised"]


def _entry_rows(match_id: int, round_: int, state: Any, users: tuple, names: dict) -> list:
    rows, game = [], 0
    for entry in state.entries:
        winner = users[entry["winner"]]
        if entry["kind"] == "point":
            rows.append([match_id, round_, "point", game + 1, winner, names.get(winner, "?"),
                         "", "", "", 1, "", "", "", ""])
            continue
        game += 1
        rows.append([match_id, round_, "game", game, winner, names.get(winner, "?"),
                     entry["value"], entry["cube"], entry["how"],
                     VALUES[entry["value"]] * entry["cube"], bool(entry.get("corrected")),
                     "", "", ""])
    for penalty in state.penalties:
        user = users[penalty["player"]]
        rows.append([match_id, round_, "penalty", penalty["game"], "", "", "", "", "", "",
                     "", penalty["kind"], user, names.get(user, "?")])
    return rows


async def backgammon_games(services: Services, tournament: Tournament
                           ) -> tuple[Any, Table | None]:
    names = {e.user_id: e.label for e in await services.repos.entrants.list(tournament.id)}
    matches, rows = [], []
    for match in await services.repos.matches.for_tournament(tournament.id):
        if match.kind != KIND or None in match.players:
            continue
        state = await services.matches.state(match)
        view = state.view()
        matches.append({"match_id": match.id, "round": match.round,
                        "players": list(match.players), "status": match.status,
                        "length": view["length"], "score": view["score"],
                        "games": view["games"], "penalties": view["penalties"],
                        "outcome": view["outcome"]})
        rows += _entry_rows(match.id, match.round, state, match.players, names)
    return matches, (COLUMNS, rows)
