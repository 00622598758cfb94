"""Telegram's length limits, enforced once for every Bot API call.

A message text may hold 4,096 characters, a caption 1,024, a button toast 200. Longer texts
are refused by Telegram, so :class:`LengthLimitMiddleware` splits a long message into
several (at line breaks, never inside a tag or an entity, closing the tags still open at
the cut and opening them again in the next part) and shortens what cannot be split (an
edited text, a caption). Lengths are counted in UTF-16 code units of the HTML source, which
is never less than what Telegram counts after parsing the markup.
"""

from __future__ import annotations

import re
from typing import TypeVar

from aiogram import Bot
from aiogram.client.session.middlewares.base import BaseRequestMiddleware
from aiogram.methods import (
    EditMessageMedia,
    EditMessageText,
    SendMediaGroup,
    SendMessage,
    TelegramMethod,
)
from pydantic import BaseModel

from bot.method_fields import field
from bot.middlewares import responses

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
ELLIPSIS = "…"
T = TypeVar("T", bound=BaseModel)
_ATOM = re.compile(r"<[^<>]*>|\s+|(?:&#?\w+;|[^<\s])+|<")  # a tag, spaces, a word
_PIECE = re.compile(r"&#?\w+;|[\s\S]")  # an entity or one character
_TAGS = re.compile(r"<[^<>]*>")
_TAG = re.compile(r"<\s*(/?)\s*([a-zA-Z][\w-]*)")


def size(text: str) -> int:
    """Length as Telegram counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def _atoms(line: str, budget: int) -> list[str]:
    """A line cut into pieces that are never split: tags, words, spaces; a word longer than
    ``budget`` is cut by characters (an entity counts as one)."""
    atoms = []
    for atom in _ATOM.findall(line):
        if size(atom) <= budget or atom.startswith("<"):
            atoms.append(atom)
        else:
            atoms.extend(_pack(_PIECE.findall(atom), budget, ""))
    return atoms


def _pack(pieces: list[str], budget: int, glue: str) -> list[str]:
    """Join ``pieces`` greedily into chunks of at most ``budget`` (a piece never splits)."""
    chunks: list[str] = []
    current: str | None = None
    for piece in pieces:
        if current is not None and size(current) + size(glue) + size(piece) <= budget:
            current += glue + piece
            continue
        if current is not None:
            chunks.append(current)
        current = piece
    if current is not None:
        chunks.append(current)
    return chunks


def _open_tags(html: str, stack: list[str]) -> list[str]:
    """The opening tags still open after ``html``, given those open before it."""
    stack = list(stack)
    for tag in _TAGS.findall(html):
        match = _TAG.match(tag)
        if not match:
            continue
        closing, name = match.group(1), match.group(2).lower()
        if not closing:
            stack.append(tag)
            continue
        for i in range(len(stack) - 1, -1, -1):
            if _TAG.match(stack[i]).group(2).lower() == name:
                del stack[i:]
                break
    return stack


def _closers(stack: list[str]) -> str:
    return "".join(f"</{_TAG.match(tag).group(2)}>" for tag in reversed(stack))


def split_html(text: str, limit: int = TEXT_LIMIT, reserve: int = 256) -> list[str]:
    """``text`` as parts of at most ``limit``, cut between paragraphs (a blank line apart:
    a start's roster and its first round) where possible, else at line breaks.

    Each part is valid HTML on its own: tags open at a cut are closed at the end of the part
    and opened again at the start of the next. ``reserve`` is kept free for those tags.
    """
    if size(text) <= limit:
        return [text]
    budget = max(limit - reserve, 16)
    blocks: list[str] = []
    for paragraph in text.split("\n\n"):
        blocks.extend([paragraph] if size(paragraph) <= budget
                      else _pack(_lines(paragraph, budget), budget, "\n"))
    parts, stack = [], []
    for chunk in _pack(blocks, budget, "\n\n"):
        opened = "".join(stack)
        stack = _open_tags(chunk, stack)
        part = opened + chunk + _closers(stack)
        parts.append(part if size(part) <= limit else _cut(part, limit))
    return [p for p in parts if _TAGS.sub("", p).strip()] or [parts[0]]


def _lines(text: str, budget: int) -> list[str]:
    """``text``'s lines, a line longer than ``budget`` cut into pieces that fit."""
    lines: list[str] = []
    for line in text.split("\n"):
        lines.extend([line] if size(line) <= budget else _pack(_atoms(line, budget), budget, ""))
    return lines


def _cut(text: str, limit: int) -> str:
    """Last resort for a part whose reopened tags overflow it: drop the markup."""
    return _pack(_PIECE.findall(_TAGS.sub("", text)), limit, "")[0]


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` with an ellipsis, tags closed (for what cannot be split)."""
    if size(text) <= limit:
        return text
    return split_html(text, limit - size(ELLIPSIS), reserve=min(256, limit // 4))[0] + ELLIPSIS


def _captioned(item: T) -> T:
    """A method or an album item with its caption shortened to what Telegram takes."""
    caption = field(item, "caption")
    if isinstance(caption, str) and size(caption) > CAPTION_LIMIT:
        return item.model_copy(update={"caption": shorten(caption, CAPTION_LIMIT)})
    return item


class LengthLimitMiddleware(BaseRequestMiddleware):
    """Splits long messages and shortens long edits and captions before they go out.

    The parts of a split message go out in order; the first keeps the reply, the last the
    keyboard, and the last is returned (its id is where the keyboard lives).
    """

    async def __call__(self, make_request, bot: Bot, method: TelegramMethod):
        responses.pin(method)  # every call passes here once
        if isinstance(method, SendMessage) and size(method.text) > TEXT_LIMIT:
            return await self._send_parts(make_request, bot, method)
        if isinstance(method, EditMessageText) and size(method.text) > TEXT_LIMIT:
            method = method.model_copy(update={"text": shorten(method.text, TEXT_LIMIT)})
        if isinstance(method, SendMediaGroup):
            method = method.model_copy(update={"media": [_captioned(m) for m in method.media]})
        if isinstance(method, EditMessageMedia) and (  # an edit's caption is its media's
                media := _captioned(method.media)) is not method.media:
            method = method.model_copy(update={"media": media})
        return await make_request(bot, _captioned(method))

    @staticmethod
    async def _send_parts(make_request, bot: Bot, method: SendMessage):
        parts = split_html(method.text)
        sent = None
        for number, part in enumerate(parts):
            update: dict = {"text": part}
            if number:
                update.update(reply_parameters=None, reply_to_message_id=None)
            if number < len(parts) - 1:
                update["reply_markup"] = None
            sent = await make_request(bot, method.model_copy(update=update))
        return sent
