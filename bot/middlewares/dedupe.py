"""Drop an update that was handled before or is being handled now (Telegram may deliver one
twice; a webhook retry can arrive while the first copy still runs).

The update is recorded after its handler succeeds. A handler that appends to a match log
records it inside that same transaction (see ``MatchesRepo.append``), and so does one that
writes its action in a ``Database.together`` block (an organiser's command with its log
entry, a player's application), so "applied once" holds across restarts too. Other handlers'
updates are not claimed by their first write transaction, although that would save one: a
process that died right after it would have claimed a command it never carried out;
Telegram's redelivery would be dropped. A user's or chat's record written before the command
runs is not the update's write (``Database.untracked``). An update whose handling wrote
nothing (a command that only answers, a refusal) is remembered in memory only: handled again
after a restart it changes nothing either, and it costs no write transaction. A refusal
that follows a write of its update is logged as an error (bad input changes nothing: the
sandbox prints it, the fuzzer finds it). A refusal is handled too: a copy of a refused
update is dropped, not answered again; a match action's
update delivered again after a restart has its match drawn again in place (the stopped
process may not have shown it: :func:`~bot.play.board.shown_again`), any other group
update that wrote has its group's check-in statuses drawn again (:func:`_shown_again`). An
update that met Telegram out of reach before it wrote anything is answered so
(:data:`NOT_CARRIED_OUT`). The
middleware also counts the handlers in flight, so a shutdown can wait for them before
closing the database (:meth:`drain`), and forgets the ids older than ``REMEMBER_FOR`` once
every ``PRUNE_EVERY`` while the bot runs.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from aiogram import BaseMiddleware
from aiogram.dispatcher.event.bases import UNHANDLED
from aiogram.types import Update

from bot.features.notices import statuses_again
from bot.play.board import shown_again
from bot.play.refusal import Refusal
from bot.scheduler import PASSING_FAULTS
from storage.repositories.updates import REMEMBER_FOR, ProcessedUpdatesRepo

log = logging.getLogger(__name__)
PRUNE_EVERY = timedelta(hours=1)
NOT_CARRIED_OUT = "telegram.not_carried_out"
"""The answer to an update that met Telegram out of reach (through the sending layer's
retries) before it changed anything: an organiser's command whose admin check failed, a
read whose answer did not go out. Said if Telegram takes it (else that failure is logged);
the update is not claimed, so a copy delivered again is carried out."""


async def _shown_again(services, update: Update, data: dict) -> None:
    """What the process that wrote ``update``'s changes may have stopped before showing:
    its match's board (:func:`~bot.play.board.shown_again`; its sender, when they sent it
    in their private chat with the bot, can be written to now), else its group's check-in
    statuses (:func:`~bot.features.notices.statuses_again`)."""
    chat, user = data.get("event_chat"), data.get("event_from_user")
    sender = user.id if user is not None and chat is not None and chat.type == "private" \
        else None
    if not await shown_again(services, update.update_id, sender):
        await statuses_again(services, update)


class DedupeMiddleware(BaseMiddleware):
    def __init__(self) -> None:
        self._in_flight: set[int] = set()
        self._idle = asyncio.Event()
        self._idle.set()
        self._pruned_at: datetime | None = None

    async def prune(self, updates: ProcessedUpdatesRepo, now: datetime) -> None:
        """Forget the update ids too old to be redelivered (at most once per PRUNE_EVERY)."""
        if self._pruned_at is not None and now - self._pruned_at < PRUNE_EVERY:
            return
        self._pruned_at = now
        forgotten = await updates.forget_before(now - REMEMBER_FOR)
        if forgotten:
            log.info("forgot %s processed update ids", forgotten)

    async def __call__(self, handler, event: Update, data):
        services = data["services"]
        updates = services.repos.updates
        if event.update_id in self._in_flight:
            log.info("update %s is being handled; the copy is dropped", event.update_id)
            return None
        self._in_flight.add(event.update_id)  # before any await: a concurrent copy sees it
        self._idle.clear()
        try:
            if await updates.seen(event.update_id):
                log.info("update %s was handled before; dropped", event.update_id)
                if not updates.handled_here(event.update_id):  # delivered after a restart
                    await _shown_again(services, event, data)
                return None
            now = services.clock.now()
            with services.db.tracking_writes(event.update_id, now) as writes:
                try:
                    result = await handler(event, data)
                except Refusal as refusal:  # handled too: its answer is not given twice
                    if writes.count:  # a refusal changes nothing: what it wrote is a defect
                        log.error("update %s refused after it wrote", event.update_id,
                                  exc_info=refusal)
                    await self._handled(services, event.update_id, now, writes.count)
                    raise
                except PASSING_FAULTS as error:
                    if writes.count:  # carried out: what it could not show is owed to it
                        raise
                    log.warning("update %s not carried out: %s", event.update_id, error)
                    raise Refusal(NOT_CARRIED_OUT) from error  # not claimed, said if it can be
            await self._handled(services, event.update_id, now, writes.count, result)
            return result
        finally:
            self._in_flight.discard(event.update_id)
            if not self._in_flight:
                self._idle.set()

    async def _handled(self, services, update_id: int, now: datetime, writes: int,
                       result: object = None) -> None:
        updates = services.repos.updates
        if writes:  # it changed something: claimed for good, across restarts
            await updates.claim(update_id, now)
            await self.prune(updates, services.clock.now())
        elif result is not UNHANDLED:  # it only answered: a copy is dropped while we run
            updates.remember(update_id)

    async def drain(self, timeout: float) -> bool:
        """Wait until no update is being handled; False if ``timeout`` ran out first."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
            return True
        except TimeoutError:
            return False
