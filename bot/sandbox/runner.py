"""Reads transcript lines (shared/SANDBOX.md), turns them into Telegram updates for the real
dispatcher, and runs the virtual clock. Used by ``python -m bot sandbox`` and the tests."""

from __future__ import annotations

import random
import re
import tempfile
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from aiogram.types import Update

from bot.app import App, build
from bot.clock import VirtualClock
from bot.config import load_settings
from bot.sandbox.session import DICE_FACES, SandboxSession
from bot.sandbox.world import BOT_ID, BOT_USERNAME, SandboxUser, World
from bot.scheduler import VirtualScheduler

SANDBOX_EPOCH = datetime.fromisoformat("2026-10-01T12:00:00+03:00")
_EVENT = re.compile(r"^([a-z0-9_]+)@([a-z0-9_]+):\s?(.*)$")
_DICE = re.compile(rf"^(fwd\s+)?({'|'.join(DICE_FACES)})(?:\s+(\d+))?$")
_DURATION = re.compile(r"^(?:\d+[smhd])+$")
_DURATION_PART = re.compile(r"(\d+)([smhd])")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}
_START_LINK = re.compile(rf"^https://t\.me/{BOT_USERNAME}(?:\?start=([\w-]+))?$")


class SandboxError(Exception):
    """A transcript line the sandbox cannot carry out."""


