"""A router that asks only the handlers that could take an event (bot/middlewares/filters.py)
sends every event to the same handler as aiogram's own router."""

import pytest
from aiogram import Bot, Dispatcher, F, Router
from aiogram.dispatcher.event.bases import UNHANDLED
from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, Chat, Message, Update

from bot.middlewares.filters import IN_GROUP, IN_PRIVATE, Candidate, Gate, IndexedRouter


class Pick(CallbackData, prefix="pk"):
    match_id: int
    word: str


class Refresh(CallbackData, prefix="rf"):
    pass


ROUTERS = pytest.mark.parametrize("kind", [Router, IndexedRouter])


def _dispatcher(kind: type[Router] = IndexedRouter) -> Dispatcher:
    router = kind()

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

    @router.message(IN_PRIVATE, F.text == "hi")
    async def hi_in_private(message) -> str:
        return "private hi"

    @router.message(F.text == "hi", IN_GROUP)
    async def hi_in_group(message) -> str:
        return "group hi"

    @router.message()
    async def anything(message) -> str:
        return "other"

    dispatcher = Dispatcher()
    dispatcher.include_router(router)
    return dispatcher


SENDER = {"id": 5, "is_bot": False, "first_name": "A"}


async def _feed(dispatcher: Dispatcher, **update: dict) -> str:
    return await dispatcher.feed_update(Bot("123456789:AAAA"), Update.model_validate(
        {"update_id": 1, **update}))


async def _answer(dispatcher: Dispatcher, text: str | None, caption: str | None = None,
                  chat: str = "private") -> str:
    message = {"message_id": 1, "date": 0, "chat": {"id": 5 if chat == "private" else -5,
                                                    "type": chat}, "from": SENDER}
    if text is not None:
        message["text"] = text
    if caption is not None:
        message["caption"] = caption
        message["photo"] = [{"file_id": "p", "file_unique_id": "p", "width": 1, "height": 1}]
    return await _feed(dispatcher, message=message)


@ROUTERS
async def test_commands_go_to_the_same_handlers(kind: type[Router]) -> None:
    dispatcher = _dispatcher(kind)
    assert await _answer(dispatcher, "/help me now") == "help me now"
    assert await _answer(dispatcher, "/START x") == "start START"
    assert await _answer(dispatcher, "/Go") == "start Go"
    assert await _answer(dispatcher, "!score") == "score"
    assert await _answer(dispatcher, " /help") == "help None"  # aiogram splits on whitespace
    assert await _answer(dispatcher, None, caption="/help with a photo") == "help with a photo"


@ROUTERS
async def test_messages_go_to_the_handlers_of_their_kind_of_chat(kind: type[Router]) -> None:
    dispatcher = _dispatcher(kind)
    assert await _answer(dispatcher, "hi") == "private hi"
    for chat in ("group", "supergroup"):
        assert await _answer(dispatcher, "hi", chat=chat) == "group hi"
        assert await _answer(dispatcher, "hello", chat=chat) == "other"


@ROUTERS
async def test_what_is_not_one_of_the_commands_passes_on(kind: type[Router]) -> None:
    dispatcher = _dispatcher(kind)
    for text in ("/helpme", "help", "!help", "/", "/ help", "/HELP", "   "):
        assert await _answer(dispatcher, text) == "other", text


@ROUTERS
async def test_a_routers_own_middlewares_still_wrap_its_handlers(kind: type[Router]) -> None:
    """Without middlewares an observer calls its handler at once; with them, they run."""
    dispatcher = _dispatcher(kind)
    router = dispatcher.sub_routers[0]
    assert await _answer(dispatcher, "/help me") == "help me"

    async def outer(handler, event, data):
        return "outer " + await handler(event, data)

    async def inner(handler, event, data):
        return "inner " + await handler(event, data)

    router.message.outer_middleware(outer)
    router.message.middleware(inner)
    assert await _answer(dispatcher, "/help me") == "outer inner help me"
    assert await _answer(dispatcher, "hello", chat="group") == "outer inner other"


def _query(data: str) -> dict:
    return {"id": "q", "chat_instance": "c", "data": data, "from": SENDER}


