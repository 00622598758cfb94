"""The live session reads a successful answer's result as aiogram's ``Response[…]`` reads it
(bot/api_answers.py, bot/telegram_session.py)."""

import json

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import ClientDecodeError, TelegramBadRequest, TelegramRetryAfter
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageCaption,
    EditMessageMedia,
    EditMessageText,
    GetChatMember,
    PinChatMessage,
    SendDocument,
    SendMessage,
    SendPhoto,
)
from aiogram.types import InputMediaPhoto

from bot.telegram_session import TelegramSession

GROUP = {"id": -1001000000017, "type": "supergroup", "title": "shanghai007"}
BOT = {"id": 123456, "is_bot": True, "first_name": "Tourney", "username": "tourney_bot"}
KEYBOARD = {"inline_keyboard": [[{"text": "S20", "callback_data": "dt:1:1.0.0:S20"}]]}
PHOTO = [{"file_id": f"p{size}", "file_unique_id": f"u{size}", "width": size, "height": size,
          "file_size": size * 10} for size in (90, 320, 800)]
TEXT = {"message_id": 21, "date": 1764979200, "chat": GROUP, "from": BOT, "text": "board",
        "entities": [{"type": "bold", "offset": 0, "length": 5}]}
CAPTION = {"message_id": 9, "date": 0, "chat": GROUP, "from": BOT, "caption": "Match 463",
           "photo": PHOTO, "reply_markup": KEYBOARD}
DM = {"id": 1001, "type": "private", "first_name": "Ana", "username": "ana"}

ANSWERS = [
    (SendMessage(chat_id=1, text="x"), TEXT),
    (SendMessage(chat_id=1, text="x"), {**TEXT, "reply_markup": KEYBOARD, "chat": DM,
                                        "message_thread_id": 4, "is_topic_message": True}),
    (SendPhoto(chat_id=1, photo="x"), CAPTION),
    (SendDocument(chat_id=1, document="x"), {
        "message_id": 3, "date": 0, "chat": DM, "from": BOT, "caption": "record",
        "document": {"file_id": "d", "file_unique_id": "ud", "file_name": "m.mat"}}),
    (EditMessageText(text="x", chat_id=1, message_id=1),
     {**TEXT, "edit_date": 1764979260, "reply_markup": KEYBOARD}),
    (EditMessageText(text="x", inline_message_id="i"), True),
    (EditMessageMedia(media=InputMediaPhoto(media="x"), chat_id=1, message_id=9), CAPTION),
    (EditMessageCaption(chat_id=1, message_id=9), CAPTION),
    (AnswerCallbackQuery(callback_query_id="q"), True),
    (PinChatMessage(chat_id=1, message_id=2), True),
    (GetChatMember(chat_id=1, user_id=2), {"status": "member", "user": BOT}),
]


def answer(result):
    return json.dumps({"ok": True, "result": result})


@pytest.mark.parametrize(("method", "result"), ANSWERS)
def test_a_result_is_what_aiogram_reads(method, result):
    session = TelegramSession()
    bot = Bot("1:a", session=session)
    ours = session.check_response(bot, method, 200, answer(result))
    theirs = AiohttpSession.check_response(session, bot, method, 200, answer(result))
    assert ours == theirs
    assert type(ours.result) is type(theirs.result)
    if not isinstance(result, bool):
        assert ours.result.bot is bot


def test_the_answer_is_left_as_it_was():
    session = TelegramSession()
    bot = Bot("1:a", session=session)
    result = dict(TEXT)
    session.check_response(bot, SendMessage(chat_id=1, text="x"), 200, answer(result))
    assert result == TEXT


@pytest.mark.parametrize(("status", "body", "error"), [
    (400, {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"},
     TelegramBadRequest),
    (429, {"ok": False, "error_code": 429, "description": "Too Many Requests",
           "parameters": {"retry_after": 3}}, TelegramRetryAfter),
    (200, {"ok": True, "result": {"message_id": "seven"}}, ClientDecodeError),
    (200, "not json", ClientDecodeError),
])
def test_errors_are_read_by_aiogram(status, body, error):
    session = TelegramSession()
    bot = Bot("1:a", session=session)
    content = body if isinstance(body, str) else json.dumps(body)
    with pytest.raises(error):
        session.check_response(bot, SendMessage(chat_id=1, text="x"), status, content)
