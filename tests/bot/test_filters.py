"""The routers' filters made cheap (bot/middlewares/filters.py) still decide the same."""

from aiogram import Bot, Dispatcher, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Update

from bot.middlewares.filters import gate_commands


def _dispatcher() -> Dispatcher:
    router = Router()

    @router.message(Command("help"))
    async def help_(message, command: CommandObject) -> str:
        return f"help {command.args}"

    @router.message(Command("Start", "go", ignore_case=True))
    async def start(message, command: CommandObject) -> str:
        return f"start {command.command}"

    @router.message(Command("score", prefix="/!"))
    async def score(message) -> str:
        return "score"

    @router.message()
    async def anything(message) -> str:
        return "other"

    dispatcher = Dispatcher()
    dispatcher.include_router(router)
    assert gate_commands(dispatcher) == 3
    return dispatcher


async def _answer(dispatcher: Dispatcher, text: str | None, caption: str | None = None) -> str:
    message = {"message_id": 1, "date": 0, "chat": {"id": 5, "type": "private"},
               "from": {"id": 5, "is_bot": False, "first_name": "A"}}
    if text is not None:
        message["text"] = text
    if caption is not None:
        message["caption"] = caption
        message["photo"] = [{"file_id": "p", "file_unique_id": "p", "width": 1, "height": 1}]
    return await dispatcher.feed_update(Bot("123456789:AAAA"), Update.model_validate(
        {"update_id": 1, "message": message}))


async def test_gated_commands_match_as_before() -> None:
    dispatcher = _dispatcher()
    assert await _answer(dispatcher, "/help me now") == "help me now"
    assert await _answer(dispatcher, "/START x") == "start START"
    assert await _answer(dispatcher, "/Go") == "start Go"
    assert await _answer(dispatcher, "!score") == "score"
    assert await _answer(dispatcher, " /help") == "help None"  # aiogram splits on whitespace
    assert await _answer(dispatcher, None, caption="/help with a photo") == "help with a photo"


async def test_what_is_not_one_of_the_commands_passes_on() -> None:
    dispatcher = _dispatcher()
    for text in ("/helpme", "help", "!help", "/", "/ help", "/HELP", "   "):
        assert await _answer(dispatcher, text) == "other", text
