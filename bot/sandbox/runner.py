"""Reads transcript lines (README, "The sandbox"), turns them into Telegram updates for the
real dispatcher, and runs the virtual clock. Used by ``python -m bot sandbox`` and the tests.

The sandbox's Telegram (the world) and the transcript's position — the next update id, the
virtual clock, the random state, how many lines were carried out — are kept in the database
file after every line, so a later run on the same file continues this one. A process killed
in the middle of a line leaves the position before that line: fed again, the line brings the
same update ids, as Telegram delivers an update again that a crashed bot did not confirm.
"""

from __future__ import annotations

import logging
import random
import re
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from aiogram.filters.callback_data import CallbackData
from aiogram.types import Update

from bot import menu
from bot.app import App, build
from bot.clock import VirtualClock
from bot.config import load_settings
from bot.features.darts import keypad as darts_keypad
from bot.sandbox import strict
from bot.sandbox.failures import LINE, REFUSED, UNHANDLED, Failure, LoggedErrors, trace_of
from bot.sandbox.session import DICE_FACES, SandboxSession
from bot.sandbox.world import (
    ANONYMOUS_ADMIN_JSON,
    BOT_ID,
    BOT_JSON,
    BOT_USERNAME,
    SandboxGroup,
    SandboxUser,
    StoredMessage,
    World,
)
from bot.scheduler import VirtualScheduler
from storage.db import Database
from storage.repositories.sandbox_world import SandboxWorldRepo

SANDBOX_EPOCH = datetime.fromisoformat("2026-10-01T12:00:00+03:00")
_EVENT = re.compile(r"^([a-z0-9_]+)@([a-z0-9_]+)(?:/(\d+))?:\s?(.*)$")
_PRESS = re.compile(r"^\[(.*)\](?:#(\d+))?$")
_DICE = re.compile(rf"^(fwd\s+)?({'|'.join(DICE_FACES)})(?:\s+(\d+))?$")
_DURATION = re.compile(r"^(?:\d+[smhd])+$")
_DURATION_PART = re.compile(r"(\d+)([smhd])")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}
_START_LINK = re.compile(rf"^https://t\.me/{BOT_USERNAME}(?:\?start=([\w-]+))?$")


class SandboxError(Exception):
    """A transcript line the sandbox cannot carry out."""


