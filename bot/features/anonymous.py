"""Commands an administrator sends as the group ("Remain anonymous" in the group's
administrator rights): Telegram then names no person (the sender is GroupAnonymousBot and
``sender_chat`` the group itself), so the bot can neither tell which organiser acts nor
write to them in private. Every such command is answered with how to act in one's own name,
before any feature reads it (a feature would otherwise say "only organisers" to an
administrator)."""

from __future__ import annotations

from aiogram.types import Message

from bot.features.handlers import Handlers
from bot.i18n import Translator

router = Handlers("anonymous")


def _as_the_group(message: Message) -> bool:
    """Filter: a message posted as the group it is in (the commands router sees commands
    only)."""
    return message.sender_chat is not None and message.sender_chat.id == message.chat.id


@router.command_message(_as_the_group)
async def as_the_group(message: Message, tr: Translator) -> None:
    await message.reply(tr("access.anonymous_admin"))
