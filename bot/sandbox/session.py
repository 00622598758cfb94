"""A Bot API session that answers from the sandbox world instead of api.telegram.org.

Every visible call is printed as one line of the transcript output (see shared/SANDBOX.md);
answers and errors are what Telegram would give, so the bot's own error handling runs.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from aiogram import Bot
from aiogram.client.session.base import BaseSession
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.methods import Response, TelegramMethod
from aiogram.types import InputFile

from bot.sandbox.world import BOT_ID, BOT_JSON, World

DICE_FACES = {"🎲": 6, "🎯": 6, "🎳": 6, "🏀": 5, "⚽": 5, "🎰": 64}


class _TextOnly(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def plain(text: str) -> str:
    """What a reader sees of an HTML message: the text without tags."""
    parser = _TextOnly()
    parser.feed(text)
    parser.close()
    return html.unescape("".join(parser.parts))


def keyboard_lines(markup: dict[str, Any] | None) -> list[str]:
    rows = (markup or {}).get("inline_keyboard", [])
    return [" ".join(f"[{button['text']}]" for button in row) for row in rows]


class SandboxSession(BaseSession):
    def __init__(self, world: World, emit: Callable[[str], None],
                 out_dir: Path | None = None) -> None:
        super().__init__()
        self.world = world
        self.emit = emit
        self.out_dir = out_dir

    async def close(self) -> None:
        """Nothing to close: no network."""

    async def stream_content(self, url, headers=None, timeout=30, chunk_size=65536,
                             raise_for_status=True):
        raise TelegramBadRequest(method=None, message="Bad Request: files are not stored")
        yield b""  # pragma: no cover - makes this an async generator

    async def make_request(self, bot: Bot, method: TelegramMethod, timeout: int | None = None):
        name = type(method).__name__
        handler = getattr(self, f"_{_snake(name)}", None)
        if handler is None:
            raise TelegramBadRequest(method=method, message=f"sandbox: no method {name}")
        result = await handler(method)
        response = Response[method.__returning__].model_validate(
            {"ok": True, "result": result}, context={"bot": bot})
        return response.result

    # -- output ------------------------------------------------------------------------

    def _print(self, head: str, text: str, markup: dict[str, Any] | None = None) -> None:
        lines = text.split("\n")
        self.emit(f"{head}{lines[0]}")
        for line in lines[1:] + keyboard_lines(markup):
            self.emit(f"  {line}")

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

    def _message(self, chat_id: int, **fields: Any) -> dict[str, Any]:
        message_id = self.world.next_message_id(chat_id)
        payload = {"message_id": message_id, "date": 0, "chat": self.world.chat_json(chat_id),
                   "from": BOT_JSON, **{k: v for k, v in fields.items() if v is not None}}
        self.world.store(chat_id, message_id, True, payload)
        return payload

    @staticmethod
    def _markup(method: TelegramMethod) -> dict[str, Any] | None:
        markup = getattr(method, "reply_markup", None)
        return markup.model_dump(exclude_none=True) if markup is not None else None

    def _save(self, file: Any, chat_id: int, default_name: str) -> str:
        """Save an uploaded file under --out; return the name shown in the transcript."""
        if isinstance(file, str):
            return file
        name = getattr(file, "filename", None) or default_name
        if self.out_dir is not None and isinstance(file, InputFile):
            self.out_dir.mkdir(parents=True, exist_ok=True)
            target = self.out_dir / f"{self.world.next_file_id('out')}-{name}"
            target.write_bytes(getattr(file, "data", b""))
        return name

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
        if method.user_id == group.creator:
            return {"status": "creator", "user": user_json, "is_anonymous": False}
        if method.user_id in group.admins:
            return {"status": "administrator", "user": user_json, "can_be_edited": False,
                    "is_anonymous": False, "can_manage_chat": True, "can_delete_messages": True,
                    "can_manage_video_chats": True, "can_restrict_members": True,
                    "can_promote_members": False, "can_change_info": True,
                    "can_invite_users": True, "can_post_stories": False,
                    "can_edit_stories": False, "can_delete_stories": False,
                    "can_pin_messages": True, "can_send_welcome_messages": True}
        return {"status": "member", "user": user_json}

    async def _send_message(self, method) -> dict[str, Any]:
        self._deliverable(method, method.chat_id)
        markup = self._markup(method)
        self._print(f"→ {self.world.chat_label(method.chat_id)}: ", plain(method.text), markup)
        return self._message(method.chat_id, text=plain(method.text), reply_markup=markup)

    async def _send_dice(self, method) -> dict[str, Any]:
        self._deliverable(method, method.chat_id)
        emoji = method.emoji or "🎲"
        value = self.world.rng.randint(1, DICE_FACES.get(emoji, 6))
        self.emit(f"→ {self.world.chat_label(method.chat_id)}: {emoji}={value}")
        return self._message(method.chat_id, dice={"emoji": emoji, "value": value})

    async def _send_photo(self, method) -> dict[str, Any]:
        self._deliverable(method, method.chat_id)
        self._save(method.photo, method.chat_id, "picture.png")
        caption, markup = plain(method.caption or ""), self._markup(method)
        self._print(f"→ {self.world.chat_label(method.chat_id)}: photo ", f'"{caption}"', markup)
        photo_id = self.world.next_file_id("photo")
        return self._message(method.chat_id, caption=caption or None, reply_markup=markup,
                             photo=[{"file_id": photo_id, "file_unique_id": photo_id,
                                     "width": 800, "height": 600}])

    async def _send_media_group(self, method) -> list[dict[str, Any]]:
        self._deliverable(method, method.chat_id)
        sent = []
        for item in method.media:
            self._save(item.media, method.chat_id, "picture.png")
            caption = plain(item.caption or "")
            self.emit(f'→ {self.world.chat_label(method.chat_id)}: photo "{caption}"')
            photo_id = self.world.next_file_id("photo")
            sent.append(self._message(method.chat_id, caption=caption or None, photo=[{
                "file_id": photo_id, "file_unique_id": photo_id, "width": 800, "height": 600}]))
        return sent

    async def _send_document(self, method) -> dict[str, Any]:
        self._deliverable(method, method.chat_id)
        name = self._save(method.document, method.chat_id, "file")
        self.emit(f"→ {self.world.chat_label(method.chat_id)}: document {name}")
        doc_id = self.world.next_file_id("doc")
        return self._message(method.chat_id, document={"file_id": doc_id,
                                                       "file_unique_id": doc_id,
                                                       "file_name": name})

    def _editable(self, method) -> Any:
        stored = self.world.find(method.chat_id, method.message_id)
        if stored is None or not stored.from_bot:
            raise TelegramBadRequest(method=method, message="Bad Request: message to edit not found")
        return stored

    async def _edit_message_text(self, method) -> dict[str, Any]:
        stored = self._editable(method)
        text, markup = plain(method.text), self._markup(method)
        if stored.payload.get("text") == text and stored.payload.get("reply_markup") == markup:
            raise TelegramBadRequest(method=method, message="Bad Request: message is not modified")
        stored.payload.update(text=text, reply_markup=markup)
        label = self.world.chat_label(method.chat_id)
        self._print(f"✎ {label}#{method.message_id}: ", text, markup)
        return stored.payload

    async def _edit_message_caption(self, method) -> dict[str, Any]:
        stored = self._editable(method)
        caption, markup = plain(method.caption or ""), self._markup(method)
        stored.payload.update(caption=caption, reply_markup=markup)
        label = self.world.chat_label(method.chat_id)
        self._print(f"✎ {label}#{method.message_id}: ", caption, markup)
        return stored.payload

    async def _edit_message_reply_markup(self, method) -> dict[str, Any]:
        stored = self._editable(method)
        markup = self._markup(method)
        stored.payload.update(reply_markup=markup)
        label = self.world.chat_label(method.chat_id)
        self._print(f"✎ {label}#{method.message_id}: ", "", markup)
        return stored.payload

    async def _delete_message(self, method) -> bool:
        group = self.world.group_by_id(method.chat_id)
        stored = self.world.find(method.chat_id, method.message_id)
        own_dm = group is None and stored is not None and stored.from_bot
        if stored is None or not (own_dm or (group and BOT_ID in group.admins)):
            raise TelegramBadRequest(method=method,
                                     message="Bad Request: message can't be deleted")
        self.world.messages[method.chat_id].remove(stored)
        self.emit(f"✗ {self.world.chat_label(method.chat_id)}#{method.message_id}")
        return True

    async def _answer_callback_query(self, method) -> bool:
        if method.text:
            handle = self.world.pending_callbacks.pop(method.callback_query_id, "?")
            self.emit(f"⚑ {handle}: {method.text}")  # plain text in Telegram: shown as sent
        return True


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
