"""Round robin by the circle (Berger) method, single or double, optionally in groups."""

from __future__ import annotations

from collections.abc import Sequence

from games.common.errors import IllegalAction
from games.tournament.results import Pair, Player, check_players


def round_robin(players: Sequence[Player], *, double: bool = False) -> list[list[Pair]]:
    """Rounds of pairs in which every pair meets exactly once (twice with ``double``).

    An odd field gets a bye (``(player, None)``, listed last in its round) for one player
    per round. The circle method fixes the last entry (the bye when the field is odd) and
    matches ``i`` with ``j`` in round ``r`` when ``i + j ≡ r (mod m)``, ``m`` odd. Player
    ``i`` is named first when ``(j − i) mod m`` is odd: along the rounds that difference
    goes up by one, so each player alternates starting and answering, with at most one
    break (at the game against the fixed entry) and a first/second count that differs by
    at most one. The second cycle of a double round robin repeats the first with every
    pair reversed, so there the counts are equal.
    """
    field: list[Player | None] = list(players)
    check_players(field)
    if len(field) % 2:
        field.append(None)
    m = len(field) - 1
    fixed = field[m]
    rounds: list[list[Pair]] = []
    for r in range(m):
        games: list[Pair] = []
        bye: list[Pair] = []
        for i in range(m):
            j = (r - i) % m
            if i == j:
                if fixed is None:
                    bye.append((field[i], None))
                else:
                    games.append((field[i], fixed) if r % 2 else (fixed, field[i]))
            elif i < j:
                games.append((field[i], field[j]) if (j - i) % m % 2 else (field[j], field[i]))
        rounds.append(games + bye)
    if double:
        rounds += [[(b, a) if b is not None else (a, b) for a, b in rnd] for rnd in rounds]
    return rounds


def split_into_groups(players: Sequence[Player], groups: int) -> list[list[Player]]:
    """Deal seeded players (best first) into groups by the snake: A B C C B A A B C …

    The snake spreads the seeds so that every group gets a fair share of strong and weak
    players. Every group must get at least two players.
    """
    field = list(players)
    check_players(field)
    if groups < 1 or len(field) < 2 * groups:
        raise IllegalAction("bad_group_count", groups=groups, players=len(field))
    dealt: list[list[Player]] = [[] for _ in range(groups)]
    for index, player in enumerate(field):
        lap, position = divmod(index, groups)
        dealt[position if lap % 2 == 0 else groups - 1 - position].append(player)
    return dealt
