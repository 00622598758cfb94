"""The outgoing layer: Telegram's rate limits, RetryAfter, passing faults, DMs that cannot be
delivered, and live boards edited in place.

Everything that must hold for every Bot API call lives in request middlewares on the bot's
session, so it holds whoever makes the call (see :func:`install`): a DM to a user who
blocked the bot (or never started it) is dropped with a log line instead of an exception;
length limits are enforced (``bot/middlewares/limits.py``); rate limits and RetryAfter are
waited out; a 5xx or a dropped connection is retried with back-off. :class:`Outbox` is what
features use to DM someone with a group notice as the fallback.
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

from aiogram import Bot
from aiogram.client.session.base import BaseSession
from aiogram.client.session.middlewares.base import BaseRequestMiddleware
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageText,
    GetMe,
    GetUpdates,
    SendMessage,
    SetMessageReaction,
    TelegramMethod,
)
from aiogram.types import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReactionTypeEmoji,
)

from bot.board_queue import BoardQueue, Edit, Lost, board_gone
from bot.clock import Clock
from bot.method_fields import field, filled
from bot.middlewares.limits import LengthLimitMiddleware
from storage.cache import Recent

log = logging.getLogger(__name__)
T = TypeVar("T")
Waiting = Callable[[float], Awaitable[None]]

GROUP_LIMIT = (20, 60.0)  # messages per seconds in one group
GLOBAL_LIMIT = (30, 1.0)  # messages per second overall
MAX_RETRIES = 5
FAULT_DELAYS = (0.5, 1.0, 2.0, 4.0)  # seconds before each new try after a 5xx or lost link
TOAST_FAULT_DELAYS = (0.5,)  # a press's answer: tried once more, then given up
TOAST_LIMIT = 200


async def settled(*conversations: Awaitable[T]) -> list[T | BaseException]:
    """Run ``conversations`` with different chats (a group's board, each player's DM) at
    the same time, so that their waits for Telegram overlap: a card played redraws the score
    card and both hands in one round trip instead of three (and other work that waits, such
    as a picture in the worker, beside what is made meanwhile). Each runs to its end whether
    or not another fails; a failure is returned in its place. Calls to one chat stay in one
    conversation, in their order.

    The first runs in the caller's own task and starts first (the others are tasks that start
    when it first waits), so the sandbox, whose Telegram never makes a call wait, prints
    them in the order given. The others are then awaited in turn (each runs meanwhile, so
    their waits still overlap), without a gather's extra future and callbacks."""
    if not conversations:
        return []
    first, *rest = conversations
    others = [asyncio.ensure_future(other) for other in rest]
    results: list[T | BaseException] = []
    try:
        for conversation in (first, *others):
            results.append(await _outcome(conversation))
    except BaseException:  # cancelled: so are the others
        for other in others:
            other.cancel()
        raise
    return results


async def _outcome(conversation: Awaitable[T]) -> T | Exception:
    """What ``conversation`` returns, or the failure it raises."""
    try:
        return await conversation
    except Exception as error:
        return error


def raise_failure(results: list[T | BaseException]) -> list[T]:
    """The results of :func:`settled`, or its first failure raised."""
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


async def at_once(*conversations: Awaitable[T]) -> list[T]:
    """:func:`settled`, then its first failure raised."""
    return raise_failure(await settled(*conversations))


async def each_logged(what: str, conversations: Mapping[Any, Awaitable[Any]]) -> None:
    """:func:`settled` for messages whose loss must not hold up what follows them, in a job
    whose retry would only delay it and send the others again (a start's notices to lapsed
    applicants, late players' reminders): each failure is logged as ``what`` with its key,
    not raised. (A handler raises it after instead, with :func:`at_once` or
    :func:`raise_failure`: the dispatcher logs it.)"""
    for key, result in zip(conversations, await settled(*conversations.values()), strict=True):
        if isinstance(result, Exception):
            log.warning("%s %s not sent: %s", what, key, result)