async def _press(dispatcher: Dispatcher, data: str) -> str:
    return await _feed(dispatcher, callback_query=_query(data))


@ROUTERS
async def test_presses_go_to_the_same_handlers(kind: type[Router]) -> None:
    dispatcher = _dispatcher(kind)
    assert await _press(dispatcher, "pk:7:attack") == "pick 7 attack"
    assert await _press(dispatcher, "rf") == "refresh"
    for data in ("pk:7:no", "pk:x:attack", "pk:7", "pkx:7:attack", "rf:1", "dt:1:1.0.0:S20"):
        assert await _press(dispatcher, data) == "other press", data


def test_only_the_handlers_that_could_take_an_event_are_asked() -> None:
    router = _dispatcher().sub_routers[0]
    message = Message.model_validate({"message_id": 1, "date": 0, "text": "/HELP@bot me",
                                      "chat": {"id": 5, "type": "private"}, "from": SENDER})
    asked = [found.handler.callback.__name__ for found in router.message.candidates(message)]
    # "score" has another prefix, "hi_in_private" no command: both are asked
    assert asked == ["help_", "score", "hi_in_private", "anything"]
    plain = message.model_copy(update={"text": "hello"})
    assert [c.handler.callback.__name__ for c in router.message.candidates(plain)] == [
        "score", "hi_in_private", "anything"]
    in_group = plain.model_copy(update={"chat": Chat(id=-5, type="supergroup")})
    assert [c.handler.callback.__name__ for c in router.message.candidates(in_group)] == [
        "score", "hi_in_group", "anything"]
    press = CallbackQuery.model_validate(_query("rf"))
    assert [c.handler.callback.__name__ for c in router.callback_query.candidates(press)] == [
        "refresh", "other_press"]


async def test_a_tables_guard_turns_a_message_away_before_the_tables_own_filters() -> None:
    """A group's plain text is read only by its own game's handlers: another game's (costly)
    word filter is not asked at all (``dispatch_tree`` puts the guards first)."""
    from bot.features.handlers import Guarded, Handlers, dispatch_tree

    asked: list[str] = []

    def words(name: str):
        def read(message: Message) -> bool:
            asked.append(name)
            return message.text == name
        return read

    tables = {name: Handlers(name) for name in ("cup", "darts")}
    for name, table in tables.items():
        @table.message(words(name))
        async def handled(message, name: str = name) -> str:
            return name

    def of_game(name: str):
        async def guard(message: Message) -> bool:
            return message.chat.title == name  # the game of this chat
        return guard

    dispatcher = Dispatcher()
    for router in dispatch_tree([Guarded(table, (of_game(name),))
                                 for name, table in tables.items()]):
        dispatcher.include_router(router)
    message = {"message_id": 1, "date": 0, "text": "darts", "from": SENDER,
               "chat": {"id": -5, "type": "supergroup", "title": "darts"}}
    assert await _feed(dispatcher, message=message) == "darts"
    assert asked == ["darts"]


async def test_a_groups_chatter_reads_nothing_once_its_chat_is_known(tmp_path,
                                                                     monkeypatch) -> None:
    """Every game's guard asks what the chat plays: with a tournament open, none, or only a
    finished one, a second plain message there reads nothing from the database."""
    from storage.cache import ReadCache
    from tests.bot.sandbox_run import opened
    from tests.sql_trace import sql_trace

    monkeypatch.setattr(ReadCache, "verify", False)  # (the tests read again on every hit)

    async with opened(tmp_path) as sandbox:
        await sandbox.run_lines(["org@open: /new shanghai Open", "alice@open: /register",
                                 "org@done: /new shanghai Done", "org@done: /cancel"])
        db = sandbox.app.services.db
        for chat in ("open", "none", "done"):
            await sandbox.line(f"carol@{chat}: hello")
            with sql_trace(db) as statements:
                await sandbox.line(f"carol@{chat}: how are you")
            assert [s for s in statements if "processed_updates" not in s
                    and s not in ("BEGIN IMMEDIATE", "COMMIT")] == [], chat


