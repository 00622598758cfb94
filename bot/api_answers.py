"""Bot API answers parsed without what Telegram echoes back (keyboards, the bot, replied-to
messages).

Telegram answers a sent or edited message with the whole message, including the inline
keyboard the bot has just sent. aiogram parses every button of it into a model, and nothing
in the bot reads a sent message's keyboard (it built that keyboard itself): a darts board's
23 keys cost about a quarter of a keypad press to parse. So the keyboard is dropped from the
message of an answer's result before aiogram parses it, and so are its sender (the bot
itself, a third of a plain message's parsing: a User model and its hooks) and, in a reply,
the whole message it replies to (the update the bot answered, which it has already; never
read from an answer). Both sessions do this: the live one through its JSON loader
(:func:`loads`), the sandbox's through :func:`lean_result`. Incoming updates are untouched:
a pressed button's message keeps its keyboard.

The live loader reads the JSON with pydantic-core's parser rather than the standard
library's: the same objects, in a third of the time for a plain message's answer and half
for a board's with its keyboard.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import from_json

ECHOED = frozenset({"reply_markup", "from", "reply_to_message"})
"""A sent message's fields the bot never reads from an answer: its keyboard, its sender (the
bot) and the message it replies to."""


def lean_result(result: Any) -> Any:
    """A method's result with the echoed fields left out of the message (or messages) in it;
    the given objects are not changed."""
    if isinstance(result, dict) and not ECHOED.isdisjoint(result):
        return {key: value for key, value in result.items() if key not in ECHOED}
    if isinstance(result, list) and any(isinstance(item, dict) and not ECHOED.isdisjoint(item)
                                        for item in result):
        return [lean_result(item) for item in result]
    return result


def loads(content: str | bytes) -> Any:
    """The live session's JSON loader: a Bot API answer (``{"ok": …, "result": …}``) with its
    result made lean; anything else (a webhook's update) as it is."""
    data = from_json(content, cache_strings="keys")  # texts are not kept in its cache
    if isinstance(data, dict) and "ok" in data and "result" in data:
        data["result"] = lean_result(data["result"])
    return data
