"""The sending layer under faults: Telegram's length limits, undeliverable DMs, a 5xx or a
dropped connection, and rate windows after a restart."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from html.parser import HTMLParser

import pytest
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageMedia,
    EditMessageReplyMarkup,
    EditMessageText,
    GetChat,
    GetUpdates,
    SendMediaGroup,
    SendMessage,
    SendPhoto,
)
from aiogram.types import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    ReplyParameters,
)

from bot.clock import VirtualClock
from bot.middlewares.limits import (
    CAPTION_LIMIT,
    TEXT_LIMIT,
    LengthLimitMiddleware,
    shorten,
    size,
    split_html,
)
from bot.sending import (
    HarmlessRefusalsMiddleware,
    PlainToastMiddleware,
    RateLimitMiddleware,
    unreachable_group,
)

START = datetime(2026, 10, 21, tzinfo=UTC)
KEYBOARD = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="ok",
                                                                       callback_data="x")]])


class _Balance(HTMLParser):
    """Fails on a part that closes a tag it did not open or leaves one open."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.stack.append(tag)

    def handle_endtag(self, tag) -> None:
        assert self.stack and self.stack.pop() == tag, f"</{tag}> closes nothing"


def _balanced(part: str) -> bool:
    checker = _Balance()
    checker.feed(part)
    checker.close()
    return not checker.stack and not re.search(r"&[#\w]*$|<[^>]*$", part)


def _visible(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]*>", "", text))


def test_a_long_list_splits_at_line_breaks_into_valid_parts() -> None:
    lines = [f"{n}. <b>Player &amp; Co {n}</b> <i>({n} pts)</i>" for n in range(1, 501)]
    text = "<b>Players</b>\n" + "\n".join(lines)
    parts = split_html(text)
    assert len(parts) > 1
    assert all(size(p) <= TEXT_LIMIT and _balanced(p) for p in parts)
    assert "\n".join(parts) == text  # every cut is at a line break, nothing lost


def test_a_start_too_long_for_one_message_splits_between_roster_and_round() -> None:
    roster = "🏁 Started! Entrants (200):\n" + "\n".join(f"{n}. Player {n}" for n in range(200))
    matches = "⚔️ Round 1 of 199:\n" + "\n".join(f"• Player {n} — Player {n + 100}"
                                                 for n in range(100))
    assert split_html(f"{roster}\n\n{matches}") == [roster, matches]


def test_tags_open_at_a_cut_are_closed_and_opened_again() -> None:
    text = "<blockquote>" + "\n".join(f"line {n} &lt;x&gt;" for n in range(800)) + "</blockquote>"
    parts = split_html(text)
    assert len(parts) > 1
    assert all(p.startswith("<blockquote>") and p.endswith("</blockquote>") for p in parts)
    assert all(size(p) <= TEXT_LIMIT and _balanced(p) for p in parts)
    assert "".join(_visible(p) for p in parts).replace("\n", "") == \
        _visible(text).replace("\n", "")


def test_a_line_without_breaks_is_cut_between_words_never_in_an_entity() -> None:
    text = "<i>" + " ".join(["R&amp;D"] * 2000) + "</i>"
    parts = split_html(text)
    assert all(size(p) <= TEXT_LIMIT and _balanced(p) for p in parts)
    assert sum(_visible(p).count("R&D") for p in parts) == 2000
    word = "y" * 9000  # one word longer than a message: cut by characters
    assert [_visible(p) for p in split_html(word)] and \
        "".join(split_html(word)) == word


def test_emoji_count_twice_as_telegram_counts_them() -> None:
    parts = split_html("🎯" * 3000)
    assert len(parts) == 2 and all(size(p) <= TEXT_LIMIT for p in parts)


def test_shorten_keeps_markup_valid_and_marks_the_cut() -> None:
    short = shorten("<b>" + "word " * 400 + "</b>", CAPTION_LIMIT)
    assert size(short) <= CAPTION_LIMIT and short.endswith("</b>…") and _balanced(short)
    assert shorten("fits", 10) == "fits"


def _recorder(sent: list):
    async def make_request(bot, method):
        sent.append(method)
        return f"message {len(sent)}"
    return make_request


async def test_a_long_message_goes_out_as_several() -> None:
    sent: list = []
    method = SendMessage(chat_id=-100, text="\n".join(f"row {n}" for n in range(2000)),
                         reply_markup=KEYBOARD, reply_parameters=ReplyParameters(message_id=7))
    result = await LengthLimitMiddleware()(_recorder(sent), None, method)
    assert len(sent) > 1 and result == f"message {len(sent)}"
    assert all(size(m.text) <= TEXT_LIMIT for m in sent)
    assert [m.reply_parameters is not None for m in sent] == [True] + [False] * (len(sent) - 1)
    assert [m.reply_markup is not None for m in sent] == [False] * (len(sent) - 1) + [True]


