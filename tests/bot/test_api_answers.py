"""Bot API answers are parsed without the keyboard Telegram echoes back (bot/api_answers.py)."""

import json

from aiogram import Bot
from aiogram.methods import EditMessageText, Response
from aiogram.types import Message, Update

from bot.api_answers import lean_result, loads

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
