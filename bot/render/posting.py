"""Sending pictures: one photo, or an album when a wide bracket is split, and the text
instead when a picture cannot be drawn (no font, an impossible size).

The pictures are drawn by the services' :class:`~bot.render.pool.Renderer` (worker
processes), so a big bracket does not hold up the other updates. A picture this process has
posted before (the same calls, so the same bytes) is posted again by the file ids Telegram
gave it (:class:`Posted`): a ``/standings`` asked twice between two results, or a bracket
nobody has played on since, is neither drawn nor uploaded again."""

from __future__ import annotations

import hashlib
import logging
import pickle
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from aiogram.exceptions import TelegramBadRequest
from aiogram.types import BufferedInputFile, InputMediaPhoto, Message

from bot.render.pool import Call
from storage.cache import Recent

if TYPE_CHECKING:
    from bot.services import Services

log = logging.getLogger(__name__)
POSTED_REMEMBERED = 256  # pictures whose file ids this process keeps


class Posted:
    """The file ids of the pictures this process has posted, by what drew them."""

    def __init__(self, size: int = POSTED_REMEMBERED) -> None:
        self.ids = Recent(size)

    @staticmethod
    def key(calls: Sequence[Call]) -> bytes:
        """What identifies a picture: a digest of its drawing calls (the function, by name,
        and its arguments), which pickle the same way they are sent to a worker."""
        return hashlib.blake2b(pickle.dumps(list(calls)), digest_size=16).digest()

    def remember(self, key: bytes, sent: Sequence[Message]) -> None:
        """Note the file ids of the photos just sent (all of them, or none)."""
        ids = tuple(message.photo[-1].file_id for message in sent if message.photo)
        if len(ids) == len(sent):
            self.ids[key] = ids


async def post_pictures(services: Services, chat_id: int, calls: Sequence[Call],
                        caption: str | Sequence[str], fallback: Callable[[], str], *,
                        name: str, thread_id: int | None = None) -> None:
    """Send what ``calls`` draw (one photo, or an album captioned on its first picture, or
    each picture by its own caption when ``caption`` is one per picture) to the chat (its forum topic ``thread_id``, when given); when they cannot draw (no font, a
    bad size), send ``fallback()`` as text. Files are called ``name.png``, for what they
    show (``cup-standings``)."""
    key = Posted.key(calls)
    if (ids := services.posted.ids.use(key)) is not None:
        try:
            await _send(services, chat_id, list(ids), caption, thread_id)
            return
        except TelegramBadRequest as error:  # the file is gone at Telegram: draw it again
            log.info("a posted picture could not be sent again (%s); drawing it", error.message)
            services.posted.ids.pop(key, None)
    try:
        pictures = await services.renderer.draw(calls)
    except (OSError, ValueError):
        log.exception("picture failed; sending the text")
        await services.bot.send_message(chat_id, fallback(), message_thread_id=thread_id)
        return
    files = [BufferedInputFile(png, f"{name}-{n}.png" if len(pictures) > 1 else f"{name}.png")
             for n, png in enumerate(pictures)]
    services.posted.remember(key, await _send(services, chat_id, files, caption, thread_id))


ALBUM_LIMIT = 10
"""Pictures in one album (``sendMediaGroup`` takes 2–10)."""


async def _send(services: Services, chat_id: int, photos: list[str | BufferedInputFile],
                caption: str | Sequence[str], thread_id: int | None) -> list[Message]:
    """One photo, or albums of even sizes (16 tables: 8 and 8) captioned on the first
    picture or each by its own caption; the messages sent."""
    bot = services.bot
    captions = [caption] if isinstance(caption, str) else list(caption)
    captions += [None] * (len(photos) - len(captions))
    if len(photos) == 1:
        return [await bot.send_photo(chat_id, photos[0], caption=captions[0],
                                     message_thread_id=thread_id)]
    albums = -(-len(photos) // ALBUM_LIMIT)
    sent: list[Message] = []
    for number in range(albums):
        start, stop = number * len(photos) // albums, (number + 1) * len(photos) // albums
        sent += await bot.send_media_group(chat_id, [
            InputMediaPhoto(media=photos[n], caption=captions[n])
            for n in range(start, stop)], message_thread_id=thread_id)
    return sent
