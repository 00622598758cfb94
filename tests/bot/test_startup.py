"""Start-up problems end in one line, not a traceback (README, "Running live"): a wrong
LOG_LEVEL, a token Telegram refuses; Telegram out of reach is retried with back-off and
said once."""

from __future__ import annotations

import logging

import pytest
from aiogram import Bot
from aiogram.client.session.base import BaseSession
from aiogram.exceptions import TelegramNetworkError, TelegramUnauthorizedError
from aiogram.methods import GetMe, TelegramMethod

from bot import __main__ as entry
from bot.app import StartupError, whoami
from bot.clock import Clock
from bot.config import SettingsError, load_settings
from bot.sending import install

TOKEN = "123456789:AAAbbbCCCdddEEEfffGGGhhh"


class FlakySession(BaseSession):
    """Telegram out of reach for the first ``failures`` calls, then answering getMe."""

    def __init__(self, failures: int, refuse: bool = False) -> None:
        super().__init__()
        self.failures, self.refuse, self.calls = failures, refuse, 0

    async def close(self) -> None:
        """No connection to close."""

    async def stream_content(self, *args, **kwargs):
        raise NotImplementedError
        yield b""  # pragma: no cover

    async def make_request(self, bot: Bot, method: TelegramMethod, timeout=None):
        assert isinstance(method, GetMe)
        self.calls += 1
        if self.refuse:
            raise TelegramUnauthorizedError(method=method, message="Unauthorized")
        if self.calls <= self.failures:
            raise TelegramNetworkError(method=method, message="Cannot connect to host")
        return method.__returning__.model_validate(
            {"id": 1, "is_bot": True, "first_name": "Bot", "username": "t_bot"})


def test_an_unknown_log_level_is_one_line(monkeypatch) -> None:
    monkeypatch.setenv("LOG_LEVEL", "LOUD")
    with pytest.raises(SettingsError) as caught:
        load_settings(_env_file=None)
    assert str(caught.value) == ("Setting LOG_LEVEL is wrong: must be one of DEBUG, INFO,"
                                 " WARNING, ERROR, CRITICAL")


def test_a_log_level_in_small_letters_is_taken(monkeypatch) -> None:
    monkeypatch.setenv("LOG_LEVEL", "debug")
    assert load_settings(_env_file=None).log_level == "DEBUG"


async def test_telegram_out_of_reach_is_retried_with_back_off_said_once(caplog) -> None:
    session, waits = FlakySession(failures=9), []
    install(session, Clock())  # the sending layer, as the live bot has it

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
    bot = Bot(TOKEN, session=session)
    with caplog.at_level(logging.WARNING):
        me = await whoami(bot, sleep)
    assert me.username == "t_bot"
    assert session.calls == 10
    assert waits == [1, 2, 4, 8, 16, 32, 60, 60, 60]
    said = [r.getMessage() for r in caplog.records if r.name.startswith("bot")]
    assert len(said) == 1 and "Cannot connect to host" in said[0]
    assert "\n" not in said[0]


async def test_a_refused_token_is_one_line() -> None:
    bot = Bot(TOKEN, session=FlakySession(failures=0, refuse=True))
    with pytest.raises(StartupError) as caught:
        await whoami(bot)
    assert "\n" not in str(caught.value) and "BOT_TOKEN" in str(caught.value)
    assert TOKEN not in str(caught.value)


def test_python_m_bot_prints_the_line_and_exits(monkeypatch, capsys) -> None:
    monkeypatch.setenv("BOT_TOKEN", TOKEN)

    async def refused(settings) -> int:
        raise StartupError("Telegram refuses BOT_TOKEN (Unauthorized): check it")
    monkeypatch.setattr("bot.live.run_live", refused)
    assert entry.main([]) == 1
    assert capsys.readouterr().err == "Telegram refuses BOT_TOKEN (Unauthorized): check it\n"


def test_python_m_bot_with_a_wrong_log_level_prints_one_line(monkeypatch, capsys) -> None:
    monkeypatch.setenv("LOG_LEVEL", "LOUD")
    assert entry.main([]) == 2
    assert capsys.readouterr().err.count("\n") == 1



@pytest.mark.parametrize(("argv", "language"), [
    (["sandbox"], "ru"), (["--lang", "en", "sandbox"], "en"), (["sandbox", "--lang", "fi"], "fi"),
    (["--lang", "en", "sandbox", "--lang", "fi"], "fi"), (["--lang", "en"], "en")])
def test_the_sandboxs_language_is_taken_before_or_after_the_mode(argv, language) -> None:
    assert entry.parse_args(argv).lang == language
