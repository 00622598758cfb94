"""The games a tournament can be created for, their defaults and the settings they accept.

Settings are validated here once, for /new and /settings alike: each known key has a parser
that returns the typed value or raises ``ValueError`` with the catalog key of the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

FORMATS = ("round_robin", "swiss", "swiss_elim", "single_elim", "double_elim", "reentry",
           "groups_playoff", "cup")


def _int_range(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not text.isdigit() or not low <= int(text) <= high:
            raise ValueError("settings.bad_number")
        return int(text)
    parse.hint = f"{low}–{high}"  # type: ignore[attr-defined]
    return parse


def _choice(*options: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text.lower() not in options:
            raise ValueError("settings.bad_choice")
        return text.lower()
    parse.hint = "|".join(options)  # type: ignore[attr-defined]
    return parse


def _int_choice(*options: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not text.isdigit() or int(text) not in options:
            raise ValueError("settings.bad_choice")
        return int(text)
    parse.hint = "|".join(map(str, options))  # type: ignore[attr-defined]
    return parse


def _odd(low: int, high: int) -> Callable[[str], int]:
    base = _int_range(low, high)
    def parse(text: str) -> int:
        value = base(text)
        if value % 2 == 0:
            raise ValueError("settings.must_be_odd")
        return value
    parse.hint = f"{low}–{high}, odd"  # type: ignore[attr-defined]
    return parse


def _format_list(*options: str, most: int = 4) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        items = [item.strip().lower() for item in text.split(",") if item.strip()]
        if not 1 <= len(items) <= most or any(item not in options for item in items):
            raise ValueError("settings.bad_choice")
        return items
    parse.hint = ",".join(options)  # type: ignore[attr-defined]
    return parse


COMMON_SETTINGS: dict[str, Callable[[str], Any]] = {
    "max_players": _int_range(0, 512),
    "approval": _choice("on", "off"),
    "checkin": _int_range(0, 1440),
}
TIEBREAK_KEYS = ("h2h", "buchholz", "median_buchholz", "sonneborn_berger", "wins",
                 "vs_higher", "diff", "scored")
# The formats' options (bot/features/formats); absent keys take the formats' defaults.
FORMAT_SETTINGS: dict[str, Callable[[str], Any]] = {
    "format": _choice(*FORMATS[:-1]),
    "rounds": _int_range(1, 30),
    "max_losses": _int_range(1, 5),
    "third_place": _choice("on", "off"),
    "reset": _choice("on", "off"),
    "groups": _int_range(1, 16),
    "top": _int_range(1, 8),
    "tiebreaks": _format_list(*TIEBREAK_KEYS, most=len(TIEBREAK_KEYS)),
    "deadline": _int_range(0, 10080),
}


@dataclass(frozen=True)
class Game:
    key: str
    needs_name_and_photo: bool
    defaults: dict[str, Any]
    parsers: dict[str, Callable[[str], Any]] = field(default_factory=dict)

    def all_parsers(self) -> dict[str, Callable[[str], Any]]:
        return COMMON_SETTINGS | self.parsers

    def parse_settings(self, pairs: list[str], current: dict[str, Any]) -> dict[str, Any]:
        """Apply ``key=value`` pairs to ``current``; ValueError(catalog key, name) if wrong."""
        parsers = self.all_parsers()
        result = dict(current)
        for pair in pairs:
            name, sep, value = pair.partition("=")
            name = name.strip().lower()
            if not sep or name not in parsers:
                raise ValueError("settings.unknown_key", name)
            try:
                result[name] = parsers[name](value.strip())
            except ValueError as error:
                raise ValueError(error.args[0], name) from None
        return result


GAMES: dict[str, Game] = {
    game.key: game for game in (
        Game("cup", True,
             {"max_players": 0, "approval": "on", "checkin": 0, "qualifiers": 8,
              "payout": "multiplier", "chips": 20, "hp": 20},
             {"qualifiers": _int_choice(2, 4, 8, 16), "groups": _int_range(1, 8),
              "formats": _format_list("order", "drop", "hp", "betting"),
              "payout": _choice("multiplier", "pot"), "chips": _int_range(3, 1000),
              "hp": _int_range(1, 100)}),
        Game("shanghai", False,
             {"max_players": 0, "approval": "off", "checkin": 0, "format": "round_robin",
              "legs": 3, "bull": "visit"},
             FORMAT_SETTINGS | {"legs": _odd(1, 21), "bull": _choice("visit", "strict")}),
        Game("fincricket", False,
             {"max_players": 0, "approval": "off", "checkin": 0, "format": "round_robin",
              "legs": 1},
             FORMAT_SETTINGS | {"legs": _odd(1, 21)}),
        Game("backgammon", False,
             {"max_players": 0, "approval": "off", "checkin": 0, "format": "swiss",
              "rounds": 5, "length": 5},
             FORMAT_SETTINGS | {"length": _odd(1, 25)}),
        Game("armchair", False,
             {"max_players": 0, "approval": "off", "checkin": 0, "format": "round_robin"},
             FORMAT_SETTINGS),
    )
}
