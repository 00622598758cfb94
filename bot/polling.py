"""Long polling that confirms an update to Telegram only once the bot has handled it.

aiogram's polling confirms each batch of updates by the next ``getUpdates`` (its ``offset``),
which it sends at once while the batch's handlers still run as tasks: a bot that dies then
has confirmed updates it never finished, and Telegram does not deliver them again. The bot's
reliability rests on that redelivery (``bot/middlewares/dedupe.py``: a claimed update
delivered again redraws what its stopped process may not have shown, one not claimed is
carried out), so :class:`ConfirmingDispatcher` sends as ``offset`` the oldest update still
being handled: everything before it is done, it and what came after it are delivered again
to the next process, whose dedupe drops what was handled and wrote (one that only answered,
a ``/help``, is answered again: a crash costs that, not a lost action).

Asking from that offset returns the updates in hand again: they are not fed twice, and while
only they come back the next ask waits for one of them to finish (at most
:data:`ASK_AGAIN_SECONDS`), not a busy loop. An update is held back at most
:data:`HOLD_SECONDS`, and not at all once a whole batch is updates in hand (Telegram returns
at most 100 from the offset: new ones would wait behind a slow handler); a slow handler's
update is then confirmed before it is done, as aiogram would. A graceful stop confirms what
was handled (:meth:`ConfirmingDispatcher.confirm_handled`), so the next start is not given
it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncGenerator
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.dispatcher.dispatcher import DEFAULT_BACKOFF_CONFIG
from aiogram.methods import GetUpdates
from aiogram.types import Update
from aiogram.utils.backoff import Backoff, BackoffConfig

log = logging.getLogger(__name__)

HOLD_SECONDS = 30.0
"""How long an update being handled keeps the updates after it unconfirmed."""
ASK_AGAIN_SECONDS = 0.25
"""How long to wait for a handler to finish when Telegram returned only updates in hand."""
BATCH = 100
"""Telegram's most updates returned by one ``getUpdates``."""


class ConfirmingDispatcher(Dispatcher):
    """A dispatcher whose polling confirms only what was handled (see the module)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._in_hand: dict[int, float] = {}  # update id → when it was taken
        self._fed = 0  # the newest update id fed
        self._finished = asyncio.Event()

    def confirmed_below(self) -> int | None:
        """The ``offset`` to send: the oldest update in hand held back for at most
        :data:`HOLD_SECONDS`, else the one after the newest fed (None before any)."""
        now = time.monotonic()
        held = [update_id for update_id, taken in self._in_hand.items()
                if now - taken < HOLD_SECONDS]
        if held:
            return min(held)
        return self._fed + 1 if self._fed else None

    async def _process_update(self, bot: Bot, update: Update, call_answer: bool = True,
                              **kwargs: Any) -> bool:
        try:
            return await super()._process_update(bot, update, call_answer, **kwargs)
        finally:
            self._in_hand.pop(update.update_id, None)
            self._finished.set()

    async def _listen_updates(self, bot: Bot, polling_timeout: int = 30,
                              backoff_config: BackoffConfig = DEFAULT_BACKOFF_CONFIG,
                              allowed_updates: list[str] | None = None,
                              ) -> AsyncGenerator[Update, None]:
        """The updates not fed yet, asked for from :meth:`confirmed_below` (aiogram's
        polling feeds each to a task of its own)."""
        backoff = Backoff(config=backoff_config)
        timeout = {"request_timeout": int(bot.session.timeout + polling_timeout)} \
            if bot.session.timeout else {}
        while True:
            offset = self.confirmed_below()
            self._finished.clear()  # a handler that finishes while we ask is not missed
            try:
                updates = await bot(GetUpdates(
                    offset=offset, allowed_updates=allowed_updates,
                    timeout=0 if offset in self._in_hand else polling_timeout), **timeout)
            except Exception as error:  # noqa: BLE001 - Telegram out of reach: ask again
                log.error("getUpdates failed: %s: %s", type(error).__name__, error)
                await backoff.asleep()
                continue
            backoff.reset()
            fresh = [update for update in updates if update.update_id > self._fed]
            if updates and not fresh:  # only updates in hand came back
                if len(updates) >= BATCH:  # newer ones wait behind them: confirm them
                    self._in_hand.clear()
                else:
                    await self._one_finished()
            for update in fresh:
                self._fed = update.update_id
                self._in_hand[update.update_id] = time.monotonic()
                yield update

    async def _one_finished(self) -> None:
        """Wait until a handler finishes (or finished since the last ask), at most
        :data:`ASK_AGAIN_SECONDS`."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._finished.wait(), ASK_AGAIN_SECONDS)

    async def confirm_handled(self, bot: Bot) -> None:
        """Tell Telegram every update handled so far is done (at a graceful stop, once the
        updates in hand finished): one ``getUpdates`` that waits for nothing."""
        offset = self.confirmed_below()
        if offset is None:
            return
        try:
            await bot(GetUpdates(offset=offset, limit=1, timeout=0))
        except Exception as error:  # noqa: BLE001 - given again at the next start: dropped
            log.warning("could not confirm the handled updates: %s", error)