class _Window:
    """At most ``limit`` events in any ``period`` seconds (a sliding window).

    ``full_at`` makes the window start as if ``limit`` events had just happened then: after
    a restart nothing tells what the previous process sent, so it assumes the worst.
    """

    def __init__(self, limit: int, period: float, full_at: float | None = None) -> None:
        self.limit, self.period = limit, period
        self.times: deque[float] = deque()
        self.closed_until = full_at + period if full_at is not None else 0.0
        self.lock = asyncio.Lock()
        self.queued = 0
        """Tasks in :meth:`take`: waiting for the lock or, holding it, for room."""

    def room(self, now: float) -> bool:
        """Record an event at ``now`` (a timestamp) if the window has room and no one is in
        :meth:`take` (who would be overtaken): most sends pass here, without the lock and its
        awaits."""
        return not self.queued and self._record(now) is None

    async def take(self, clock: Clock, waiting: Waiting | None = None, *,
                   record: bool = True) -> None:
        """Wait for room in the window, in turn; ``waiting`` hears of each wait before it
        starts. ``record=False``: the room is left for the call that follows."""
        check = self._record if record else self.wait
        self.queued += 1
        try:
            async with self.lock:
                while (wait := check(clock.now().timestamp())) is not None:
                    await _sleep(clock, wait, waiting)
        finally:
            self.queued -= 1

    def wait(self, now: float) -> float | None:
        """The seconds from ``now`` until the window may have room, None when it has room
        (nothing recorded)."""
        if (closed := self.closed_until - now) > 0:
            return closed
        while self.times and self.times[0] <= now - self.period:
            self.times.popleft()
        if len(self.times) < self.limit:
            return None
        return self.times[0] + self.period - now

    def _record(self, now: float) -> float | None:
        """Record an event at ``now`` if the window has room then (None), else the seconds
        until it may have."""
        if (wait := self.wait(now)) is None:
            self.times.append(now)
        return wait


async def _sleep(clock: Clock, seconds: float, waiting: Waiting | None) -> None:
    if waiting is not None:
        await waiting(seconds)
    await clock.sleep(seconds)


def fault_delays(method: TelegramMethod) -> tuple[float, ...]:
    """The back-offs before each new try of ``method`` after a fault: none for polling and
    the start-up's getMe (bot.app.whoami), which have back-offs of their own; one short one
    for a press's answer, a toast that says nothing once late, whose back-off would hold
    the update (and its match, its clocks) for seconds: then it is given up."""
    if isinstance(method, (GetUpdates, GetMe)):
        return ()
    if isinstance(method, AnswerCallbackQuery):
        return TOAST_FAULT_DELAYS
    return FAULT_DELAYS


