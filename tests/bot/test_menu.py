"""The command menu (setMyCommands): what it lists is what the bot answers, in every
language, within Telegram's limits; a refusal does not stop the bot."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from aiogram import Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command

from bot import menu
from bot.config import SUPPORTED_LANGUAGES
from bot.i18n import Translator
from bot.sandbox import strict

from .sandbox_run import opened


def _answered(router: Router) -> set[str]:
    """Every command a message handler of ``router`` or its sub-routers filters on."""
    names = {name for handler in router.message.handlers for item in handler.filters
             if isinstance(item.callback, Command)
             for name in item.callback.commands if isinstance(name, str)}
    return names.union(*(_answered(sub) for sub in router.sub_routers))


async def test_the_menu_lists_only_commands_the_bot_answers(tmp_path: Path) -> None:
    async with opened(tmp_path) as sandbox:
        answered = _answered(sandbox.app.dispatcher)
    listed = {name for _, names in menu.SCOPES for name in names}
    assert listed <= answered, listed - answered


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_every_entry_is_described_as_telegram_takes_it(language: str) -> None:
    for _, names in menu.SCOPES:
        strict.check_commands(menu.commands(Translator(language), names))  # raises if not


async def test_each_scope_is_set_in_every_language_and_by_default(tmp_path: Path) -> None:
    async with opened(tmp_path) as sandbox:
        menus = sandbox.world.menus
    assert set(menus) == {(scope.type, language) for scope, _ in menu.SCOPES
                          for language in (None, *SUPPORTED_LANGUAGES)}
    assert menus[("all_group_chats", None)] == menus[("all_group_chats", "ru")]  # the default
    assert menus[("all_private_chats", "fi")][-1] == ("help", "kaikki komennot")


def test_telegram_refuses_a_malformed_menu() -> None:
    from aiogram.types import BotCommand

    with pytest.raises(strict.Refused):
        strict.check_commands([BotCommand(command="Set-Result", description="x")])
    with pytest.raises(strict.Refused):
        strict.check_commands([BotCommand(command="a", description="")])


async def test_a_refused_menu_is_logged_and_the_bot_goes_on(caplog) -> None:
    class Refusing:
        async def set_my_commands(self, *args, **kwargs):
            raise TelegramBadRequest(method=None, message="Bad Request: BOT_COMMAND_INVALID")

    with caplog.at_level(logging.WARNING, logger="bot.menu"):
        await menu.publish(Refusing(), "ru")
    assert "the command menu was not set" in caplog.text
