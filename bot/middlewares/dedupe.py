"""Drop an update that was handled before (Telegram may deliver one twice).

The update is recorded after its handler succeeds; a handler that appends to a match log
records it inside that same transaction (see ``MatchesRepo.append``), so "applied once"
holds even when two copies race.
"""

from __future__ import annotations

import logging

from aiogram import BaseMiddleware
from aiogram.types import Update

log = logging.getLogger(__name__)


class DedupeMiddleware(BaseMiddleware):
    async def __call__(self, handler, event: Update, data):
        services = data["services"]
        updates = services.repos.updates
        if await updates.seen(event.update_id):
            log.info("update %s was handled before; dropped", event.update_id)
            return None
        result = await handler(event, data)
        await updates.claim(event.update_id, services.clock.now())
        return result