class _OfGame(Gate):
    """The chat's game is its title; what the gate was asked is noted."""

    def __init__(self, name: str, asked: list[str]) -> None:
        self.name, self.asked = name, asked

    async def opens(self, event: Message, data: dict) -> bool:
        self.asked.append(f"gate {self.name}")
        return event.chat.title == self.name


def _gated(asked: list[str]) -> Dispatcher:
    """Two games' tables, each with a word and a shared command, then a platform's command."""
    from bot.features.handlers import Guarded, Handlers, dispatch_tree

    tables = {name: Handlers(name) for name in ("cup", "darts", "platform")}
    for name in ("cup", "darts"):
        def word(message: Message, name: str = name) -> dict | bool:
            asked.append(f"word {name}")
            return {"said": name} if message.text == name else False

        @tables[name].message(word)
        async def said(message, said: str, name: str = name) -> str:
            return f"{name} read {said}"

        @tables[name].message(Command("match"))
        async def match(message, name: str = name) -> str:
            return f"{name} match"

    @tables["platform"].message(Command("help"))
    async def help_(message) -> str:
        return "help"

    dispatcher = Dispatcher()
    for router in dispatch_tree([Guarded(tables["cup"], (_OfGame("cup", asked),)),
                                 Guarded(tables["platform"]),
                                 Guarded(tables["darts"], (_OfGame("darts", asked),))]):
        dispatcher.include_router(router)
    return dispatcher


async def _in(dispatcher: Dispatcher, game: str, text: str) -> str:
    return await _feed(dispatcher, message={
        "message_id": 1, "date": 0, "text": text, "from": SENDER,
        "chat": {"id": -5, "type": "supergroup", "title": game}})


async def test_a_closed_gate_turns_its_handler_away_before_its_filters() -> None:
    """A message of game X never reaches game Y's handlers, not even their filters; what a
    refusing filter would have added is not handed on."""
    asked: list[str] = []
    dispatcher = _gated(asked)
    assert await _in(dispatcher, "darts", "darts") == "darts read darts"
    assert asked == ["gate cup", "gate darts", "word darts"]
    asked.clear()
    assert await _in(dispatcher, "cup", "darts") is UNHANDLED
    assert asked == ["gate cup", "word cup", "gate darts"]


async def test_commands_still_reach_their_games_and_the_platforms_handlers() -> None:
    asked: list[str] = []
    dispatcher = _gated(asked)
    for game in ("cup", "darts", "chess"):
        assert await _in(dispatcher, game, "/help") == "help"
    assert await _in(dispatcher, "cup", "/match") == "cup match"
    assert await _in(dispatcher, "darts", "/match") == "darts match"
    assert await _in(dispatcher, "chess", "/match") is UNHANDLED


async def test_every_games_message_handler_is_behind_its_games_gate() -> None:
    """Declared once (``bot.features.routers``): each message handler of a game's table has
    ``ForItsGame`` of that table first, which the observer asks before the other filters."""
    from bot import catalogue, games
    from bot.features import routers
    from bot.middlewares.scope import ForItsGame

    catalogue.install()
    plays, commands = routers()
    gates = [Candidate.of(handler).gate for router in (plays, commands)
             for handler in router.message.handlers]
    tables = {table for game in games.all_games() for table in game.routers
              if any(entry.kind == "message" for entry in table.entries())}
    game_handlers = {id(entry.handler) for table in tables for entry in table.entries()
                     if entry.kind == "message"}
    for router in (plays, commands):
        for handler in router.message.handlers:
            gate = Candidate.of(handler).gate
            assert (id(handler.callback) in game_handlers) is isinstance(gate, ForItsGame)
    assert {gate.table for gate in gates if gate is not None} == tables


def test_a_kind_of_chat_the_index_answered_is_not_asked_again() -> None:
    router = _dispatcher().sub_routers[0]
    message = Message.model_validate({"message_id": 1, "date": 0, "text": "hi",
                                      "chat": {"id": -5, "type": "group"}, "from": SENDER})
    found = {c.handler.callback.__name__: c for c in router.message.candidates(message)}
    assert [item.callback for item in found["hi_in_group"].filters] == [
        item.callback for item in found["hi_in_group"].handler.filters
        if item.callback is not IN_GROUP]
    assert len(found["hi_in_group"].filters) == 1
