"""Darts statistics in /export (section ``darts_stats``): per match and player the darts
thrown, visits, marks, legs won, marks per round (FinCricket) and visits to close
(Shanghai), as JSON (with each leg) and as one CSV table. Other games export nothing here.

Everything is recomputed from the match logs, so the numbers are those of the replayed
engine (corrections included); a match whose starter is not decided yet is left out, unless
an organiser's /setresult closed it. Such a match shows the result that was set
(``result``, ``set_by_organiser``: who and why) and the legs it gives each player in
``legs_won``, beside the darts really thrown: the engine's legs would contradict it."""

from __future__ import annotations

from typing import Any

from bot.features.darts.kinds import KINDS
from bot.features.formats.export import (
    csv_line,
    result_text,
    set_by_cell,
    set_by_organiser,
)
from bot.games import Table
from bot.services import Services
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament

COLUMNS = ["match_id", "round", "game", "player_id", "name", "legs_won", "darts", "visits",
           "marks", "marks_per_round", "points", "visits_to_close", "result",
           "set_by_organiser"]


def _leg_numbers(leg: Any, player: int, kind: str) -> dict[str, Any]:
    stats = leg.stats(player)
    numbers: dict[str, Any] = {"darts": stats.darts, "visits": stats.visits,
                               "marks": stats.marks}
    if kind == "fincricket":
        numbers["marks_per_round"] = round(stats.per_visit, 2)
        numbers["points"] = leg.scores[player]
    else:
        numbers["visits_to_close"] = leg.visits_to_close(player)
    return numbers


def player_stats(state: Any, player: int, kind: str) -> dict[str, Any]:
    """One player's numbers over a match, with each leg's."""
    legs = [{"leg": number, "won": leg.winner == player, **_leg_numbers(leg, player, kind)}
            for number, leg in enumerate(state.legs, start=1) if leg.history]
    total = state.stats(player)
    numbers: dict[str, Any] = {"legs_won": state.legs_won[player], "darts": total.darts,
                               "visits": total.visits, "marks": total.marks}
    if kind == "fincricket":
        numbers["marks_per_round"] = round(total.per_visit, 2)
        numbers["points"] = sum(leg["points"] for leg in legs)
    else:
        numbers["visits_to_close"] = [leg["visits_to_close"] for leg in legs
                                      if leg["visits_to_close"] is not None]
    return {**numbers, "legs": legs}


def _row(match: MatchRow, user_id: int, name: str, numbers: dict[str, Any],
         settled: dict[str, Any] | None) -> list:
    """A player's line of the CSV table: a game's own numbers (FinCricket's marks per round
    and points, Shanghai's visits to close each leg, ``7;8``) left empty in the other's."""
    closes = ";".join(map(str, numbers.get("visits_to_close") or ()))
    return csv_line(COLUMNS, **(numbers | {"visits_to_close": closes}),
                    match_id=match.id, round=match.round, game=match.kind, player_id=user_id,
                    name=name, result=result_text(match), set_by_organiser=set_by_cell(settled))


def _legs_set(numbers: dict[str, Any], match: MatchRow, seat: int,
              settled: dict[str, Any] | None) -> dict[str, Any]:
    """The player's numbers with the legs an organiser's /setresult gave them, when it gave
    a score (a walkover gives none: the legs won on the board stay)."""
    score = match.result.get("score")
    return numbers if settled is None or not score else numbers | {"legs_won": score[seat]}


async def darts_stats(services: Services, tournament: Tournament) -> tuple[Any, Table | None]:
    names = {e.user_id: e.label for e in await services.repos.entrants.list(tournament.id)}
    matches, rows = [], []
    for match in await services.repos.matches.for_tournament(tournament.id):
        if match.kind not in KINDS or match.player_a is None or match.player_b is None:
            continue
        state = await services.matches.state(match)
        settled = await set_by_organiser(services, match)
        if not state.started and settled is None:
            continue
        players = []
        for index, user_id in enumerate(match.players):
            numbers = _legs_set(player_stats(state, index, match.kind), match, index, settled)
            name = names.get(user_id, "?")
            players.append({"user_id": user_id, "name": name, **numbers})
            rows.append(_row(match, user_id, name, numbers, settled))
        matches.append({"match_id": match.id, "round": match.round, "game": match.kind,
                        "status": match.status, "best_of": state.best_of,
                        "starter": match.players[state.starter] if state.started else None,
                        "starter_by": state.how, "result": result_text(match) or None,
                        "set_by_organiser": settled, "players": players})
    return matches, (COLUMNS, rows)
