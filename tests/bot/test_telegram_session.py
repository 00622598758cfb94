"""The live session's lean request forms are aiogram's own forms, field for field
(bot/telegram_session.py)."""

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.enums import ParseMode
from aiogram.methods import (
    AnswerCallbackQuery,
    BanChatMember,
    CreateForumTopic,
    DeleteMessage,
    EditMessageCaption,
    EditMessageMedia,
    EditMessageReplyMarkup,
    EditMessageText,
    GetChatMember,
    SendDice,
    SendDocument,
    SendMediaGroup,
    SendMessage,
    SendPhoto,
    SetMyCommands,
    SetWebhook,
)
from aiogram.types import (
    BotCommand,
    BotCommandScopeChat,
    BufferedInputFile,
    ForceReply,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    LinkPreviewOptions,
    ReplyParameters,
)

from bot.api_answers import loads
from bot.config import Settings
from bot.live import make_session
from bot.telegram_session import TelegramSession

KEYPAD = InlineKeyboardMarkup(inline_keyboard=[
    [InlineKeyboardButton(text=f"{m}{sector}", callback_data=f"dt:12:1.3.1:{m}{sector}")
     for m in "SDT"] for sector in (20, 19, 18)] + [[
        InlineKeyboardButton(text="Открыть чат", url="https://t.me/bot?start=reg-5"),
        InlineKeyboardButton(text="", callback_data="x")]])
PICTURE = BufferedInputFile(b"\x89PNG...", filename="board.png")

METHODS = [
    SendMessage(chat_id=-100, text="<b>Доска</b> &amp; ✅", reply_markup=KEYPAD),
    SendMessage(chat_id=5, text="plain", parse_mode=None, disable_notification=False,
                link_preview_options=LinkPreviewOptions(is_disabled=True),
                reply_parameters=ReplyParameters(message_id=3)),
    SendMessage(chat_id=-100, text="md", parse_mode=ParseMode.MARKDOWN_V2, message_thread_id=7),
    SendMessage(chat_id=5, text="Имя?", reply_markup=ForceReply(input_field_placeholder="Имя")),
    EditMessageText(chat_id=-100, message_id=9, text="board", reply_markup=KEYPAD),
    EditMessageReplyMarkup(chat_id=-100, message_id=9, reply_markup=None),
    EditMessageCaption(chat_id=-100, message_id=9, caption="<i>c</i>"),
    EditMessageMedia(chat_id=-100, message_id=9, reply_markup=KEYPAD,
                     media=InputMediaPhoto(media=PICTURE, caption="after 13/9 13/8")),
    SendPhoto(chat_id=-100, photo=PICTURE, caption="table", reply_markup=KEYPAD),
    SendDocument(chat_id=7, document=BufferedInputFile(b"a,b\n", filename="export.csv")),
    SendMediaGroup(chat_id=-100, media=[InputMediaPhoto(media=PICTURE),
                                        InputMediaPhoto(media="file-id-2", caption="2")]),
    SendDice(chat_id=-100, emoji="🎲"),
    AnswerCallbackQuery(callback_query_id="q", text="Not your turn", show_alert=True,
                        cache_time=0),
    DeleteMessage(chat_id=-100, message_id=9),
    GetChatMember(chat_id=-100, user_id=5),
    CreateForumTopic(chat_id=-100, name="Round 1", icon_color=7322096),
    SetMyCommands(commands=[BotCommand(command="roll", description="Бросить")],
                  scope=BotCommandScopeChat(chat_id=-100), language_code="ru"),
    SetWebhook(url="https://example.org/telegram/webhook", secret_token="s",
               allowed_updates=["message", "callback_query"]),
    BanChatMember(chat_id=-100, user_id=5, until_date=datetime(2026, 12, 3, tzinfo=UTC)),
]


def _fields(form) -> list[tuple]:
    """A form's fields by name (their order means nothing to the Bot API: the lean form
    puts the keyboard last), with each file's random attach name replaced by its order."""
    names: dict[str, str] = {}

    def same(text: str) -> str:
        return re.sub(r"attach://([\w-]+)",
                      lambda m: "attach://" + names.setdefault(m[1], str(len(names))), text)
    fields = []
    for options, _headers, value in form._fields:
        if "filename" in options:  # a file's field is named by its attach name
            fields.append((names[options["name"]], "file", options["filename"]))
        elif value[:1] in ("{", "["):  # JSON: the same data, whatever the spacing
            fields.append((options["name"], json.loads(same(value))))
        else:
            fields.append((options["name"], same(value)))
    return sorted(fields, key=lambda field: field[0])


DEFAULTS = {"none": DefaultBotProperties(parse_mode=None),
            "html": DefaultBotProperties(parse_mode="HTML"),
            "live": DefaultBotProperties(parse_mode="HTML", link_preview_is_disabled=True)}
"""The bot's defaults: none, a parse mode, and the live bot's own (``bot/app.py``)."""


@pytest.mark.parametrize("method", METHODS, ids=lambda m: type(m).__name__)
@pytest.mark.parametrize("defaults", DEFAULTS)
async def test_the_lean_form_is_aiograms_form(method, defaults):
    bot = Bot("1:a", default=DEFAULTS[defaults])
    stock, lean = AiohttpSession(), TelegramSession()
    try:
        assert _fields(lean.build_form_data(bot, method)) == _fields(
            stock.build_form_data(bot, method))
        assert _fields(lean.build_form_data(bot, method)) == _fields(  # defaults prepared once
            stock.build_form_data(bot, method))
    finally:
        await stock.close()
        await lean.close()


async def test_bots_sharing_the_session_each_send_their_own_defaults():
    lean, stock = TelegramSession(), AiohttpSession()
    method = SendMessage(chat_id=5, text="hi")
    try:
        for _ in range(2):
            for defaults in DEFAULTS.values():
                bot = Bot("1:a", default=defaults, session=lean)
                assert _fields(lean.build_form_data(bot, method)) == _fields(
                    stock.build_form_data(bot, method))
    finally:
        await stock.close()
        await lean.close()


async def test_a_timedelta_is_sent_as_the_moment_it_points_to():
    bot = Bot("1:a")
    session = TelegramSession()
    method = BanChatMember(chat_id=-100, user_id=5, until_date=timedelta(seconds=60))
    sent = {options["name"]: value for options, _h, value
            in session.build_form_data(bot, method)._fields}
    assert abs(int(sent["until_date"]) - datetime.now().timestamp() - 60) < 5
    await session.close()


async def test_the_live_session_is_lean_both_ways():
    session = make_session(Settings(bot_token=None))
    assert isinstance(session, TelegramSession)
    assert session.json_loads is loads
    await session.close()