class Sandbox:
    jobs_due_in_waits = True
    """Whether a job that fell due while a line waited (a die's animation, a group's rate
    window: each wait moves the virtual clock on) runs at the end of that line, as a live
    scheduler runs it at its time."""

    def __init__(self, *, seed: int = 0, db_path: Path | None = None, language: str = "ru",
                 out_dir: Path | None = None, emit: Callable[[str], None] = print,
                 render_processes: int = 0) -> None:
        self.rng = random.Random(seed)
        self.world = World(self.rng, language)
        self.clock = VirtualClock(SANDBOX_EPOCH)
        self.emit = emit
        self.errors = 0
        self.out_dir = out_dir
        self.render_processes = render_processes
        """Pictures are drawn in a thread (0) unless a caller asks for worker processes."""
        if db_path is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="sandbox-")
            db_path = Path(self._tmp.name) / "sandbox.sqlite3"
        self.db_path = db_path
        self.app: App | None = None
        self._world_db: Database | None = None
        self._last_update: dict[str, Any] | None = None
        self._in_flight = False
        """An update of the line in hand has been fed: kept with the position, so a run
        killed before the line's end delivers it again (``--resume``), as Telegram does."""
        self._line_began = self.clock.now()
        """The virtual time the line in hand began at (its sends may wait for a window)."""
        self._cut_off_at: datetime | None = None
        """The clock of the last whole line, when the run resumed is one killed in the middle
        of the next, whose clock had gone on: that line is run again from there (its
        ``! advance`` counts from it, as an uninterrupted run's did)."""
        self.lines_done = 0
        self.failures: list[Failure] = []
        self._logged = LoggedErrors(lambda message, trace: self._error(message, UNHANDLED, trace))

    async def start(self) -> None:
        """Take the world and the position a previous run left in the file, start the bot."""
        self._world_db = await Database.open(self.db_path)
        world = SandboxWorldRepo(self._world_db)
        self._resume(await self.world.load(world))
        self._line_began = self.clock.now()
        if (written := await world.last_written()) and written > self.clock.now():
            self._cut_off_at = self.clock.now()
            self.clock.set(written)  # a process killed mid-line: its clock had gone on
        settings = load_settings(database_path=self.db_path, bot_token=None, webhook_url=None,
                                 render_processes=self.render_processes)
        session = SandboxSession(self.world, self.emit, self.out_dir,
                                 refused=lambda message: self._error(message, REFUSED))
        logging.getLogger("bot").addHandler(self._logged)
        self.app = await build(settings, session, clock=self.clock, rng=self.rng,
                               scheduler_factory=lambda jobs, run: VirtualScheduler(
                                   jobs, run, self.clock))
        await menu.publish(self.app.bot, settings.default_language)  # as a live start does

    async def close(self) -> None:
        if self.app:
            await self.app.close()
            self.app = None
        logging.getLogger("bot").removeHandler(self._logged)
        if self._world_db:
            await self.world.flush(self._position())
            await self._world_db.close()
            self._world_db = None

    def _resume(self, state: dict[str, Any]) -> None:
        if "clock" in state:
            self.clock.set(datetime.fromisoformat(state["clock"]))
        if "rng" in state:
            version, internal, gauss = state["rng"]
            self.rng.setstate((version, tuple(internal), gauss))
        self._last_update = state.get("last_update", self._last_update)
        self.lines_done = state.get("lines_done", 0)
        self._in_flight = state.get("in_flight", False)

    def _position(self) -> dict[str, Any]:
        return self.world.state() | {
            "clock": self.clock.now().isoformat(),
            "last_update": self._last_update, "lines_done": self.lines_done,
            "in_flight": self._in_flight}

    async def run_lines(self, lines, *, resume: bool = False) -> int:
        """Carry out ``lines``; with ``resume``, skip as many as this database has already
        carried out (the same transcript, run again after an interrupted run). A line cut
        off after its update was fed is not fed again from the script: that very update is
        delivered again first (the same update id, the same button data, even where the
        button has gone since), as Telegram delivers again an update the bot never
        confirmed."""
        if resume and self._in_flight:
            await self._carry_out(self._feed(self._last_update))
            await self._line_done()
        skip = self.lines_done if resume else 0
        for line in lines:
            if skip and _is_step(line):
                skip -= 1
                continue
            await self.line(line)
        return self.errors

    async def line(self, raw: str) -> None:
        text = raw.rstrip("\n")
        if not _is_step(text):
            return
        self._line_began = self._cut_off_at or self.clock.now()
        if text.startswith("!"):
            await self._carry_out(self._directive(text[1:].split()))
        else:
            await self._carry_out(self._event(text))
        await self._line_done()

    async def _line_done(self) -> None:
        await self._carry_out(self._follow_ups())  # run even after a handler that raised
        self.lines_done, self._in_flight = self.lines_done + 1, False
        self._cut_off_at = None
        if self._world_db:
            await self.world.flush(self._position())

    async def _carry_out(self, step: Awaitable[None]) -> None:
        try:
            await step
        except SandboxError as error:
            self._error(str(error))
        except Exception as error:  # a handler that raised: the transcript must show it
            self._error(f"{type(error).__name__}: {error}", UNHANDLED, trace_of(error))

    def _error(self, message: str, kind: str = LINE, trace: str = "") -> None:
        self.errors += 1
        self.failures.append(Failure(kind, message, trace))
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
                await self.app.services.scheduler.advance_to(self._line_began + delta)
            case ["block" | "unblock" as verb, handle]:
                await self._blocked(self.world.user(handle), verb == "block")
            case ["privacy", "on" | "off" as state]:
                self.world.privacy = state == "on"
            case ["add", target] if target.startswith("bot@"):
                await self._bot_joined(self._spoken_in(target.removeprefix("bot@")))
            case ["remove", target] if target.startswith("bot@"):
                await self._bot_removed(self._spoken_in(target.removeprefix("bot@")))
            case ["migrate", name] | ["migrate", name, "unseen"]:
                await self._migrate(name, seen=words[-1] != "unseen")
            case ["anonymous", target] | ["anonymous", target, "off"]:
                self._anonymous(target, on=words[-1] != "off")
            case ["menu", target]:
                self._show_menu(target)
            case ["restart"]:
                await self.close()
                await self.start()
            case ["replay"]:
                if self._last_update is None:
                    raise SandboxError("no update to replay yet")
                await self._feed(self._last_update)
            case _:
                raise SandboxError(f"unknown directive: !{' '.join(words)}")

    def _anonymous(self, target: str, *, on: bool) -> None:
        """``user@group`` posts as the group from now on (an administrator with "Remain
        anonymous"), or (``off``) as themselves again."""
        handle, _, name = target.partition("@")
        group, user = self._spoken_in(name), self.world.user(handle)
        group.admins.add(user.id)  # only an administrator may remain anonymous
        (self.world.anonymous.add if on else self.world.anonymous.discard)((group.id, user.id))

    def _show_menu(self, target: str) -> None:
        """Print the command menu ``user@group`` (or ``user@dm``) sees on typing "/"."""
        handle, _, chat = target.partition("@")
        group = None if chat == "dm" else self._spoken_in(chat)
        entries = [f"/{command} — {text}"
                   for command, text in self.world.menu(self.world.user(handle), group)]
        first, *rest = entries or ["(no menu)"]
        self.emit(f"☰ {target}: {first}")
        for entry in rest:
            self.emit(f"  {entry}")

    def _spoken_in(self, name: str) -> SandboxGroup:
        group = self.world.groups.get(name)
        if group is None or group.creator is None:
            raise SandboxError(f"nobody has written in group {name} yet: its first writer is its"
                               f" creator, who adds the bot (a line such as `org@{name}: hi`"
                               " first)")
        return group

    async def _bot_joined(self, group: SandboxGroup) -> None:
        """The bot is now a member of ``group`` (an administrator when ``! admin bot@…``
        came first), added by its creator: Telegram's ``my_chat_member`` update."""
        self.world.left.discard(group.id)
        await self._bot_membership(group, {"status": "left", "user": BOT_JSON},
                                   group.member_json(BOT_ID, BOT_JSON))

    async def _bot_removed(self, group: SandboxGroup) -> None:
        """Its creator removes the bot from ``group``: the ``my_chat_member`` update, then
        the group is out of the bot's reach until ``! add bot@…``."""
        was = group.member_json(BOT_ID, BOT_JSON)
        self.world.left.add(group.id)  # from now on, also while the bot handles the update
        group.admins.discard(BOT_ID)
        await self._bot_membership(group, was, {"status": "left", "user": BOT_JSON})

    async def _blocked(self, user: SandboxUser, blocked: bool) -> None:
        """``user`` blocks (or unblocks) the bot: DMs to them fail (or go through again) and,
        when they had opened its chat, Telegram tells the bot (``my_chat_member`` of their
        private chat: ``kicked``, or a ``member`` again)."""
        if user.blocked == blocked:
            return
        user.blocked = blocked
        if not user.started:
            return
        member = {"status": "member", "user": BOT_JSON}
        kicked = {"status": "kicked", "user": BOT_JSON, "until_date": 0}
        await self._feed({"update_id": self.world.next_update_id(), "my_chat_member": {
            "chat": self.world.chat_json(user.id), "from": user.as_json(), "date": self._date(),
            "old_chat_member": member if blocked else kicked,
            "new_chat_member": kicked if blocked else member}})

    async def _bot_membership(self, group: SandboxGroup, old: dict, new: dict) -> None:
        creator = self.world.user_by_id(group.creator)
        await self._feed({"update_id": self.world.next_update_id(), "my_chat_member": {
            "chat": group.as_json(), "from": creator.as_json(), "date": self._date(),
            "old_chat_member": old, "new_chat_member": new}})

    async def _migrate(self, name: str, *, seen: bool) -> None:
        """Telegram makes group ``name`` a supergroup: a new id, a service message in the
        old chat and in the new one, and the bot's joining of the new one (``seen``; else
        the bot has not handled them yet and learns of it from a refused call)."""
        group = self._spoken_in(name)
        try:
            old_id, new_id = self.world.migrate(name)
        except ValueError as error:
            raise SandboxError(str(error)) from None
        if not seen:
            return
        creator = self.world.user_by_id(group.creator)
        for chat_id, chat, field in (
                (old_id, {"id": old_id, "type": "group", "title": name},
                 {"migrate_to_chat_id": new_id}),
                (new_id, group.as_json(), {"migrate_from_chat_id": old_id})):
            payload = {"message_id": self.world.next_message_id(chat_id), "date": self._date(),
                       "chat": chat, "from": creator.as_json(), **field}
            await self._feed({"update_id": self.world.next_update_id(), "message": payload})
        await self._bot_joined(group)

    # -- events ------------------------------------------------------------------------

    async def _event(self, text: str) -> None:
        match = _EVENT.match(text)
        if not match:
            raise SandboxError(f"cannot read line: {text} (a line is `user@group: text`, "
                               "`user@dm: text`, `user@group: [button]` or `! directive`; "
                               "users and groups are named in small Latin letters, digits "
                               "and _: README, 'The sandbox')")
        handle, place, topic, content = match.groups()
        user = self.world.user(handle)
        chat_id = user.id if place == "dm" else self._group_for(place, user).id
        if place == "dm":
            if topic:
                raise SandboxError("a private chat has no topics")
            user.started, user.blocked = True, False  # Telegram unblocks who writes to a bot
        if chat_id in self.world.left:
            return  # said where the bot is not: Telegram gives it nothing
        where = _Place(chat_id, self._topic(chat_id, topic))
        content = content.strip()
        if press := _PRESS.match(content):
            label, message_id = press.groups()
            await self._press(user, where, label, int(message_id) if message_id else None)
        elif content.startswith("callback "):
            await self._callback(user, chat_id, content.removeprefix("callback ").strip(),
                                 self._newest(chat_id, lambda m: True, where.thread))
        elif dice := _DICE.match(content):
            await self._dice(user, where, dice)
        elif content.startswith("photo:"):
            photo_id = self.world.next_file_id("photo")
            caption = content.removeprefix("photo:").strip()
            if len(caption) > strict.CAPTION_LIMIT:
                raise SandboxError(f"Telegram lets a user write at most {strict.CAPTION_LIMIT}"
                                   " characters in a caption")
            await self._message(user, where, caption=caption or None, photo=[{
                "file_id": photo_id, "file_unique_id": photo_id, "width": 1080, "height": 1920}])
        else:
            if len(content) > strict.TEXT_LIMIT:
                raise SandboxError(f"Telegram lets a user send at most {strict.TEXT_LIMIT}"
                                   " characters in a message")
            await self._message(user, where, text=content)

    def _group_for(self, name: str, user: SandboxUser):
        group = self.world.group(name)
        if group.creator is None:
            group.creator = user.id
        return group

    def _topic(self, chat_id: int, topic: str | None) -> int | None:
        """A topic named in a line exists from then on (and the group is a forum)."""
        if not topic:
            return None
        thread = int(topic)
        if thread < 1:
            raise SandboxError("topics are numbered from 1")
        self.world.open_topic(self.world.group_by_id(chat_id), thread)
        return thread

    async def _dice(self, user: SandboxUser, where: _Place, match: re.Match) -> None:
        forwarded, emoji, value = match.groups()
        faces = DICE_FACES[emoji]
        value = int(value) if value else self.rng.randint(1, faces)
        if not 1 <= value <= faces:
            raise SandboxError(f"{emoji} shows 1–{faces}, not {value}")
        extra: dict[str, Any] = {}
        if forwarded:
            extra["forward_origin"] = {"type": "hidden_user", "date": self._date(),
                                       "sender_user_name": "Someone"}
        await self._message(user, where, dice={"emoji": emoji, "value": value}, **extra)

    async def _message(self, user: SandboxUser, where: _Place, **fields: Any) -> None:
        chat_id = where.chat_id
        group = self.world.group_by_id(chat_id)
        is_command = (fields.get("text") or "").startswith("/")
        if group and self.world.privacy and BOT_ID not in group.admins and not is_command:
            return  # privacy mode: Telegram never shows the bot this message
        message_id = self.world.next_message_id(chat_id)
        topic = ({"message_thread_id": where.thread, "is_topic_message": True}
                 if where.thread else {})
        sender = {"from": user.as_json()}
        if (chat_id, user.id) in self.world.anonymous:  # Telegram hides who posts as the group
            sender = {"from": ANONYMOUS_ADMIN_JSON, "sender_chat": self.world.chat_json(chat_id)}
        payload = {"message_id": message_id, "date": self._date(),
                   "chat": self.world.chat_json(chat_id), **sender, **topic, **fields}
        self.world.store(chat_id, message_id, False, payload)
        await self._feed({"update_id": self.world.next_update_id(), "message": payload})

    def _newest(self, chat_id: int, wanted, thread: int | None = None) -> StoredMessage:
        """The newest bot message in that chat (in that topic, when one is named)."""
        for stored in reversed(self.world.messages.get(chat_id, [])):
            if stored.from_bot and wanted(stored) and thread in (None, stored.thread):
                return stored
        raise SandboxError("no message from the bot in that chat")

    async def _press(self, user: SandboxUser, where: _Place, label: str,
                     message_id: int | None) -> None:
        if message_id is None:
            stored = await self._pressable(user, where, label)
        else:
            stored = self.world.find(where.chat_id, message_id)
            if stored is None or not stored.from_bot or _button(stored, label) is None:
                raise SandboxError(f"no button [{label}] on message {message_id}")
        button = _button(stored, label)
        if "callback_data" in button:
            await self._callback(user, where.chat_id, button["callback_data"], stored)
        elif (url := button.get("url")) and (link := _START_LINK.match(url)):
            # Telegram opens the DM; pressing Start there also lifts a block.
            user.started, user.blocked = True, False
            command = f"/start {link.group(1)}" if link.group(1) else "/start"
            await self._message(user, _Place(user.id, None), text=command)
        else:
            raise SandboxError(f"button [{label}] opens {button.get('url')}, outside the sandbox")

    async def _pressable(self, user: SandboxUser, where: _Place, label: str) -> StoredMessage:
        """The newest bot message with that label on which ``user`` may press it (a match's
        button for one of its players), else the newest with that label at all, which the
        bot then refuses as it refuses a stranger's press (docs/sandbox.md)."""
        candidates = [m for m in reversed(self.world.messages.get(where.chat_id, []))
                      if m.from_bot and where.thread in (None, m.thread)
                      and _button(m, label) is not None]
        if not candidates:
            raise SandboxError(f"no button [{label}] in that chat")
        for stored in candidates:
            if await self._may_press(user, _button(stored, label)):
                return stored
        return candidates[0]

    async def _may_press(self, user: SandboxUser, button: dict[str, Any]) -> bool:
        """False for a button of a match ``user`` does not play in; True otherwise."""
        match_id = match_of_callback(button.get("callback_data") or "")
        if match_id is None:
            return True
        match = await self.app.services.repos.matches.get(match_id)
        return match is None or user.id in match.players

    async def _callback(self, user: SandboxUser, chat_id: int, data: str,
                        stored: StoredMessage) -> None:
        query_id = str(self.world.next_update_id() * 7919)
        self.world.pending_callbacks[query_id] = user.handle
        await self._feed({"update_id": self.world.next_update_id(), "callback_query": {
            "id": query_id, "from": user.as_json(), "message": stored.payload,
            "chat_instance": str(chat_id), "data": data}})

    def _date(self) -> int:
        return int(self.clock.now().timestamp())

    async def _follow_ups(self) -> None:
        """What the line's updates left to run after them (a tournament moving on after a
        result), as the live scheduler runs it right after the update; and the jobs that
        fell due while the line waited (:attr:`jobs_due_in_waits`)."""
        await self.app.services.scheduler.run_following()
        if self.jobs_due_in_waits:
            await self._jobs_due()

    async def run_jobs_due(self) -> None:
        """Run the jobs that fell due while the last line waited: for a caller that holds
        them back (:attr:`jobs_due_in_waits` off) to tell their doing from the line's."""
        await self._carry_out(self._jobs_due())

    async def _jobs_due(self) -> None:
        if self.clock.now() > self._line_began:
            await self.app.services.scheduler.advance_to(self.clock.now())

    async def _feed(self, update: dict[str, Any]) -> None:
        self._last_update, self._in_flight = update, True
        if self._world_db:
            await self.world.flush(self._position())
        app = self.app
        await app.dispatcher.feed_update(app.bot, Update.model_validate(
            update, context={"bot": app.bot}))


@dataclass(frozen=True)
class _Place:
    """Where a line happens: a chat, and a forum topic of it or None."""

    chat_id: int
    thread: int | None


def _is_step(line: str) -> bool:
    """A line that is carried out (not blank, not a comment)."""
    return bool(line.strip()) and not line.lstrip().startswith("#")


def match_of_callback(data: str) -> int | None:
    """The match a button's callback data names (any CallbackData with a ``match_id``, and
    the darts keypad's own compact data)."""
    if (press := darts_keypad.read(data)) is not None:
        return press.match_id
    for kind in _callback_kinds(CallbackData):
        head = f"{kind.__prefix__}{kind.__separator__}"
        if "match_id" in kind.model_fields and data.startswith(head):
            try:
                return kind.unpack(data).match_id
            except (TypeError, ValueError):
                continue
    return None


def _callback_kinds(base: type) -> list[type]:
    found = []
    for kind in base.__subclasses__():
        found += [kind, *_callback_kinds(kind)]
    return found


def _button(stored: StoredMessage, label: str) -> dict[str, Any] | None:
    rows = (stored.payload.get("reply_markup") or {}).get("inline_keyboard", [])
    return next((button for row in rows for button in row if button["text"] == label), None)
