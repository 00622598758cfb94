"""Every game of every backgammon match in /export (section ``backgammon_games``): per match
its games in order (winner, value, cube, how it ended, points, corrected or not), penalty
points and the penalties, as JSON and as one CSV table with a line per game or penalty.
Recomputed from the match logs, so corrections are included. A match an organiser's
/setresult closed shows the score and the outcome that were set (``set_by_organiser``: who
and why; a ``setresult`` line in the CSV) beside the games really played: the engine's
would contradict them (it has no outcome for a match it never finished).

A match played in the bot (``play=bot``) is here too, game by game from its engine (winner,
value, cube, how it ended: ``borne_off``, ``passed``, ``resigned``, ``idle``; a match lost
whole by ``timeout`` or ``resign_match`` has a last line saying so), beside its ``.mat``
record in ``backgammon_mat``; it has no penalties (the bot enforces the rules)."""

from __future__ import annotations

from typing import Any

from bot.features.backgammon.settings import KIND, LIVE_KIND
from bot.features.formats.export import (
    csv_line,
    outcome_set,
    result_text,
    set_by_cell,
    set_by_organiser,
)
from bot.games import Table
from bot.services import Services
from games.backgammon.protocol import VALUES
from games.backgammon.session import LiveMatch
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament

COLUMNS = ["match_id", "round", "entry", "game", "winner_id", "winner", "value", "cube", "how",
           "points", "corrected", "penalty", "penalised_id", "penalised", "result",
           "set_by_organiser"]


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


def _set_row(match: MatchRow, names: dict, settled: dict[str, Any]) -> list:
    """The line of the result an organiser set: its winner and the score, as the pairings
    give it, and who set it and why."""
    return _line(match_id=match.id, round=match.round, entry="setresult",
                 winner_id=match.winner, winner=names.get(match.winner, "?"),
                 result=result_text(match), set_by_organiser=set_by_cell(settled))


async def backgammon_games(services: Services, tournament: Tournament
                           ) -> tuple[Any, Table | None]:
    names = {e.user_id: e.label for e in await services.repos.entrants.list(tournament.id)}
    matches, rows = [], []
    for match in await services.repos.matches.for_tournament(tournament.id):
        if match.kind not in (KIND, LIVE_KIND) or None in match.players:
            continue
        state = await services.matches.state(match)
        settled = await set_by_organiser(services, match)
        item, lines = (_live if match.kind == LIVE_KIND else _reported)(match, state, names)
        if settled:
            item["outcome"] = outcome_set(match)
            item["score"] = match.result.get("score") or item["score"]
            lines.append(_set_row(match, names, settled))
        matches.append({"match_id": match.id, "round": match.round,
                        "players": list(match.players), "status": match.status,
                        **item, "set_by_organiser": settled})
        rows += lines
    return matches, (COLUMNS, rows)


def _reported(match: MatchRow, state: Any, names: dict) -> tuple[dict[str, Any], list]:
    """A match reported game by game from a real board: its view, and its lines."""
    view = state.view()
    item = {key: view[key] for key in ("length", "score", "games", "penalties", "outcome")}
    return item, _entry_rows(match.id, match.round, state, match.players, names)


def _live(match: MatchRow, state: LiveMatch, names: dict) -> tuple[dict[str, Any], list]:
    """A match played in the bot: its finished games, and a line each (and one for a match
    lost whole)."""
    games = _live_games(state)
    item = {"length": state.length, "score": list(state.score), "games": games,
            "penalties": [], "played_in_bot": True,
            "outcome": state.outcome.to_dict() if state.outcome else None}
    lines = [_line(match_id=match.id, round=match.round, entry="game", game=number,
                   winner_id=match.players[game["winner"]],
                   winner=names.get(match.players[game["winner"]], "?"),
                   **{key: game[key] for key in ("value", "cube", "how", "points")})
             for number, game in enumerate(games, start=1)]
    return item, lines + _live_end(match, state, names)


_VALUE_NAMES = {points: value for value, points in VALUES.items()}


def _live_games(state: LiveMatch) -> list[dict[str, Any]]:
    """The finished games of a match played in the bot: the winner's seat, the value, the
    cube, how it ended and the points it scored."""
    return [{"winner": game.outcome.winner,
             "value": _VALUE_NAMES[game.outcome.points_per_cube],
             "cube": game.outcome.cube, "how": game.outcome.reason,
             "points": game.outcome.points} for game in state.games]


def _live_end(match: MatchRow, state: LiveMatch, names: dict) -> list[list]:
    """The line of a match lost whole, on time or by resigning it, if it was: its winner,
    as a game's line names it (the penalty columns are for penalties)."""
    if state.ended_by is None:
        return []
    winner = match.players[1 - state.loser_by]
    return [_line(match_id=match.id, round=match.round, entry="match", how=state.ended_by,
                  winner_id=winner, winner=names.get(winner, "?"))]
