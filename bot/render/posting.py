"""Sending pictures: one photo, or an album when a wide bracket is split, and the text
instead when a picture cannot be drawn (no font, an impossible size).

Drawing runs in a worker thread (Pillow releases the GIL while it compresses), so a big
bracket does not hold up the other updates."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from aiogram import Bot
from aiogram.types import BufferedInputFile, InputMediaPhoto

log = logging.getLogger(__name__)


async def post_pictures(bot: Bot, chat_id: int, draw: Callable[[], list[bytes]],
                        caption: str, fallback: Callable[[], str], *, name: str,
                        thread_id: int | None = None) -> None:
    """Send what ``draw`` makes (one photo, or an album captioned on its first picture) to
    the chat (its forum topic ``thread_id``, when given); when it cannot draw (no font, a
    bad size), send ``fallback()`` as text. Files are called ``name.png``, for what they
    show (``cup-standings``)."""
    try:
        pictures = await asyncio.to_thread(draw)
    except (OSError, ValueError):
        log.exception("picture failed; sending the text")
        await bot.send_message(chat_id, fallback(), message_thread_id=thread_id)
        return
    if len(pictures) == 1:
        await bot.send_photo(chat_id, BufferedInputFile(pictures[0], f"{name}.png"),
                             caption=caption, message_thread_id=thread_id)
        return
    await bot.send_media_group(chat_id, [
        InputMediaPhoto(media=BufferedInputFile(png, f"{name}-{n}.png"),
                        caption=caption if n == 0 else None)
        for n, png in enumerate(pictures)], message_thread_id=thread_id)
