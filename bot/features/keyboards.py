"""Keyboards and callback data the platform's features share (registration, check-in,
yes/no questions)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from aiogram.filters.callback_data import MAX_CALLBACK_LENGTH, CallbackData
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.i18n import Translator
from bot.method_fields import filled
from bot.services import Services
from storage.repositories.tournaments import Tournament


class CheckIn(CallbackData, prefix="ci"):
    tournament_id: int


def packed(data: type[CallbackData], *values: int | str) -> str:
    """What ``data(...).pack()`` gives for ``values``, its fields' values in their order,
    formatted without building and validating the model (a board's or a panel's every
    button: a third of its keyboard's cost), with the checks ``pack`` makes: no value holds
    the separator, and the whole fits Telegram's limit."""
    separator = data.__separator__
    parts = [data.__prefix__, *map(str, values)]
    if any(separator in part for part in parts[1:]):
        raise ValueError(f"a value of {data.__name__} holds {separator!r}: {values}")
    text = separator.join(parts)
    if len(text.encode()) > MAX_CALLBACK_LENGTH:
        raise ValueError(f"{data.__name__} data over {MAX_CALLBACK_LENGTH} bytes: {text}")
    return text


_PRESS = InlineKeyboardButton(text="", callback_data="")
_KEYBOARD = InlineKeyboardMarkup(inline_keyboard=[])


def press_button(text: str, data: str) -> InlineKeyboardButton:
    """A button that sends ``data``: the same button as a validated one, copied from a
    validated template (a darts keypad has 23 keys, a private panel up to a dozen)."""
    return filled(_PRESS, text=text, callback_data=data)


def keyboard_of(rows: Iterable[Iterable[InlineKeyboardButton]]) -> InlineKeyboardMarkup:
    """The keyboard of ``rows`` of buttons already made (validated, or by
    :func:`press_button`): the same markup as ``InlineKeyboardMarkup(inline_keyboard=rows)``,
    each row a new list as there, copied from a validated template; the validation's own
    cost, about 6 µs whatever the buttons, was most of a private panel's keyboard (an
    armchair card redraws both hands)."""
    return filled(_KEYBOARD, inline_keyboard=[list(row) for row in rows])


@lru_cache(maxsize=1024)
def link_keyboard(text: str, url: str) -> InlineKeyboardMarkup:
    """One button that opens ``url`` (built once per text and link: a status message that
    carries it is redrawn on every action). The markup is shared: nobody changes it."""
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text=text, url=url)]])


def add_to_group_keyboard(services: Services, tr: Translator) -> InlineKeyboardMarkup:
    """The button that adds the bot to a group the user picks, as an administrator (from
    the private chat, where a tournament cannot be played)."""
    return link_keyboard(tr("start.add_to_group_button"), services.add_to_group_link())


def register_keyboard(services: Services, tr: Translator, tournament: Tournament,
                      named: bool = False) -> InlineKeyboardMarkup:
    return link_keyboard(_label(tr, "registration.button", tournament, named),
                         services.deep_link(f"reg-{tournament.id}"))


def checkin_keyboard(tr: Translator, tournament: Tournament,
                     named: bool = False) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
        text=_label(tr, "checkin.button", tournament, named),
        callback_data=CheckIn(tournament_id=tournament.id).pack())]])


def _label(tr: Translator, key: str, tournament: Tournament, named: bool) -> str:
    """A button's text; ``named``: with its tournament's title (a message about several)."""
    if not named:
        return tr(key)
    return tr.plain("keyboard.for_tournament", button=tr.plain(key), title=tournament.title)


def stacked(*keyboards: InlineKeyboardMarkup | None) -> InlineKeyboardMarkup:
    """The rows of the given keyboards, one under another (a message that says two things
    carries both their buttons)."""
    return keyboard_of(
        row for keyboard in keyboards if keyboard is not None for row in keyboard.inline_keyboard)


def question_keyboard(yes: str, no: str, answer: Callable[..., CallbackData]
                      ) -> InlineKeyboardMarkup:
    """A yes/no question's two buttons (cancel? withdraw? resign?): ``answer(sure=…)`` is
    each one's data. Its press is checked with :func:`pressed_on_its_question`."""
    return InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text=text, callback_data=answer(sure=sure).pack())
        for text, sure in ((yes, True), (no, False))]])


def pressed_on_its_question(query: CallbackQuery) -> bool:
    """Whether the pressed data is a button of the message it came with: a question's
    answer edits that message, so forged data sent with another message (an announcement,
    a board picture) must not reach it."""
    message = query.message
    if not isinstance(message, Message) or message.text is None or message.reply_markup is None:
        return False
    return any(button.callback_data == query.data
               for row in message.reply_markup.inline_keyboard for button in row)

