"""Fixtures shared by the bot's tests: "High card", the game declared in a test
(:mod:`tests.bot.test_plugin_game`), registered for one test at a time; a Telegram that
cannot be reached while a test says so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from aiogram.exceptions import TelegramNetworkError

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


class Outage:
    """While :attr:`on`, the sandbox's Telegram drops every sendMessage as a lost
    connection."""

    def __init__(self) -> None:
        self.on = False

    async def cut_off(self, sandbox: Sandbox, output: list[str], line: str) -> list[str]:
        """``line`` carried out with Telegram out of reach, then two minutes on with it
        back (the jobs' first retry falls due): what was said in those minutes."""
        self.on = True
        await sandbox.line(line)
        self.on = False
        said = len(output)
        await sandbox.line("! advance 2m")
        return output[said:]


@pytest.fixture
def telegram_down(monkeypatch: pytest.MonkeyPatch) -> Outage:
    outage, send = Outage(), SandboxSession._send_message

    async def out_of_reach(session: SandboxSession, method):
        if outage.on:
            raise TelegramNetworkError(method=method, message="connection lost")
        return await send(session, method)

    monkeypatch.setattr(SandboxSession, "_send_message", out_of_reach)
    return outage
