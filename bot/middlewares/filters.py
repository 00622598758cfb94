"""Make the routers' filters cheap, once the routers are assembled.

aiogram hands every callable that is not a coroutine function — ``F.text``, ``F.chat.type
!= "private"``, a lambda — to ``asyncio.to_thread``: a thread hop (and a copy of the
context) for a check that takes a microsecond. These checks never block, so
:func:`run_on_loop` marks each of them to be called directly.

A message meets the ``Command`` filters of about twenty handlers before one takes it, and
each of them splits and parses the text into a command object again; a button press meets
several callback-data filters, each splitting the data and failing with an exception.
:func:`gate_filters` puts a cheap test in front of each: the first word's name is one of the
filter's commands, the data starts with the filter's prefix (else the filter says no without
parsing); the filter itself still decides the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from aiogram import Router
from aiogram.dispatcher.event.handler import CallableObject
from aiogram.filters import Command
from aiogram.filters.callback_data import CallbackQueryFilter


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


def gate_filters(router: Router) -> int:
    """Put the cheap test in front of every ``Command`` filter with plain names (not
    patterns) and every callback-data filter under ``router``; returns how many."""
    gated = 0
    for callable_object in _filters(router):
        found = callable_object.callback
        if isinstance(found, Command) and all(isinstance(c, str) for c in found.commands):
            callable_object.callback = _gated(found, _names_command(found))
        elif isinstance(found, CallbackQueryFilter):
            callable_object.callback = _gated(found, _has_prefix(found))
        else:
            continue
        gated += 1
    return gated


def _gated(real: Any, passes: Callable[[Any], bool]) -> Any:
    """``real``, asked only about an event that ``passes``; any other is turned away."""
    async def call(event: Any, *args: Any, **kwargs: Any) -> Any:
        return await real(event, *args, **kwargs) if passes(event) else False
    return call


def _has_prefix(data_filter: CallbackQueryFilter) -> Callable[[Any], bool]:
    prefix, separator = data_filter.callback_data.__prefix__, data_filter.callback_data.__separator__
    return lambda query: (getattr(query, "data", None) or "").partition(separator)[0] == prefix


def _names_command(command: Command) -> Callable[[Any], bool]:
    names, prefixes, fold = frozenset(command.commands), command.prefix, command.ignore_case

    def passes(message: Any) -> bool:
        text = getattr(message, "text", None) or getattr(message, "caption", None)
        words = text.split(maxsplit=1) if text else ()
        if not words or words[0][0] not in prefixes:
            return False
        name = words[0][1:].partition("@")[0]
        return (name.casefold() if fold else name) in names
    return passes
