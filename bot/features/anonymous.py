"""Commands an administrator sends as the group ("Remain anonymous" in the group's
administrator rights): Telegram then names no person (the sender is GroupAnonymousBot and
``sender_chat`` the group itself), so the bot can neither tell which organiser acts nor
write to them in private. Every such command that needs a person is answered with how to act
in one's own name, before any feature reads it (a feature would otherwise say "only
organisers" to an administrator); one that says the same to anyone (/help, /standings …) is
answered as usual."""

from __future__ import annotations

from aiogram.types import Message

from bot.features.handlers import Handlers
from bot.i18n import Translator
from bot.middlewares.filters import command_name

router = Handlers("anonymous")


READ_ONLY = frozenset({"help", "rules", "players", "standings", "bracket"})
"""Commands that say the same to anyone: answered to an administrator posting as the group
too (they need no person)."""


def _as_the_group(message: Message) -> bool:
    """Filter: a command posted as the group it is in (the commands router sees commands
    only) that needs to know who sends it."""
    return message.sender_chat is not None and message.sender_chat.id == message.chat.id \
        and command_name(message.text) not in READ_ONLY


@router.command_message(_as_the_group)
async def as_the_group(message: Message, tr: Translator) -> None:
    await message.reply(tr("access.anonymous_admin"))
