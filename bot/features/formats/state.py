"""What the formats runner knows about a running tournament, read back from storage.

Match rows are the record of every pairing and result. Brackets and Swiss with
elimination also keep their engine's event log (the tournament's state ``run["log"]``), since their
state depends on the order of events; the engine is rebuilt from the seeds and that log
whenever it is needed, so it always agrees with what was stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.games import game_of
from bot.services import Services
from games.tournament import (
    Bracket,
    Points,
    Result,
    SwissElimination,
    double_elimination,
    single_elimination,
)
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import LIVE, Tournament

STAGE = "main"
BRACKETS = ("single_elim", "double_elim", "reentry")
TABLES = ("round_robin", "swiss")
POINTS = Points(win=1, draw=0.5, loss=0)
DEFAULT_TIEBREAKS = ("h2h", "wins", "diff", "buchholz")
REPORTED_KIND = "reported"


@dataclass
class Run:
    """One tournament's format state: its settings, its runtime record and its rows."""

    tournament: Tournament
    rows: list[MatchRow]

    @property
    def settings(self) -> dict[str, Any]:
        return self.tournament.settings

    @property
    def record(self) -> dict[str, Any]:
        return self.tournament.state.get("run", {})

    @property
    def format(self) -> str:
        return self.settings.get("format", "round_robin")

    @property
    def phase(self) -> str:
        return phase_of(self.tournament)

    @property
    def players(self) -> list[int]:
        """Everyone who started, also those a playoff left out."""
        return self.record["players"]

    @property
    def seeds(self) -> list[int]:
        """The players of the phase in play (a playoff's qualifiers, cross-seeded)."""
        return self.record.get("seeds") or self.record["players"]

    @property
    def removed(self) -> set[int]:
        return set(self.record.get("withdrawn", [])) | set(self.record.get("disqualified", []))

    def open_rows(self) -> list[MatchRow]:
        return [row for row in self.rows if row.status in LIVE]

    def bracket(self) -> Bracket:
        if self.phase == "double_elim":
            bracket = double_elimination(self.seeds, self.settings.get("reset", "on") == "on")
        else:
            bracket = single_elimination(self.seeds, self.settings.get("third_place") == "on",
                                         reentry=self.phase == "reentry")
        for event in self.record.get("log", []):
            bracket.apply(event)
        return bracket

    def swiss_elim(self) -> SwissElimination:
        engine = SwissElimination(self.seeds, self.settings.get("max_losses", 2))
        for event in self.record.get("log", []):
            engine.apply(event)
        return engine

    def engine(self) -> Bracket | SwissElimination | None:
        """The engine whose log decides the state, or None for round robin and Swiss."""
        if self.phase in BRACKETS:
            return self.bracket()
        return self.swiss_elim() if self.phase == "swiss_elim" else None

    def tiebreaks(self) -> tuple[str, ...]:
        default = game_of(self.tournament.game).tiebreaks or DEFAULT_TIEBREAKS
        return tuple(self.settings.get("tiebreaks") or default)

    def walkover(self) -> int:
        """The score a walkover counts as in the tables for its winner, the loser's 0: the
        game's winning score (``Game.winning_score``), 0 for a game without one."""
        winning = game_of(self.tournament.game).winning_score
        return winning(self.settings) if winning is not None else 0


def phase_of(tournament: Tournament) -> str:
    """The format in play now: groups_playoff is round robin, then single elimination."""
    played = tournament.settings.get("format", "round_robin")
    if played != "groups_playoff":
        return played
    return "single_elim" if "seeds" in tournament.state.get("run", {}) else "round_robin"


async def load(services: Services, tournament_id: int) -> Run:
    tournament = await services.repos.tournaments.get(tournament_id)
    return Run(tournament, await services.repos.matches.for_tournament(tournament_id, STAGE))


async def save_record(services: Services, run: Run, **changes: Any) -> Run:
    """Store changes of the runtime record and return the run as it now stands."""
    await services.repos.tournaments.set_state(run.tournament.id, "run", run.record | changes)
    return await load(services, run.tournament.id)


async def log_event(services: Services, run: Run, event: dict[str, Any]) -> Run:
    return await save_record(services, run, log=[*run.record.get("log", []), event])


AHEAD = "decided_ahead"
"""A match result's mark: decided (or voided) before its round opened (by a withdrawal), kept
when an organiser corrects it."""


def left_walkover(run: Run, row: MatchRow) -> bool:
    """A round robin match that a player's withdrawal (after half their matches) decided
    as their opponent's walkover, maybe ahead of its round (also when an organiser has
    since set its result: its round has nothing to play): not played in its round, as a
    void one."""
    return run.phase == "round_robin" and row.status == "finished" \
        and bool(row.result.get("forfeit") or row.result.get(AHEAD)) \
        and bool(set(row.players) & set(run.record.get("withdrawn", [])))


def ties_of(run: Run, player: int) -> int:
    """The player's finished matches that were ties (completed, equal sides): scored as
    draws, shown in a column of their own."""
    return sum(1 for row in run.rows if row.status == "finished" and player in row.players
               and row.winner is None and row.result.get("tie"))


def match_kind(tournament: Tournament) -> str:
    """The kind of the matches the formats create: the game's own when it plays them in the
    bot for this tournament's settings, else reported ones."""
    return game_of(tournament.game).kind_of(tournament.settings) or REPORTED_KIND


def result_of(row: MatchRow) -> Result | None:
    """The engine's view of a settled row (None for rows that count for nothing)."""
    if row.status == "bye":  # a round robin's rest day has no winner and counts for nothing
        return Result(row.player_a, round=row.round) if row.winner else None
    if row.status != "finished" or row.player_b is None:
        return None
    forfeit = bool(row.result.get("forfeit"))
    score = row.result.get("score")
    return Result(row.player_a, row.player_b, row.winner,
                  None if forfeit or not score else (score[0], score[1]), forfeit, row.round)


def results_of(rows: list[MatchRow]) -> list[Result]:
    return [result for row in rows if (result := result_of(row)) is not None]


async def names_of(services: Services, tournament_id: int) -> dict[int, str]:
    return {e.user_id: e.label for e in await services.repos.entrants.list(tournament_id)}
