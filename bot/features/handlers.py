"""Handler tables that build a fresh aiogram Router for every Dispatcher.

aiogram attaches a Router to one parent for life, but the sandbox's ``! restart`` (and the
tests) build a new Dispatcher in the same process. Features therefore declare handlers on a
:class:`Handlers` table with the usual decorator syntax, and each Dispatcher gets its own
routers from :meth:`Handlers.build`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiogram import Router
from aiogram.filters import Command


class Handlers:
    def __init__(self, name: str) -> None:
        self.name = name
        self._entries: list[tuple[str, tuple, dict[str, Any], Callable]] = []

    def message(self, *filters: Any, **flags: Any) -> Callable[[Callable], Callable]:
        return self._add("message", filters, flags)

    def callback_query(self, *filters: Any, **flags: Any) -> Callable[[Callable], Callable]:
        return self._add("callback_query", filters, flags)

    def _add(self, kind: str, filters: tuple, flags: dict[str, Any]):
        def register(handler: Callable) -> Callable:
            self._entries.append((kind, filters, flags, handler))
            return handler
        return register

    def commands(self) -> set[str]:
        """The command names this table's message handlers answer."""
        return {name for kind, filters, _, _ in self._entries if kind == "message"
                for item in filters if isinstance(item, Command)
                for name in item.commands if isinstance(name, str)}

    def build(self, *message_filters: Any) -> Router:
        """A new Router with these handlers. ``message_filters`` guard every message handler
        of the router, checked after the handler's own filters (a cheap command or text
        filter turns most messages away before the guard reads anything)."""
        router = Router(name=self.name)
        for kind, filters, flags, handler in self._entries:
            guards = message_filters if kind == "message" else ()
            getattr(router, kind).register(handler, *filters, *guards, **flags)
        return router
