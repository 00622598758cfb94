"""Make the routers' filters cheap, once the routers are assembled.

aiogram hands every callable that is not a coroutine function — ``F.text``, ``F.chat.type
!= "private"``, a lambda — to ``asyncio.to_thread``: a thread hop (and a copy of the
context) for a check that takes a microsecond. These checks never block, so
:func:`run_on_loop` marks each of them to be called directly.

aiogram asks an observer's handlers one after the other until one takes the event. The
commands router holds some sixty handlers, and ``/help`` met fifty-six of them (each one's
filters awaited in turn) before its own: half the time of the whole update. A button press
met up to eighteen callback-data filters. An :class:`IndexedRouter` asks only the handlers
that could take the event, in the same order: a handler with a ``Command`` filter of plain
names only when the message starts with one of them, a handler with a callback-data filter
only when the data starts with its prefix; every other handler is always asked. The filters
themselves still decide, so an event goes to the same handler as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from aiogram import Router
from aiogram.dispatcher.event.bases import UNHANDLED, SkipHandler
from aiogram.dispatcher.event.handler import CallableObject, HandlerObject
from aiogram.dispatcher.event.telegram import TelegramEventObserver
from aiogram.filters import Command
from aiogram.filters.callback_data import CallbackQueryFilter

Key = Callable[[Any], "str | None"]
Names = Callable[[HandlerObject], "frozenset[str] | None"]


def run_on_loop(router: Router) -> int:
    """Make every plain filter under ``router`` run on the loop; returns how many."""
    changed = 0
    for callable_object in _filters(router):
        if not callable_object.awaitable:
            callable_object.callback = _on_loop(callable_object.callback)
            callable_object.awaitable = True
            changed += 1
    return changed


def _filters(router: Router) -> Iterator[CallableObject]:
    for sub in router.chain_tail:
        for observer in sub.observers.values():
            for handler in observer.handlers:
                yield from handler.filters or ()
            yield from observer._handler.filters or ()


def _on_loop(callback: Any) -> Any:
    async def call(*args: Any, **kwargs: Any) -> Any:
        return callback(*args, **kwargs)
    return call


class IndexedObserver(TelegramEventObserver):
    """An observer that asks only the handlers whose names include the event's key (its
    ``key``: the command, the data's prefix), and the handlers that have no names."""

    def __init__(self, router: Router, event_name: str, key: Key, names: Names) -> None:
        super().__init__(router=router, event_name=event_name)
        self._key, self._names = key, names
        self._index: dict[str | None, list[HandlerObject]] = {}
        self._indexed = -1  # how many handlers the index was built from

    def candidates(self, event: Any) -> list[HandlerObject]:
        """The handlers that could take ``event``, in registration order."""
        if self._indexed != len(self.handlers):
            self._index, self._indexed = _index(self.handlers, self._names), len(self.handlers)
        return self._index.get(self._key(event), self._index[None])

    async def trigger(self, event: Any, **kwargs: Any) -> Any:
        # aiogram's TelegramEventObserver.trigger, over the candidates only.
        for handler in self.candidates(event):
            kwargs["handler"] = handler
            result, data = await handler.check(event, **kwargs)
            if result:
                kwargs.update(data)
                try:
                    wrapped_inner = self.outer_middleware.wrap_middlewares(
                        self._resolve_middlewares(), handler.call)
                    return await wrapped_inner(event, kwargs)
                except SkipHandler:
                    continue
        return UNHANDLED


def _index(handlers: list[HandlerObject], names: Names) -> dict[str | None, list[HandlerObject]]:
    """For each name, the handlers it may go to; under None, the handlers without names
    (the list for a key no handler names: the index stays as small as the routers)."""
    named = [(handler, names(handler)) for handler in handlers]
    keys = {key for _, found in named if found is not None for key in found}
    index: dict[str | None, list[HandlerObject]] = {
        key: [h for h, found in named if found is None or key in found] for key in keys}
    index[None] = [h for h, found in named if found is None]
    return index


class IndexedRouter(Router):
    """A router whose messages go to handlers by command, and presses by data prefix."""

    def __init__(self, *, name: str | None = None) -> None:
        super().__init__(name=name)
        self.message = self.observers["message"] = IndexedObserver(
            self, "message", command_key, command_names)
        self.callback_query = self.observers["callback_query"] = IndexedObserver(
            self, "callback_query", data_key, data_prefixes)


def command_name(text: str | None) -> str | None:
    """The command a text starts with, as aiogram's ``Command`` reads it (its first word,
    without ``/`` and ``@bot``: ``/Mat@TourneyBot #2`` → ``mat``), case-folded; None."""
    words = text.split(maxsplit=1) if text else ()
    if not words or not words[0].startswith("/"):
        return None
    return words[0][1:].partition("@")[0].casefold()


def command_key(message: Any) -> str | None:
    """The command of a message's text or caption (a photo's caption can be a command)."""
    return command_name(getattr(message, "text", None) or getattr(message, "caption", None))


def command_names(handler: HandlerObject) -> frozenset[str] | None:
    """The case-folded names of the handler's ``Command`` filter, when it has one of plain
    names with the prefix ``/`` (a pattern or another prefix: None, any message)."""
    for found in _callbacks(handler):
        if (isinstance(found, Command) and found.prefix == "/"
                and all(isinstance(name, str) for name in found.commands)):
            return frozenset(name.casefold() for name in found.commands)
    return None


def data_key(query: Any) -> str | None:
    """The prefix of the press's callback data (``dt`` in ``dt:1:S20``), or None."""
    data = getattr(query, "data", None)
    return data.partition(":")[0] if data else None


def data_prefixes(handler: HandlerObject) -> frozenset[str] | None:
    """The prefix of the handler's callback-data filter (None: any press)."""
    for found in _callbacks(handler):
        if isinstance(found, CallbackQueryFilter) and found.callback_data.__separator__ == ":":
            return frozenset({found.callback_data.__prefix__})
    return None


def _callbacks(handler: HandlerObject) -> Iterator[Any]:
    return (item.callback for item in handler.filters or ())
