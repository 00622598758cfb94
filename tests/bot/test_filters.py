"""The routers' filters made cheap (bot/middlewares/filters.py) still decide the same."""

from aiogram import Bot, Dispatcher, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.types import Update

from bot.middlewares.filters import gate_filters


class Pick(CallbackData, prefix="pk"):
    match_id: int
    word: str


class Refresh(CallbackData, prefix="rf"):
    pass


def _dispatcher() -> Dispatcher:
    router = Router()

    @router.callback_query(Pick.filter(F.word != "no"))
    async def pick(query, callback_data: Pick) -> str:
        return f"pick {callback_data.match_id} {callback_data.word}"

    @router.callback_query(Refresh.filter())
    async def refresh(query) -> str:
        return "refresh"

    @router.callback_query()
    async def other_press(query) -> str:
        return "other press"

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
    assert gate_filters(dispatcher) == 5
    return dispatcher


SENDER = {"id": 5, "is_bot": False, "first_name": "A"}


async def _feed(dispatcher: Dispatcher, **update: dict) -> str:
    return await dispatcher.feed_update(Bot("123456789:AAAA"), Update.model_validate(
        {"update_id": 1, **update}))


async def _answer(dispatcher: Dispatcher, text: str | None, caption: str | None = None) -> str:
    message = {"message_id": 1, "date": 0, "chat": {"id": 5, "type": "private"}, "from": SENDER}
    if text is not None:
        message["text"] = text
    if caption is not None:
        message["caption"] = caption
        message["photo"] = [{"file_id": "p", "file_unique_id": "p", "width": 1, "height": 1}]
    return await _feed(dispatcher, message=message)


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


async def _press(dispatcher: Dispatcher, data: str) -> str:
    return await _feed(dispatcher, callback_query={
        "id": "q", "chat_instance": "c", "data": data, "from": SENDER})


async def test_gated_callback_data_matches_as_before() -> None:
    dispatcher = _dispatcher()
    assert await _press(dispatcher, "pk:7:attack") == "pick 7 attack"
    assert await _press(dispatcher, "rf") == "refresh"
    for data in ("pk:7:no", "pk:x:attack", "pk:7", "pkx:7:attack", "rf:1", "dt:1:1.0.0:S20"):
        assert await _press(dispatcher, data) == "other press", data
