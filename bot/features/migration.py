"""A group that becomes a supergroup keeps its tournaments.

Telegram turns a basic group into a supergroup — with a **new chat id** — when an
administrator's rights are edited, the history is made visible to new members, the group
gets a public link, or it grows past 200 members. Promoting the bot to administrator, as
``/new`` advises, is one such moment. Everything the bot keeps under the old id (the group's
language, its tournaments, their organiser log) then moves to the new one: on the service
message Telegram posts in either chat, and — should a send reach the old id first (a
reminder due at that moment, an update not yet handled) — on Telegram's refusal of it, after
which the call is made again to the new id (:class:`FollowMigration`). Moving is idempotent:
the second of the two service messages finds nothing left under the old id.

Messages the bot posted in the old group stay there, and the supergroup's message ids start
again: the move makes the matches forget their boards' ids, so each board is sent anew in
the supergroup when next drawn (an old id could name another message there).
"""

from __future__ import annotations

import logging

from aiogram import Bot, F
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import TelegramMigrateToChat
from aiogram.methods import TelegramMethod
from aiogram.types import Message

from bot.features.handlers import Handlers
from bot.services import Services

log = logging.getLogger(__name__)
router = Handlers("migration")


async def carry_over(services: Services, old_id: int, new_id: int) -> None:
    """Move what the bot keeps of group ``old_id`` to its supergroup ``new_id``."""
    moved = await services.repos.chats.move(old_id, new_id)
    services.forget_language(old_id)
    services.forget_language(new_id)
    if moved:
        log.info("group %s became supergroup %s: %d tournament(s) moved", old_id, new_id,
                 moved)


@router.message(F.migrate_to_chat_id)
async def migrated_to(message: Message, services: Services) -> None:
    """Posted in the old group."""
    await carry_over(services, message.chat.id, message.migrate_to_chat_id)


@router.message(F.migrate_from_chat_id)
async def migrated_from(message: Message, services: Services) -> None:
    """Posted in the new supergroup."""
    await carry_over(services, message.migrate_from_chat_id, message.chat.id)


class FollowMigration(BaseRequestMiddleware):
    """A Bot API call refused because its group has become a supergroup: carry the group
    over, then make the call again to the supergroup."""

    def __init__(self, services: Services) -> None:
        self.services = services

    async def __call__(self, make_request: NextRequestMiddlewareType, bot: Bot,
                       method: TelegramMethod):
        try:
            return await make_request(bot, method)
        except TelegramMigrateToChat as error:
            old_id = getattr(method, "chat_id", None)
            if not isinstance(old_id, int):
                raise
            # where the group lives now, not the update's own doing: a refusal that
            # follows it still changed nothing (and the move is idempotent)
            with self.services.db.untracked():
                await carry_over(self.services, old_id, error.migrate_to_chat_id)
            return await make_request(
                bot, method.model_copy(update={"chat_id": error.migrate_to_chat_id}))
