"""Double elimination: winners' and losers' brackets, grand final, optional reset."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from games.tournament.bracket import Bracket, MatchSpec, Ref, Slot
from games.tournament.results import Player
from games.tournament.single_elimination import winners_bracket


def double_elimination(seeded_players: Sequence[Player], grand_final_reset: bool = True) -> Bracket:
    """A double-elimination bracket.

    Winners' bracket "W<round>-<n>" as in single elimination. Losers' bracket
    "L<round>-<n>": odd rounds pair the survivors among themselves (round 1: the losers
    of W1), even round 2j takes the losers of W(j+1), in reversed order when j is odd and
    with halves swapped when j is even, so early rematches are rare. "GF": winners'
    champion (first slot) v losers' champion. "GF2" (with ``grand_final_reset``) is played
    only when the losers' champion wins "GF". Losers of L-round r share one place.
    """
    winners = winners_bracket(seeded_players)
    losers: list[list[MatchSpec]] = []
    if len(winners) > 1:
        losers.append(_pairs(1, [Ref("loser", m.id) for m in winners[0]]))
        for j in range(1, len(winners)):
            dropped: list[Slot] = [Ref("loser", m.id) for m in winners[j]]
            half = len(dropped) // 2
            dropped = dropped[::-1] if j % 2 else dropped[half:] + dropped[:half]
            survivors = [Ref("winner", m.id) for m in losers[-1]]
            losers.append(
                [
                    MatchSpec(f"L{2 * j}-{i + 1}", "L", 2 * j, (survivor, drop))
                    for i, (survivor, drop) in enumerate(zip(survivors, dropped, strict=True))
                ]
            )
            if j < len(winners) - 1:
                losers.append(_pairs(2 * j + 1, [Ref("winner", m.id) for m in losers[-1]]))
        losers_champion = Ref("winner", losers[-1][0].id)
    else:
        losers_champion = Ref("loser", winners[-1][0].id)
    finalists = (Ref("winner", winners[-1][0].id), losers_champion)
    finals = [MatchSpec("GF", "GF", 1, finalists, winner_place=1, loser_place=2)]
    if grand_final_reset:
        finals.append(
            MatchSpec("GF2", "GF", 2, finalists, winner_place=1, loser_place=2, reset_of="GF")
        )

    specs = [m for rnd in winners + losers for m in rnd] + finals
    return Bracket("double", seeded_players, _place_losers(seeded_players, specs, losers))


def _pairs(number: int, entrants: list[Slot]) -> list[MatchSpec]:
    return [
        MatchSpec(f"L{number}-{i + 1}", "L", number, (entrants[2 * i], entrants[2 * i + 1]))
        for i in range(len(entrants) // 2)
    ]


def _place_losers(
    players: Sequence[Player], specs: list[MatchSpec], losers: list[list[MatchSpec]]
) -> list[MatchSpec]:
    """Give each losers'-bracket round the shared place of the players it knocks out.

    Byes are known before any result: they sit in round one of the winners' bracket, and
    its bye matches' "losers" are byes in the losers' bracket; every still-unresolved slot
    will hold a real player. So counting, round by round, the matches with no bye slot
    (the ones that knock a player out) tells how many players finish below each round.
    """
    views = {view.id: view for view in Bracket("double", players, specs).matches}
    knocked_out = 0
    place: dict[str, int] = {}
    for rnd in losers:
        knocked_out += sum(None not in views[m.id].slots for m in rnd)
        for m in rnd:
            place[m.id] = len(players) - knocked_out + 1
    return [
        replace(spec, loser_place=place[spec.id]) if spec.id in place else spec for spec in specs
    ]
