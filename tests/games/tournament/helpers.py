"""Shared helpers for the tournament tests."""

from __future__ import annotations

import random
from collections import Counter

from games.tournament import Bracket


def play_out(bracket: Bracket, rng: random.Random) -> None:
    """Play every ready match with a random winner until the bracket is finished."""
    while not bracket.finished:
        ready = bracket.ready()
        assert ready, "an unfinished bracket must have a match to play"
        match = ready[0]
        bracket.record(match.id, rng.choice(match.slots))


def played_losses(bracket: Bracket) -> Counter:
    """Losses in matches actually played (byes and void matches excluded)."""
    return Counter(m.loser for m in bracket.matches if m.status == "done")


def assert_consistent_places(places: dict) -> None:
    """Every place equals one plus the number of players placed strictly better."""
    for place in places.values():
        assert place == 1 + sum(other < place for other in places.values())