class RateLimitMiddleware(BaseRequestMiddleware):
    """Keeps sends within Telegram's limits, waits out RetryAfter and retries a call that
    met a server error or a dropped connection (``FAULT_DELAYS`` apart) instead of failing;
    a press's answer that still fails is given up, not raised (:func:`fault_delays`).

    ``resumed_at`` (a restart that followed recent activity) starts every window full.
    ``group_waits`` (set once the bot's services exist) hears of each wait for a group's
    window before it starts, with the group's id, and of each wait for Telegram on a call to
    the group (a flood wait, a fault's back-off): the players of that group's matches see
    nothing meanwhile, so their clocks are moved on by it (``bot.play.clock.stalled``).
    Retrying after a dropped connection may deliver a message twice when the first copy
    did reach Telegram; a lost announcement is the worse of the two.
    """

    def __init__(self, clock: Clock, resumed_at: datetime | None = None) -> None:
        self.clock = clock
        full_at = resumed_at.timestamp() if resumed_at else None
        self.global_window = _Window(*GLOBAL_LIMIT, full_at=full_at)
        self.group_windows: defaultdict[int, _Window] = defaultdict(
            lambda: _Window(*GROUP_LIMIT, full_at=full_at))
        self.group_waits: Callable[[int, float], Awaitable[None]] | None = None

    async def __call__(self, make_request, bot: Bot, method: TelegramMethod):
        chat_id = field(method, "chat_id")
        counted = isinstance(chat_id, int) and not type(method).__name__.startswith("Get")
        # a group's limit counts messages: a reaction posts none
        in_group = isinstance(chat_id, int) and chat_id < 0 \
            and not isinstance(method, SetMessageReaction)
        grouped = counted and in_group
        faults = iter(fault_delays(method))
        retries = 0
        while True:
            if counted:
                now = self.clock.now().timestamp()  # read once for both windows
                if grouped and not (group := self.group_windows[chat_id]).room(now):
                    await group.take(self.clock, self._waiting(chat_id))
                    now = self.clock.now().timestamp()
                if not self.global_window.room(now):
                    await self.global_window.take(self.clock)
            try:
                return await make_request(bot, method)
            except TelegramRetryAfter as error:
                retries += 1
                if retries > MAX_RETRIES:
                    raise
                log.warning("RetryAfter %ss on %s", error.retry_after, type(method).__name__)
                await _sleep(self.clock, error.retry_after, self._told(chat_id, in_group))
            except (TelegramServerError, TelegramNetworkError) as error:
                delay = next(faults, None)
                if delay is None and isinstance(method, AnswerCallbackQuery):
                    log.warning("a press's answer is lost: %s", error.message)
                    return True  # the press itself has counted: what follows it goes on
                if delay is None:
                    raise
                log.warning("%s on %s; again in %ss", error.message, type(method).__name__,
                            delay)
                await _sleep(self.clock, delay, self._told(chat_id, in_group))

    def has_room(self, chat_id: int) -> bool:
        """Whether a message to the group ``chat_id`` would go now, without waiting for the
        group's window (nothing recorded)."""
        window = self.group_windows[chat_id]
        return not window.queued and window.wait(self.clock.now().timestamp()) is None

    async def room_for(self, chat_id: int) -> None:
        """Wait, in turn with the group's other sends, until the group ``chat_id``'s window
        has room, taking none of it (the call that follows does): its waits move the group's
        match clocks on as a send's do."""
        await self.group_windows[chat_id].take(self.clock, self._waiting(chat_id),
                                               record=False)

    def _told(self, chat_id: int, in_group: bool) -> Waiting | None:
        """Who hears of a wait for Telegram on a call (its flood wait, a fault's back-off):
        for a call about a group (a send, an edit, a read such as the forum check at a
        match's opening) the group's, whose players see no board meanwhile either, so its
        match clocks are moved on by it as by the window's waits; nobody's for any other
        call."""
        return self._waiting(chat_id) if in_group else None

    def _waiting(self, chat_id: int) -> Waiting | None:
        if self.group_waits is None:
            return None
        return partial(self.group_waits, chat_id)


class PlainToastMiddleware(BaseRequestMiddleware):
    """Button answers (toasts and alerts) are plain text in Telegram, while every text of the
    bot is built as HTML (parameters escaped): turn the entities back into characters here,
    once, so a name like ``<b>Ann</b> & Co`` reads the same in a toast as in a message.
    A toast holds at most 200 characters; a longer one is cut. A toast that reads as it is
    written (most: no entity, not too long) goes as it is, without a copy of the call."""

    async def __call__(self, make_request, bot: Bot, method: TelegramMethod):
        if isinstance(method, AnswerCallbackQuery) and method.text:
            text = html.unescape(method.text)
            if len(text) > TOAST_LIMIT:
                text = text[:TOAST_LIMIT - 1] + "…"
            if text != method.text:
                method = method.model_copy(update={"text": text})
        return await make_request(bot, method)


