"""Bot API answers are parsed without the keyboard Telegram echoes back (bot/api_answers.py)."""

import json

import pytest
from aiogram import Bot
from aiogram.methods import EditMessageMedia, EditMessageText, Response, SendPhoto
from aiogram.types import Message, Update
from pydantic import ValidationError

from bot.api_answers import lean_result, loads, result

KEYBOARD = {"inline_keyboard": [[{"text": "S20", "callback_data": "dt:1:1.0.0:S20"}]]}
MESSAGE = {"message_id": 7, "date": 0, "chat": {"id": -5, "type": "group", "title": "g"},
           "text": "board", "reply_markup": KEYBOARD}


def test_a_sent_message_is_parsed_without_its_keyboard_and_the_original_is_kept():
    answer = Response[EditMessageText.__returning__].model_validate(
        {"ok": True, "result": lean_result(MESSAGE)}, context={"bot": Bot("1:a")})
    assert isinstance(answer.result, Message)
    assert answer.result.message_id == 7 and answer.result.text == "board"
    assert answer.result.reply_markup is None
    assert MESSAGE["reply_markup"] == KEYBOARD


def test_every_message_of_a_list_loses_its_keyboard():
    result = lean_result([MESSAGE, {"message_id": 8}])
    assert [sorted(item) for item in result] == [
        ["chat", "date", "message_id", "text"], ["message_id"]]


def test_answers_without_a_message_are_unchanged():
    assert lean_result(True) is True
    assert lean_result({"status": "member"}) == {"status": "member"}


def test_the_live_loader_leans_answers_only():
    answer = loads(json.dumps({"ok": True, "result": MESSAGE}))
    assert "reply_markup" not in answer["result"]
    update = {"update_id": 1, "callback_query": {
        "id": "q", "chat_instance": "c", "data": "x",
        "from": {"id": 1, "is_bot": False, "first_name": "A"}, "message": MESSAGE}}
    parsed = Update.model_validate(loads(json.dumps(update)))
    assert parsed.callback_query.message.reply_markup is not None


def test_the_live_loader_reads_json_as_the_standard_library_does():
    text = "Ход: «Ann» 🎯 \\ \"T20\"\n</b>"
    answers = [{"ok": True, "result": lean_result(MESSAGE) | {"text": text}},
               {"ok": True, "result": True},
               {"ok": True, "result": [{"id": 2 ** 70, "latitude": 55.755826, "x": None}]},
               {"ok": False, "error_code": 429, "description": "Too Many Requests",
                "parameters": {"retry_after": 3}}]
    for answer in answers:
        for content in (json.dumps(answer), json.dumps(answer, ensure_ascii=False)):
            assert loads(content) == json.loads(content) == loads(content.encode())


def test_a_reply_is_parsed_without_its_sender_and_the_message_it_answers():
    sent = MESSAGE | {"from": {"id": 9, "is_bot": True, "first_name": "Bot"},
                      "reply_to_message": MESSAGE | {"message_id": 6}}
    answer = Response[Message].model_validate(
        {"ok": True, "result": lean_result(sent)}, context={"bot": Bot("1:a")})
    assert answer.result.message_id == 7 and answer.result.chat.id == -5
    assert answer.result.from_user is None and answer.result.reply_to_message is None
    assert sorted(lean_result([sent])[0]) == ["chat", "date", "message_id", "text"]
    assert "from" in sent and "reply_to_message" in sent


SIZES = [{"file_id": f"f{width}", "file_unique_id": f"u{width}", "width": width,
          "height": width * 3 // 4, "file_size": width * 40} for width in (90, 320, 800, 1280)]


def test_a_sent_photo_keeps_its_largest_size_which_is_all_the_bot_reads():
    """The bot reads of a sent or edited photo's answer whether it has a photo and
    ``photo[-1].file_id`` (bot/render/posting.py), its message id and chat: all as aiogram
    reads them from the whole answer."""
    bot = Bot("1:a")
    sent = MESSAGE | {"photo": SIZES, "caption": "board"}
    for method in (SendPhoto, EditMessageMedia):
        whole = Response[method.__returning__].model_validate(
            {"ok": True, "result": sent}, context={"bot": bot}).result
        lean = result(bot, method, loads(json.dumps({"ok": True, "result": sent}))[
            "result"])
        assert lean.photo == whole.photo[-1:] and lean.photo[-1].file_id == "f1280"
        assert (lean.message_id, lean.chat, lean.caption) == (
            whole.message_id, whole.chat, whole.caption)
    assert sent["photo"] == SIZES and len(lean_result([sent])[0]["photo"]) == 1
    assert lean_result(MESSAGE | {"photo": SIZES[:1]})["photo"] == SIZES[:1]
    chat = {"id": 5, "type": "private", "photo": {"small_file_id": "s", "big_file_id": "b",
                                                  "small_file_unique_id": "su",
                                                  "big_file_unique_id": "bu"}}
    assert lean_result(chat) is chat  # a chat's photo is not a sent photo's sizes


def test_an_edits_answer_is_read_as_aiogram_reads_it_a_message_or_true():
    """An edit's object is read as the message alone, not through the union of a message
    and True: the same result, and what the union refuses is refused."""
    bot = Bot("1:a")
    message = lean_result(MESSAGE) | {"photo": SIZES[-1:], "caption": "board"}
    for method in (EditMessageText, EditMessageMedia):
        for value in (message, True):
            whole = Response[method.__returning__].model_validate(
                {"ok": True, "result": value}, context={"bot": bot}).result
            assert result(bot, method, value) == whole
            assert type(result(bot, method, value)) is type(whole)
        with pytest.raises(ValidationError):
            result(bot, method, {"message_id": 7})
        with pytest.raises(ValidationError):
            Response[method.__returning__].model_validate(
                {"ok": True, "result": {"message_id": 7}}, context={"bot": bot})
    assert result(bot, EditMessageText, message).bot is bot
