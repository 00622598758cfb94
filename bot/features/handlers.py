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

    def build(self) -> Router:
        router = Router(name=self.name)
        for kind, filters, flags, handler in self._entries:
            getattr(router, kind).register(handler, *filters, **flags)
        return router
