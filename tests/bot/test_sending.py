"""The outgoing layer: rate limits on the (virtual) clock, RetryAfter, undeliverable DMs."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.base import BaseSession
from aiogram.exceptions import TelegramForbiddenError, TelegramRetryAfter
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageReplyMarkup,
    EditMessageText,
    SendMessage,
    SetMessageReaction,
    TelegramMethod,
)
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, ReactionTypeEmoji

from bot.clock import VirtualClock
from bot.method_fields import filled
from bot.sending import _EDIT, _SEND, Outbox, RateLimitMiddleware, field
from bot.telegram_session import TelegramSession

START = datetime(2026, 10, 21, tzinfo=UTC)


def _ok(calls, clock):
    """A stand-in for the Bot API call that records when each request went out."""
    async def make_request(bot, method):
        calls.append((method, clock.now()))
        return True
    return make_request


def test_a_methods_field_reads_as_getattr_and_a_field_it_lacks_as_none() -> None:
    keyboard = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="a",
                                                                           callback_data="a")]])
    methods = [SendMessage(chat_id=-100, text="hi", reply_markup=keyboard),
               EditMessageReplyMarkup(chat_id=5, message_id=7),
               AnswerCallbackQuery(callback_query_id="1", text="ok")]
    for method in methods:
        for name in ("chat_id", "message_id", "message_thread_id", "reply_markup", "text"):
            assert field(method, name) == getattr(method, name, None)
    assert field(methods[2], "chat_id") is None and field(methods[0], "reply_markup") is keyboard


async def test_group_sends_are_spread_to_twenty_a_minute() -> None:
    clock = VirtualClock(START)
    limiter, calls = RateLimitMiddleware(clock), []
    for n in range(45):
        await limiter(_ok(calls, clock), None, SendMessage(chat_id=-100, text=str(n)))
    times = [(t - START).total_seconds() for _, t in calls]
    assert times[19] == 0 and times[20] >= 60 and times[40] >= 120
    for i in range(len(times) - 20):  # no 21 sends ever fall within one minute
        assert times[i + 20] - times[i] >= 60


async def test_global_limit_is_thirty_a_second_and_private_chats_share_it() -> None:
    clock = VirtualClock(START)
    limiter, calls = RateLimitMiddleware(clock), []
    for user_id in range(1, 62):
        await limiter(_ok(calls, clock), None, SendMessage(chat_id=user_id, text="hi"))
    times = [(t - START).total_seconds() for _, t in calls]
    assert times[29] == 0 and times[30] >= 1 and times[60] >= 2


class _LateClock(VirtualClock):
    """Virtual time whose wait lets other tasks run once it is over, as a real sleep may:
    another send can come while the one that waited has not taken its turn yet."""

    async def sleep(self, seconds: float) -> None:
        await super().sleep(seconds)
        await asyncio.sleep(0)


async def test_a_send_never_overtakes_one_waiting_for_the_same_group() -> None:
    clock = _LateClock(START)
    limiter, calls = RateLimitMiddleware(clock), []
    for n in range(20):
        await limiter(_ok(calls, clock), None, SendMessage(chat_id=-100, text=str(n)))
    waiting = asyncio.create_task(
        limiter(_ok(calls, clock), None, SendMessage(chat_id=-100, text="first")))
    await asyncio.sleep(0)  # it waits for the group's minute, which is now over
    await limiter(_ok(calls, clock), None, SendMessage(chat_id=-100, text="second"))
    await waiting
    assert [method.text for method, _ in calls[20:]] == ["first", "second"]
    assert limiter.group_windows[-100].queued == 0


async def test_a_reaction_takes_no_room_in_the_groups_minute() -> None:
    """A group's limit counts messages: reactions in a full minute go at once (the global
    30 a second still counts them), and the 21st message still waits for the minute."""
    clock = VirtualClock(START)
    limiter, calls = RateLimitMiddleware(clock), []
    for n in range(20):
        await limiter(_ok(calls, clock), None, SendMessage(chat_id=-100, text=str(n)))
    for n in range(9):
        await limiter(_ok(calls, clock), None, SetMessageReaction(
            chat_id=-100, message_id=n + 1, reaction=[ReactionTypeEmoji(emoji="👍")]))
    assert clock.now() == START
    await limiter(_ok(calls, clock), None, SendMessage(chat_id=-100, text="21st"))
    assert (calls[-1][1] - START).total_seconds() >= 60


async def test_calls_without_a_chat_are_not_counted() -> None:
    clock = VirtualClock(START)
    limiter, calls = RateLimitMiddleware(clock), []
    for n in range(100):
        await limiter(_ok(calls, clock), None, AnswerCallbackQuery(callback_query_id=str(n)))
    assert clock.now() == START


async def test_retry_after_is_waited_out_then_sent() -> None:
    clock = VirtualClock(START)
    limiter, attempts = RateLimitMiddleware(clock), []
    method = SendMessage(chat_id=-100, text="hello")

    async def flaky(bot, sent):
        attempts.append(clock.now())
        if len(attempts) == 1:
            raise TelegramRetryAfter(method=sent, message="Too Many Requests", retry_after=7)
        return "sent"

    assert await limiter(flaky, None, method) == "sent"
    assert (attempts[1] - attempts[0]).total_seconds() >= 7


class _Shortcuts:
    """A fake bot called with a call, as the outbox calls it: the call goes to the fake's
    shortcut of its kind, with the call's fields."""

    async def __call__(self, method: SendMessage | EditMessageText):
        if isinstance(method, EditMessageText):
            return await self.edit_message_text(method.text, method.chat_id, method.message_id,
                                                reply_markup=method.reply_markup)
        return await self.send_message(method.chat_id, method.text,
                                       reply_markup=method.reply_markup,
                                       message_thread_id=method.message_thread_id)


