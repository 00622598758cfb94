"""Name → implementation tables that features fill with a decorator.

The platform asks a table for "the starter of game X", "the engine of match kind Y", "the
job runner for kind Z" …; each game registers its piece where it is defined, so the
platform never imports a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    def __init__(self) -> None:
        self._items: dict[str, T] = {}

    def register(self, *names: str) -> Callable[[T], T]:
        """Decorator: ``item`` serves every one of ``names``."""
        def add(item: T) -> T:
            for name in names:
                self._items[name] = item
            return item
        return add

    def __getitem__(self, name: str) -> T:
        return self._items[name]

    def get(self, name: str) -> T | None:
        return self._items.get(name)

    def items(self) -> Iterator[tuple[str, T]]:
        return iter(list(self._items.items()))
