"""Polling confirms an update to Telegram only once it is handled (``bot/polling.py``), so a
bot that stops while handling one is given it again at its next start.

A stand-in for Telegram's ``getUpdates`` keeps every update not confirmed (those at or after
the last ``offset`` asked with) and returns them in order, as Telegram does."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from aiogram import Bot
from aiogram.client.session.base import BaseSession
from aiogram.methods import GetMe, GetUpdates
from aiogram.types import Chat, Message, Update, User

from bot import polling
from bot.polling import ConfirmingDispatcher


class Telegram(BaseSession):
    """Telegram's side of ``getUpdates``: the updates not confirmed yet, and each offset
    asked with."""

    def __init__(self, texts: list[str]) -> None:
        super().__init__()
        self.unconfirmed = [_update(number, text) for number, text in enumerate(texts, 1)]
        self.offsets: list[int | None] = []

    async def make_request(self, bot, method, timeout=None):
        if isinstance(method, GetMe):
            return User(id=1, is_bot=True, first_name="Bot", username="bot")
        assert isinstance(method, GetUpdates), method
        self.offsets.append(method.offset)
        if method.offset is not None:
            self.unconfirmed = [u for u in self.unconfirmed if u.update_id >= method.offset]
        if not self.unconfirmed:
            await asyncio.sleep(0.01)  # a long poll with nothing new
        return self.unconfirmed[:method.limit or polling.BATCH]

    async def close(self) -> None:
        pass

    async def stream_content(self, *args, **kwargs):  # pragma: no cover - not asked for
        raise NotImplementedError
        yield b""


def _update(number: int, text: str) -> Update:
    return Update(update_id=number, message=Message(
        message_id=number, date=datetime(2026, 10, 1, tzinfo=UTC),
        chat=Chat(id=5, type="private"), text=text))


def _dispatcher(handled: list[str], holds: dict[str, asyncio.Event]) -> ConfirmingDispatcher:
    """A dispatcher whose handler notes each text, waiting first on its event in ``holds``."""
    dispatcher = ConfirmingDispatcher()

    @dispatcher.message()
    async def note(message: Message) -> None:
        if message.text in holds:
            await holds[message.text].wait()
        handled.append(message.text)
    return dispatcher


def _polling(dispatcher: ConfirmingDispatcher, bot: Bot) -> asyncio.Task:
    return asyncio.create_task(dispatcher.start_polling(
        bot, handle_signals=False, close_bot_session=False, polling_timeout=0))


async def _stopped(dispatcher: ConfirmingDispatcher, polling_task: asyncio.Task) -> None:
    await dispatcher.stop_polling()
    await polling_task


async def _until(condition: Callable[[], bool]) -> None:
    for _ in range(2000):  # up to 10 s on a loaded machine
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("it never came")


async def test_an_update_being_handled_holds_the_offset_until_it_is_done() -> None:
    telegram = Telegram(["one", "slow", "three"])
    bot, handled, slow = Bot("1:test", session=telegram), [], asyncio.Event()
    dispatcher = _dispatcher(handled, {"slow": slow})
    polling_task = _polling(dispatcher, bot)
    await _until(lambda: handled == ["one", "three"])
    await _until(lambda: telegram.offsets[-1] == 2)  # "slow" and after: not confirmed
    slow.set()
    await _until(lambda: telegram.offsets[-1] == 4)
    await _stopped(dispatcher, polling_task)
    assert sorted(handled) == ["one", "slow", "three"]  # each fed once, asked again or not


async def test_a_bot_stopped_while_handling_an_update_is_given_it_again() -> None:
    telegram = Telegram(["one", "dies here", "three"])
    bot, handled = Bot("1:test", session=telegram), []
    first = _dispatcher(handled, {"dies here": asyncio.Event()})  # never set: the bot dies
    polling_task = _polling(first, bot)
    await _until(lambda: handled == ["one", "three"])
    polling_task.cancel()  # the process ends
    for task in asyncio.all_tasks() - {asyncio.current_task()}:
        task.cancel()
    handled.clear()
    second = _dispatcher(handled, {})
    polling_task = _polling(second, bot)
    await _until(lambda: "dies here" in handled)
    await _stopped(second, polling_task)
    assert handled[0] == "dies here"  # ("three" again too: the bot's dedupe drops it)


async def test_a_graceful_stop_confirms_what_was_handled() -> None:
    """Polling stops while an update is in hand; once it is handled (the app drains the
    updates in hand), the stop confirms it: the next start is not given it again."""
    telegram = Telegram(["one", "slow"])
    bot, handled, slow = Bot("1:test", session=telegram), [], asyncio.Event()
    dispatcher = _dispatcher(handled, {"slow": slow})
    polling_task = _polling(dispatcher, bot)
    await _until(lambda: handled == ["one"] and telegram.offsets[-1] == 2)
    await _stopped(dispatcher, polling_task)
    slow.set()
    await _until(lambda: handled == ["one", "slow"])
    assert telegram.offsets[-1] == 2
    await dispatcher.confirm_handled(bot)
    assert telegram.offsets[-1] == 3 and telegram.unconfirmed == []


async def test_a_whole_batch_in_hand_is_confirmed_so_newer_updates_come(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Telegram returns at most a batch from the offset: when the updates in hand fill it,
    they are confirmed, and the ones after them are handled meanwhile."""
    monkeypatch.setattr(polling, "BATCH", 2)
    telegram = Telegram(["stuck", "stuck too", "three"])
    bot, handled, stuck = Bot("1:test", session=telegram), [], asyncio.Event()
    dispatcher = _dispatcher(handled, {"stuck": stuck, "stuck too": stuck})
    polling_task = _polling(dispatcher, bot)
    await _until(lambda: handled == ["three"])
    stuck.set()
    await _until(lambda: len(handled) == 3)
    await _stopped(dispatcher, polling_task)


async def test_an_update_handled_too_long_stops_holding_the_others_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(polling, "HOLD_SECONDS", 0.0)
    telegram = Telegram(["stuck", "two"])
    bot, handled, stuck = Bot("1:test", session=telegram), [], asyncio.Event()
    dispatcher = _dispatcher(handled, {"stuck": stuck})
    polling_task = _polling(dispatcher, bot)
    await _until(lambda: handled == ["two"] and telegram.offsets[-1] == 3)
    stuck.set()
    await _until(lambda: handled == ["two", "stuck"])
    await _stopped(dispatcher, polling_task)