class Sandbox:
    def __init__(self, *, seed: int = 0, db_path: Path | None = None, language: str = "ru",
                 out_dir: Path | None = None, emit: Callable[[str], None] = print) -> None:
        self.rng = random.Random(seed)
        self.world = World(self.rng, language)
        self.clock = VirtualClock(SANDBOX_EPOCH)
        self.emit = emit
        self.errors = 0
        self.out_dir = out_dir
        if db_path is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="sandbox-")
            db_path = Path(self._tmp.name) / "sandbox.sqlite3"
        self.db_path = db_path
        self.app: App | None = None
        self._last_update: dict[str, Any] | None = None

    async def start(self) -> None:
        settings = load_settings(database_path=self.db_path, bot_token=None, webhook_url=None)
        session = SandboxSession(self.world, self.emit, self.out_dir)
        self.app = await build(settings, session, clock=self.clock, rng=self.rng,
                               scheduler_factory=lambda jobs, run: VirtualScheduler(
                                   jobs, run, self.clock))

    async def close(self) -> None:
        if self.app:
            await self.app.close()
            self.app = None

    async def run_lines(self, lines) -> int:
        for line in lines:
            await self.line(line)
        return self.errors

    async def line(self, raw: str) -> None:
        text = raw.rstrip("\n")
        if not text.strip() or text.lstrip().startswith("#"):
            return
        try:
            if text.startswith("!"):
                await self._directive(text[1:].split())
            else:
                await self._event(text)
        except SandboxError as error:
            self._error(str(error))
        except Exception as error:  # a handler that raised: the transcript must show it
            self._error(f"{type(error).__name__}: {error}")

    def _error(self, message: str) -> None:
        self.errors += 1
        self.emit(f"!! error: {message}")

    # -- directives --------------------------------------------------------------------

    async def _directive(self, words: list[str]) -> None:
        match words:
            case ["admin", target]:
                handle, _, group_name = target.partition("@")
                group = self.world.group(group_name)
                group.admins.add(BOT_ID if handle == "bot" else self.world.user(handle).id)
            case ["now", stamp]:
                try:
                    moment = datetime.fromisoformat(stamp)
                except ValueError:
                    raise SandboxError(f"not a time: {stamp}") from None
                if moment.tzinfo is None:
                    raise SandboxError("the time needs an offset, e.g. 2026-10-21T19:50+03:00")
                if moment < self.clock.now():
                    raise SandboxError("the clock only goes forward")
                await self.app.services.scheduler.advance_to(moment)
            case ["advance", amount] if _DURATION.match(amount):
                delta = sum((timedelta(**{_UNITS[unit]: int(n)})
                             for n, unit in _DURATION_PART.findall(amount)), timedelta())
                await self.app.services.scheduler.advance_to(self.clock.now() + delta)
            case ["block" | "unblock" as verb, handle]:
                self.world.user(handle).blocked = verb == "block"
            case ["privacy", "on" | "off" as state]:
                self.world.privacy = state == "on"
            case ["restart"]:
                await self.close()
                await self.start()
            case ["replay"]:
                if self._last_update is None:
                    raise SandboxError("no update to replay yet")
                await self._feed(self._last_update)
            case _:
                raise SandboxError(f"unknown directive: !{' '.join(words)}")

    # -- events ------------------------------------------------------------------------

    async def _event(self, text: str) -> None:
        match = _EVENT.match(text)
        if not match:
            raise SandboxError(f"cannot read line: {text}")
        handle, place, content = match.groups()
        user = self.world.user(handle)
        chat_id = user.id if place == "dm" else self._group_for(place, user).id
        if place == "dm":
            user.started = True
        content = content.strip()
        if content.startswith("[") and content.endswith("]"):
            await self._press(user, chat_id, content[1:-1])
        elif content.startswith("callback "):
            await self._callback(user, chat_id, content.removeprefix("callback ").strip(),
                                 self._newest(chat_id, lambda m: True))
        elif dice := _DICE.match(content):
            await self._dice(user, chat_id, dice)
        elif content.startswith("photo:"):
            photo_id = self.world.next_file_id("photo")
            caption = content.removeprefix("photo:").strip()
            await self._message(user, chat_id, caption=caption or None, photo=[{
                "file_id": photo_id, "file_unique_id": photo_id, "width": 1080, "height": 1920}])
        else:
            await self._message(user, chat_id, text=content)

    def _group_for(self, name: str, user: SandboxUser):
        group = self.world.group(name)
        if group.creator is None:
            group.creator = user.id
        return group

    async def _dice(self, user: SandboxUser, chat_id: int, match: re.Match) -> None:
        forwarded, emoji, value = match.groups()
        faces = DICE_FACES[emoji]
        value = int(value) if value else self.rng.randint(1, faces)
        if not 1 <= value <= faces:
            raise SandboxError(f"{emoji} shows 1–{faces}, not {value}")
        extra: dict[str, Any] = {}
        if forwarded:
            extra["forward_origin"] = {"type": "hidden_user", "date": self._date(),
                                       "sender_user_name": "Someone"}
        await self._message(user, chat_id, dice={"emoji": emoji, "value": value}, **extra)

    async def _message(self, user: SandboxUser, chat_id: int, **fields: Any) -> None:
        group = self.world.group_by_id(chat_id)
        is_command = (fields.get("text") or "").startswith("/")
        if group and self.world.privacy and BOT_ID not in group.admins and not is_command:
            return  # privacy mode: Telegram never shows the bot this message
        message_id = self.world.next_message_id(chat_id)
        payload = {"message_id": message_id, "date": self._date(),
                   "chat": self.world.chat_json(chat_id), "from": user.as_json(), **fields}
        self.world.store(chat_id, message_id, False, payload)
        await self._feed({"update_id": self.world.next_update_id(), "message": payload})

    def _newest(self, chat_id: int, wanted) -> Any:
        for stored in reversed(self.world.messages.get(chat_id, [])):
            if stored.from_bot and wanted(stored):
                return stored
        raise SandboxError("no message from the bot in that chat")

    async def _press(self, user: SandboxUser, chat_id: int, label: str) -> None:
        def has_button(stored) -> bool:
            return any(b["text"] == label for row in
                       (stored.payload.get("reply_markup") or {}).get("inline_keyboard", [])
                       for b in row)
        try:
            stored = self._newest(chat_id, has_button)
        except SandboxError:
            raise SandboxError(f"no button [{label}] in that chat") from None
        button = next(b for row in stored.payload["reply_markup"]["inline_keyboard"]
                      for b in row if b["text"] == label)
        if "callback_data" in button:
            await self._callback(user, chat_id, button["callback_data"], stored)
        elif (url := button.get("url")) and (link := _START_LINK.match(url)):
            # Telegram opens the DM; pressing Start there also lifts a block.
            user.started, user.blocked = True, False
            command = f"/start {link.group(1)}" if link.group(1) else "/start"
            await self._message(user, user.id, text=command)
        else:
            raise SandboxError(f"button [{label}] opens {button.get('url')}, outside the sandbox")

    async def _callback(self, user: SandboxUser, chat_id: int, data: str, stored) -> None:
        query_id = str(self.world.next_update_id() * 7919)
        self.world.pending_callbacks[query_id] = user.handle
        await self._feed({"update_id": self.world.next_update_id(), "callback_query": {
            "id": query_id, "from": user.as_json(), "message": stored.payload,
            "chat_instance": str(chat_id), "data": data}})

    def _date(self) -> int:
        return int(self.clock.now().timestamp())

    async def _feed(self, update: dict[str, Any]) -> None:
        self._last_update = update
        app = self.app
        await app.dispatcher.feed_update(app.bot, Update.model_validate(
            update, context={"bot": app.bot}))
