"""What one delivery does: the batter's card against the bowler's.

* same suit, higher: runs by the excess, read from a runs table;
* same suit, equal or lower: safe, no run;
* other suit, equal or higher: safe, no run;
* other suit, lower: wicket.

The runs table is data: ``((3, 1), (5, 2), (7, 3), (9, 4), (10, 6))`` reads "an excess up
to 3 scores 1, up to 5 scores 2 …". The seed fixes only "excess 3 → 1 run"; the rest is
the project's default, and a match may carry its own table (see ``docs/armchair.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from .cards import HIGH, parse_card

RunsTable = tuple[tuple[int, int], ...]
Result = Literal["runs", "safe", "wicket"]

DEFAULT_RUNS_TABLE: RunsTable = ((3, 1), (5, 2), (7, 3), (9, 4), (10, 6))
MAX_EXCESS = HIGH - 1


def check_runs_table(table: Sequence[Sequence[int]]) -> RunsTable:
    """A normalised table, or ``ValueError`` when it is not usable.

    Bands must have increasing upper bounds, the last one covering the largest possible
    excess (10), and award at least one run each, never fewer than the band before.
    """
    bands = tuple((int(bound), int(runs)) for bound, runs in table)
    if not bands or bands[-1][0] < MAX_EXCESS:
        raise ValueError(f"the runs table must cover an excess of {MAX_EXCESS}")
    bounds = [bound for bound, _ in bands]
    runs = [value for _, value in bands]
    if bounds[0] < 1 or any(b >= a for a, b in zip(bounds[1:], bounds, strict=False)):
        raise ValueError("runs table bounds must start at 1 or more and increase")
    if runs[0] < 1 or any(b > a for a, b in zip(runs[1:], runs, strict=False)):
        raise ValueError("runs in the table must be at least 1 and never decrease")
    return bands


def runs_for_excess(excess: int, table: RunsTable = DEFAULT_RUNS_TABLE) -> int:
    for bound, runs in table:
        if excess <= bound:
            return runs
    raise ValueError(f"excess {excess} is outside the runs table")


def outcome_of_codes(
    bowled: int, played: int, table: RunsTable = DEFAULT_RUNS_TABLE
) -> tuple[Result, int]:
    """:func:`delivery_outcome` on card codes (the engine's fast path)."""
    excess = played % HIGH - bowled % HIGH
    if played // HIGH == bowled // HIGH:
        return ("runs", runs_for_excess(excess, table)) if excess > 0 else ("safe", 0)
    return ("safe", 0) if excess >= 0 else ("wicket", 0)


def delivery_outcome(
    bowled: str, played: str, runs_table: RunsTable = DEFAULT_RUNS_TABLE
) -> tuple[Result, int]:
    """``("runs", n)``, ``("safe", 0)`` or ``("wicket", 0)`` for the batter's ``played``
    card against the bowler's ``bowled`` card, both typed like ``"BAT 5"``.

    >>> delivery_outcome("BAT 5", "BAT 8")
    ('runs', 1)
    """
    return outcome_of_codes(parse_card(bowled).code, parse_card(played).code, runs_table)