class HarmlessRefusalsMiddleware(BaseRequestMiddleware):
    """Three refusals of Telegram's that are nobody's error, answered here instead of raised
    into the handler:

    - a message to a user who blocked the bot (or never started it) cannot be delivered
      whoever sends it: logged and answered ``None``. Only private chats (positive ids) are
      concerned; a group that cannot be written to still raises, so the caller (a job) can
      pause its tournaments;
    - an edit to what the message shows already ("message is not modified") has done what
      it was for: answered ``True``, as Telegram answers an edit it made of a message it
      does not return. A press delivered again after a restart meets it (the first copy
      drew what it draws, and a press that wrote nothing is not claimed), as does a board
      drawn again as it stands;
    - the answer to a press that comes too late ("query is too old … or query ID is
      invalid": Telegram keeps a press open for some seconds, and a bot that was stopped
      meanwhile, or waited for a group's window before answering, answers after that):
      the press itself has counted, only its toast is lost: logged and answered ``True``.
    """

    async def __call__(self, make_request, bot: Bot, method: TelegramMethod):
        try:
            return await make_request(bot, method)
        except (TelegramForbiddenError, TelegramBadRequest) as error:
            if _unchanged(error, method):
                return True
            if _expired_press(error, method):
                log.info("a press's answer came too late: %s", error.message)
                return True
            chat_id = field(method, "chat_id")
            if not (isinstance(chat_id, int) and chat_id > 0 and undeliverable(error)):
                raise
            log.info("%s to %s not delivered: %s", type(method).__name__, chat_id,
                     error.message)
            return None


def _unchanged(error: Exception, method: TelegramMethod) -> bool:
    """Whether ``error`` refused an edit of a message for showing what it shows already."""
    if not (isinstance(error, TelegramBadRequest) and type(method).__name__.startswith("Edit")):
        return False
    return "message is not modified" in error.message


def _expired_press(error: Exception, method: TelegramMethod) -> bool:
    """Whether ``error`` refused a press's answer for coming after the press closed."""
    if not (isinstance(error, TelegramBadRequest) and isinstance(method, AnswerCallbackQuery)):
        return False
    message = error.message.lower()
    return "query is too old" in message or "query id is invalid" in message


def rate_limiter(session: BaseSession) -> RateLimitMiddleware:
    """The rate limiter :func:`install` put on ``session``."""
    return next(middleware for middleware in session.middleware
                if isinstance(middleware, RateLimitMiddleware))


def install(session: BaseSession, clock: Clock, resumed_at: datetime | None = None) -> None:
    """Put the outgoing layer on ``session`` (outermost first)."""
    session.middleware(HarmlessRefusalsMiddleware())
    session.middleware(LengthLimitMiddleware())
    session.middleware(RateLimitMiddleware(clock, resumed_at))
    session.middleware(PlainToastMiddleware())


_NO_WAY_IN = ("chat not found", "not enough rights to send", "have no rights to send")


def undeliverable(error: Exception) -> bool:
    """True for the errors that mean "this chat cannot be messaged by the bot" (blocked,
    removed, never started, the chat is gone, or the bot may not post there)."""
    if isinstance(error, TelegramForbiddenError):
        return True
    return isinstance(error, TelegramBadRequest) and any(
        reason in error.message.lower() for reason in _NO_WAY_IN)


def unreachable_group(error: BaseException) -> int | None:
    """The group an error says the bot can no longer write to (removed, or the chat is
    gone), else None."""
    if not isinstance(error, TelegramAPIError) or not undeliverable(error):
        return None
    chat_id = getattr(error.method, "chat_id", None)
    return chat_id if isinstance(chat_id, int) and chat_id < 0 else None


BOARDS_REMEMBERED = 4096  # live boards whose last drawing the outbox keeps in mind
_SEND = SendMessage(chat_id=0, text="")
_EDIT = EditMessageText(text="", chat_id=0, message_id=0)


