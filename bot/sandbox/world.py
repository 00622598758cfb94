"""What Telegram knows in the sandbox: users, groups and their topics, messages, rights, blocks.

The world outlives a simulated restart of the bot, exactly as Telegram outlives a restart
of a real bot process; it is kept in the bot's database file (``storage/repositories/
sandbox_world.py``), so a second sandbox run on the same file continues the first.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from storage.repositories.sandbox_world import SandboxWorldRepo, WorldRows

T = TypeVar("T")

BOT_ID = 123456
BOT_USERNAME = "sandbox_tourney_bot"
BOT_NAME = "Tourney"
FIRST_USER_ID = 1001
GROUP_ID_BASE = -1001000000000
MIGRATED_ID_BASE = -1002000000000
"""Where the new ids of groups made supergroups (``! migrate``) are taken from."""


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

    def row(self) -> tuple:
        return self.handle, self.id, self.language, self.started, self.blocked


@dataclass
class SandboxGroup:
    id: int
    name: str
    admins: set[int] = field(default_factory=set)
    creator: int | None = None
    topics: set[int] = field(default_factory=set)

    @property
    def is_forum(self) -> bool:
        """First use of a topic makes the group a forum."""
        return bool(self.topics)

    def as_json(self) -> dict[str, Any]:
        chat = {"id": self.id, "type": "supergroup", "title": self.name}
        return chat | {"is_forum": True} if self.is_forum else chat

    def row(self) -> tuple:
        return self.name, self.id, self.creator, sorted(self.admins), sorted(self.topics)

    def member_json(self, user_id: int, user_json: dict[str, Any]) -> dict[str, Any]:
        """The user as a member of this group (getChatMember's answer)."""
        if user_id == self.creator:
            return {"status": "creator", "user": user_json, "is_anonymous": False}
        if user_id in self.admins:
            return {"status": "administrator", "user": user_json, "can_be_edited": False,
                    "is_anonymous": False, "can_manage_chat": True, "can_delete_messages": True,
                    "can_manage_video_chats": True, "can_restrict_members": True,
                    "can_promote_members": False, "can_change_info": True,
                    "can_invite_users": True, "can_post_stories": False,
                    "can_edit_stories": False, "can_delete_stories": False,
                    "can_pin_messages": True, "can_send_welcome_messages": True,
                    "can_manage_topics": True}
        return {"status": "member", "user": user_json}


@dataclass
class StoredMessage:
    """A message as the sandbox keeps it: enough to find buttons and to edit it."""

    chat_id: int
    message_id: int
    from_bot: bool
    payload: dict[str, Any]

    @property
    def thread(self) -> int | None:
        return self.payload.get("message_thread_id")


BOT_JSON = {"id": BOT_ID, "is_bot": True, "first_name": BOT_NAME, "username": BOT_USERNAME}
ANONYMOUS_ADMIN_JSON = {"id": 1087968824, "is_bot": True, "first_name": "Group",
                        "username": "GroupAnonymousBot"}
"""Who Telegram says sent a message an administrator posted as the group."""


class _ById(Generic[T]):
    """Lookups by id into a dict keyed by name (``World.users``, ``World.groups``), rebuilt
    when they miss or find an entry the dict no longer holds: every API call looks its chat
    up, and a scan of 400 users cost more than the call."""

    def __init__(self, name_of: Callable[[T], str]) -> None:
        self._name_of = name_of
        self._index: dict[int, T] = {}

    def find(self, items: dict[str, T], item_id: int) -> T | None:
        found = self._index.get(item_id)
        if found is None or items.get(self._name_of(found)) is not found:
            self._index = {item.id: item for item in items.values()}
            found = self._index.get(item_id)
        return found


class World:
    def __init__(self, rng: random.Random, language: str) -> None:
        self.rng = rng
        self._saved_rng: tuple | None = None
        """The random state as last written (:meth:`flush` writes it whenever it moved)."""
        self.language = language
        self.users: dict[str, SandboxUser] = {}
        self.groups: dict[str, SandboxGroup] = {}
        self.messages: dict[int, list[StoredMessage]] = {}
        self._index: dict[tuple[int, int], StoredMessage] = {}
        self._next_message: dict[int, int] = {}
        self.update_id = 0
        self.privacy = False
        self.file_counter = 0
        self.migrated: dict[int, int] = {}
        """Old id → new id of each group Telegram made a supergroup: calls to the old id are
        refused, naming the new one, as Telegram refuses them."""
        self.pending_callbacks: dict[str, str] = {}
        self.anonymous: set[tuple[int, int]] = set()
        """(group id, user id) of administrators posting as the group ("Remain anonymous",
        ``! anonymous alice@g``): their messages come from GroupAnonymousBot."""
        self.left: set[int] = set()
        """Groups the bot was removed from (``! remove bot@g``): what it sends there is
        refused, and nothing said there reaches it, until it is added again."""
        self.menus: dict[tuple[str, str | None], list[tuple[str, str]]] = {}
        """The command menus the bot set (setMyCommands), by scope type and language code
        (None: every other language); set again at each start, so not kept in the file."""
        self.repo: SandboxWorldRepo | None = None
        self._saved: dict[str, tuple] = {}
        self._dirty: set[tuple[int, int]] = set()
        self._deleted: set[tuple[int, int]] = set()
        self._user_ids: _ById[SandboxUser] = _ById(lambda user: user.handle)
        self._group_ids: _ById[SandboxGroup] = _ById(lambda group: group.name)

    def menu(self, user: SandboxUser, group: SandboxGroup | None) -> list[tuple[str, str]]:
        """The command menu ``user`` sees in ``group`` (None: their private chat), found as
        Telegram finds it: the narrowest scope set, in the user's language before none."""
        if group is None:
            scopes = ("all_private_chats", "default")
        elif user.id == group.creator or user.id in group.admins:
            scopes = ("all_chat_administrators", "all_group_chats", "default")
        else:
            scopes = ("all_group_chats", "default")
        for scope in scopes:
            for language in (user.language, None):
                if (commands := self.menus.get((scope, language))) is not None:
                    return commands
        return []

    def user(self, handle: str) -> SandboxUser:
        if handle not in self.users:
            self.users[handle] = SandboxUser(FIRST_USER_ID + len(self.users), handle,
                                             self.language)
        return self.users[handle]

    def group(self, name: str) -> SandboxGroup:
        if name not in self.groups:
            self.groups[name] = SandboxGroup(GROUP_ID_BASE - len(self.groups) - 1, name)
        return self.groups[name]

    def migrate(self, name: str) -> tuple[int, int]:
        """Group ``name`` becomes a supergroup with a new id (its old messages stay under the
        old one, out of the bot's reach); its old and new id. A supergroup never migrates:
        a group does once."""
        group = self.group(name)
        if group.id in self.migrated.values():
            raise ValueError(f"{name} is a supergroup already: Telegram migrates a group once")
        old_id, group.id = group.id, MIGRATED_ID_BASE - len(self.migrated) - 1
        self.migrated[old_id] = group.id
        return old_id, group.id

    def user_by_id(self, user_id: int) -> SandboxUser | None:
        # a negative id is a group's (a chat label or JSON asks for either)
        return None if user_id < 0 else self._user_ids.find(self.users, user_id)

    def group_by_id(self, chat_id: int) -> SandboxGroup | None:
        # a positive id is a user's private chat
        return None if chat_id > 0 else self._group_ids.find(self.groups, chat_id)

    def chat_label(self, chat_id: int, thread: int | None = None) -> str:
        if group := self.group_by_id(chat_id):
            return f"{group.name}/{thread}" if thread else group.name
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

    def open_topic(self, group: SandboxGroup, thread: int) -> None:
        """A topic's id is the id of the message that created it: later ids come after it."""
        group.topics.add(thread)
        self._next_message[group.id] = max(self._next_message.get(group.id, 0), thread)

    def store(self, chat_id: int, message_id: int, from_bot: bool,
              payload: dict[str, Any]) -> StoredMessage:
        stored = StoredMessage(chat_id, message_id, from_bot, payload)
        self.messages.setdefault(chat_id, []).append(stored)
        self._index[chat_id, message_id] = stored
        self.changed(stored)
        return stored

    def changed(self, stored: StoredMessage) -> None:
        self._dirty.add((stored.chat_id, stored.message_id))

    def delete(self, stored: StoredMessage) -> None:
        self.messages[stored.chat_id].remove(stored)
        del self._index[stored.chat_id, stored.message_id]
        self._dirty.discard((stored.chat_id, stored.message_id))
        self._deleted.add((stored.chat_id, stored.message_id))

    def find(self, chat_id: int, message_id: int) -> StoredMessage | None:
        return self._index.get((chat_id, message_id))

    def next_update_id(self) -> int:
        self.update_id += 1
        return self.update_id

    def next_file_id(self, kind: str) -> str:
        self.file_counter += 1
        return f"{kind}-{self.file_counter}"

    # -- kept in the database ------------------------------------------------------------

    async def load(self, repo: SandboxWorldRepo) -> dict[str, Any]:
        """Take the world a previous run left in the database; return the transcript state
        saved with it (empty for a new database)."""
        self.repo = repo
        rows = await repo.load()
        self.users = {h: SandboxUser(i, h, lang, s, b) for h, i, lang, s, b in rows.users}
        self.groups = {n: SandboxGroup(i, n, set(a), c, set(t)) for n, i, c, a, t in rows.groups}
        self.messages, self._index = {}, {}
        for chat_id, message_id, from_bot, payload in rows.messages:
            stored = StoredMessage(chat_id, message_id, from_bot, payload)
            self.messages.setdefault(chat_id, []).append(stored)
            self._index[chat_id, message_id] = stored
        self._next_message = dict(rows.counters)
        self._saved = dict(self._rows())
        self._saved.update({("c", c): (n,) for c, n in rows.counters.items()})
        self._dirty, self._deleted = set(), set()
        state = rows.state
        self.update_id = state.get("update_id", 0)
        self.file_counter = state.get("file_counter", 0)
        self.privacy = state.get("privacy", False)
        self.migrated = {int(old): new for old, new in state.get("migrated", {}).items()}
        self.left = set(state.get("left", []))
        self.anonymous = {(group_id, user_id) for group_id, user_id in state.get("anonymous", [])}
        return state

    async def flush(self, state: dict[str, Any] | None = None) -> None:
        """Write what changed since the last flush (and ``state`` when given), the random
        state too once it moved: the bot draws from it (a shuffle, the bot's dice) before
        its next call, so a run killed after a draw it wrote resumes after that draw."""
        if self.repo is None:
            return
        state = dict(state or {})
        if (rng := self.rng.getstate()) != self._saved_rng:
            state["rng"] = rng
        rows = WorldRows(state=state, deleted=sorted(self._deleted))
        for key, row in self._rows():
            if self._saved.get(key) != row:
                (rows.users if key[0] == "u" else rows.groups).append(row)
                self._saved[key] = row
        rows.messages = [(m.chat_id, m.message_id, m.from_bot, m.payload)
                         for key in sorted(self._dirty) if (m := self.find(*key))]
        rows.counters = {c: n for c, n in self._next_message.items()
                         if self._saved.get(("c", c)) != (n,)}
        if not (rows.users or rows.groups or rows.messages or rows.deleted or rows.counters
                or rows.state):
            return
        await self.repo.save(rows)
        self._saved_rng = rng
        self._saved.update({("c", c): (n,) for c, n in rows.counters.items()})
        self._dirty, self._deleted = set(), set()

    def _rows(self):
        for user in self.users.values():
            yield ("u", user.handle), user.row()
        for group in self.groups.values():
            yield ("g", group.name), group.row()

    def state(self) -> dict[str, Any]:
        return {"update_id": self.update_id, "file_counter": self.file_counter,
                "privacy": self.privacy, "migrated": self.migrated, "left": sorted(self.left),
                "anonymous": sorted(self.anonymous)}
