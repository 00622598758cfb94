"""Sending pictures: one photo, or an album when a wide bracket is split, and the text
instead when a picture cannot be drawn (no font, an impossible size).

The pictures are drawn by the services' :class:`~bot.render.pool.Renderer` (worker
processes), so a big bracket does not hold up the other updates."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from aiogram.types import BufferedInputFile, InputMediaPhoto

from bot.render.pool import Call

if TYPE_CHECKING:
    from bot.services import Services

log = logging.getLogger(__name__)


async def post_pictures(services: Services, chat_id: int, calls: Sequence[Call],
                        caption: str, fallback: Callable[[], str], *, name: str,
                        thread_id: int | None = None) -> None:
    """Send what ``calls`` draw (one photo, or an album captioned on its first picture) to
    the chat (its forum topic ``thread_id``, when given); when they cannot draw (no font, a
    bad size), send ``fallback()`` as text. Files are called ``name.png``, for what they
    show (``cup-standings``)."""
    bot = services.bot
    try:
        pictures = await services.renderer.draw(calls)
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
