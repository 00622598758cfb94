"""Tournament formats, brackets and standings (pure Python, no I/O, no global random).

Entry points kept stable (``docs/engines.md``): :func:`round_robin`,
:func:`swiss_pairings`, :func:`single_elimination`, :func:`double_elimination` and
:attr:`Bracket.first_round`.
"""

from games.tournament.bracket import OPEN, Bracket, MatchView, Ref
from games.tournament.double_elimination import double_elimination
from games.tournament.mixed import cross_seeded, placed_outside_playoff
from games.tournament.results import (
    BACKGAMMON_POINTS,
    DICE_CUP_POINTS,
    Pair,
    Player,
    Points,
    Result,
)
from games.tournament.round_robin import round_robin, split_into_groups
from games.tournament.single_elimination import round_count, single_elimination
from games.tournament.standings import (
    BACKGAMMON_TIEBREAKS,
    DARTS_TIEBREAKS,
    DICE_CUP_TIEBREAKS,
    TIEBREAKS,
    Row,
    played_for_withdrawal,
    standings,
    tied_groups,
)
from games.tournament.swiss import (
    swiss_inputs,
    swiss_most_rounds,
    swiss_pairings,
    swiss_rounds_left,
    swiss_rounds_warning,
)
from games.tournament.swiss_elimination import SwissElimination

__all__ = [
    "BACKGAMMON_POINTS",
    "BACKGAMMON_TIEBREAKS",
    "DICE_CUP_POINTS",
    "DARTS_TIEBREAKS",
    "DICE_CUP_TIEBREAKS",
    "OPEN",
    "TIEBREAKS",
    "Bracket",
    "MatchView",
    "Pair",
    "Player",
    "Points",
    "Ref",
    "Result",
    "Row",
    "SwissElimination",
    "cross_seeded",
    "double_elimination",
    "placed_outside_playoff",
    "round_robin",
    "round_count",
    "single_elimination",
    "split_into_groups",
    "played_for_withdrawal",
    "standings",
    "swiss_inputs",
    "swiss_most_rounds",
    "swiss_pairings",
    "swiss_rounds_left",
    "swiss_rounds_warning",
    "tied_groups",
]
