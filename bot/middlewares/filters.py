"""Run plain (non-async) filters on the event loop.

aiogram hands every callable that is not a coroutine function — ``F.text``, ``F.chat.type
!= "private"``, a lambda — to ``asyncio.to_thread``: a thread hop (and a copy of the
context) for a check that takes a microsecond. These checks never block, so after the
routers are assembled :func:`run_on_loop` marks each of them to be called directly.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from aiogram import Router
from aiogram.dispatcher.event.handler import CallableObject


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
