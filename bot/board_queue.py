"""Live boards drawn once a busy group's window has room, the newest drawing winning.

A group takes about 20 messages a minute, edits included, shared by every match playing
there. A match's action holds the match's lock until it is announced, so while its board's
edit waited for the group's window, every later action of that match waited behind it, each
for an edit of its own: with more matches in a group than its minute serves (typed darts
visits on six boards), the waits grew without end. Here a board's edit that would wait is
queued instead, and the action goes on: the board is drawn once the window has room, with
the newest drawing queued by then (the actions meanwhile are drawn together, in one edit).
A drawing is the edit itself, ready to be made: a text board's text and buttons
(:meth:`bot.sending.Outbox.board`), or a picture board's photo and caption (the backgammon
board played in the bot).

Only live, where a wait takes real time. The sandbox's clock moves on without letting
other work in, so nothing could be drawn together there: it draws in place, as it always
did, and its transcripts print the same (``tests/bot/test_board_queue.py`` runs the queue
on a clock whose waits let other work in).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aiogram.exceptions import TelegramBadRequest

if TYPE_CHECKING:
    from bot.sending import RateLimitMiddleware

log = logging.getLogger(__name__)

Lost = Callable[[], Awaitable[None]]
"""What a queued board's owner does when its drawing could not be made (its board owed)."""
Edit = Callable[[], Awaitable[object]]
"""A board's drawing: the edit that shows it in place (raising what Telegram answered)."""
Key = tuple[int, int]  # (chat id, message id)

DRAWING_LATER: ContextVar[bool] = ContextVar("drawing_later", default=False)
"""Set in the queue's own task: its edits do not drop what is queued (see :meth:`drop`)."""


@dataclass
class _Drawing:
    edit: Edit
    lost: Lost


class BoardQueue:
    """The boards of busy groups waiting for room, a drawing each (the newest)."""

    def __init__(self, limiter: RateLimitMiddleware) -> None:
        self.limiter = limiter
        self._queued: dict[Key, _Drawing] = {}
        self._drawers: dict[Key, asyncio.Task] = {}
        self._sending: dict[Key, _Drawing] = {}
        """The drawing each drawer has on its way to Telegram."""
        self._gone: set[Key] = set()
        """Boards Telegram no longer has: drawn in place next, where a new one is sent."""

    def queued(self, chat_id: int, message_id: int, edit: Edit, lost: Lost) -> bool:
        """Queue this drawing of the board when a drawing of it waits already (it replaces
        that one) or the group's window has no room now: True. False: draw it now."""
        key = (chat_id, message_id)
        if key in self._gone:  # drawn in place, where a new one is sent
            self._gone.discard(key)
            return False
        if key not in self._drawers and self.limiter.has_room(chat_id):
            return False
        self._queued[key] = _Drawing(edit, lost)
        if key not in self._drawers:
            self._drawers[key] = asyncio.get_running_loop().create_task(self._draw(key))
        return True

    def drawing(self, chat_id: int, message_id: int) -> bool:
        """Whether the board is in the queue's hands: a drawing of it queued, or being sent."""
        return (chat_id, message_id) in self._drawers

    def drop(self, chat_id: int, message_id: int) -> None:
        """Another call changes the message (its buttons taken off, a new board below it):
        its queued drawing is dropped, unless the call is the queue's own."""
        if not DRAWING_LATER.get():
            self._queued.pop((chat_id, message_id), None)

    async def flush(self, timeout: float) -> None:
        """At a stop (the updates in hand are done): wait up to ``timeout`` seconds for the
        queued boards to be drawn; those still waiting then are their owners' to draw later
        (``lost``: the next start draws them, :func:`bot.play.perform.owe_board`)."""
        drawers = list(self._drawers.values())
        if drawers:
            await asyncio.wait(drawers, timeout=timeout)
        left = [*self._sending.items(), *self._queued.items()]
        self._queued.clear()
        for drawer in self._drawers.values():
            drawer.cancel()
        for key, drawing in left:
            await self._lost(key, drawing, TimeoutError("the bot stopped first"))

    async def _draw(self, key: Key) -> None:
        DRAWING_LATER.set(True)
        try:
            while key in self._queued:
                await self.limiter.room_for(key[0])
                if (drawing := self._queued.pop(key, None)) is None:
                    break  # dropped meanwhile
                self._sending[key] = drawing
                try:
                    await drawing.edit()
                except Exception as error:  # noqa: BLE001 - its owner decides
                    await self._lost(key, drawing, error)
                finally:
                    self._sending.pop(key, None)
        except Exception as error:  # noqa: BLE001 - a wait that failed (its clocks' write)
            if (drawing := self._queued.pop(key, None)) is not None:
                await self._lost(key, drawing, error)
        finally:
            del self._drawers[key]

    async def _lost(self, key: Key, drawing: _Drawing, error: Exception) -> None:
        log.warning("board %s of %s not drawn: %s", key[1], key[0], error)
        if isinstance(error, TelegramBadRequest) and board_gone(error):
            self._gone.add(key)
        try:
            await drawing.lost()
        except Exception:  # noqa: BLE001 - the next action draws the board again
            log.exception("board %s of %s left as it was", key[1], key[0])


def board_gone(error: TelegramBadRequest) -> bool:
    """Whether Telegram refused a board's edit because the message is gone (deleted, or too
    old to edit): a new one is sent instead."""
    return "not found" in error.message or "can't be edited" in error.message