class _FakeBot(_Shortcuts):
    def __init__(self, blocked: set[int]) -> None:
        self.blocked, self.sent = blocked, []

    async def send_message(self, chat_id, text, reply_markup=None, message_thread_id=None):
        if chat_id in self.blocked:
            raise TelegramForbiddenError(method=SendMessage(chat_id=chat_id, text=text),
                                         message="Forbidden: bot was blocked by the user")
        self.sent.append((chat_id, text, reply_markup))
        self.thread = message_thread_id
        return "message"


async def test_undeliverable_dm_becomes_a_group_notice_with_a_deep_link() -> None:
    bot = _FakeBot(blocked={42})
    outbox = Outbox(bot, lambda payload: f"https://t.me/x_bot?start={payload}")
    assert await outbox.dm(42, "secret", fallback_chat_id=-100, fallback_text="@bob, open me",
                           button_text="Open", payload="hp-1", fallback_thread_id=16) is None
    [(chat_id, text, markup)] = bot.sent
    assert chat_id == -100 and "secret" not in text and bot.thread == 16  # the match's topic
    assert markup.inline_keyboard[0][0].url == "https://t.me/x_bot?start=hp-1"


async def test_deliverable_dm_goes_to_the_user_only() -> None:
    bot = _FakeBot(blocked=set())
    outbox = Outbox(bot, lambda payload: "")
    assert await outbox.dm(7, "hello", fallback_chat_id=-100, fallback_text="x") == "message"
    assert [c for c, _, _ in bot.sent] == [7]


class _BoardBot(_Shortcuts):
    """Edits fail the way Telegram fails them, to check the board's fallbacks."""

    def __init__(self, edit_error: str | None) -> None:
        self.edit_error, self.edits, self.sent = edit_error, [], []

    async def edit_message_text(self, text, chat_id, message_id, reply_markup=None):
        from aiogram.exceptions import TelegramBadRequest
        from aiogram.methods import EditMessageText

        if self.edit_error:
            raise TelegramBadRequest(method=EditMessageText(text=text), message=self.edit_error)
        self.edits.append((chat_id, message_id, text))

    async def send_message(self, chat_id, text, reply_markup=None, message_thread_id=None):
        self.sent.append((chat_id, text))

        class Sent:
            message_id = 99
        return Sent()


async def test_board_is_edited_in_place() -> None:
    bot = _BoardBot(edit_error=None)
    assert await Outbox(bot, str).board(-100, 17, "score 1:0") == 17
    assert bot.edits == [(-100, 17, "score 1:0")] and bot.sent == []


async def test_a_lost_board_is_sent_anew() -> None:
    lost = _BoardBot("Bad Request: message to edit not found")
    assert await Outbox(lost, str).board(-100, 17, "score 1:0") == 99
    assert lost.sent == [(-100, "score 1:0")]
    fresh = _BoardBot(None)
    assert await Outbox(fresh, str).board(-100, None, "new board") == 99


