"""Cable News Cup «Битва костей»: the dice tournament's rules as pure, replayable engines.

Entry points kept stable (``docs/engines.md``): :func:`order_number`,
:func:`drop_number`, :func:`combination` and :class:`HPBattle`. The match classes follow
``games.common.match.ReplayableMatch``: build one, ``apply`` each logged action. What players
type («ничья», «рейз 3», «третья, первая, вторая» and their English and Finnish forms) is read
into those actions by ``games.dice_cup.words``.
"""

from .betting import Bet, BettingFinal, HandRecord
from .drop import DropMatch
from .group import GroupMatch
from .hp import HPBattle, HPRound
from .hp_match import HPMatch
from .numbers import COMBINATIONS, MULTIPLIERS, combination, drop_number, order_number, rank
from .order import OrderMatch
from .rounds import RoundRecord
from .third_place import FORMATS, ThirdPlaceChoice

# Format name (as picked for the 3rd-place match) → match class. For the 3rd-place match
# build the group format with ``GroupMatch(allow_draw=False)``: it must produce a winner.
MATCH_CLASSES = {
    "group": GroupMatch,
    "order": OrderMatch,
    "drop": DropMatch,
    "hp": HPMatch,
    "betting": BettingFinal,
}

__all__ = [
    "COMBINATIONS",
    "FORMATS",
    "MATCH_CLASSES",
    "MULTIPLIERS",
    "Bet",
    "BettingFinal",
    "DropMatch",
    "GroupMatch",
    "HPBattle",
    "HPMatch",
    "HPRound",
    "HandRecord",
    "OrderMatch",
    "RoundRecord",
    "ThirdPlaceChoice",
    "combination",
    "drop_number",
    "order_number",
    "rank",
]
