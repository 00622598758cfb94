"""Армчер-крикет: the two-player card game as a pure, replayable rules engine.

:func:`delivery_outcome` is a stable entry point (its name and meaning are kept for the
bot and the acceptance checks). :class:`ArmchairMatch` replays a logged match;
:func:`choose_action` is the bot's own player. The rules as played are in
``docs/armchair.md``.
"""

from .cards import CARDS, PACK, SUIT_WORDS, Card, Suit, parse_card
from .delivery import DEFAULT_RUNS_TABLE, delivery_outcome
from .legal import ToAct, legal_actions, to_act
from .match import ArmchairMatch, chance_action
from .player import choose_action
from .rules import apply
from .state import ArmchairSettings, ArmchairState, Delivery, Innings, Outcome
from .view import View, view

__all__ = [
    "CARDS",
    "DEFAULT_RUNS_TABLE",
    "PACK",
    "SUIT_WORDS",
    "ArmchairMatch",
    "ArmchairSettings",
    "ArmchairState",
    "Card",
    "Delivery",
    "Innings",
    "Outcome",
    "Suit",
    "ToAct",
    "View",
    "apply",
    "chance_action",
    "choose_action",
    "delivery_outcome",
    "legal_actions",
    "parse_card",
    "to_act",
    "view",
]