async def test_a_closed_matchs_lost_board_is_not_sent_again() -> None:
    lost = _BoardBot("Bad Request: message to edit not found")
    assert await Outbox(lost, str).board(-100, 17, "closed: Bob wins", resend=False) is None
    assert lost.sent == []


async def test_a_board_drawn_again_unchanged_is_not_edited_until_another_call_touches_it(
        ) -> None:
    bot = _BoardBot(edit_error=None)
    outbox = Outbox(bot, str)
    keys = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="1",
                                                                       callback_data="a")]])
    for text in ("score 1:0", "score 1:0", "score 2:0"):
        assert await outbox.board(-100, 17, text, keys) == 17
    assert bot.edits == [(-100, 17, "score 1:0"), (-100, 17, "score 2:0")]
    other = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="1",
                                                                        callback_data="b")]])
    await outbox.board(-100, 17, "score 2:0", other)
    assert len(bot.edits) == 3  # the buttons changed

    async def answered(bot, method):
        return True
    await outbox.forget_changed(answered, None, EditMessageReplyMarkup(chat_id=-100,
                                                                       message_id=17))
    await outbox.board(-100, 17, "score 2:0", other)
    assert len(bot.edits) == 4  # changed by another call: drawn again


async def test_buttons_are_dropped_only_from_a_board_that_may_have_them() -> None:
    """A board this process drew without buttons is left alone; one with buttons, or one it
    does not know (drawn before a restart), loses them once."""
    bot = _BoardBot(edit_error=None)
    dropped = []

    async def edit_message_reply_markup(chat_id, message_id, reply_markup):
        dropped.append(message_id)
    bot.edit_message_reply_markup = edit_message_reply_markup
    outbox = Outbox(bot, str)
    keys = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="1",
                                                                       callback_data="a")]])
    await outbox.board(-100, 17, "no buttons")
    await outbox.board(-100, 18, "buttons", keys)
    for message_id in (17, 18, 18, 19):
        await outbox.drop_buttons(-100, message_id)
    assert dropped == [18, 19]


class _Captured(Exception):
    """Carries the call a bot's shortcut built out of it, unsent."""


class _Capture(BaseSession):
    async def make_request(self, bot, method, timeout=None):
        raise _Captured(method)

    async def stream_content(self, *args, **kwargs):
        raise NotImplementedError

    async def close(self) -> None:
        pass


async def _built_by_aiogram(shortcut) -> TelegramMethod:
    try:
        await shortcut
    except _Captured as captured:
        return captured.args[0]
    raise AssertionError("no call made")


@pytest.mark.parametrize("markup", [None, InlineKeyboardMarkup(inline_keyboard=[[
    InlineKeyboardButton(text="T20", callback_data="d:1:t20"),
    InlineKeyboardButton(text="Bull", url="https://t.me/x_bot?start=a")]])])
async def test_the_outboxs_calls_are_those_aiogram_validates(markup) -> None:
    """The outbox fills its sends and edits into validated templates: each is equal to the
    call ``Bot.send_message`` / ``edit_message_text`` builds and posts the same body."""
    bot = Bot("42:TEST", session=_Capture(),
              default=DefaultBotProperties(parse_mode="HTML", link_preview_is_disabled=True))
    wire = TelegramSession()
    pairs = [
        (filled(_SEND, chat_id=-100, text="<b>1</b> & 2", reply_markup=markup,
                 message_thread_id=16),
         bot.send_message(-100, "<b>1</b> & 2", reply_markup=markup, message_thread_id=16)),
        (filled(_SEND, chat_id=7, text="hi", reply_markup=markup, message_thread_id=None),
         bot.send_message(7, "hi", reply_markup=markup)),
        (filled(_EDIT, text="score 1:0", chat_id=-100, message_id=17, reply_markup=markup),
         bot.edit_message_text(text="score 1:0", chat_id=-100, message_id=17,
                               reply_markup=markup)),
    ]
    for ours, shortcut in pairs:
        theirs = await _built_by_aiogram(shortcut)
        assert ours == theirs and ours.model_dump() == theirs.model_dump()
        assert (wire.build_request(bot, ours)._value == wire.build_request(bot, theirs)._value)
    await wire.close()