async def test_long_edits_and_captions_are_shortened() -> None:
    sent: list = []
    limiter = LengthLimitMiddleware()
    await limiter(_recorder(sent), None, EditMessageText(chat_id=-1, message_id=3,
                                                         text="a\n" * 3000))
    await limiter(_recorder(sent), None, SendPhoto(chat_id=-1, photo="file",
                                                   caption="<b>caption</b> " * 200))
    await limiter(_recorder(sent), None, SendMediaGroup(chat_id=-1, media=[
        InputMediaPhoto(media="a", caption="c" * 2000), InputMediaPhoto(media="b")]))
    assert size(sent[0].text) <= TEXT_LIMIT and sent[0].text.endswith("…")
    assert size(sent[1].caption) <= CAPTION_LIMIT and _balanced(sent[1].caption[:-1])
    album = sent[2].media
    assert size(album[0].caption) <= CAPTION_LIMIT and album[1].caption is None


async def test_an_edited_pictures_long_caption_is_shortened_and_a_short_one_left_as_it_is(
        ) -> None:
    """An editMessageMedia's caption is its media's: shortened there, as Telegram counts it."""
    sent: list = []
    limiter = LengthLimitMiddleware()
    short = EditMessageMedia(chat_id=-1, message_id=3,
                             media=InputMediaPhoto(media="a", caption="board"))
    for method in (EditMessageMedia(chat_id=-1, message_id=3, media=InputMediaPhoto(
            media="a", caption="<i>move</i> " * 200)), short):
        await limiter(_recorder(sent), None, method)
    assert size(sent[0].media.caption) <= CAPTION_LIMIT and _balanced(sent[0].media.caption[:-1])
    assert sent[1] is short


async def test_a_long_toast_is_cut_to_two_hundred() -> None:
    sent: list = []
    await PlainToastMiddleware()(_recorder(sent), None,
                                 AnswerCallbackQuery(callback_query_id="1", text="&amp;" * 300))
    assert sent[0].text == "&" * 199 + "…"


async def test_a_toast_that_reads_as_written_goes_as_it_is_and_an_entity_is_read() -> None:
    sent: list = []
    plain = AnswerCallbackQuery(callback_query_id="1", text="Ann & Bob: T20")
    marked = AnswerCallbackQuery(callback_query_id="2", text="&lt;b&gt;Ann&lt;/b&gt; &amp; Co")
    for method in (plain, marked):
        await PlainToastMiddleware()(_recorder(sent), None, method)
    assert sent[0] is plain
    assert sent[1].text == "<b>Ann</b> & Co" and marked.text.startswith("&lt;")


def _failing(error_type, message: str, times: int, calls: list):
    async def make_request(bot, method):
        calls.append(method)
        if len(calls) <= times:
            raise error_type(method=method, message=message)
        return "sent"
    return make_request


async def test_dm_to_a_user_who_blocked_the_bot_answers_none() -> None:
    calls: list = []
    dm = SendMessage(chat_id=42, text="your turn")
    blocked = _failing(TelegramForbiddenError, "Forbidden: bot was blocked by the user", 1, calls)
    assert await HarmlessRefusalsMiddleware()(blocked, None, dm) is None
    gone = _failing(TelegramBadRequest, "Bad Request: chat not found", 1, calls := [])
    assert await HarmlessRefusalsMiddleware()(gone, None, dm) is None


async def test_a_group_that_is_gone_still_raises_and_names_itself() -> None:
    method = SendMessage(chat_id=-100, text="hello")
    removed = _failing(TelegramForbiddenError, "Forbidden: bot was kicked from the group", 1, [])
    with pytest.raises(TelegramForbiddenError) as raised:
        await HarmlessRefusalsMiddleware()(removed, None, method)
    assert unreachable_group(raised.value) == -100
    other = TelegramBadRequest(method=method, message="Bad Request: can't parse entities")
    assert unreachable_group(other) is None
    with pytest.raises(TelegramBadRequest):
        await HarmlessRefusalsMiddleware()(_failing(TelegramBadRequest, other.message, 1, []),
                                          None, SendMessage(chat_id=42, text="<b"))


async def test_an_edit_to_what_the_message_shows_already_is_done_and_a_send_still_raises(
        ) -> None:
    """A press delivered again after a restart draws what its first copy drew: Telegram
    refuses the edit as not modified, which is what the edit was for."""
    same = "Bad Request: message is not modified"
    edit = EditMessageReplyMarkup(chat_id=-100, message_id=7, reply_markup=None)
    assert await HarmlessRefusalsMiddleware()(_failing(TelegramBadRequest, same, 1, []), None,
                                              edit) is True
    with pytest.raises(TelegramBadRequest):
        await HarmlessRefusalsMiddleware()(_failing(TelegramBadRequest, same, 1, []), None,
                                          SendMessage(chat_id=-100, text="hello"))


