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
only when the data starts with its prefix, a handler with :data:`IN_PRIVATE` or
:data:`IN_GROUP` only with a message from that kind of chat (a darts visit typed in a group
met seven handlers of DMs, dice and other games' words before its own); every other handler
is always asked. The filters themselves still decide, so an event goes to the same handler
as before.

A handler whose first filter is a :class:`Gate` (every message handler of a game's table:
``ForItsGame``) is asked through it by the observer itself, before and without aiogram's
call of its other filters: a darts visit typed in a group passes the Cup's word, the hidden
choice and the bet, and a backgammon move five such handlers, each turned away at once.

The routers here have no middlewares of their own: an observer with none calls the next step
at once, where aiogram wraps it anew (``functools.wraps`` and a partial) on every update.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from aiogram import Router
from aiogram.dispatcher.event.bases import UNHANDLED, SkipHandler
from aiogram.dispatcher.event.handler import CallableObject, FilterObject, HandlerObject
from aiogram.dispatcher.event.telegram import TelegramEventObserver
from aiogram.filters import Command, Filter
from aiogram.filters.callback_data import CallbackQueryFilter

Key = Callable[[Any], "tuple[str | None, bool | None]"]
"""An event's name (its command, its data's prefix; None) and whether it comes from a
private chat (None: not told)."""
Names = Callable[[HandlerObject], "frozenset[str] | None"]


class ChatKind(Filter):
    """A message from a private chat (``private``), or from any other chat (a group)."""

    def __init__(self, *, private: bool) -> None:
        self.private = private

    async def __call__(self, message: Any) -> bool:
        return _from_private(message) is self.private


IN_PRIVATE = ChatKind(private=True)
"""A message in the user's private chat with the bot: written so, not as ``F.chat.type``,
the index leaves the handler out for group messages without asking it."""
IN_GROUP = ChatKind(private=False)
"""A message in any chat but a private one (a group, a supergroup), indexed likewise."""


class Gate(Filter):
    """A handler's first filter that the :class:`IndexedObserver` asks directly (:meth:`opens`),
    then only the handler's other filters: cheap checks met by many handlers of every update."""

    @abstractmethod
    async def opens(self, event: Any, data: dict[str, Any]) -> bool:
        """Whether ``event`` may reach the handler (``data``: the handler data)."""

    async def __call__(self, event: Any, **data: Any) -> bool:
        return await self.opens(event, data)


class Candidate(NamedTuple):
    """A handler that could take an event: its :class:`Gate` (or None) and the filters left to
    ask (a :class:`ChatKind` the index has answered is not asked again)."""

    handler: HandlerObject
    gate: Gate | None
    filters: list[FilterObject]

    @classmethod
    def of(cls, handler: HandlerObject, private: bool | None = None) -> Candidate:
        filters = [item for item in handler.filters or ()
                   if private is None or not isinstance(item.callback, ChatKind)]
        if filters and isinstance(filters[0].callback, Gate):
            return cls(handler, filters[0].callback, filters[1:])
        return cls(handler, None, filters)


def _from_private(message: Any) -> bool | None:
    chat = getattr(message, "chat", None)
    return None if chat is None else chat.type == "private"


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
    """An observer that asks only the handlers that could take the event: those whose names
    include the event's name (or that have none), and whose kind of chat is the event's (or
    that name none)."""

    def __init__(self, router: Router, event_name: str, key: Key, names: Names) -> None:
        super().__init__(router=router, event_name=event_name)
        self._key, self._names = key, names
        self._index: dict[tuple[str | None, bool | None], list[Candidate]] = {}
        self._known: frozenset[str] = frozenset()
        self._indexed = -1  # how many handlers the index was built from

    def candidates(self, event: Any) -> list[Candidate]:
        """The handlers that could take ``event``, in registration order."""
        if self._indexed != len(self.handlers):
            self._index, self._indexed = {}, len(self.handlers)
            self._known = frozenset().union(*filter(None, map(self._names, self.handlers)))
        name, private = self._key(event)
        key = (name if name in self._known else None, private)  # the index stays small
        if (found := self._index.get(key)) is None:
            found = self._index[key] = [Candidate.of(handler, private)
                                        for handler in self.handlers
                                        if self._takes(handler, *key)]
        return found

    def _takes(self, handler: HandlerObject, name: str | None, private: bool | None) -> bool:
        names, kind = self._names(handler), chat_kind(handler)
        return ((names is None or name in names)
                and (kind is None or private is None or kind.private is private))

    async def trigger(self, event: Any, **kwargs: Any) -> Any:
        # aiogram's TelegramEventObserver.trigger, over the candidates only.
        for handler, gate, filters in self.candidates(event):
            if gate is not None and not await gate.opens(event, kwargs):
                continue
            kwargs["handler"] = handler
            if (data := await _checked(filters, event, kwargs)) is not None:
                kwargs.update(data)
                try:
                    return await self._through(self._resolve_middlewares(), handler.call,
                                               event, kwargs)
                except SkipHandler:
                    continue
        return UNHANDLED

    def wrap_outer_middleware(self, callback: Any, event: Any, data: dict[str, Any]) -> Any:
        return self._through(self.outer_middleware, callback, event, data)

    def _through(self, middlewares: Sequence[Any], callback: Any, event: Any,
                 data: dict[str, Any]) -> Any:
        """``callback(event, **data)`` through ``middlewares``: called at once when there
        are none (every update passes two routers' empty chains, and aiogram wraps the
        callback anew for each)."""
        if not middlewares:
            return callback(event, **data)
        return self.middleware.wrap_middlewares(middlewares, callback)(event, data)


async def _checked(filters: list[FilterObject], event: Any,
                   kwargs: dict[str, Any]) -> dict[str, Any] | None:
    """aiogram's ``HandlerObject.check`` over ``filters``: the handler data with what they
    add, or None when one of them refuses."""
    data = kwargs
    for item in filters:
        check = await item.call(event, **data)
        if not check:
            return None
        if isinstance(check, dict):
            data = {**data, **check}
    return data


class IndexedRouter(Router):
    """A router whose messages go to handlers by command and kind of chat, and presses by
    data prefix."""

    def __init__(self, *, name: str | None = None) -> None:
        super().__init__(name=name)
        self.message = self.observers["message"] = IndexedObserver(
            self, "message", message_key, command_names)
        self.callback_query = self.observers["callback_query"] = IndexedObserver(
            self, "callback_query", data_key, data_prefixes)


def topic_of(message: Any) -> int | None:
    """The forum topic a message was sent in, or None (the general chat, or no forum)."""
    return message.message_thread_id if message.is_topic_message else None


def command_name(text: str | None) -> str | None:
    """The command a text starts with, as aiogram's ``Command`` reads it (its first word,
    without ``/`` and ``@bot``: ``/Mat@TourneyBot #2`` → ``mat``), case-folded; None."""
    words = text.split(maxsplit=1) if text else ()
    if not words or not words[0].startswith("/"):
        return None
    return words[0][1:].partition("@")[0].casefold()


def message_key(message: Any) -> tuple[str | None, bool | None]:
    """The command of a message's text or caption (a photo's caption can be a command), and
    whether it was sent in a private chat."""
    return (command_name(getattr(message, "text", None) or getattr(message, "caption", None)),
            _from_private(message))


def command_names(handler: HandlerObject) -> frozenset[str] | None:
    """The case-folded names of the handler's ``Command`` filter, when it has one of plain
    names with the prefix ``/`` (a pattern or another prefix: None, any message)."""
    for found in _callbacks(handler):
        if (isinstance(found, Command) and found.prefix == "/"
                and all(isinstance(name, str) for name in found.commands)):
            return frozenset(name.casefold() for name in found.commands)
    return None


def data_key(query: Any) -> tuple[str | None, None]:
    """The prefix of the press's callback data (``dt`` in ``dt:1:S20``), or None."""
    data = getattr(query, "data", None)
    return (data.partition(":")[0] if data else None), None


def data_prefixes(handler: HandlerObject) -> frozenset[str] | None:
    """The prefix of the handler's callback-data filter (None: any press)."""
    for found in _callbacks(handler):
        if isinstance(found, CallbackQueryFilter) and found.callback_data.__separator__ == ":":
            return frozenset({found.callback_data.__prefix__})
    return None


def chat_kind(handler: HandlerObject) -> ChatKind | None:
    """The handler's :class:`ChatKind` filter, if it has one."""
    return next((found for found in _callbacks(handler) if isinstance(found, ChatKind)), None)


def _callbacks(handler: HandlerObject) -> Iterator[Any]:
    return (item.callback for item in handler.filters or ())
