"""What a player types in the DM, read as a move (``docs/armchair.md``, "Typed moves").

* a card (``bat 8``, ``BAT8``, ``б8``, ``maila 8``) plays it: it becomes the discard, the
  ball or the answer the match waits for (the bot completes the kind from the state);
* an exchange after a wicket: ``swap bat 3 gloves 2``, ``обмен б3 п2``, ``vaihda maila 3``
  (up to two cards; more are read and then refused by the rules; ``swap`` alone is no
  move), and ``keep``, ``оставить``, ``pidä`` to exchange none.

:func:`parse_move` returns an action without ``player`` (``{"type": "card", "card": …}``
for a bare card), or None when the text is not a move at all. Pure: no state is read.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from games.common.errors import IllegalAction

from .cards import card_code, card_name

SWAP_WORDS = frozenset({"swap", "exchange", "обмен", "обменять", "меняю", "vaihda", "vaihto"})
KEEP_WORDS = frozenset({"keep", "keep hand", "keep my hand", "оставить", "оставляю", "оставь",
                        "оставить руку", "оставляю руку", "pidä", "pidän", "pidän käteni",
                        "pidä kätesi", "pidän kortit"})
"""Keeping the hand after a wicket, also as its button and the prompts word it."""
CARD = "card"  # the kind of a bare card before the state says what it is
_CARD_IN_TEXT = re.compile(r"([^\W\d_]+)[\s\-_]*(\d{1,2})")
MAX_TYPED = 40  # a longer text is chat, not a move


def parse_move(text: str) -> dict[str, Any] | None:
    """The move in ``text``, or None when it is not one."""
    words = " ".join(text.lower().replace("ё", "е").split()).strip("✋!. ")
    if not words or len(words) > MAX_TYPED:
        return None
    read = _read(words)
    if read is None:
        return None
    kind, cards = read
    return {"type": kind, "cards": list(cards)} if kind == "exchange" else \
        {"type": kind, "card": cards[0]}


@lru_cache(maxsize=1024)
def _read(words: str) -> tuple[str, tuple[str, ...]] | None:
    """The kind of move and its cards in ``words`` (remembered: the bot reads one typed word
    several times, and players type the same few words; the card pattern is the cost)."""
    if words in KEEP_WORDS:
        return "exchange", ()
    head, _, rest = words.partition(" ")
    if head in SWAP_WORDS:  # alone it asks which cards: keeping the hand is a word of its own
        cards = _cards(rest)
        return None if not cards else ("exchange", tuple(cards))
    cards = _cards(words)
    return (CARD, (cards[0],)) if cards is not None and len(cards) == 1 else None


def _cards(text: str) -> list[str] | None:
    """Every card of ``text`` in canonical form, or None when anything else is there."""
    found, end = [], 0
    for match in _CARD_IN_TEXT.finditer(text):
        if text[end:match.start()].strip(" ,;+"):
            return None
        try:
            found.append(card_name(card_code(match.group(0))))
        except IllegalAction:
            return None
        end = match.end()
    if text[end:].strip(" ,;+"):
        return None
    return found


def resolve(kind: str | None, action: dict[str, Any]) -> dict[str, Any]:
    """A bare card as the move ``kind`` the match waits for from this player (``discard``,
    ``bowl``, ``bat``); other moves and other kinds unchanged (the rules then refuse them)."""
    if action.get("type") != CARD:
        return action
    chosen = kind if kind in ("discard", "bowl", "bat") else "bowl"
    return {**action, "type": chosen}
