"""The formats' parts of /export (declared in :mod:`bot.features.formats.game`): the standings and
the pairings of every round, each as a JSON list and a CSV table. The Cup exports its own
stages, so both sections give nothing for it (None, None), nor for a tournament that has
not started.

Standings: a round robin or Swiss event gives its table(s) (``group`` names the group
when there are several); a bracket or Swiss with elimination gives the places decided so
far (empty while undecided) with the counts and tie-break values over every result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.features.formats import progress
from bot.features.formats.state import (
    POINTS,
    TABLES,
    Run,
    load,
    names_of,
    results_of,
    ties_of,
)
from bot.features.formats.tables import GROUP_LETTERS
from bot.games import Table
from bot.services import Services
from games.tournament import Row, standings
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament

TIEBREAK_VALUES = ("buchholz", "median_buchholz", "sonneborn_berger", "diff", "scored")
STANDINGS_COLUMNS = ("place", "group", "player", "name", "points", "wins", "draws", "losses",
                     "ties", *TIEBREAK_VALUES, "status")
PAIRINGS_COLUMNS = ("round", "match_id", "slot", "player_a", "name_a", "player_b", "name_b",
                    "result", "winner", "status")


async def _started_run(services: Services, tournament: Tournament) -> Run | None:
    if not tournament.started:
        return None
    run = await load(services, tournament.id)
    return run if "players" in run.record else None


def _ranked_rows(run: Run) -> list[tuple[str, Row]]:
    """(group letter or "", row) in table order; places from the format's own ranking."""
    if run.phase in TABLES:
        tables = progress.group_tables(run)
        many = len(tables) > 1
        return [(GROUP_LETTERS[index] if many else "", row)
                for index, rows in tables for row in rows]
    record = run.record
    rows = standings(record["players"], results_of(run.rows), points=POINTS,
                     tiebreaks=run.tiebreaks(), withdrawn=record.get("withdrawn", []),
                     disqualified=record.get("disqualified", []), walkover=run.walkover())
    places = progress.placings(run)
    placed = [replace(row, place=places.get(row.player)) for row in rows]
    placed.sort(key=lambda row: (row.place is None, row.place or 0))
    return [("", row) for row in placed]


async def _section(services: Services, tournament: Tournament, columns: tuple[str, ...],
                   items: Callable[[Run, dict[int, str]], list[dict]]
                   ) -> tuple[Any, Table | None]:
    """The JSON list ``items`` makes and the same as a CSV table; None, None for the Cup
    and before the start."""
    run = await _started_run(services, tournament)
    if run is None:
        return None, None
    data = items(run, await names_of(services, tournament.id))
    return data, (list(columns), [["" if item[column] is None else item[column]
                                   for column in columns] for item in data])


def _standings_items(run: Run, label: dict[int, str]) -> list[dict]:
    return [{"place": row.place, "group": group or None, "player": row.player,
             "name": label.get(row.player, "?"), "points": row.points, "wins": row.wins,
             "draws": row.draws - ties_of(run, row.player), "losses": row.losses,
             "ties": ties_of(run, row.player),
             **{name: getattr(row, name) for name in TIEBREAK_VALUES}, "status": row.status}
            for group, row in _ranked_rows(run)]


async def standings_section(services: Services, tournament: Tournament
                            ) -> tuple[Any, Table | None]:
    return await _section(services, tournament, STANDINGS_COLUMNS, _standings_items)


def result_text(row: MatchRow) -> str:
    """``5:3`` (player_a's score first), ``+:-``/``-:+`` for a forfeit, ``1:0``/``0:1``
    for a plain win, ``½:½`` for a draw, ``bye``; empty while undecided."""
    if row.status == "bye":
        return "bye"
    if row.status != "finished" or row.player_b is None:
        return ""
    a_won = row.winner == row.player_a
    if row.result.get("forfeit"):
        return "+:-" if a_won else "-:+"
    if score := row.result.get("score"):
        return f"{score[0]}:{score[1]}"
    if row.winner is None:
        return "½:½"
    return "1:0" if a_won else "0:1"


async def set_by_organiser(services: Services, row: MatchRow) -> dict[str, Any] | None:
    """Who set the result of ``row`` with /setresult and why, when an organiser did (its
    last result is the log's last settling entry with a reason); None for a result played
    out or reported, and while there is none. A game's own section recomputes its numbers
    from the match log, which knows only what was played: beside such a result it shows the
    result that was set, not the engine's legs or points."""
    if row.status != "finished":
        return None
    settled = [action for action in await services.repos.matches.actions(row.id)
               if action.payload.get("meta") == "result"]
    if not settled or settled[-1].payload.get("reason") is None:
        return None
    organiser = await services.repos.users.get(settled[-1].actor_id)
    return {"by": settled[-1].actor_id, "name": organiser.first_name if organiser else None,
            "reason": settled[-1].payload["reason"]}


def set_by_cell(settled: dict[str, Any] | None) -> str:
    """A CSV cell saying who set a result and why (``Org: Ben had to leave``), or empty."""
    if settled is None:
        return ""
    return f"{settled['name'] or settled['by']}: {settled['reason']}"


def outcome_set(row: MatchRow) -> dict[str, Any]:
    """The result an organiser set for ``row``, in the shape of an engine's outcome
    (:class:`games.common.outcome.Outcome`): the winner's seat (None for a draw), ``win`` or
    ``draw``, the score that was set (None for a forfeit or a result without one) and
    ``how``: ``forfeit`` or ``set_by_organiser``."""
    winner = None if row.winner is None else row.players.index(row.winner)
    return {"winner": winner, "result": "draw" if winner is None else "win",
            "score": row.result.get("score"),
            "how": "forfeit" if row.result.get("forfeit") else "set_by_organiser"}


def csv_line(columns: Sequence[str], **values: Any) -> list:
    """A line of an export's CSV table: ``values`` by column name, the other columns
    empty."""
    return [values.get(column, "") for column in columns]


def _pairings_items(run: Run, label: dict[int, str]) -> list[dict]:
    return [{"round": row.round, "match_id": row.id, "slot": row.slot,
             "player_a": row.player_a, "name_a": label.get(row.player_a),
             "player_b": row.player_b, "name_b": label.get(row.player_b),
             "result": result_text(row), "winner": row.winner, "status": row.status}
            for row in sorted(run.rows, key=lambda r: (r.round, r.id))]


async def pairings_section(services: Services, tournament: Tournament
                           ) -> tuple[Any, Table | None]:
    return await _section(services, tournament, PAIRINGS_COLUMNS, _pairings_items)
