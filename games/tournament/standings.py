"""Standings with tie-breaks in the order the organiser chooses.

Keys (:data:`TIEBREAKS`), applied after match points to the players still tied:

``h2h``               a mini-league: points in the games among the tied players only; when
                      that splits the group, it is applied again within each part still
                      tied, and again to any smaller group a later key leaves tied
                      (``docs/rules.md``, "Standings and tie-breaks")
``buchholz``          sum of the opponents' points
``median_buchholz``   the same without the best and the worst opponent
``sonneborn_berger``  points of the opponents beaten plus half those of opponents drawn
``wins``              match wins (a bye and a forfeit win count)
``vs_higher``         points scored against the players ranked above the tied group
``diff``              game/round/point difference of played matches (the ``score``) and
                      forfeits (each counts ``walkover``:0 for its winner, 0:``walkover``
                      for its loser, both of a double forfeit)
``scored``            games/rounds/points won in played matches and forfeit wins
``stat``              a game's own statistic given by the caller (``stats``), higher first
                      (darts: marks per visit); a player without it (no darts thrown: only
                      walkovers and byes) is not compared by it, so it splits only a group
                      whose players all have it (:func:`split_by_stat`)

Opponents are everyone a player was paired with, forfeits included; a bye has no
opponent. Players still tied after the keys share a place unless ``lot`` breaks the tie: a
``random.Random`` (a coin or roll-off by the engine) or a callback that receives the tied
players and returns them in order (for a roll-off the players play out in the chat).
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from games.common.errors import IllegalAction
from games.tournament.results import DEFAULT_POINTS, Player, Points, Result, as_number

TIEBREAKS = (
    "points",
    "h2h",
    "buchholz",
    "median_buchholz",
    "sonneborn_berger",
    "wins",
    "vs_higher",
    "diff",
    "scored",
    "stat",
)
DARTS_TIEBREAKS = ("diff", "scored", "stat", "h2h")
DICE_CUP_TIEBREAKS = ("h2h", "diff", "scored")
BACKGAMMON_TIEBREAKS = ("buchholz", "sonneborn_berger", "wins", "h2h", "vs_higher")

Lot = random.Random | Callable[[list[Player]], Sequence[Player]]
Status = Literal["active", "withdrawn", "disqualified"]


@dataclass(frozen=True)
class Row:
    """One line of the table. ``place`` is None for a player whose results were removed
    (``status`` "withdrawn" in round robin before half their matches, or "disqualified").
    ``played`` counts every result of the player, byes and forfeits included."""

    player: Player
    place: int | None
    status: Status
    played: int
    wins: int
    draws: int
    losses: int
    points: int | float
    buchholz: int | float
    median_buchholz: int | float
    sonneborn_berger: int | float
    diff: int
    scored: int


def standings(
    players: Sequence[Player],
    results: Iterable[Result],
    *,
    points: Points = DEFAULT_POINTS,
    tiebreaks: Sequence[str] = (),
    withdrawn: Collection[Player] = (),
    disqualified: Collection[Player] = (),
    round_robin: bool = False,
    cycles: int = 1,
    lot: Lot | None = None,
    stats: Mapping[Player, Fraction] | None = None,
    walkover: int = 0,
) -> list[Row]:
    """The ranked table of ``players`` (one group) after ``results``.

    Withdrawal (``withdrawn``): in a round robin (``round_robin=True``, ``cycles`` = 2 for
    a double one) a player with results in fewer than half of their matches
    (:func:`played_for_withdrawal`) has all their results removed; otherwise their results
    stay and each match they did not play counts as a forfeit loss (the stored walkovers of
    their matches, and one made up for each pair without a result). In Swiss and
    elimination play their results simply stay.
    Disqualification annuls every result of the player, but outside a round robin the
    forfeit wins of their opponents stay (the walkover of the round they were disqualified
    in: annulled, it would leave that opponent a round without a result, when everyone
    else had one; in a round robin everyone loses their result against the player alike).
    Removed players come last with place None. ``stats`` are the values of the ``stat`` key
    (a player missing has none: see :func:`split_by_stat`). ``walkover`` is the score a forfeit counts as for ``diff`` and
    ``scored``: what wins a match against nothing (a best of 3 in legs: 2), the loser's 0.
    """
    unknown = [t for t in tiebreaks if t not in TIEBREAKS]
    if unknown:
        raise IllegalAction("unknown_tiebreak", keys=unknown)
    field = list(players)
    kept = [r for r in results if not set(r.players) & set(disqualified)
            or (not round_robin and r.forfeit and r.winner not in (None, *disqualified))]
    removed: set[Player] = set(disqualified)
    if round_robin:
        kept, early = _apply_round_robin_withdrawals(field, kept, withdrawn, cycles, removed)
        removed |= early
    ranked_players = [p for p in field if p not in removed]
    table = _Table(ranked_players, kept, points, stats or {}, walkover)
    groups = table.rank(ranked_players, tuple(dict.fromkeys(("points", *tiebreaks))))
    groups = [_draw_lots(group, lot) if lot is not None else [group] for group in groups]

    rows: list[Row] = []
    for group in (part for parts in groups for part in parts):
        place = len(rows) + 1
        rows += [table.row(p, place, "withdrawn" if p in withdrawn else "active") for p in group]
    for p in field:
        if p in removed:
            status = "disqualified" if p in disqualified else "withdrawn"
            rows.append(_Table([p], [], points, {}).row(p, None, status))
    return rows


def tied_groups(rows: Sequence[Row]) -> list[list[Player]]:
    """Groups of players who share a place (for a roll-off), best place first."""
    by_place: dict[int, list[Player]] = defaultdict(list)
    for row in rows:
        if row.place is not None:
            by_place[row.place].append(row.player)
    return [group for _, group in sorted(by_place.items()) if len(group) > 1]


def played_for_withdrawal(player: Player, results: Iterable[Result],
                          withdrawn: Collection[Player]) -> int:
    """The player's results that count towards half their round robin matches: forfeits
    count, byes do not, nor the walkovers the player won from the unplayed matches of a
    withdrawn opponent (not played by either: they must not keep a second withdrawal's
    player in the table)."""
    return sum(player in r.players for r in results if not r.is_bye
               and not (r.forfeit and r.winner == player and r.opponent(player) in withdrawn))


def _apply_round_robin_withdrawals(
    field: list[Player],
    results: list[Result],
    withdrawn: Collection[Player],
    cycles: int,
    already_removed: set[Player],
) -> tuple[list[Result], set[Player]]:
    due = (len(field) - 1) * cycles
    early = {p for p in withdrawn if 2 * played_for_withdrawal(p, results, withdrawn) < due}
    gone = early | already_removed
    kept = [r for r in results if not set(r.players) & early]
    for p in withdrawn:
        if p in gone:
            continue
        met = defaultdict(int)
        for r in kept:
            if p in r.players and not r.is_bye:
                met[r.opponent(p)] += 1
        for other in field:
            if other == p or other in gone:
                continue
            # Two withdrawn players who never met both lose: a double forfeit (no winner),
            # which the second of them then finds among its met pairs.
            winner = None if other in withdrawn else other
            kept += [Result(p, other, winner, forfeit=True)] * (cycles - met[other])
    return kept, early


_SB_HALVES = {"win": 2, "draw": 1, "loss": 0}
"""Sonneborn-Berger: the share of an opponent's points a result earns, in halves."""


