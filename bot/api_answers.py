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
:func:`lean_result`. Incoming updates are untouched: a pressed button's message keeps its
keyboard.

The live loader reads the JSON with pydantic-core's parser rather than the standard
library's: the same objects, in a third of the time for a plain message's answer and half
for a board's with its keyboard.

The live session then reads a successful answer's result with its method's own result type
(:func:`result`) rather than aiogram's ``Response[method.__returning__]``, a generic model
looked up for every call; the result equals aiogram's. (Keeping each chat's model to give
the next message from it was measured too: about 5 µs a call, for about 0.6 MB held with a
thousand live matches; the memory was worth more.) An edit's result is a message, or True
for a message sent inline; an object answered is read as the message alone, not through the
union, which tries both (about 3.5 µs of a 30 µs parse).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from aiogram import Bot
from aiogram.methods import TelegramMethod
from aiogram.types import Message
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


EDITED = Message | bool
"""What an edit returns: the edited message, or True for a message sent inline."""


@cache
def result_type(method: type[TelegramMethod], answer: type = object) -> TypeAdapter:
    """What ``method`` returns, as pydantic reads it (``Response[…]``'s result without the
    generic model looked up for every call); an edit's object (``answer`` is dict) as the
    message it can only be, without the union's try at each of its types."""
    returning = method.__returning__
    if answer is dict and returning == EDITED:
        returning = Message
    return TypeAdapter(returning)


def result(bot: Bot, method: type[TelegramMethod], value: Any) -> Any:
    """A method's result parsed as ``Response[method.__returning__]`` parses it."""
    return result_type(method, type(value)).validate_python(value, context={"bot": bot})
