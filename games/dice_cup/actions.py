"""Validation of the JSON-able action dicts the dice-cup matches accept.

Each helper either returns a clean value or raises :class:`IllegalAction`; none of them
touches match state, so a match can validate an action completely before changing anything.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from games.common.errors import IllegalAction


def is_int(value: Any) -> bool:
    """True for a plain int; ``bool`` is excluded although it subclasses ``int``."""
    return type(value) is int


def action_type(action: Any, allowed: Collection[str]) -> str:
    """The action's ``type`` if the match knows it, else ``bad_action``."""
    if not isinstance(action, dict):
        raise IllegalAction("bad_action")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in allowed:
        raise IllegalAction("bad_action", type=kind)
    return kind


def player_of(action: dict[str, Any]) -> int:
    player = action.get("player")
    if not is_int(player) or player not in (0, 1):
        raise IllegalAction("bad_player", player=player)
    return player


def die_value(action: dict[str, Any]) -> int:
    value = action.get("value")
    if not is_int(value) or not 1 <= value <= 6:
        raise IllegalAction("bad_roll", value=value)
    return value


def one_of(action: dict[str, Any], key: str, allowed: Collection[str], code: str) -> str:
    value = action.get(key)
    if not isinstance(value, str) or value not in allowed:
        raise IllegalAction(code, **{key: value})
    return value


def try_success(action: dict[str, Any]) -> bool:
    """The outcome of a ``/try`` («Удачно» = True); the bot draws it, the engine records it."""
    success = action.get("success")
    if not isinstance(success, bool):
        raise IllegalAction("bad_try", success=success)
    return success
