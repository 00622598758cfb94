"""Keep aiogram's response models alive.

aiogram reads every Bot API answer with ``Response[method.__returning__]``, a generic model
pydantic builds on first use and caches only weakly: once the garbage collector drops it,
the next call of that method builds it again (tens of milliseconds each time, inside
whichever update happens to send). :func:`pin` holds one strong reference per method type.
"""

from __future__ import annotations

from typing import Any

from aiogram.client.session.base import Response
from aiogram.methods import TelegramMethod

_PINNED: dict[type, Any] = {}


def pin(method: TelegramMethod) -> None:
    """Build (once) and keep the response model of ``method``'s type."""
    kind = type(method)
    if kind not in _PINNED:
        _PINNED[kind] = Response[method.__returning__]  # type: ignore[name-defined]