class _Table:
    """Per-player figures of one table, each computed once.

    Points are counted in whole *units* (1/``unit`` of a point, ``unit`` the least common
    denominator of the win, draw and loss points): sums of integers, made one exact
    ``Fraction`` per figure, instead of a Fraction added per result."""

    def __init__(self, players: list[Player], results: list[Result], points: Points,
                 stats: Mapping[Player, Fraction], walkover: int = 0) -> None:
        self.stats, self.walkover = stats, walkover
        exact = {outcome: points[outcome] for outcome in _SB_HALVES}
        self.unit = math.lcm(*(value.denominator for value in exact.values()))
        self.units_of = {outcome: int(value * self.unit) for outcome, value in exact.items()}
        self.results: dict[Player, list[Result]] = {p: [] for p in players}
        for r in results:
            for p in r.players:
                if p in self.results:
                    self.results[p].append(r)
        self.units = {p: sum(self.units_of[r.outcome(p)] for r in rs)
                      for p, rs in self.results.items()}
        self.score = {p: Fraction(units, self.unit) for p, units in self.units.items()}
        self._values: dict[tuple[Player, str], Fraction] = {}

    def _opponents(self, p: Player) -> list[tuple[Player, Result]]:
        return [(r.opponent(p), r) for r in self.results[p] if not r.is_bye]

    def _points_against(self, p: Player, opponents: Collection[Player]) -> Fraction:
        return Fraction(sum(self.units_of[r.outcome(p)] for o, r in self._opponents(p)
                            if o in opponents), self.unit)

    def _scores(self, p: Player) -> list[tuple[int, int]]:
        return [s for r in self.results[p] if (s := self._score(r, p)) is not None]

    def _score(self, r: Result, p: Player) -> tuple[int, int] | None:
        """(own, opponent's) of a played match, or the walkover's score of a forfeit."""
        if not r.forfeit:
            return r.own_and_opponent_score(p)
        return (self.walkover, 0) if r.winner == p else (0, self.walkover)

    def value(self, p: Player, key: str) -> Fraction:
        if (p, key) not in self._values:
            self._values[p, key] = self._value(p, key)
        return self._values[p, key]

    def _value(self, p: Player, key: str) -> Fraction:
        if key == "points":
            return self.score[p]
        if key in ("buchholz", "median_buchholz", "sonneborn_berger"):
            opponents = [(self.units.get(o, 0), r.outcome(p)) for o, r in self._opponents(p)]
            if key == "buchholz":
                return Fraction(sum(units for units, _ in opponents), self.unit)
            if key == "median_buchholz":
                return Fraction(sum(sorted(units for units, _ in opponents)[1:-1]), self.unit)
            return Fraction(sum(units * _SB_HALVES[outcome] for units, outcome in opponents),
                            2 * self.unit)
        if key == "wins":
            return Fraction(sum(r.outcome(p) == "win" for r in self.results[p]))
        if key == "diff":
            return Fraction(sum(own - other for own, other in self._scores(p)))
        return Fraction(sum(own for own, _ in self._scores(p)))  # "scored"

    def rank(self, group: list[Player], keys: tuple[str, ...],
             above: frozenset[Player] = frozenset(), h2h_done: bool = False,
             ) -> list[list[Player]]:
        """``group`` split by ``keys`` in turn, best first; ``above`` are the players ranked
        higher (for ``vs_higher``). Once ``h2h`` has been applied, any smaller group that a
        later key leaves tied plays its own mini-league again before the next key."""
        if len(group) == 1 or not keys:
            return [group]
        key, rest = keys[0], keys[1:]
        parts = self._split_one(group, key, above)
        h2h_now = h2h_done or key == "h2h"
        if len(parts) == 1:
            return self.rank(group, rest, above, h2h_now)
        ranked: list[list[Player]] = []
        for part in parts:
            again = self._split_h2h(part) if h2h_done and len(part) > 1 else [part]
            for piece in again:
                placed = above | {p for done in ranked for p in done}
                ranked += self.rank(piece, rest, placed, h2h_now)
        return ranked

    def _split_one(self, group: list[Player], key: str,
                   above: frozenset[Player]) -> list[list[Player]]:
        if key == "h2h":
            return self._split_h2h(group)
        if key == "vs_higher":
            return partition(group, {p: self._points_against(p, above) for p in group})
        if key == "stat":
            return split_by_stat(group, self.stats)
        return partition(group, {p: self.value(p, key) for p in group})

    def _split_h2h(self, group: list[Player]) -> list[list[Player]]:
        members = set(group)
        parts = partition(group, {p: self._points_against(p, members - {p}) for p in group})
        if len(parts) == 1:
            return parts
        return [
            piece
            for part in parts
            for piece in (self._split_h2h(part) if len(part) > 1 else [part])
        ]

    def row(self, p: Player, place: int | None, status: Status) -> Row:
        outcomes = [r.outcome(p) for r in self.results[p]]
        return Row(
            player=p,
            place=place,
            status=status,
            played=len(outcomes),
            wins=outcomes.count("win"),
            draws=outcomes.count("draw"),
            losses=outcomes.count("loss"),
            points=as_number(self.score[p]),
            buchholz=as_number(self.value(p, "buchholz")),
            median_buchholz=as_number(self.value(p, "median_buchholz")),
            sonneborn_berger=as_number(self.value(p, "sonneborn_berger")),
            diff=int(self.value(p, "diff")),
            scored=int(self.value(p, "scored")),
        )


def split_by_stat(group: list[Player],
                  stats: Mapping[Player, Fraction]) -> list[list[Player]]:
    """``group`` split by the ``stat`` tie-break, highest first. A statistic compares only
    players who both have it: a group with a player who has none (a walkover's winner threw
    no darts) is not split by it, the next tie-break decides."""
    if any(p not in stats for p in group):
        return [group]
    return partition(group, {p: stats[p] for p in group})


def partition(group: list[Player], values: Mapping[Player, Fraction]) -> list[list[Player]]:
    """The group split by value, highest first, each part in the group's order."""
    return [
        [p for p in group if values[p] == v] for v in sorted(set(values.values()), reverse=True)
    ]


def _draw_lots(group: list[Player], lot: Lot) -> list[list[Player]]:
    if len(group) == 1:
        return [group]
    if isinstance(lot, random.Random):
        order = list(group)
        lot.shuffle(order)
    else:
        order = list(lot(list(group)))
        if sorted(map(group.index, order)) != list(range(len(group))):
            raise IllegalAction(
                "bad_lot", reason="the callback must return the tied players once each"
            )
    return [[p] for p in order]
