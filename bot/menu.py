"""The command menu: what Telegram lists when a user types "/" or opens the menu button.

Telegram shows the bot's commands only when the bot has set them (``setMyCommands``), for
a scope and a language: members of a group see the players' commands, its administrators
(who organise) the organisers' commands as well, a private chat what works there. Each list
is set in every catalog language (a user's Telegram app language picks one) and once
without a language (``DEFAULT_LANGUAGE``'s, for the other languages), at every start: a new
release's commands replace the old ones. Game words typed during a match (``/double``, ``/take``, ``/resign``,
a card game's appeals) are not listed: each board and ``/match`` say them when they apply.
"""

from __future__ import annotations

import logging

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
)

from bot.config import SUPPORTED_LANGUAGES
from bot.i18n import Translator

log = logging.getLogger(__name__)

PLAYERS = ("register", "withdraw", "checkin", "players", "match", "board", "hand", "roll",
           "try", "result", "confirm", "dispute", "standings", "bracket", "challenge",
           "practice", "rules", "lang", "help")
ORGANISERS = ("new", "settings", "schedule", "closereg", "openreg", "add", "remove", "begin",
              "cancel", "pause", "resume", "setresult", "dq", "replace", "reopen", "correct",
              "starter", "addtime", "reentry", "hostcopy", "export")
PRIVATE = ("match", "standings", "bracket", "hand", "rules", "lang", "help")
SCOPES = ((BotCommandScopeAllGroupChats(), PLAYERS),
          (BotCommandScopeAllChatAdministrators(), PLAYERS + ORGANISERS),
          (BotCommandScopeAllPrivateChats(), PRIVATE))
"""Each scope and its commands, in the order the menu lists them."""


def commands(tr: Translator, names: tuple[str, ...]) -> list[BotCommand]:
    """The menu entries of ``names`` in ``tr``'s language (catalog keys ``menu.<name>``)."""
    return [BotCommand(command=name, description=tr.plain(f"menu.{name}")) for name in names]


async def publish(bot: Bot, default_language: str) -> None:
    """Set every scope's menu in every language; a refusal is logged, not fatal (the bot
    works without a menu)."""
    try:
        for scope, names in SCOPES:
            for language in (None, *SUPPORTED_LANGUAGES):
                tr = Translator(language or default_language)
                await bot.set_my_commands(commands(tr, names), scope=scope,
                                          language_code=language)
    except TelegramAPIError as error:
        log.warning("the command menu was not set: %s", error)
