"""Mixed format: round-robin groups, then a knockout playoff of the top K of each group.

Play the groups with :func:`round_robin` over :func:`split_into_groups`, rank each group
with :func:`standings`, then feed :func:`cross_seeded` into :func:`single_elimination` (or
:func:`double_elimination`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction
from itertools import combinations, groupby

from games.common.errors import IllegalAction
from games.tournament.results import Player
from games.tournament.single_elimination import bracket_size, seed_positions
from games.tournament.standings import Row, partition, split_by_stat

OWN_FIGURES = ("buchholz", "median_buchholz", "sonneborn_berger", "wins", "diff", "scored")
"""Tie-breaks that are a player's own figure, so compare players of different groups
(``h2h`` and ``vs_higher`` weigh players of one table against each other; ``stat`` is
given by the caller)."""


def cross_seeded(groups: Sequence[Sequence[Player]], top: int,
                 limit: int | None = None) -> list[Player]:
    """The playoff seed list from each group's ranking (best first), top ``top`` of each.

    Seeds go by group place first: the group winners hold the top seeds (and any byes),
    the runners-up the next ones, and so on; ``limit`` keeps only the first that many of
    A1, B1, C1 …, A2, B2 …. Within each place the groups' players are then arranged so
    that group-mates meet as late as the bracket allows: never in round one where it can
    be avoided, a group's winner and runner-up in opposite halves (they can meet only in
    the final), three or four of a group in different quarters. With two groups the first
    round is A1 v B2, B1 v A2; with four, A1 v C2, D1 v B2 in the top half and B1 v D2,
    C1 v A2 in the bottom one. A group thinned by withdrawals (A1, B1, B2 for a bracket of
    four) lets another group's winner take the bye (B1), A1 meeting B2.
    """
    if top < 1:
        raise IllegalAction("bad_playoff_size", top=top)
    seeds = [g[place] for place in range(top) for g in groups if place < len(g)][:limit]
    if len(seeds) < 2:
        raise IllegalAction("not_enough_players", count=len(seeds), minimum=2)
    group_of = {p: i for i, g in enumerate(groups) for p in g}
    place_of = {p: list(g).index(p) for g in groups for p in g}
    return _spread(seeds, group_of, place_of)


def _spread(seeds: list[Player], group_of: dict[Player, int],
            place_of: dict[Player, int]) -> list[Player]:
    """Swap players of one group place between seeds while that makes group-mates meet
    later: fewer pairs meeting in round one first, then in round two …, and of equal
    arrangements the one nearest the given order."""
    size = bracket_size(len(seeds))
    leaf = {seed: i for i, seed in enumerate(seed_positions(size))}
    rounds, weight = size.bit_length(), len(seeds) ** 2 + 1
    home = {p: seed for seed, p in enumerate(seeds, start=1)}
    seat = dict(home)
    mates = {p: [q for q in seeds if q != p and group_of[q] == group_of[p]] for p in seeds}

    def cost(player: Player, seed: int) -> int:
        return abs(seed - home[player]) + sum(
            weight ** (rounds - (leaf[seed] ^ leaf[seat[q]]).bit_length()) for q in mates[player])

    def gain(a: Player, b: Player) -> int:
        return (cost(a, seat[a]) + cost(b, seat[b])) - (cost(a, seat[b]) + cost(b, seat[a]))

    swaps = [(a, b) for a, b in combinations(seeds, 2) if place_of[a] == place_of[b]]
    while swaps:
        best, a, b = max((gain(a, b), a, b) for a, b in swaps)
        if best <= 0:
            break
        seat[a], seat[b] = seat[b], seat[a]
    return sorted(seeds, key=seat.get)


def placed_outside_playoff(tables: Sequence[Sequence[Row]], through: Collection[Player],
                           top: int, tiebreaks: Sequence[str] = (),
                           stats: Mapping[Player, Fraction] | None = None,
                           ) -> dict[Player, int]:
    """Places after the playoff's ``len(through)`` for the group players left out of it.

    Every group's 3rds come first (a player out although level across the line, whom
    seeding left out, counts as finishing just below it), then the 4ths, and so on; among
    one group finish, points, then the ``tiebreaks`` that are a player's own figure
    (:data:`OWN_FIGURES`, ``stat`` from ``stats``, comparing only players who all have
    it: :func:`~games.tournament.standings.split_by_stat`). Players level on all of them
    share a place. Players without a group place (removed) get none.
    """
    left = [row for rows in tables for row in rows
            if row.place is not None and row.player not in through]
    keys, stats = [key for key in tiebreaks if key in (*OWN_FIGURES, "stat")], stats or {}
    row_of = {row.player: row for row in left}

    def finish(player: Player) -> tuple:
        return max(row_of[player].place, top + 1), -row_of[player].points

    levels = [list(level) for _, level in groupby(sorted(row_of, key=finish), key=finish)]
    for key in keys:
        levels = [part for level in levels for part in (
            split_by_stat(level, stats) if key == "stat"
            else partition(level, {p: Fraction(getattr(row_of[p], key)) for p in level}))]
    places: dict[Player, int] = {}
    for level in levels:
        places |= dict.fromkeys(level, len(through) + len(places) + 1)
    return places
