"""A Bot API session that answers from the sandbox world instead of api.telegram.org.

Every visible call is printed as one line of the transcript output (README, "The sandbox");
answers and errors are what Telegram would give, so the bot's own error handling runs. What
Telegram would refuse as malformed (too long, bad HTML, oversized callback data) is refused
with Telegram's error and also reported, so a transcript shows the defect.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from aiogram import Bot
from aiogram.client.default import Default
from aiogram.client.session.base import BaseSession
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramMigrateToChat
from aiogram.methods import Response, TelegramMethod
from aiogram.types import InputFile

from bot.api_answers import lean_result
from bot.method_fields import field
from bot.sandbox import strict
from bot.sandbox.world import BOT_ID, BOT_JSON, StoredMessage, World

DICE_FACES = {"🎲": 6, "🎯": 6, "🎳": 6, "🏀": 5, "⚽": 5, "🎰": 64}
TOPIC_COLOR = 7322096
CHAT_FULL_INFO = {"accent_color_id": 0, "max_reaction_count": 11, "accepted_gift_types": {
    "unlimited_gifts": False, "limited_gifts": False, "unique_gifts": False,
    "premium_subscription": False, "gifts_from_channels": False}}
"""What getChat answers of every group beside the chat itself (fields Telegram requires)."""


def keyboard_lines(markup: dict[str, Any] | None) -> list[str]:
    rows = (markup or {}).get("inline_keyboard", [])
    return [" ".join(f"[{button['text']}]" for button in row) for row in rows]


_HELD: ContextVar[list[str] | None] = ContextVar("sandbox_held_lines", default=None)
"""The lines the Bot API call in hand prints, held until what it did is saved."""


class SandboxSession(BaseSession):
    def __init__(self, world: World, emit: Callable[[str], None],
                 out_dir: Path | None = None,
                 refused: Callable[[str], None] = lambda message: None) -> None:
        super().__init__()
        self.world = world
        self._emit = emit
        self.out_dir = out_dir
        self.refused = refused
        self._bot: Bot | None = None

    async def close(self) -> None:
        """Nothing to close: no network."""

    async def stream_content(self, url, headers=None, timeout=30, chunk_size=65536,
                             raise_for_status=True):
        raise TelegramBadRequest(method=None, message="Bad Request: files are not stored")
        yield b""  # pragma: no cover - makes this an async generator

    def emit(self, line: str) -> None:
        held = _HELD.get()
        if held is None:
            self._emit(line)
        else:
            held.append(line)

    async def make_request(self, bot: Bot, method: TelegramMethod, timeout: int | None = None):
        """Carry out ``method`` on the world. What it prints is printed once the world has
        saved what it did: Telegram keeps a message it sent, so a run killed once the line
        is printed (``python -m tests.kills``) resumes with that message in its chat."""
        held: list[str] = []
        token = _HELD.set(held)
        try:
            return await self._carry_out(bot, method)
        finally:
            _HELD.reset(token)
            for line in held:
                self._emit(line)

    async def _carry_out(self, bot: Bot, method: TelegramMethod):
        name = type(method).__name__
        handler = getattr(self, f"_{_snake(name)}", None)
        if handler is None:
            raise TelegramBadRequest(method=method, message=f"sandbox: no method {name}")
        self._bot = bot
        if (new_id := self.world.migrated.get(field(method, "chat_id"))) is not None:
            raise TelegramMigrateToChat(method=method, migrate_to_chat_id=new_id,
                                        message="Bad Request: group chat was upgraded to a"
                                                " supergroup chat")
        try:
            result = await handler(method)
        except strict.Refused as refusal:
            chat_id = field(method, "chat_id")
            target = f" to {self.world.chat_label(chat_id)}" if chat_id else ""
            self.refused(f"Telegram refuses {_camel(name)}{target}: {refusal}")
            raise TelegramBadRequest(method=method, message=f"Bad Request: {refusal}") from None
        finally:
            await self.world.flush()
        return self.answer(bot, method, result)

    def answer(self, bot: Bot, method: TelegramMethod, result: Any) -> Any:
        """The method's result parsed as aiogram parses Telegram's answer (without the echoed
        keyboard, as the live session parses it)."""
        response = Response[method.__returning__].model_validate(
            {"ok": True, "result": lean_result(result)}, context={"bot": bot})
        return response.result

    def _default(self, value: Any) -> Any:
        return self._bot.default[value.name] if isinstance(value, Default) else value

    def _text(self, method) -> str:
        return strict.message_text(method.text, self._default(method.parse_mode))

    def _caption(self, holder) -> str:
        return strict.caption_text(holder.caption, self._default(holder.parse_mode))

    # -- output ------------------------------------------------------------------------

    def _print(self, head: str, text: str, markup: dict[str, Any] | None = None) -> None:
        lines = text.split("\n")
        self.emit(f"{head}{lines[0]}")
        for line in lines[1:] + keyboard_lines(markup):
            self.emit(f"  {line}")

    def _target(self, method: TelegramMethod) -> tuple[int, int | None, str]:
        """Where a send goes: chat id, forum topic and the label printed for it."""
        chat_id = method.chat_id
        self._deliverable(method, chat_id)
        thread = field(method, "message_thread_id")
        group = self.world.group_by_id(chat_id)
        if thread and (group is None or thread not in group.topics):
            raise TelegramBadRequest(method=method, message="Bad Request: message thread not found")
        return chat_id, thread, self.world.chat_label(chat_id, thread)

    def _deliverable(self, method: TelegramMethod, chat_id: int) -> None:
        if chat_id > 0:
            user = self.world.user_by_id(chat_id)
            if user is None:
                raise TelegramBadRequest(method=method, message="Bad Request: chat not found")
            if user.blocked:
                raise TelegramForbiddenError(method=method,
                                             message="Forbidden: bot was blocked by the user")
            if not user.started:
                raise TelegramForbiddenError(
                    method=method, message="Forbidden: bot can't initiate conversation with a user")
        elif self.world.group_by_id(chat_id) is None:
            raise TelegramBadRequest(method=method, message="Bad Request: chat not found")
        elif chat_id in self.world.left:
            raise TelegramForbiddenError(
                method=method, message="Forbidden: bot was kicked from the group chat")

    def _message(self, chat_id: int, thread: int | None, **fields: Any) -> dict[str, Any]:
        message_id = self.world.next_message_id(chat_id)
        topic = {"message_thread_id": thread, "is_topic_message": True} if thread else {}
        payload = {"message_id": message_id, "date": 0, "chat": self.world.chat_json(chat_id),
                   "from": BOT_JSON, **topic,
                   **{k: v for k, v in fields.items() if v is not None}}
        self.world.store(chat_id, message_id, True, payload)
        return payload

    @staticmethod
    def _markup(method: Any) -> dict[str, Any] | None:
        markup = field(method, "reply_markup")
        markup = markup.model_dump(exclude_none=True) if markup is not None else None
        strict.check_keyboard(markup)
        return markup

    def _save(self, file: Any, default_name: str) -> str:
        """Save an uploaded file under --out; return the name shown in the transcript."""
        if isinstance(file, str):
            return file
        name = getattr(file, "filename", None) or default_name
        if self.out_dir is not None and isinstance(file, InputFile):
            self.out_dir.mkdir(parents=True, exist_ok=True)
            target = self.out_dir / f"{self.world.next_file_id('out')}-{name}"
            target.write_bytes(getattr(file, "data", b""))
        return name

    def _photo(self) -> list[dict[str, Any]]:
        photo_id = self.world.next_file_id("photo")
        return [{"file_id": photo_id, "file_unique_id": photo_id, "width": 800, "height": 600}]

    # -- methods -----------------------------------------------------------------------

    async def _get_me(self, method) -> dict[str, Any]:
        return BOT_JSON | {"can_join_groups": True, "supports_inline_queries": False,
                           "can_read_all_group_messages": not self.world.privacy}

    async def _get_chat_member(self, method) -> dict[str, Any]:
        group = self.world.group_by_id(method.chat_id)
        if group is None:
            raise TelegramBadRequest(method=method, message="Bad Request: chat not found")
        if method.user_id == BOT_ID:
            user_json = BOT_JSON
        else:
            user = self.world.user_by_id(method.user_id)
            if user is None:
                raise TelegramBadRequest(method=method, message="Bad Request: user not found")
            user_json = user.as_json()
        return group.member_json(method.user_id, user_json)

    async def _get_chat(self, method) -> dict[str, Any]:
        """The group as getChat describes it (whether it is a forum)."""
        group = self.world.group_by_id(method.chat_id)
        if group is None:
            raise TelegramBadRequest(method=method, message="Bad Request: chat not found")
        return group.as_json() | CHAT_FULL_INFO

    async def _send_message(self, method) -> dict[str, Any]:
        chat_id, thread, label = self._target(method)
        text, markup = self._text(method), self._markup(method)
        self._print(f"→ {label}: ", text, markup)
        return self._message(chat_id, thread, text=text, reply_markup=markup)

    async def _send_dice(self, method) -> dict[str, Any]:
        chat_id, thread, label = self._target(method)
        emoji = method.emoji or "🎲"
        value = self.world.rng.randint(1, DICE_FACES.get(emoji, 6))
        self.emit(f"→ {label}: {emoji}={value}")
        return self._message(chat_id, thread, dice={"emoji": emoji, "value": value})

    async def _send_photo(self, method) -> dict[str, Any]:
        chat_id, thread, label = self._target(method)
        caption, markup = self._caption(method), self._markup(method)
        self._save(method.photo, "picture.png")
        self._print(f"→ {label}: photo ", f'"{caption}"', markup)
        return self._message(chat_id, thread, caption=caption or None, reply_markup=markup,
                             photo=self._photo())

    async def _send_media_group(self, method) -> list[dict[str, Any]]:
        chat_id, thread, label = self._target(method)
        strict.check_album(method.media)
        captions = [self._caption(item) for item in method.media]
        sent = []
        for item, caption in zip(method.media, captions, strict=True):
            self._save(item.media, "picture.png")
            self._print(f"→ {label}: photo ", f'"{caption}"')
            sent.append(self._message(chat_id, thread, caption=caption or None,
                                      photo=self._photo()))
        return sent

    async def _send_document(self, method) -> dict[str, Any]:
        chat_id, thread, label = self._target(method)
        caption = self._caption(method)
        name = self._save(method.document, "file")
        self._print(f"→ {label}: document {name}", f' "{caption}"' if caption else "")
        doc_id = self.world.next_file_id("doc")
        return self._message(chat_id, thread, document={"file_id": doc_id,
                                                        "file_unique_id": doc_id,
                                                        "file_name": name})

    async def _create_forum_topic(self, method) -> dict[str, Any]:
        group = self.world.group_by_id(method.chat_id)
        if group is None:
            raise TelegramBadRequest(method=method, message="Bad Request: chat not found")
        if not group.is_forum:
            raise TelegramBadRequest(method=method, message="Bad Request: the chat is not a forum")
        if BOT_ID not in group.admins:
            raise TelegramBadRequest(method=method,
                                     message="Bad Request: not enough rights to create a topic")
        if not 1 <= len(method.name) <= 128:
            raise strict.Refused("TOPIC_TITLE_EMPTY" if not method.name else "TOPIC_TITLE_TOO_LONG")
        thread = self.world.next_message_id(group.id)
        self.world.open_topic(group, thread)
        self.world.store(group.id, thread, True, {
            "message_id": thread, "date": 0, "chat": group.as_json(), "from": BOT_JSON,
            "message_thread_id": thread, "is_topic_message": True,
            "forum_topic_created": {"name": method.name, "icon_color": TOPIC_COLOR}})
        self.emit(f'⊕ {group.name}/{thread}: topic "{method.name}"')
        return {"message_thread_id": thread, "name": method.name, "icon_color": TOPIC_COLOR}

    def _editable(self, method) -> StoredMessage:
        stored = self.world.find(method.chat_id, method.message_id)
        if stored is None or not stored.from_bot:
            raise TelegramBadRequest(method=method, message="Bad Request: message to edit not found")
        return stored

    def _edited(self, stored: StoredMessage, shown: str, markup: dict[str, Any] | None,
                **fields: Any) -> dict[str, Any]:
        stored.payload.update(reply_markup=markup, **fields)
        self.world.changed(stored)
        label = self.world.chat_label(stored.chat_id, stored.thread)
        self._print(f"✎ {label}#{stored.message_id}: ", shown, markup)
        return stored.payload

    async def _edit_message_text(self, method) -> dict[str, Any]:
        stored = self._editable(method)
        text, markup = self._text(method), self._markup(method)
        if "text" not in stored.payload:
            raise strict.Refused("there is no text in the message to edit")
        if stored.payload.get("text") == text and stored.payload.get("reply_markup") == markup:
            raise TelegramBadRequest(method=method, message="Bad Request: message is not modified")
        return self._edited(stored, text, markup, text=text)

    async def _edit_message_caption(self, method) -> dict[str, Any]:
        stored = self._editable(method)
        caption, markup = self._caption(method), self._markup(method)
        if stored.payload.get("caption") == caption and stored.payload.get("reply_markup") == markup:
            raise TelegramBadRequest(method=method, message="Bad Request: message is not modified")
        return self._edited(stored, caption, markup, caption=caption)

    async def _edit_message_media(self, method) -> dict[str, Any]:
        stored = self._editable(method)
        media, markup = method.media, self._markup(method)
        if media.type != "photo":
            raise TelegramBadRequest(method=method, message="sandbox: only photos are edited")
        caption = self._caption(media)
        self._save(media.media, "picture.png")
        stored.payload.pop("text", None)
        return self._edited(stored, f'photo "{caption}"', markup, caption=caption or None,
                            photo=self._photo())

    async def _edit_message_reply_markup(self, method) -> dict[str, Any]:
        stored = self._editable(method)
        markup = self._markup(method)
        if stored.payload.get("reply_markup") == markup:  # as Telegram refuses a no-op edit
            raise TelegramBadRequest(method=method, message="Bad Request: message is not modified")
        return self._edited(stored, "", markup)

    async def _delete_message(self, method) -> bool:
        group = self.world.group_by_id(method.chat_id)
        stored = self.world.find(method.chat_id, method.message_id)
        own_dm = group is None and stored is not None and stored.from_bot
        if stored is None or not (own_dm or (group and BOT_ID in group.admins)):
            raise TelegramBadRequest(method=method,
                                     message="Bad Request: message can't be deleted")
        self.world.delete(stored)
        self.emit(f"✗ {self.world.chat_label(stored.chat_id, stored.thread)}#{stored.message_id}")
        return True

    async def _set_message_reaction(self, method) -> bool:
        """A reaction the bot sets on a message: ``♡ cup#17: 👍`` (no emoji: taken off)."""
        strict.check_reaction(method.reaction)
        stored = self.world.find(method.chat_id, method.message_id)
        if stored is None:
            raise TelegramBadRequest(method=method, message="Bad Request: MESSAGE_ID_INVALID")
        emoji = " ".join(each.emoji for each in method.reaction or [])
        self.emit(f"♡ {self.world.chat_label(stored.chat_id, stored.thread)}"
                  f"#{stored.message_id}: {emoji}".rstrip())
        return True

    async def _set_my_commands(self, method) -> bool:
        """The command menu of a scope and language, kept for ``! menu`` (not a message)."""
        strict.check_commands(method.commands)
        self.world.menus[(method.scope.type, method.language_code)] = [
            (command.command, command.description) for command in method.commands]
        return True

    async def _answer_callback_query(self, method) -> bool:
        strict.check_toast(method.text)
        handle = self.world.pending_callbacks.pop(method.callback_query_id, None)
        if handle is None:  # answered already (a press delivered again), as Telegram refuses
            raise TelegramBadRequest(method=method, message="Bad Request: query is too old "
                                     "and response timeout expired or query ID is invalid")
        if method.text:
            self.emit(f"⚑ {handle}: {method.text}")  # plain text in Telegram: shown as sent
        return True


@cache
def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _camel(name: str) -> str:
    return name[0].lower() + name[1:]
