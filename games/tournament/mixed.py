"""Mixed format: round-robin groups, then a knockout playoff of the top K of each group.

Play the groups with :func:`round_robin` over :func:`split_into_groups`, rank each group
with :func:`standings`, then feed :func:`cross_seeded` into :func:`single_elimination` (or
:func:`double_elimination`).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.common.errors import IllegalAction
from games.tournament.results import Player
from games.tournament.single_elimination import bracket_size, seed_positions


def cross_seeded(groups: Sequence[Sequence[Player]], top: int) -> list[Player]:
    """The playoff seed list from each group's ranking (best first), top ``top`` of each.

    Seeds go by group place first, then group order: A1, B1, C1 …, A2, B2, C2 … With two
    groups the first round is then A1 v B2, B1 v A2 (A1 v B4, B2 v A3, B1 v A4, A2 v B3
    for four each), group winners take any byes, and two players of one group never meet
    in round one. For any number of groups (power of two) the same holds; otherwise a
    first-round meeting of group-mates is removed by swapping the lower seed with the
    nearest seed of the same group place (or, failing that, of the nearest place); when no
    lower seed fits (a group thinned by withdrawals: A1, B1, B2 for a bracket of four), the
    higher seed changes places with another group winner instead (B1 takes the bye, A1
    meets B2).
    """
    if top < 1:
        raise IllegalAction("bad_playoff_size", top=top)
    seeds = [g[place] for place in range(top) for g in groups if place < len(g)]
    group_of = {p: i for i, g in enumerate(groups) for p in g}
    place_of = {p: list(g).index(p) for g in groups for p in g}
    if len(seeds) < 2:
        raise IllegalAction("not_enough_players", count=len(seeds), minimum=2)
    order = seed_positions(bracket_size(len(seeds)))
    opponent = {}
    for a, b in zip(order[::2], order[1::2], strict=True):
        opponent[a], opponent[b] = b, a

    def clashes(seed: int) -> bool:
        other = opponent[seed]
        return other <= len(seeds) and group_of[seeds[seed - 1]] == group_of[seeds[other - 1]]

    def swapped(seed: int, candidates: list[int]) -> bool:
        """Swap ``seed`` with the first candidate that leaves neither in a clash."""
        for swap in candidates:
            seeds[seed - 1], seeds[swap - 1] = seeds[swap - 1], seeds[seed - 1]
            if not clashes(seed) and not clashes(swap):
                return True
            seeds[seed - 1], seeds[swap - 1] = seeds[swap - 1], seeds[seed - 1]
        return False

    for high in sorted(opponent):
        low = opponent[high]
        if high > low or not clashes(high):
            continue
        lower = sorted(
            (s for s in range(high + 1, len(seeds) + 1) if s != low),
            key=lambda s: (abs(place_of[seeds[s - 1]] - place_of[seeds[low - 1]]), abs(s - low)),
        )
        if not swapped(low, lower):  # no lower seed fits (a group thinned by withdrawals):
            swapped(high, [s for s in range(1, len(seeds) + 1)  # the higher one changes
                           if s not in (high, low)  # places with another of its group place
                           and place_of[seeds[s - 1]] == place_of[seeds[high - 1]]])
    return seeds
