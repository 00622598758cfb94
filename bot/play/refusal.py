"""Refusals: a request the bot turns down. Nothing has changed; the sender is told why.

Handlers and the match-play module raise :class:`Refusal` instead of answering themselves;
one error handler registered on the dispatcher (:func:`install`) answers it — a reply to a
message, an alert for a button press — in the language the update was handled in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiogram import Dispatcher
from aiogram.filters import ExceptionTypeFilter
from aiogram.types import ErrorEvent, InlineKeyboardMarkup

from bot.features.keyboards import add_to_group_keyboard
from bot.i18n import Translator, clip
from bot.middlewares.filters import command_name
from bot.services import Services
from storage.repositories.matches import MatchRow

Buttons = Callable[[Services, Translator], InlineKeyboardMarkup]
"""A refusal's buttons, built in the language of its answer (the way on: a link)."""


class Refusal(Exception):
    """Turn the request down with the catalog text ``key``, a text already rendered, or
    ``explain``: the text rendered by the translator of the chat the answer goes to (an
    engine's refusal of a card typed in private is said in the player's language, not the
    group's); a message's refusal may carry ``buttons``. ``closes``: a press on a question
    that is out of date (its tournament started, its match over): the question's buttons
    are taken off with the answer, so it takes no more presses."""

    def __init__(self, key: str | None = None, *, text: str | None = None,
                 explain: Callable[[Translator], str] | None = None,
                 buttons: Buttons | None = None, closes: bool = False, **params: Any) -> None:
        super().__init__(key or text)
        self.key, self.text, self.explain, self.params = key, text, explain, params
        self.buttons, self.closes = buttons, closes

    def render(self, tr: Translator) -> str:
        if self.explain is not None:
            return self.explain(tr)
        return self.text if self.text is not None else tr(self.key, **self.params)


async def paused(services: Services, tournament_id: int, key: str = "play.paused") -> Refusal:
    """The refusal of a move in a paused match, with the reason the organiser paused for
    (“back at 14:00”) when one was given: the catalog text ``key``, or ``key + "_why"`` with
    the reason (another pair says it of the tournament: ``formats.error.paused``)."""
    reason = await services.repos.organiser_log.pause_reason(tournament_id)
    return Refusal(f"{key}_why", reason=clip(reason)) if reason else Refusal(key)


async def pause_line(services: Services, match: MatchRow, tr: Translator) -> str:
    """What a move in the paused ``match`` is answered (:func:`paused`, in ``tr``), for a
    board or a private panel that shows why it waits; "" while it runs."""
    if match.status != "paused":
        return ""
    return (await paused(services, match.tournament_id)).render(tr)


async def unless_paused(services: Services, match: MatchRow) -> None:
    """Refused with :func:`paused` while ``match`` is paused: the first check of a player's
    step, so a roll or a press in a pause is told of the pause, not of the position."""
    if match.status == "paused":
        raise await paused(services, match.tournament_id)


GROUP_ONLY = "access.group_only"
"""A command of the group sent in private: answered by :func:`group_only`."""


async def answer_refusal(event: ErrorEvent, services: Services) -> None:
    """Answer in the language the update was handled in: the group's, or the user's in a DM."""
    update, refusal = event.update, event.exception
    if (query := update.callback_query) is not None:
        chat_id = query.message.chat.id if query.message else query.from_user.id
        if refusal.closes and query.message is not None:
            await services.outbox.drop_buttons(chat_id, query.message.message_id)
        tr = await services.translator_for_chat(chat_id)
        await query.answer(refusal.render(tr), show_alert=True)
    elif (message := update.message) is not None:
        tr = await services.translator_for_chat(message.chat.id)
        if refusal.key == GROUP_ONLY and message.chat.type == "private":
            refusal = await group_only(services, message.from_user.id, command_name(message.text))
        buttons = refusal.buttons(services, tr) if refusal.buttons is not None else None
        await message.reply(refusal.render(tr), reply_markup=buttons)


async def group_only(services: Services, user_id: int, command: str | None) -> Refusal:
    """Why a group's command does nothing in private, and where to send it: /new in the
    group where the tournament is to be played (with the bot added to it); another in the
    group of the one running tournament the sender plays in or created, named, when there
    is exactly one; else in the tournament's group."""
    if command == "new":
        return Refusal("access.group_only_new", buttons=add_to_group_keyboard)
    running = await services.repos.tournaments.running_of(user_id)
    if len(running) != 1:
        return Refusal(GROUP_ONLY)
    chat = await services.repos.chats.get(running[0].chat_id)
    if chat is None or not chat.title:
        return Refusal("access.group_only_of", title=running[0].title)
    return Refusal("access.group_only_in", title=running[0].title, group=chat.title)


def install(dispatcher: Dispatcher) -> None:
    dispatcher.errors.register(answer_refusal, ExceptionTypeFilter(Refusal))
