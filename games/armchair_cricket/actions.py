"""Validation of the JSON-able action dicts a match accepts.

Every helper returns a clean value or raises :class:`IllegalAction`; none touches state.
Actions (``player`` is the acting seat, 0 or 1; cards are typed like ``"BAT 8"``):

* ``{"type": "shuffle", "order": [...]}`` — drawn by the bot: a permutation of
  ``range(n)``; ``n`` is 110 for the deal, else the discards under the top card;
* ``{"type": "toss", "winner": seat}`` — drawn by the bot;
* ``{"type": "choose", "player": p, "bat_first": seat}`` — the toss winner's choice;
* ``{"type": "discard", "player": p, "card": c}`` — the discard before the first ball;
* ``{"type": "bowl", "player": p, "card": c}``, ``{"type": "bat", "player": p, "card": c}``;
* ``{"type": "exchange", "player": p, "cards": [c, ...]}`` — up to two, ``[]`` skips;
* ``{"type": "declare", "player": p}``.
"""

from __future__ import annotations

from typing import Any

from games.common.errors import IllegalAction

from .cards import card_code, card_name

ACTION_TYPES = frozenset(
    {"shuffle", "toss", "choose", "discard", "bowl", "bat", "exchange", "declare"}
)
MAX_EXCHANGE = 2


def action_type(action: Any) -> str:
    kind = action.get("type") if isinstance(action, dict) else None
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise IllegalAction("bad_action", type=kind)
    return kind


def seat_of(action: dict[str, Any], key: str = "player") -> int:
    seat = action.get(key)
    if type(seat) is not int or seat not in (0, 1):
        raise IllegalAction("bad_player", **{key: seat})
    return seat


def card_of(text: Any) -> int:
    if not isinstance(text, str):
        raise IllegalAction("bad_card", text=text)
    return card_code(text)


def cards_of(action: dict[str, Any]) -> tuple[int, ...]:
    cards = action.get("cards")
    if not isinstance(cards, list | tuple):
        raise IllegalAction("bad_cards", cards=cards)
    if len(cards) > MAX_EXCHANGE:
        raise IllegalAction("too_many_cards", count=len(cards), limit=MAX_EXCHANGE)
    return tuple(card_of(text) for text in cards)


def order_of(action: dict[str, Any], size: int) -> tuple[int, ...]:
    order = action.get("order")
    if (
        not isinstance(order, list | tuple)
        or len(order) != size
        or any(type(index) is not int for index in order)
        or sorted(order) != list(range(size))
    ):
        raise IllegalAction("bad_shuffle", size=size)
    return tuple(order)


def take(hand: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    """``hand`` without ``cards`` (each one copy), or ``card_not_in_hand`` (``card_held_once``
    when the card is named twice and held once: two packs make two of each)."""
    rest = list(hand)
    for code in cards:
        try:
            rest.remove(code)
        except ValueError:
            raise IllegalAction("card_held_once" if code in hand else "card_not_in_hand",
                                card=card_name(code)) from None
    return tuple(rest)
