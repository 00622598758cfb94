"""Handler tables, and the two routers every Dispatcher gets from them.

aiogram attaches a Router to one parent for life, but the sandbox's ``! restart`` (and the
tests) build a new Dispatcher in the same process. Features therefore declare handlers on a
:class:`Handlers` table with the usual decorator syntax, and each Dispatcher gets fresh
routers from :func:`dispatch_tree`.

Why two routers and not one per table: aiogram pays for every router an update passes
through (a copy of the handler data and the middleware chain, about 50 µs each here), and a
game action used to pass some thirty of them before reaching its handler. The tree keeps the
tables' order but groups the handlers by what they answer: **plays** (every button and every
message that is not a command: dice, typed moves, words, DM text) and **commands** (messages
starting with ``/``). A command never reaches a plays handler and a plain message never
reaches a command handler, which is what the handlers' own filters said already. Within each,
an update is shown only to the handlers that could take it (``IndexedRouter``: by command, by
the prefix of a button's data).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.middlewares.filters import IndexedRouter


@dataclass(frozen=True)
class _Entry:
    kind: str  # "message", "callback_query" or "my_chat_member"
    filters: tuple
    flags: dict[str, Any]
    handler: Callable
    answers_commands: bool = field(default=False)


class Handlers:
    def __init__(self, name: str) -> None:
        self.name = name
        self._entries: list[_Entry] = []

    def message(self, *filters: Any, **flags: Any) -> Callable[[Callable], Callable]:
        commands = any(isinstance(item, Command) for item in filters)
        return self._add("message", filters, flags, commands)

    def command_message(self, *filters: Any, **flags: Any) -> Callable[[Callable], Callable]:
        """A message handler for commands that its own filters recognise (not ``Command``)."""
        return self._add("message", filters, flags, True)

    def callback_query(self, *filters: Any, **flags: Any) -> Callable[[Callable], Callable]:
        return self._add("callback_query", filters, flags, False)

    def my_chat_member(self, *filters: Any, **flags: Any) -> Callable[[Callable], Callable]:
        """A change of the bot's own membership in a chat (added, promoted, removed)."""
        return self._add("my_chat_member", filters, flags, False)

    def _add(self, kind: str, filters: tuple, flags: dict[str, Any], commands: bool):
        def register(handler: Callable) -> Callable:
            self._entries.append(_Entry(kind, tuple(map(_any_case, filters)), flags, handler,
                                        commands))
            return handler
        return register


    def commands(self) -> set[str]:
        """The command names this table's message handlers answer."""
        return {name for entry in self._entries if entry.kind == "message"
                for item in entry.filters if isinstance(item, Command)
                for name in item.commands if isinstance(name, str)}

    def entries(self) -> list[_Entry]:
        return list(self._entries)


def _any_case(item: Any) -> Any:
    """A command filter that takes its command in any case: a phone writes ``/Register``
    with a capital, and the user means /register."""
    if type(item) is not Command or item.ignore_case:
        return item
    return Command(*item.commands, prefix=item.prefix, ignore_case=True,
                   ignore_mention=item.ignore_mention, magic=item.magic)


@dataclass(frozen=True)
class Guarded:
    """A table and the filters that guard each of its message handlers, checked before the
    handler's own filters: a group's plain text is read as a word of the chat's own game
    only (a darts visit is not first tried as a Cup word, a bet and a hidden choice), and
    the guard's answer is found once per update (``Scope.game``)."""

    table: Handlers
    guards: tuple = ()


def is_command(message: Message) -> bool:
    return (message.text or message.caption or "").startswith("/")


def is_not_command(message: Message) -> bool:
    return not (message.text or "").startswith("/")


def dispatch_tree(tables: Sequence[Guarded]) -> list[Router]:
    """The plays router and the commands router, each holding its handlers in table order."""
    plays, commands = IndexedRouter(name="plays"), IndexedRouter(name="commands")
    plays.message.filter(is_not_command)
    commands.message.filter(is_command)
    for guarded in tables:
        for entry in guarded.table.entries():
            target = commands if entry.answers_commands else plays
            guards = guarded.guards if entry.kind == "message" else ()
            getattr(target, entry.kind).register(entry.handler, *guards, *entry.filters,
                                                 **entry.flags)
    return [plays, commands]
