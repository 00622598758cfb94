"""Swiss pairing as a maximum-weight matching.

Every pairing the rules allow is an edge of a graph over the players (plus a bye node when
the field is odd); a perfect matching of that graph is a legal round. networkx's blossom
algorithm finds a maximum-cardinality matching of maximum weight, so a legal round is found
whenever one exists. The weights rank the legal rounds lexicographically by:

1. (only when repeats are allowed, for Swiss with elimination) the fewest rematches and
   repeated byes;
2. the bye to the lowest-ranked player who has not had one;
3. the smallest sum of squared score differences (pair equal, else nearest, scores);
   of rounds equal in that, the one whose differences lie lower in the table (the two
   leaders on the top score meet, the players below float: the sum of each difference times
   the higher score of its pair);
4. within a score group the top half meets the bottom half (1v3, 2v4 in a group of four);
   players who float to another group meet the nearest-ranked ones there (the smallest
   sum of squared rank distances).

Told how many rounds are still to come, a round without rematches is the best one that
leaves them pairable (:mod:`games.tournament.lookahead`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import NamedTuple

from games.common.errors import IllegalAction
from games.tournament.lookahead import best_leaving, pairable
from games.tournament.results import DEFAULT_POINTS, Pair, Player, Points, Result, as_fraction

_BYE = object()


class SwissInputs(NamedTuple):
    """The arguments of :func:`swiss_pairings`, as derived from stored results."""

    scores: dict[Player, Fraction]
    played: set[frozenset[Player]]
    had_bye: set[Player]


def swiss_inputs(
    players: Sequence[Player], results: Iterable[Result], points: Points = DEFAULT_POINTS
) -> SwissInputs:
    """Scores, met pairs and bye receivers of ``players`` after ``results``.

    ``scores`` keeps the order of ``players`` (the seeding), which ranks equal scores.
    """
    scores = {p: Fraction(0) for p in players}
    played: set[frozenset[Player]] = set()
    had_bye: set[Player] = set()
    for result in results:
        if result.is_bye:
            had_bye.add(result.a)
        else:
            played.add(frozenset(result.players))
        for p in result.players:
            if p in scores:
                scores[p] += points[result.outcome(p)]
    return SwissInputs(scores, played, had_bye)


def swiss_pairings(
    scores: Mapping[Player, float],
    played: Iterable[frozenset[Player]],
    had_bye: Iterable[Player],
    *,
    ranking: Sequence[Player] | None = None,
    rounds_after: int = 0,
) -> list[Pair]:
    """The next Swiss round: no rematch, at most one bye per player.

    ``scores`` holds the players to pair (leave withdrawn players out); equal scores are
    ranked by ``ranking`` (for example the standings order) or else by the order of
    ``scores``. Pairs are listed best first, the higher-ranked player named first, the bye
    (``(player, None)``) last. Raises :class:`IllegalAction` (a ``ValueError``) with code
    ``no_legal_pairing`` and a ``reason`` when no legal round exists: ``too_few``
    (fewer than two players), ``bye`` (every player has had the bye) or ``rematch``.
    With ``rounds_after``, the round leaves that many more rounds pairable whenever some
    round does (within the look-ahead's bounds).
    """
    return pair_round(scores, played, had_bye, ranking=ranking, allow_repeats=False,
                      rounds_after=rounds_after)


def pair_round(
    scores: Mapping[Player, float],
    played: Iterable[frozenset[Player]],
    had_bye: Iterable[Player],
    *,
    ranking: Sequence[Player] | None = None,
    allow_repeats: bool,
    rounds_after: int = 0,
) -> list[Pair]:
    """Pair one round; with ``allow_repeats`` rematches and second byes are a last resort,
    without it the round leaves ``rounds_after`` more rounds pairable when it can."""
    ranked = _ranked(scores, ranking)
    if len(ranked) < 2:
        raise IllegalAction("no_legal_pairing", reason="too_few")
    meetings = Counter(frozenset(pair) for pair in played)
    byes = Counter(had_bye)
    value = {p: as_fraction(scores[p]) for p in ranked}
    scale = math.lcm(*(v.denominator for v in value.values()))
    members: dict[Fraction, list[Player]] = {}  # score groups, best first
    for p in ranked:
        members.setdefault(value[p], []).append(p)
    position = {p: members[value[p]].index(p) for p in ranked}
    rank = {p: r for r, p in enumerate(ranked)}
    n = len(ranked)

    costs: dict[tuple[object, object], tuple[int, int, int, int, int]] = {}
    for i, p in enumerate(ranked):
        for q in ranked[i + 1 :]:
            repeats = meetings[frozenset((p, q))]
            if repeats and not allow_repeats:
                continue
            diff = int((value[p] - value[q]) * scale)
            if value[p] == value[q]:
                half = len(members[value[p]]) // 2
                arrangement = (abs(position[p] - position[q]) - half) ** 2
            else:
                arrangement = (rank[q] - rank[p]) ** 2
            high = int(value[p] * scale)  # the higher score of the two (p ranks first)
            costs[(p, q)] = (repeats, 0, diff * diff, diff * high, arrangement)
    if n % 2:
        for p in ranked:
            if byes[p] and not allow_repeats:
                continue
            costs[(p, _BYE)] = (byes[p], n - 1 - rank[p], 0, 0, 0)

    matching = _min_cost_perfect_matching(costs, n + n % 2)
    if matching is None:
        raise _no_pairing(ranked, costs, n)
    if not allow_repeats:
        matching = best_leaving(costs, n + n % 2, matching, rounds_after,
                                _min_cost_perfect_matching)
    pairs: list[Pair] = []
    bye: list[Pair] = []
    for u, v in matching:
        if _BYE in (u, v):
            bye.append((v if u is _BYE else u, None))
        else:
            pairs.append((u, v) if rank[u] < rank[v] else (v, u))
    pairs.sort(key=lambda pair: rank[pair[0]])
    return pairs + bye


def _ranked(scores: Mapping[Player, float], ranking: Sequence[Player] | None) -> list[Player]:
    if ranking is None:
        order = list(scores)
    else:
        order = [p for p in ranking if p in scores]
        if len(order) != len(scores) or set(order) != set(scores):
            raise IllegalAction("bad_ranking", reason="the ranking must list every player once")
    seed = {p: i for i, p in enumerate(order)}
    return sorted(order, key=lambda p: (-as_fraction(scores[p]), seed[p]))


def _min_cost_perfect_matching(
    costs: Mapping[tuple[object, object], tuple[int, ...]], nodes: int
) -> set[tuple[object, object]] | None:
    """A perfect matching minimising the cost tuples lexicographically, or None.

    The tuples are folded into one integer with a mixed radix large enough that no sum of
    lower-level costs over a matching can outweigh one unit of a higher level.
    """
    if not costs:
        return None
    edges_in_matching = nodes // 2
    levels = len(next(iter(costs.values())))
    radix = [
        edges_in_matching * max(c[level] for c in costs.values()) + 1 for level in range(levels)
    ]
    folded: dict[tuple[object, object], int] = {}
    for edge, cost in costs.items():
        total = 0
        for level in range(levels):
            total = total * radix[level] + cost[level]
        folded[edge] = total
    top = max(folded.values()) + 1
    import networkx as nx  # ~11 MB of modules: loaded by the first Swiss round, not at start-up

    graph = nx.Graph()
    for (u, v), total in folded.items():
        graph.add_edge(u, v, weight=top - total)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return matching if 2 * len(matching) == nodes else None


def _no_pairing(
    ranked: list[Player], costs: Mapping[tuple[object, object], tuple[int, ...]], n: int
) -> IllegalAction:
    if n % 2 and not any(_BYE in edge for edge in costs):
        return IllegalAction("no_legal_pairing", reason="bye")
    has_edge = {p for edge in costs for p in edge}
    stuck = [p for p in ranked if p not in has_edge]
    return IllegalAction(
        "no_legal_pairing",
        reason="rematch",
        players=stuck,
    )


def swiss_most_rounds(players: int) -> int:
    """The rounds a field can play without a rematch or a second bye: each player meets
    every other once (and, in an odd field, has the bye once)."""
    return players if players % 2 else players - 1


def swiss_rounds_left(players: Sequence[Player], met: Iterable[frozenset[Player]],
                      had_bye: Iterable[Player], most: int) -> int:
    """How many more rounds (at most ``most``) ``players`` can still be paired for without
    a rematch or a second bye, after the pairs ``met`` and the byes ``had_bye``: what is
    left of a Swiss event once players have left it."""
    if len(players) < 2:
        return 0
    met, byes, nodes = set(met), set(had_bye), list(players)
    edges = [(p, q) for i, p in enumerate(players) for q in players[i + 1:]
             if frozenset((p, q)) not in met]
    if len(players) % 2:
        nodes.append(_BYE)
        edges += [(p, _BYE) for p in players if p not in byes]
    return next((rounds for rounds in range(most, 0, -1)
                 if pairable(nodes, edges, rounds)), 0)


def swiss_rounds_warning(players: int, rounds: int) -> str | None:
    """A warning code for the organiser when ``rounds`` is too many for the field:
    ``"rounds_impossible"``, more rounds than opponents (plus one bye for an odd field);
    None when every round can be paired. Fewer rounds always pair, whatever the results,
    since each round is paired to leave the rounds after it pairable
    (:mod:`games.tournament.lookahead`): only a withdrawal can leave none.
    """
    return "rounds_impossible" if rounds > swiss_most_rounds(players) else None
