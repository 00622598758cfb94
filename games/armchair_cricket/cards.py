"""The 110-card pack: two identical decks of five suits × values 1–11.

Inside the engine a card is a small int, its *code* ``suit_index * 11 + value - 1``
(0–54); the two copies of a card share a code because nothing in the rules tells them
apart. :class:`Card` is the readable value for notation, parsing and display.

Typed forms (case-insensitive, a space, hyphen or nothing between word and number):
``BAT 8``, ``bat8``, ``BAT-8``; Russian ``бита 8`` or the one-letter ``б8``; Finnish
``maila 8``. Every suit's words are in :data:`SUIT_WORDS`. English and Finnish words
have no one-letter forms: ``p`` would be PADS in English and BALL (pallo) in Finnish.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache

from games.common.errors import IllegalAction

VALUES = range(1, 12)
HIGH = 11
COPIES = 2  # two identical decks


class Suit(IntEnum):
    BAT = 0
    BALL = 1
    STUMPS = 2
    GLOVES = 3
    PADS = 4


# Display word first for each language; every form listed is accepted when typed.
SUIT_WORDS: dict[Suit, dict[str, tuple[str, ...]]] = {
    Suit.BAT: {"en": ("BAT",), "ru": ("бита", "б"), "fi": ("maila",)},
    Suit.BALL: {"en": ("BALL",), "ru": ("мяч", "м"), "fi": ("pallo",)},
    Suit.STUMPS: {
        "en": ("STUMPS", "stump"),
        "ru": ("стойки", "стойка", "с"),
        "fi": ("tolpat", "tolppa"),
    },
    Suit.GLOVES: {
        "en": ("GLOVES", "glove"),
        "ru": ("перчатки", "перчатка", "п"),
        "fi": ("hanskat", "hanska"),
    },
    Suit.PADS: {"en": ("PADS", "pad"), "ru": ("щитки", "щиток", "щ"), "fi": ("suojat", "suoja")},
}
LANGUAGES = ("en", "ru", "fi")

_WORD_TO_SUIT = {
    word.lower(): suit
    for suit, by_language in SUIT_WORDS.items()
    for words in by_language.values()
    for word in words
}
_CARD_TEXT = re.compile(r"([^\W\d_]+)[\s\-_]*(\d{1,2})")


@dataclass(frozen=True, slots=True)
class Card:
    """One card; ``str`` gives the canonical form ``"BAT 8"``."""

    suit: Suit
    value: int

    def __post_init__(self) -> None:
        if not isinstance(self.suit, Suit) or type(self.value) is not int:
            raise IllegalAction("bad_card", suit=self.suit, value=self.value)
        if self.value not in VALUES:
            raise IllegalAction("bad_card", suit=self.suit.name, value=self.value)

    @property
    def code(self) -> int:
        return self.suit * HIGH + self.value - 1

    @classmethod
    def from_code(cls, code: int) -> Card:
        return CARDS[code]

    def __str__(self) -> str:
        return f"{self.suit.name} {self.value}"

    def display(self, language: str = "en") -> str:
        """The card in a language's words: ``"бита 8"``, ``"maila 8"``, ``"BAT 8"``."""
        words = SUIT_WORDS[self.suit].get(language, SUIT_WORDS[self.suit]["en"])
        return f"{words[0]} {self.value}"


CARDS: tuple[Card, ...] = tuple(Card(suit, value) for suit in Suit for value in VALUES)
NAMES: tuple[str, ...] = tuple(str(card) for card in CARDS)
"""Each code's canonical text, written once: every legal-action list names its cards."""
SHOWN: dict[str, tuple[str, ...]] = {
    language: tuple(card.display(language) for card in CARDS) for language in LANGUAGES
}
"""Each code in each language's words, written once: every hand shows its cards."""
PACK: tuple[int, ...] = tuple(range(len(CARDS))) * COPIES
"""The shuffled order of the deal indexes this tuple: positions 0–109."""


def suit_of(code: int) -> int:
    return code // HIGH


def value_of(code: int) -> int:
    return code % HIGH + 1


def parse_card(text: object) -> Card:
    """The card a player typed; anything else raises ``IllegalAction("bad_card")``."""
    if not isinstance(text, str):
        raise IllegalAction("bad_card", text=text)
    return CARDS[card_code(text)]


@lru_cache(maxsize=1024)
def card_code(text: str) -> int:
    """The code of a typed card (cached: the engine parses every logged action)."""
    match = _CARD_TEXT.fullmatch(text.strip().lower().replace("ё", "е"))
    suit = _WORD_TO_SUIT.get(match.group(1)) if match else None
    if match is None or suit is None or int(match.group(2)) not in VALUES:
        raise IllegalAction("bad_card", text=text)
    return suit * HIGH + int(match.group(2)) - 1


def card_name(code: int) -> str:
    """Canonical text of a code: ``"BAT 8"``."""
    return NAMES[code]
