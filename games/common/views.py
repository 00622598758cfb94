"""Turning engine state into the JSON-able dicts that ``view`` returns."""

from __future__ import annotations

import dataclasses
from typing import Any


def jsonable(value: Any) -> Any:
    """``value`` with dataclasses as dicts, tuples and sets as lists, keys as strings.

    Sets are sorted so that equal states give equal views. Anything else that JSON cannot
    carry raises TypeError, so a view can never hand the bot an object by accident.
    """
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    if isinstance(value, set | frozenset):
        return sorted(jsonable(item) for item in value)
    raise TypeError(f"{type(value).__name__} is not JSON-able")


def expecting_list(expecting: list[tuple[int, str]]) -> list[list[Any]]:
    """``expecting`` pairs as JSON lists ``[seat, action type]``."""
    return [[player, kind] for player, kind in expecting]
