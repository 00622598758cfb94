"""Bot API answers parsed without what Telegram echoes back (keyboards, the bot, replied-to
messages).

Telegram answers a sent or edited message with the whole message, including the inline
keyboard the bot has just sent. aiogram parses every button of it into a model, and nothing
in the bot reads a sent message's keyboard (it built that keyboard itself): a darts board's
23 keys cost about a quarter of a keypad press to parse. So the keyboard is dropped from the
message of an answer's result before aiogram parses it, and so are its sender (the bot
itself, a third of a plain message's parsing: a User model and its hooks) and, in a reply,
the whole message it replies to (the update the bot answered, which it has already; never
read from an answer); a photo keeps only its largest size, the one the bot reads. Both
sessions do this: the live one through its JSON loader (:func:`loads`), the sandbox's through
:func:`lean_result`. Incoming updates are untouched:
a pressed button's message keeps its keyboard.

The live loader reads the JSON with pydantic-core's parser rather than the standard
library's: the same objects, in a third of the time for a plain message's answer and half
for a board's with its keyboard.

The live session then reads a successful answer's result with its method's own
:class:`Results` rather than aiogram's ``Response[method.__returning__]`` (a generic model
looked up for every call), and a message's chat is the model already made from the same JSON
(:class:`Chats`): a Chat's validation runs aiogram's model hooks as the message's own do,
about 40% of a sent message's parsing. Either way the result equals aiogram's.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from aiogram import Bot
from aiogram.methods import TelegramMethod
from aiogram.types import Chat
from pydantic import TypeAdapter
from pydantic_core import from_json

ECHOED = frozenset({"reply_markup", "from", "reply_to_message"})
"""A sent message's fields the bot never reads from an answer: its keyboard, its sender (the
bot) and the message it replies to."""


def lean_result(result: Any) -> Any:
    """A method's result with the echoed fields left out of the message (or messages) in it
    and a photo's sizes cut to its largest (:func:`_lean`); the given objects are not
    changed."""
    if isinstance(result, dict) and _echoes(result):
        return _lean(result)
    if isinstance(result, list) and any(isinstance(item, dict) and _echoes(item)
                                        for item in result):
        return [lean_result(item) for item in result]
    return result


def _echoes(message: dict[str, Any]) -> bool:
    """Whether ``message`` has anything :func:`_lean` leaves out."""
    photo = message.get("photo")
    return not ECHOED.isdisjoint(message) or isinstance(photo, list) and len(photo) > 1


def _lean(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` without its echoed fields, a photo with only its largest size (the last):
    Telegram answers a sent or edited photo with three or four sizes, a PhotoSize model each
    (7–10 µs), and what the bot reads of a sent photo is whether it has one and its largest
    size's file id (``photo[-1].file_id``, kept to send it again)."""
    lean = {key: value for key, value in message.items() if key not in ECHOED}
    if isinstance(photo := lean.get("photo"), list):
        lean["photo"] = photo[-1:]
    return lean


def loads(content: str | bytes) -> Any:
    """The live session's JSON loader: a Bot API answer (``{"ok": …, "result": …}``) with its
    result made lean; anything else (a webhook's update) as it is."""
    data = from_json(content, cache_strings="keys")  # texts are not kept in its cache
    if isinstance(data, dict) and "ok" in data and "result" in data:
        data["result"] = lean_result(data["result"])
    return data


@cache
def result_type(method: type[TelegramMethod]) -> TypeAdapter:
    """What ``method`` returns, as pydantic reads it (``Response[…]``'s result without the
    generic model looked up for every call)."""
    return TypeAdapter(method.__returning__)


class Chats:
    """The chats of a bot's sent messages as models, each kept by its JSON's fields: the same
    chat comes back in every answer from it, and a Chat is frozen, so one model serves them
    all. Another bot, or any change of a field (a new title), makes a new model."""

    KEPT = 4096
    """At most this many chats are kept; then they are all let go and made again."""

    def __init__(self) -> None:
        self._models: dict[tuple[Any, ...], Chat] = {}

    def model(self, bot: Bot, chat: dict[str, Any]) -> Chat | dict[str, Any]:
        """The model of ``chat`` bound to ``bot``; a chat with a nested value (never one of a
        sent message's) is left for pydantic as it is."""
        key = tuple(chat.items())
        try:
            held = self._models.get(key)
        except TypeError:
            return chat
        if held is None or held.bot is not bot:
            if len(self._models) >= self.KEPT:
                self._models.clear()
            held = self._models[key] = Chat.model_validate(chat, context={"bot": bot})
        return held

    def result(self, bot: Bot, method: type[TelegramMethod], result: Any) -> Any:
        """A method's result parsed as ``Response[method.__returning__]`` parses it, a
        message's chat given as its kept model (``result`` is not changed)."""
        if isinstance(result, dict) and isinstance(chat := result.get("chat"), dict):
            result = {**result, "chat": self.model(bot, chat)}
        return result_type(method).validate_python(result, context={"bot": bot})