async def test_a_press_answered_after_it_closed_has_counted_and_only_its_toast_is_lost(
        ) -> None:
    """A press delivered after a stop longer than Telegram keeps it open (or answered after
    a wait for the group's window): its answer is refused as too old, the press itself has
    been carried out, and the handler goes on."""
    late = "Bad Request: query is too old and response timeout expired or query ID is invalid"
    answer = AnswerCallbackQuery(callback_query_id="7", text="Picked: 24/21")
    assert await HarmlessRefusalsMiddleware()(_failing(TelegramBadRequest, late, 1, []), None,
                                              answer) is True
    with pytest.raises(TelegramBadRequest):
        await HarmlessRefusalsMiddleware()(_failing(TelegramBadRequest, late, 1, []), None,
                                          SendMessage(chat_id=-100, text="hello"))


@pytest.mark.parametrize("error_type, message", [
    (TelegramServerError, "Bad Gateway"),
    (TelegramNetworkError, "ServerDisconnectedError: Server disconnected"),
])
async def test_a_5xx_or_a_dropped_connection_is_retried_with_back_off(error_type,
                                                                      message) -> None:
    clock, calls = VirtualClock(START), []
    limiter = RateLimitMiddleware(clock)
    method = SendMessage(chat_id=-100, text="🏁 started")
    assert await limiter(_failing(error_type, message, 2, calls), None, method) == "sent"
    assert len(calls) == 3 and (clock.now() - START).total_seconds() == 1.5


async def test_faults_that_last_are_raised_and_long_polls_are_left_to_the_dispatcher() -> None:
    clock = VirtualClock(START)
    with pytest.raises(TelegramServerError):
        await RateLimitMiddleware(clock)(_failing(TelegramServerError, "down", 99, []), None,
                                         SendMessage(chat_id=-100, text="x"))
    calls: list = []
    with pytest.raises(TelegramNetworkError):
        await RateLimitMiddleware(clock)(_failing(TelegramNetworkError, "down", 99, calls),
                                         None, GetUpdates())
    assert len(calls) == 1


async def test_a_press_answer_that_fails_is_tried_once_more_then_given_up() -> None:
    """A toast says nothing once late and its back-off holds the update: it is tried once
    more, then given up without an error, so what the press does next still happens."""
    clock, calls = VirtualClock(START), []
    answer = AnswerCallbackQuery(callback_query_id="1", text="Bob approved.")
    assert await RateLimitMiddleware(clock)(_failing(TelegramServerError, "down", 99, calls),
                                            None, answer) is True
    assert len(calls) == 2 and (clock.now() - START).total_seconds() == 0.5


async def test_after_a_busy_restart_the_windows_start_full() -> None:
    clock, calls = VirtualClock(START), []
    limiter = RateLimitMiddleware(clock, resumed_at=START)

    async def record(bot, method):
        calls.append(clock.now())

    await limiter(record, None, SendMessage(chat_id=-100, text="first after restart"))
    assert (calls[0] - START).total_seconds() >= 60  # the worst case: 20 sent just before
    clock = VirtualClock(START)
    await RateLimitMiddleware(clock)(record, None, SendMessage(chat_id=-100, text="no restart"))
    assert calls[1] == START


async def test_a_wait_for_a_group_window_is_told_before_it_starts() -> None:
    clock, told = VirtualClock(START), []
    limiter = RateLimitMiddleware(clock, resumed_at=START)

    async def waits(chat_id: int, seconds: float) -> None:
        told.append((chat_id, seconds, clock.now()))

    async def record(bot, method):
        return "sent"

    limiter.group_waits = waits
    await limiter(record, None, SendMessage(chat_id=-100, text="first after restart"))
    await limiter(record, None, SendMessage(chat_id=42, text="a DM waits for no group"))
    assert told == [(-100, 60.0, START)]  # the match clocks of the group move on first


async def test_waits_for_telegram_on_a_groups_call_are_told_as_the_windows_are() -> None:
    """A flood wait and a fault's back-off on a call about a group hold its boards up as a
    full window does: the group's match clocks hear of them (a DM's hold up no group)."""
    clock, told = VirtualClock(START), []
    limiter = RateLimitMiddleware(clock)

    async def waits(chat_id: int, seconds: float) -> None:
        told.append((chat_id, seconds))

    limiter.group_waits = waits
    floods: list = []

    async def flood(bot, method):
        floods.append(method)
        if len(floods) == 1:
            raise TelegramRetryAfter(method=method, message="Flood control", retry_after=5)
        return "sent"

    await limiter(flood, None, SendMessage(chat_id=-100, text="board"))
    await limiter(_failing(TelegramServerError, "Bad Gateway", 2, []), None,
                  SendMessage(chat_id=-100, text="board"))
    await limiter(_failing(TelegramServerError, "Bad Gateway", 1, []), None,
                  SendMessage(chat_id=42, text="your hand"))
    # a read about the group (whether it is a forum, at a match's opening) holds its board
    await limiter(_failing(TelegramServerError, "Bad Gateway", 1, []), None,
                  GetChat(chat_id=-100))
    assert told == [(-100, 5), (-100, 0.5), (-100, 1.0), (-100, 0.5)]
