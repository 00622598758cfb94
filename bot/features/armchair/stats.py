"""Per-match statistics for /export (``docs/armchair.md``, "Statistics"): runs, wickets and
balls of every innings, the decks used and the result (the one an organiser set, when
/setresult closed the match) — from the public view only, so an unfinished match shows no
hand and no deck order; and the leading run scorers for /standings."""

from __future__ import annotations

from typing import Any

from bot.features.armchair.settings import KIND
from bot.features.formats.export import (
    csv_line,
    outcome_set,
    result_text,
    set_by_cell,
    set_by_organiser,
)
from bot.features.formats.progress import uncounted
from bot.features.formats.state import load
from bot.games import Table
from bot.i18n import Translator
from bot.play.context import names_of
from bot.services import Services
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament

HEADER = ["match_id", "status", "innings", "side", "batting", "name", "runs", "wickets",
          "balls", "overs", "declared", "target", "first_deck", "last_deck", "decks_used",
          "result", "winner", "score", "set_by_organiser"]
FIGURES = ("side", "runs", "wickets", "balls", "overs", "declared", "target", "first_deck",
           "last_deck")  # an innings' own columns, as the public view gives them


async def armchair_stats(services: Services,
                         tournament: Tournament) -> tuple[Any, Table | None]:
    """Every armchair match's scorecard; no CSV when none was played in the bot
    (``play=report``). A match an organiser's /setresult closed has the result that was set
    as its outcome (``set_by_organiser``: who and why) beside the innings really played:
    the engine's outcome of a match closed early is empty."""
    label = await names_of(services, tournament.id)
    data, rows = [], []
    for match in await services.repos.matches.for_tournament(tournament.id):
        if match.kind != KIND or match.status == "pending":
            continue
        public = (await services.matches.state(match)).view(None)
        settled = await set_by_organiser(services, match)
        outcome = outcome_set(match) if settled else public["outcome"]
        data.append({"match_id": match.id, "status": match.status,
                     "players": [match.player_a, match.player_b], "deck": public["deck"],
                     "innings": public["innings"], "totals": public["totals"],
                     "outcome": outcome, "result": result_text(match) or None,
                     "set_by_organiser": settled})
        rows.extend(_rows(match, public, outcome, settled, label))
    return data, (HEADER, rows) if data else None


def _rows(match: MatchRow, public: dict[str, Any], outcome: dict[str, Any] | None,
          settled: dict[str, Any] | None, label: dict[int, str]) -> list[list]:
    """A line per innings; a match an organiser closed before any innings, one line with
    its result."""
    outcome = outcome or {}
    winner = outcome.get("winner")
    players = match.players
    whole = {"match_id": match.id, "status": match.status, "decks_used": public["deck"],
             "result": outcome.get("result", ""),
             "winner": "" if winner is None else label.get(players[winner], "?"),
             "score": result_text(match), "set_by_organiser": set_by_cell(settled)}
    innings = [_innings(inn, players, label) for inn in public["innings"]]
    return [csv_line(HEADER, **whole, **inn) for inn in innings or ([{}] if settled else [])]


def _innings(inn: dict[str, Any], players: tuple, label: dict[int, str]) -> dict[str, Any]:
    batting = players[inn["batting"]]
    return {"innings": inn["number"], "batting": batting, "name": label.get(batting, "?"),
            **{column: inn[column] for column in FIGURES}}


LEADERS = 5  # run scorers named under /standings


async def leading_scorers(services: Services, tr: Translator,
                          tournament: Tournament) -> str | None:
    """The most runs over the tournament's matches played in the bot that the tables count
    (none of a player without a place: disqualified, or whose withdrawal removed their
    results), with their innings and wickets lost (public figures only); None before anyone
    has scored a run."""
    label = await names_of(services, tournament.id)
    left_out = uncounted(await load(services, tournament.id))
    totals: dict[int, list[int]] = {}
    for match in await services.repos.matches.for_tournament(tournament.id):
        if match.kind != KIND or match.status == "pending" or left_out & set(match.players):
            continue
        for inn in (await services.matches.current(match)).view(None)["innings"]:
            if inn["balls"] == 0 and not inn["declared"]:
                continue  # dealt, not played (a walkover before the first ball)
            total = totals.setdefault(match.players[inn["batting"]], [0, 0, 0])
            total[0], total[1], total[2] = total[0] + inn["runs"], total[1] + 1, \
                total[2] + inn["wickets"]
    if not (leaders := top_scorers(totals)):
        return None
    return tr("armchair.standings_runs", leaders=", ".join(
        tr.plain("armchair.standings_runner", name=label.get(player, "?"), runs=runs,
                 innings=innings, wickets=wickets)
        for player, (runs, innings, wickets) in leaders))


def top_scorers(totals: dict[int, list[int]]) -> list[tuple[int, list[int]]]:
    """The players with the most runs (runs, innings, wickets lost), at most ``LEADERS``;
    nobody leads on no runs at all."""
    scorers = [item for item in totals.items() if item[1][0] > 0]
    return sorted(scorers, key=lambda item: -item[1][0])[:LEADERS]
