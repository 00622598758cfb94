"""Every game of every backgammon match in /export (section ``backgammon_games``): per match
its games in order (winner, value, cube, how it ended, points, corrected or not), penalty
points and the penalties, as JSON and as one CSV table with a line per game or penalty.
Recomputed from the match logs, so corrections are included. A match an organiser's
/setresult closed shows the score and the outcome that were set (``set_by_organiser``: who
and why; a ``setresult`` line in the CSV) beside the games really played: the engine's
would contradict them (it has no outcome for a match it never finished)."""

from __future__ import annotations

from typing import Any

from bot.features.backgammon.settings import KIND
from bot.features.formats.export import csv_line, outcome_set, result_text, set_by_organiser
from bot.games import Table
from bot.services import Services
from games.backgammon.protocol import VALUES
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament

COLUMNS = ["match_id", "round", "entry", "game", "winner_id", "winner", "value", "cube", "how",
           "points", "corrected", "penalty", "penalised_id", "penalised", "result"]


def _line(**values: Any) -> list:
    return csv_line(COLUMNS, **values)


def _entry_rows(match_id: int, round_: int, state: Any, users: tuple, names: dict) -> list:
    rows, game = [], 0
    for entry in state.entries:
        winner = users[entry["winner"]]
        won = {"match_id": match_id, "round": round_, "winner_id": winner,
               "winner": names.get(winner, "?")}
        if entry["kind"] == "point":
            rows.append(_line(**won, entry="point", game=game + 1, points=1))
            continue
        game += 1
        rows.append(_line(**won, entry="game", game=game, value=entry["value"],
                          cube=entry["cube"], how=entry["how"],
                          points=VALUES[entry["value"]] * entry["cube"],
                          corrected=bool(entry.get("corrected"))))
    for penalty in state.penalties:
        user = users[penalty["player"]]
        rows.append(_line(match_id=match_id, round=round_, entry="penalty",
                          game=penalty["game"], penalty=penalty["kind"], penalised_id=user,
                          penalised=names.get(user, "?")))
    return rows


def _set_row(match: MatchRow, names: dict) -> list:
    """The line of the result an organiser set: its winner and the score, as the pairings
    give it."""
    return _line(match_id=match.id, round=match.round, entry="setresult",
                 winner_id=match.winner, winner=names.get(match.winner, "?"),
                 result=result_text(match))


async def backgammon_games(services: Services, tournament: Tournament
                           ) -> tuple[Any, Table | None]:
    names = {e.user_id: e.label for e in await services.repos.entrants.list(tournament.id)}
    matches, rows = [], []
    for match in await services.repos.matches.for_tournament(tournament.id):
        if match.kind != KIND or None in match.players:
            continue
        state = await services.matches.state(match)
        view = state.view()
        settled = await set_by_organiser(services, match)
        score = match.result.get("score") if settled else None
        matches.append({"match_id": match.id, "round": match.round,
                        "players": list(match.players), "status": match.status,
                        "length": view["length"], "score": score or view["score"],
                        "games": view["games"], "penalties": view["penalties"],
                        "outcome": outcome_set(match) if settled else view["outcome"],
                        "set_by_organiser": settled})
        rows += _entry_rows(match.id, match.round, state, match.players, names)
        if settled:
            rows.append(_set_row(match, names))
    return matches, (COLUMNS, rows)
