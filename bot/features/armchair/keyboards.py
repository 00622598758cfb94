"""The armchair buttons' callback data (well under Telegram's 64 bytes). Each carries the
match position it was drawn at (``ArmchairGame.position``), so a press on an old card, a
double press or a forged position changes nothing. Hand buttons are the hidden-input
panel's own (:class:`bot.play.hidden.Pick`)."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData


class Toss(CallbackData, prefix="act"):
    """🪙 on the score card: either player asks the bot to toss the coin."""

    match_id: int
    at: int


class BatFirst(CallbackData, prefix="acb"):
    """The toss winner's choice: ``bats`` 1 to bat first, 0 to bowl first."""

    match_id: int
    at: int
    bats: int


class Declare(CallbackData, prefix="acd"):
    """Declaring from the hand panel: ``step`` 0 asks, 1 confirms, 2 goes back."""

    match_id: int
    at: int
    step: int = 0
