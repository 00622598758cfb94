"""The outgoing layer: Telegram's rate limits, RetryAfter, DMs that cannot be delivered,
and live boards edited in place.

Rate limits and RetryAfter live in a request middleware on the bot's session, so every
Bot API call passes through them whoever makes it. :class:`Outbox` is what features use to
send: it knows that a user who never started the bot (or blocked it) cannot be messaged
and turns that into a group notice with a deep link instead of a crash.
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections import defaultdict, deque
from collections.abc import Callable

from aiogram import Bot
from aiogram.client.session.middlewares.base import BaseRequestMiddleware
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramRetryAfter
from aiogram.methods import AnswerCallbackQuery, TelegramMethod
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.clock import Clock

log = logging.getLogger(__name__)

GROUP_LIMIT = (20, 60.0)  # messages per seconds in one group
GLOBAL_LIMIT = (30, 1.0)  # messages per second overall
MAX_RETRIES = 5


class _Window:
    """At most ``limit`` events in any ``period`` seconds (a sliding window)."""

    def __init__(self, limit: int, period: float) -> None:
        self.limit, self.period = limit, period
        self.times: deque[float] = deque()
        self.lock = asyncio.Lock()

    async def take(self, clock: Clock) -> None:
        async with self.lock:
            while True:
                now = clock.now().timestamp()
                while self.times and self.times[0] <= now - self.period:
                    self.times.popleft()
                if len(self.times) < self.limit:
                    self.times.append(now)
                    return
                await clock.sleep(self.times[0] + self.period - now)


class RateLimitMiddleware(BaseRequestMiddleware):
    """Keeps sends within Telegram's limits and waits out RetryAfter instead of failing."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.global_window = _Window(*GLOBAL_LIMIT)
        self.group_windows: defaultdict[int, _Window] = defaultdict(lambda: _Window(*GROUP_LIMIT))

    async def __call__(self, make_request, bot: Bot, method: TelegramMethod):
        chat_id = getattr(method, "chat_id", None)
        counted = isinstance(chat_id, int) and not type(method).__name__.startswith("Get")
        for attempt in range(MAX_RETRIES + 1):
            if counted:
                if chat_id < 0:
                    await self.group_windows[chat_id].take(self.clock)
                await self.global_window.take(self.clock)
            try:
                return await make_request(bot, method)
            except TelegramRetryAfter as error:
                if attempt == MAX_RETRIES:
                    raise
                log.warning("RetryAfter %ss on %s", error.retry_after, type(method).__name__)
                await self.clock.sleep(error.retry_after)
        raise AssertionError("unreachable")


class PlainToastMiddleware(BaseRequestMiddleware):
    """Button answers (toasts and alerts) are plain text in Telegram, while every text of the
    bot is built as HTML (parameters escaped): turn the entities back into characters here,
    once, so a name like ``<b>Ann</b> & Co`` reads the same in a toast as in a message."""

    async def __call__(self, make_request, bot: Bot, method: TelegramMethod):
        if isinstance(method, AnswerCallbackQuery) and method.text:
            method = method.model_copy(update={"text": html.unescape(method.text)})
        return await make_request(bot, method)


def undeliverable(error: Exception) -> bool:
    """True for the errors that mean "this user cannot be messaged by the bot"."""
    if isinstance(error, TelegramForbiddenError):
        return True
    return isinstance(error, TelegramBadRequest) and "chat not found" in error.message.lower()


class Outbox:
    def __init__(self, bot: Bot, deep_link: Callable[[str], str]) -> None:
        self.bot = bot
        self.deep_link = deep_link

    async def dm(self, user_id: int, text: str, *, markup: InlineKeyboardMarkup | None = None,
                 fallback_chat_id: int | None = None, fallback_text: str | None = None,
                 button_text: str | None = None, payload: str = "") -> Message | None:
        """Send a private message; if the user cannot be reached, tell the group instead.

        ``fallback_text`` (already localized, naming the user) goes to ``fallback_chat_id``
        with a deep-link button labelled ``button_text`` that opens the DM with the bot.
        """
        try:
            return await self.bot.send_message(user_id, text, reply_markup=markup)
        except (TelegramForbiddenError, TelegramBadRequest) as error:
            if not undeliverable(error):
                raise
            log.info("DM to %s failed: %s", user_id, error.message)
        if fallback_chat_id is not None and fallback_text:
            keyboard = None
            if button_text:
                keyboard = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
                    text=button_text, url=self.deep_link(payload))]])
            await self.bot.send_message(fallback_chat_id, fallback_text, reply_markup=keyboard)
        return None

    async def board(self, chat_id: int, message_id: int | None, text: str,
                    markup: InlineKeyboardMarkup | None = None) -> int:
        """Show a live board: edit it in place when it exists, else send it; return its id."""
        if message_id is not None:
            try:
                await self.bot.edit_message_text(text=text, chat_id=chat_id,
                                                 message_id=message_id, reply_markup=markup)
                return message_id
            except TelegramBadRequest as error:
                if "not modified" in error.message:
                    return message_id
                if "not found" not in error.message and "can't be edited" not in error.message:
                    raise
        sent = await self.bot.send_message(chat_id, text, reply_markup=markup)
        return sent.message_id