class Outbox:
    def __init__(self, bot: Bot, deep_link: Callable[[str], str]) -> None:
        self.bot = bot
        self.deep_link = deep_link
        self._shown: Recent = Recent(BOARDS_REMEMBERED)
        """What each live board this process drew shows now (a digest of its text and
        buttons, and whether it has buttons): an edit that would change nothing is not
        sent."""
        self.later: BoardQueue | None = None
        """Where a live board's edit waits for a busy group's window while its match goes
        on (:mod:`bot.board_queue`, live only); None: every edit is made in place."""

    async def dm(self, user_id: int, text: str, *, markup: InlineKeyboardMarkup | None = None,
                 fallback_chat_id: int | None = None, fallback_text: str | None = None,
                 button_text: str | None = None, payload: str = "",
                 fallback_thread_id: int | None = None) -> Message | None:
        """Send a private message; if the user cannot be reached, tell the group instead.

        ``fallback_text`` (already localized, naming the user) goes to ``fallback_chat_id``
        (its forum topic ``fallback_thread_id``: the match's) with a deep-link button
        labelled ``button_text`` that opens the DM with the bot.
        """
        try:
            sent = await self._send(user_id, text, markup)
        except (TelegramForbiddenError, TelegramBadRequest) as error:
            if not undeliverable(error):
                raise
            log.info("DM to %s failed: %s", user_id, error.message)
            sent = None
        if sent is not None:  # None: the session's HarmlessRefusalsMiddleware dropped it
            return sent
        if fallback_chat_id is not None and fallback_text:
            await self.open_chat_notice(fallback_chat_id, fallback_text, button_text=button_text,
                                        payload=payload, thread_id=fallback_thread_id)
        return None

    async def open_chat_notice(self, chat_id: int, text: str, *, button_text: str | None = None,
                               payload: str = "", thread_id: int | None = None) -> None:
        """Tell a group (``text``, already localized, naming whom) that someone must open the
        chat with the bot, under a deep-link button labelled ``button_text`` that opens it
        with ``/start payload``."""
        keyboard = None
        if button_text:
            keyboard = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
                text=button_text, url=self.deep_link(payload))]])
        await self._send(chat_id, text, keyboard, thread_id)

    async def acknowledge(self, message: Message) -> bool:
        """Put a 👍 on ``message`` instead of answering it with a message of its own (a
        group's budget is 20 messages a minute); False when the chat takes no such reaction
        (a group may limit its reactions): then answer it in words."""
        try:
            await self.bot(SetMessageReaction(chat_id=message.chat.id,
                                              message_id=message.message_id,
                                              reaction=[ReactionTypeEmoji(emoji="👍")]))
        except TelegramBadRequest as error:
            log.info("no reaction in %s: %s", message.chat.id, error.message)
            return False
        return True

    async def drop_buttons(self, chat_id: int, message_id: int) -> None:
        """Take the buttons off a message that takes no more presses (it may be gone); a
        board this process drew without buttons is left alone (the call would cost the
        group's budget and change nothing). With Telegram out of reach the buttons stay and
        the caller goes on (a new board is posted all the same): a press on them is checked
        as any press is."""
        if self.later is not None:
            self.later.drop(chat_id, message_id)
        shown = self._shown.get((chat_id, message_id))
        if shown is not None and not shown[1]:
            return
        try:
            await self.bot.edit_message_reply_markup(chat_id=chat_id, message_id=message_id,
                                                     reply_markup=None)
        except TelegramBadRequest:  # gone, or without buttons already
            pass
        except (TelegramServerError, TelegramNetworkError) as error:
            log.warning("buttons left on message %s of %s: %s", message_id, chat_id, error)
            return
        self._shown[chat_id, message_id] = (None, False)

    async def board(self, chat_id: int, message_id: int | None, text: str,
                    markup: InlineKeyboardMarkup | None = None,
                    thread_id: int | None = None, resend: bool = True,
                    lost: Lost | None = None) -> int | None:
        """Show a live board: edit it in place when it exists, else send it; return its id.
        A board already showing ``text`` and ``markup`` (as this process drew it last) is
        left as it is. ``resend=False``: a board gone from the chat (deleted) is not sent
        again (None is returned) — a closed match's last drawing is not worth a new
        message. ``lost``: the edit may wait for a busy group's window in the queue
        (:attr:`later`) while the caller goes on; ``lost`` hears if it then fails."""
        drawing = _digest(text, markup)
        if message_id is not None:
            shown = self._shown.get((chat_id, message_id))
            # while the queue draws it, what it shows is not known yet: queued, as the newest
            if drawing is not None and shown is not None and shown[0] == drawing and (
                    lost is None or not self.redrawing(chat_id, message_id)):
                return message_id
            if self.queued(chat_id, message_id,
                           partial(self.edit, chat_id, message_id, text, markup, drawing), lost):
                return message_id
            try:
                await self.edit(chat_id, message_id, text, markup, drawing)
                return message_id
            except TelegramBadRequest as error:
                if not board_gone(error):
                    raise
                if not resend:
                    return None
        sent = await self._send(chat_id, text, markup, thread_id)
        return self._drawn(chat_id, sent.message_id, drawing, markup)

    def queued(self, chat_id: int, message_id: int, edit: Edit, lost: Lost | None) -> bool:
        """Leave a live board's edit in place (``edit``) to the board queue when it would wait
        for a busy group's window: True, and ``lost`` hears if it then fails. False: the
        caller makes it now (the group has room, the sandbox, or no ``lost``)."""
        return lost is not None and self.later is not None \
            and self.later.queued(chat_id, message_id, edit, lost)

    def redrawing(self, chat_id: int, message_id: int | None) -> bool:
        """Whether a newer drawing of this board waits in the queue (or is on its way to
        Telegram): a press on the board the chat shows is about to be out of date."""
        return self.later is not None and message_id is not None \
            and self.later.drawing(chat_id, message_id)

    async def edit(self, chat_id: int, message_id: int, text: str,
                   markup: InlineKeyboardMarkup | None, drawing: int | None) -> None:
        """Edit a live board in place; what it shows (``drawing``, :func:`_digest`) noted
        once Telegram took it."""
        await self.bot(filled(_EDIT, text=text, chat_id=chat_id, message_id=message_id,
                              reply_markup=markup))
        self._drawn(chat_id, message_id, drawing, markup)

    async def _send(self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None,
                    thread_id: int | None = None) -> Message | None:
        """Send ``text`` (None: a DM the session's HarmlessRefusalsMiddleware dropped)."""
        return await self.bot(filled(_SEND, chat_id=chat_id, text=text, reply_markup=markup,
                                      message_thread_id=thread_id))

    async def forget_changed(self, make_request, bot: Bot, method: TelegramMethod):
        """Request middleware (on the bot's session): a call naming a message (an edit by
        another path, a deletion …) makes the outbox forget what it drew there, so its next
        drawing is sent, and drops a drawing of it still queued (:attr:`later`): that call
        decides what it shows. The outbox notes its own drawing once its call succeeded."""
        if (message_id := field(method, "message_id")) is not None:
            chat_id = field(method, "chat_id")
            self._shown.pop((chat_id, message_id), None)
            if self.later is not None:
                self.later.drop(chat_id, message_id)
        return await make_request(bot, method)

    def _drawn(self, chat_id: int, message_id: int, drawing: int | None,
               markup: InlineKeyboardMarkup | None) -> int:
        self._shown[chat_id, message_id] = (drawing, bool(markup and markup.inline_keyboard))
        return message_id


def _digest(text: str, markup: InlineKeyboardMarkup | None) -> int | None:
    """A board's text and buttons (every field of every button) in one number; None when a
    button holds an object (a web app …): such a board is always edited."""
    keys = None if markup is None else tuple(
        tuple(tuple(button.__dict__.values()) for button in row)
        for row in markup.inline_keyboard)
    try:
        return hash((text, keys))
    except TypeError:
        return None
