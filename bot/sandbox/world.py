"""What Telegram knows in the sandbox: users, groups, their messages, rights and blocks.

The world outlives a simulated restart of the bot, exactly as Telegram outlives a restart
of a real bot process.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

BOT_ID = 123456
BOT_USERNAME = "sandbox_tourney_bot"
BOT_NAME = "Tourney"
FIRST_USER_ID = 1001
GROUP_ID_BASE = -1001000000000


@dataclass
class SandboxUser:
    id: int
    handle: str
    language: str
    started: bool = False
    blocked: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "is_bot": False, "first_name": self.handle.capitalize(),
                "username": self.handle, "language_code": self.language}


@dataclass
class SandboxGroup:
    id: int
    name: str
    admins: set[int] = field(default_factory=set)
    creator: int | None = None

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "type": "supergroup", "title": self.name}


@dataclass
class StoredMessage:
    """A message as the sandbox keeps it: enough to find buttons and to edit it."""

    chat_id: int
    message_id: int
    from_bot: bool
    payload: dict[str, Any]


BOT_JSON = {"id": BOT_ID, "is_bot": True, "first_name": BOT_NAME, "username": BOT_USERNAME}


class World:
    def __init__(self, rng: random.Random, language: str) -> None:
        self.rng = rng
        self.language = language
        self.users: dict[str, SandboxUser] = {}
        self.groups: dict[str, SandboxGroup] = {}
        self.messages: dict[int, list[StoredMessage]] = {}
        self._next_message: dict[int, int] = {}
        self.update_id = 0
        self.privacy = False
        self.file_counter = 0
        self.pending_callbacks: dict[str, str] = {}

    def user(self, handle: str) -> SandboxUser:
        if handle not in self.users:
            self.users[handle] = SandboxUser(FIRST_USER_ID + len(self.users), handle,
                                             self.language)
        return self.users[handle]

    def group(self, name: str) -> SandboxGroup:
        if name not in self.groups:
            self.groups[name] = SandboxGroup(GROUP_ID_BASE - len(self.groups) - 1, name)
        return self.groups[name]

    def user_by_id(self, user_id: int) -> SandboxUser | None:
        return next((u for u in self.users.values() if u.id == user_id), None)

    def group_by_id(self, chat_id: int) -> SandboxGroup | None:
        return next((g for g in self.groups.values() if g.id == chat_id), None)

    def chat_label(self, chat_id: int) -> str:
        if group := self.group_by_id(chat_id):
            return group.name
        user = self.user_by_id(chat_id)
        return f"{user.handle}@dm" if user else str(chat_id)

    def chat_json(self, chat_id: int) -> dict[str, Any]:
        if group := self.group_by_id(chat_id):
            return group.as_json()
        user = self.user_by_id(chat_id)
        return {"id": chat_id, "type": "private", "first_name": user.handle.capitalize(),
                "username": user.handle}

    def next_message_id(self, chat_id: int) -> int:
        self._next_message[chat_id] = self._next_message.get(chat_id, 0) + 1
        return self._next_message[chat_id]

    def store(self, chat_id: int, message_id: int, from_bot: bool,
              payload: dict[str, Any]) -> None:
        self.messages.setdefault(chat_id, []).append(
            StoredMessage(chat_id, message_id, from_bot, payload))

    def find(self, chat_id: int, message_id: int) -> StoredMessage | None:
        return next((m for m in self.messages.get(chat_id, []) if m.message_id == message_id),
                    None)

    def next_update_id(self) -> int:
        self.update_id += 1
        return self.update_id

    def next_file_id(self, kind: str) -> str:
        self.file_counter += 1
        return f"{kind}-{self.file_counter}"
