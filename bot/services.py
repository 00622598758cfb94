"""Everything a handler or job needs, built once per process and injected by the dispatcher."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from weakref import WeakValueDictionary

from aiogram import Bot

from bot.clock import Clock
from bot.config import Settings
from bot.i18n import Translator, pick_language
from bot.render.pool import Renderer
from bot.render.posting import Posted
from bot.sending import Outbox
from storage.db import Database
from storage.repositories.jobs import JobsRepo
from storage.repositories.matches import MatchesRepo
from storage.repositories.organiser_log import OrganiserLogRepo
from storage.repositories.snapshots import SnapshotsRepo
from storage.repositories.tournaments import EntrantsRepo, TournamentsRepo
from storage.repositories.updates import ProcessedUpdatesRepo
from storage.repositories.users import ChatsRepo, UsersRepo

DOUBLE_TAP = timedelta(seconds=2)
"""Two presses of one button this close together are one double tap."""
ADDED_BY_LINK = "added"
"""The ``/start`` payload Telegram sends in a group the bot was added to by its link."""


class Repos:
    def __init__(self, db: Database) -> None:
        self.users = UsersRepo(db)
        self.chats = ChatsRepo(db)
        self.tournaments = TournamentsRepo(db)
        self.entrants = EntrantsRepo(db)
        self.organiser_log = OrganiserLogRepo(db)
        self.matches = MatchesRepo(db)
        self.jobs = JobsRepo(db)
        self.updates = ProcessedUpdatesRepo(db)
        self.snapshots = SnapshotsRepo(db)


@dataclass
class Services:
    settings: Settings
    db: Database
    clock: Clock
    rng: random.Random
    bot: Bot
    bot_username: str
    repos: Repos
    outbox: Outbox
    matches: object = None  # bot.match_service.MatchService, set by bot.app.build
    scheduler: object = None  # bot.scheduler.Scheduler, set once the dispatcher exists
    renderer: Renderer = field(default_factory=Renderer)  # pictures; build sets its workers
    posted: Posted = field(default_factory=Posted)  # file ids of pictures posted before
    _locks: WeakValueDictionary = field(default_factory=WeakValueDictionary)
    _languages: dict[int, str] = field(default_factory=dict)
    _moments: dict[tuple, datetime] = field(default_factory=dict)
    """What happened a moment ago, until when it counts (:meth:`remember`)."""

    def lock(self, key: str) -> asyncio.Lock:
        """The lock that serializes updates of one match (or one tournament's start)."""
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock

    def second_tap(self, *button: object) -> bool:
        """Whether a press of a button that only shows something (``button``: who pressed
        what, on which message) is the second press of a double tap: the same press seen
        within :data:`DOUBLE_TAP` before. Such a press changes nothing the bot could look
        up, so the first is remembered here (a double tap does not outlive the process)."""
        tapped = self.remembered(*button)
        self.remember(*button, lasting=DOUBLE_TAP)
        return tapped

    def remember(self, *moment: object, lasting: timedelta) -> None:
        """Remember ``moment`` (what happened, where) for ``lasting`` from now: in memory,
        for what only needs to be known a moment later (:meth:`remembered`)."""
        now = self.clock.now()
        if len(self._moments) > 256:
            self._moments = {key: until for key, until in self._moments.items() if until > now}
        self._moments[moment] = now + lasting

    def remembered(self, *moment: object) -> bool:
        """Whether ``moment`` was remembered (:meth:`remember`) and still counts."""
        until = self._moments.get(moment)
        return until is not None and until > self.clock.now()

    def add_to_group_link(self) -> str:
        """A t.me link that adds the bot to a group the user picks, as an administrator
        with the rights it uses (deleting a secret choice typed in the group, forum topics;
        an administrator also sees every message, whatever the privacy mode); Telegram then
        sends ``/start`` :data:`ADDED_BY_LINK` in the group."""
        return (f"https://t.me/{self.bot_username}?startgroup={ADDED_BY_LINK}"
                "&admin=delete_messages+manage_topics")

    async def opened_private_chat(self, user_id: int) -> bool:
        """Whether the user wrote to the bot in private and has not blocked it since
        (``users.started``): Telegram lets a bot write first to no one else, so a DM to
        anyone else would be dropped."""
        user = await self.repos.users.get(user_id)
        return user is not None and user.started

    def deep_link(self, payload: str = "") -> str:
        """A t.me link that opens the DM with the bot (and sends /start payload)."""
        link = f"https://t.me/{self.bot_username}"
        return f"{link}?start={payload}" if payload else link

    async def translator_for_chat(self, chat_id: int) -> Translator:
        """The language for messages to a chat: the group's, or the user's in a DM.

        Remembered per chat: every update needs it, and it changes only through
        :meth:`set_language` or a user's new Telegram language (:meth:`forget_language`)."""
        if chat_id not in self._languages:
            self._languages[chat_id] = await self._language_of(chat_id)
        return Translator(self._languages[chat_id])

    async def _language_of(self, chat_id: int) -> str:
        default = self.settings.default_language
        if chat_id > 0:
            user = await self.repos.users.get(chat_id)
            return pick_language(user and user.language, user and user.telegram_language,
                                 default=default)
        chat = await self.repos.chats.get(chat_id)
        return pick_language(chat and chat.language, default=default)

    async def set_language(self, chat_id: int, code: str) -> None:
        """A group's language (chat id < 0) or a user's own choice (their id)."""
        if chat_id < 0:
            await self.repos.chats.set_language(chat_id, code)
        else:
            await self.repos.users.set_language(chat_id, code)
        self._languages[chat_id] = code

    def forget_language(self, chat_id: int) -> None:
        self._languages.pop(chat_id, None)
