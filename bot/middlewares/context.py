"""Remember who and where, and pick the language of the answer.

In a private chat the answer is in the user's language (/lang, else Telegram's); in a group
it is the group's (set from its first speaker, changed by an organiser's /lang). Users and
chats are written only when something about them changed since this process last saw them;
a user who blocks the bot (Telegram's ``my_chat_member`` of their private chat) is noted as
one it cannot write to until they write to it in private again.
Those writes are not the update's own (``Database.untracked``): written again if the update
is handled again, they change nothing it was sent for, so an update that met Telegram out of
reach having written only them is answered that it was not carried out, and is not claimed
(``bot/middlewares/dedupe.py``).
Once an update is handled, aiogram's memory of update types is emptied
(:func:`forget_event_types`).
"""

from __future__ import annotations

from aiogram import BaseMiddleware
from aiogram.enums import ChatMemberStatus
from aiogram.types import Chat, Update, User

from bot.i18n import Translator, pick_language


def forget_event_types() -> None:
    """Empty aiogram's cache of ``Update.event_type`` (an ``lru_cache`` keyed by the update):
    it kept the last 128 updates whole, about 2 MB, and nothing asks a handled update again."""
    Update.event_type.fget.cache_clear()


def _lets_bot_write(event: Update) -> bool | None:
    """Whether the user now lets the bot write to them in private, when ``event`` says so:
    Telegram's ``my_chat_member`` update of a private chat, sent when they block the bot
    (``kicked``) or unblock it; else None."""
    change = event.my_chat_member
    if change is None or change.chat.type != "private":
        return None
    return change.new_chat_member.status != ChatMemberStatus.KICKED


class ContextMiddleware(BaseMiddleware):
    def __init__(self) -> None:
        self._seen_users: dict[int, tuple] = {}
        self._seen_chats: set[int] = set()

    async def __call__(self, handler, event: Update, data):
        services = data["services"]
        user: User | None = data.get("event_from_user")
        chat: Chat | None = data.get("event_chat")
        default = services.settings.default_language
        with services.db.untracked():  # not the update's writes (see the module's docstring)
            if user and not user.is_bot:
                await self._remember_user(services, user,
                                          private=bool(chat and chat.type == "private"),
                                          lets_bot_write=_lets_bot_write(event))
            if chat and chat.type != "private" and chat.id not in self._seen_chats:
                language = pick_language(user and user.language_code, default=default)
                await services.repos.chats.upsert(chat.id, chat.type, chat.title, language)
                self._seen_chats.add(chat.id)
        if chat and chat.type != "private":
            data["tr"] = await services.translator_for_chat(chat.id)
        elif user:
            data["tr"] = await services.translator_for_chat(user.id)
        else:
            data["tr"] = Translator(default)
        try:
            return await handler(event, data)
        finally:
            forget_event_types()

    async def _remember_user(self, services, user: User, private: bool,
                             lets_bot_write: bool | None) -> None:
        """Write the user only when their name or language changed, they first wrote in
        private (``started`` goes up) or they blocked or unblocked the bot
        (``lets_bot_write``: ``started`` follows it)."""
        seen = self._seen_users.get(user.id)
        fingerprint = (user.username, user.first_name, user.language_code)
        if lets_bot_write is None and seen and seen[0] == fingerprint \
                and (seen[1] or not private):
            return
        started = lets_bot_write if lets_bot_write is not None \
            else private or bool(seen and seen[1])
        await services.repos.users.upsert(user.id, user.username, user.first_name,
                                          user.language_code, services.clock.now(),
                                          started=started, blocked=lets_bot_write is False)
        services.forget_language(user.id)  # their Telegram language may have changed
        self._seen_users[user.id] = (fingerprint, started)
