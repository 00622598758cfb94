"""Single elimination: seeded bracket, byes to the top seeds, optional 3rd place, re-entry."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from games.tournament.bracket import OPEN, Bracket, MatchSpec, Ref, Slot
from games.tournament.results import Player, check_players


def bracket_size(players: int) -> int:
    """The smallest power of two that holds the field."""
    return 1 << max(players - 1, 1).bit_length()


def round_count(players: int) -> int:
    """The number of rounds of a knockout of ``players`` (the last is the final): what
    ``single_elimination(...).rounds`` says, without building the bracket."""
    return bracket_size(players).bit_length() - 1


def seed_positions(size: int) -> list[int]:
    """Seed numbers in bracket order: each pair sums to ``size + 1`` (1 v last) and the top
    seeds can only meet as late as possible (1 and 2 in the final, 1–4 in the semis).

    >>> seed_positions(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def winners_bracket(seeded: Sequence[Player], *, empty: Slot = None) -> list[list[MatchSpec]]:
    """Rounds of the seeded knockout tree, without places.

    Seeds beyond the field are ``empty`` slots (None: a bye; :data:`OPEN`: a place open for
    re-entry); they face the top seeds, so only the top ``size − n`` seeds get byes.
    """
    field = list(seeded)
    check_players(field)
    lineup = [
        field[s - 1] if s <= len(field) else empty for s in seed_positions(bracket_size(len(field)))
    ]
    rounds = [
        [
            MatchSpec(f"W1-{i + 1}", "W", 1, (lineup[2 * i], lineup[2 * i + 1]))
            for i in range(len(lineup) // 2)
        ]
    ]
    while len(rounds[-1]) > 1:
        number = len(rounds) + 1
        previous = rounds[-1]
        rounds.append(
            [
                MatchSpec(
                    f"W{number}-{i + 1}",
                    "W",
                    number,
                    (Ref("winner", previous[2 * i].id), Ref("winner", previous[2 * i + 1].id)),
                )
                for i in range(len(previous) // 2)
            ]
        )
    return rounds


def single_elimination(
    seeded_players: Sequence[Player], third_place: bool = False, *, reentry: bool = False
) -> Bracket:
    """A knockout bracket; seed 1 meets the last seed, byes go to the top seeds.

    ``third_place`` adds match "3P" between the semi-final losers (when there are semis).
    ``reentry`` leaves the bye places open: a knocked-out player may re-enter one
    (:meth:`Bracket.reenter`) until the organiser closes entries
    (:meth:`Bracket.close_entries`), which turns the places left into byes.
    Losers of round r share place ``size / 2**r + 1`` (5th for a quarter-final loss).
    """
    rounds = winners_bracket(seeded_players, empty=OPEN if reentry else None)
    size, last = 2 ** len(rounds), len(rounds)
    third_place = third_place and last > 1
    specs: list[MatchSpec] = []
    for number, matches in enumerate(rounds, start=1):
        if number == last:
            places = {"winner_place": 1, "loser_place": 2}
        elif third_place and number == last - 1:
            places = {}
        else:
            places = {"loser_place": size // 2**number + 1}
        specs += [replace(match, **places) for match in matches]
    if third_place:
        semis = rounds[-2]
        losers = (Ref("loser", semis[0].id), Ref("loser", semis[1].id))
        specs.insert(-1, MatchSpec("3P", "3P", last, losers, winner_place=3, loser_place=4))
    return Bracket("single", seeded_players, specs, reentry=reentry)
