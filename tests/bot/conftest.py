"""Fixtures shared by the bot's tests: "High card", the game declared in a test
(:mod:`tests.bot.test_plugin_game`), registered for one test at a time; a Telegram that
fails the calls a test picks (:class:`Faults`), or cannot be reached for a line."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from aiogram.exceptions import TelegramAPIError, TelegramNetworkError, TelegramServerError
from aiogram.methods import SendMessage, TelegramMethod

from bot import games
from bot.sandbox.runner import Sandbox
from bot.sandbox.session import SandboxSession
from tests.bot.test_plugin_game import high_card


@pytest.fixture(scope="session")
def high_card_catalogs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder of the game's texts per test run: the catalogs it adds stay registered."""
    return tmp_path_factory.mktemp("highcard") / "locales"


@pytest.fixture
def high_card_game(high_card_catalogs: Path) -> Iterator[None]:
    games.register(high_card(high_card_catalogs))
    yield
    games.unregister("highcard")


class Faults:
    """Makes the sandbox's Bot API fail the calls ``rule`` picks, ``times`` times, as a
    Telegram out of reach fails them (a Bad Gateway unless told otherwise); ``seen``, when
    set, hears of every call first (and may arm a failure of that very call)."""

    def __init__(self) -> None:
        self.rule: Callable[[TelegramMethod], bool] = lambda method: False
        self.left = 0
        self.error: tuple[type[TelegramAPIError], str] = (TelegramServerError, "Bad Gateway")
        self.seen: Callable[[TelegramMethod], None] | None = None

    def fail(self, times: int, rule: Callable[[TelegramMethod], bool],
             error: type[TelegramAPIError] = TelegramServerError,
             message: str = "Bad Gateway") -> None:
        self.left, self.rule, self.error = times, rule, (error, message)

    def check(self, method: TelegramMethod) -> None:
        if self.seen is not None:
            self.seen(method)
        if self.left and self.rule(method):
            self.left -= 1
            raise self.error[0](method=method, message=self.error[1])

    @contextmanager
    def installed(self) -> Iterator[Faults]:
        """The sandbox's Bot API with these faults for the block (in a test or not)."""
        real = SandboxSession.make_request

        async def make_request(session, bot, method, timeout=None):
            self.check(method)
            return await real(session, bot, method, timeout)

        SandboxSession.make_request = make_request
        try:
            yield self
        finally:
            SandboxSession.make_request = real


@pytest.fixture
def faults() -> Iterator[Faults]:
    with Faults().installed() as installed:
        yield installed


class Outage:
    """Telegram out of reach for a line: every sendMessage meets a lost connection."""

    def __init__(self, faults: Faults) -> None:
        self.faults = faults

    async def cut_off(self, sandbox: Sandbox, output: list[str], line: str) -> list[str]:
        """``line`` carried out with Telegram out of reach, then two minutes on with it
        back (the jobs' first retry falls due): what was said in those minutes."""
        self.faults.fail(sys.maxsize, lambda method: isinstance(method, SendMessage),
                         TelegramNetworkError, "connection lost")
        await sandbox.line(line)
        self.faults.fail(0, lambda method: False)
        said = len(output)
        await sandbox.line("! advance 2m")
        return output[said:]


@pytest.fixture
def telegram_down(faults: Faults) -> Outage:
    return Outage(faults)
