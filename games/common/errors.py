"""Errors shared by every rules engine.

An engine refuses an illegal action by raising :class:`IllegalAction`. The ``code`` is a
stable, machine-readable reason (``"not_your_turn"``, ``"bad_order"``...) that the bot turns
into a localized message; ``params`` carry the values that message needs. Engines never
format user-facing text themselves.
"""

from __future__ import annotations

from typing import Any


class IllegalAction(ValueError):
    """An action the rules do not allow in the current state; the state is unchanged."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code if not params else f"{code} {params}")
        self.code = code
        self.params = params
