"""Pairing a Swiss round with the rounds still to come in view.

A round of a Swiss without rematches is a perfect matching of the graph of pairs that have
not met yet (a bye is one more node, which each player meets at most once). Taking the best
round each time can leave a graph with no perfect matching although the rounds asked for
could all have been played: six players after three rounds can be left with two triangles
of pairs not met. So the round chosen is the best one, by the pairing rules, after which the
pairs not yet met still hold one disjoint perfect matching for each round to come.

The best rounds are taken in order of cost (Murty's partition of the matchings around each
best one); whether a round leaves enough is decided by Dirac's theorem where it can be (a
graph on N nodes whose every degree is at least N/2 has a Hamiltonian cycle, so a perfect
matching, and a round lowers each degree by one) and else by a depth-first search for the
remaining rounds. Both are bounded (:data:`CANDIDATES`, :data:`STEPS`); when the bound is
reached first, the best round is played as it is and a later round may find no pairing,
as before this look-ahead.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import count

Edge = tuple[object, object]
Costs = Mapping[Edge, tuple[int, ...]]
Solver = Callable[[Costs, int], "set[Edge] | None"]

CANDIDATES = 40
"""Rounds tried in order of cost before searching for a schedule of the remaining rounds."""
STEPS = 40_000
"""Search steps (a pair tried) one pairing may spend looking ahead: a few tenths of a second."""


class _OutOfSteps(Exception):
    """The look-ahead's budget is spent: play the best round as it is."""


def best_leaving(costs: Costs, nodes: int, best: set[Edge], rounds: int,
                 solve: Solver) -> set[Edge]:
    """``best``, or the cheapest round after which ``rounds`` more rounds can be paired.

    ``costs`` holds every allowed pair (the pairs not met) with its cost tuple; ``solve``
    gives a cheapest perfect matching of some of them over a number of nodes, or None.
    """
    if rounds <= 0:
        return best
    steps = [STEPS]
    try:
        for _, round_ in zip(range(CANDIDATES), _cheapest_first(costs, nodes, best, solve),
                             strict=False):
            if _leaves(costs, round_, rounds, steps):
                return round_
        schedule = _schedule(_adjacency(costs, set()), rounds + 1, steps)
    except _OutOfSteps:
        return best
    return _as_keys(costs, schedule[0]) if schedule else best


def pairable(nodes: Iterable[object], edges: Iterable[Edge], rounds: int) -> bool:
    """Whether the graph holds ``rounds`` disjoint perfect matchings (``edges``: the pairs
    not met, and a bye node's for an odd field: that many more rounds can be paired); when
    the search's bound is reached first, assumed so, as a round is then paired as it is."""
    adjacency: dict[object, set[object]] = {node: set() for node in nodes}
    for u, v in edges:
        adjacency[u].add(v)
        adjacency[v].add(u)
    try:
        return _schedule(adjacency, rounds, [STEPS]) is not None
    except _OutOfSteps:
        return True


def _cheapest_first(costs: Costs, nodes: int, best: set[Edge],
                    solve: Solver) -> Iterator[set[Edge]]:
    """Perfect matchings in order of total cost, starting with ``best`` (Murty): each one
    taken splits what is left into parts that force its first edges and forbid the next."""
    tie, best = count(), _as_keys(costs, best)
    queue = [(_total(costs, best), next(tie), best, (), frozenset())]
    while queue:
        _, _, matching, forced, forbidden = heapq.heappop(queue)
        yield matching
        free = [edge for edge in matching if edge not in forced]
        for i, edge in enumerate(free):
            part_forced, part_forbidden = forced + tuple(free[:i]), forbidden | {edge}
            found = _solve_part(costs, nodes, part_forced, part_forbidden, solve)
            if found is not None:
                heapq.heappush(queue, (_total(costs, found), next(tie), found,
                                       part_forced, part_forbidden))


def _solve_part(costs: Costs, nodes: int, forced: tuple[Edge, ...],
                forbidden: frozenset[Edge], solve: Solver) -> set[Edge] | None:
    taken = {node for edge in forced for node in edge}
    rest = {edge: cost for edge, cost in costs.items()
            if edge not in forbidden and not taken.intersection(edge)}
    left = nodes - len(taken)
    found = solve(rest, left) if left else set()
    return None if found is None else set(forced) | _as_keys(costs, found)


def _total(costs: Costs, matching: set[Edge]) -> tuple[int, ...]:
    return tuple(map(sum, zip(*(costs[edge] for edge in matching), strict=True)))


def _as_keys(costs: Costs, matching: set[Edge]) -> set[Edge]:
    """The matching's pairs as they are keyed in ``costs`` (a solver may turn them round)."""
    return {(u, v) if (u, v) in costs else (v, u) for u, v in matching}


def _leaves(costs: Costs, round_: set[Edge], rounds: int, steps: list[int]) -> bool:
    return _schedule(_adjacency(costs, round_), rounds, steps) is not None


def _adjacency(costs: Costs, without: set[Edge]) -> dict[object, set[object]]:
    adjacency: dict[object, set[object]] = {}
    for u, v in costs:
        adjacency.setdefault(u, set())
        adjacency.setdefault(v, set())
        if (u, v) not in without:
            adjacency[u].add(v)
            adjacency[v].add(u)
    return adjacency


def _schedule(adjacency: dict[object, set[object]], rounds: int,
              steps: list[int]) -> list[list[Edge]] | None:
    """``rounds`` disjoint perfect matchings of the graph, or None; when Dirac's theorem
    promises them, an empty list (the rounds pair whatever is chosen)."""
    if rounds == 0:
        return []
    lowest = min(map(len, adjacency.values()), default=0)
    if lowest < rounds:
        return None
    if lowest - (rounds - 1) >= len(adjacency) / 2:
        return []
    for matching in _perfect_matchings(adjacency, steps):
        for u, v in matching:
            adjacency[u].discard(v)
            adjacency[v].discard(u)
        rest = _schedule(adjacency, rounds - 1, steps)
        for u, v in matching:
            adjacency[u].add(v)
            adjacency[v].add(u)
        if rest is not None:
            return [matching, *rest]
    return None


def _perfect_matchings(adjacency: dict[object, set[object]],
                       steps: list[int]) -> Iterator[list[Edge]]:
    """Every perfect matching of the graph, depth first from its most constrained node.
    The graph may change between two matchings, provided it is restored before the next."""
    order = {node: i for i, node in enumerate(adjacency)}
    free, chosen = set(adjacency), []

    def extend() -> Iterator[list[Edge]]:
        if not free:
            yield list(chosen)
            return
        node = min(free, key=lambda n: (len(adjacency[n] & free), order[n]))
        free.remove(node)
        for other in sorted(adjacency[node] & free, key=order.__getitem__):
            steps[0] -= 1
            if steps[0] < 0:
                raise _OutOfSteps
            free.remove(other)
            chosen.append((node, other))
            yield from extend()
            chosen.pop()
            free.add(other)
        free.add(node)

    yield from extend()
