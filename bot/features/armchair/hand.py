"""Each player's hand in their DM (``docs/armchair.md``, "What each player sees"): the
hidden-input panel of :mod:`bot.play.hidden`, edited in place after every action and sent
again by ``/hand`` or the match's deep link. Only the player's own cards are on it, with
the ball in play for the batter to answer; its buttons play a card, swap after a wicket or
declare (with a confirmation), and count only at the position they were drawn for."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from aiogram.types import InlineKeyboardButton

from bot.features.armchair.keyboards import Declare
from bot.features.armchair.settings import replay_of
from bot.features.armchair.texts import (
    card,
    hand_ball_line,
    hand_line,
    innings_line,
    result_line,
)
from bot.features.keyboards import packed, press_button
from bot.i18n import Translator
from bot.play.context import MatchContext
from bot.play.hidden import HiddenInput, Panel
from games.armchair_cricket import ToAct
from games.armchair_cricket.cards import card_name
from games.armchair_cricket.contract import ArmchairGame
from games.armchair_cricket.words import parse_move, resolve

CARD_KINDS = ("discard", "bowl", "bat")
OPENING = ("toss", "choose")  # pressed on the score card in the group, not played from a hand
COLUMNS = 3
LATE_MINUTES = 5


def _kind_for(turn: ToAct | None, seat: int) -> str | None:
    """What ``seat`` is asked for on ``turn`` (None: nothing)."""
    return turn.kind if turn is not None and turn.seat == seat else None


def panel(ctx: MatchContext, seat: int, tr: Translator, game: ArmchairGame) -> Panel:
    state, turn = game.state, game.to_act  # read once: the engine works it out on each read
    kind = _kind_for(turn, seat)
    lines = [tr("armchair.panel_head", match=ctx.match.id, opponent=ctx.names[1 - seat])]
    if state.innings:
        lines.append(innings_line(tr, ctx.names, state.innings[-1]))
    if state.last is not None:
        lines.append(hand_ball_line(tr.language, state.last))
    if state.bowled is not None and seat == state.batter:
        lines.append(tr("armchair.panel_ball", card=card(tr, state.bowled)))
    lines.append(tr("armchair.panel_hand", cards=hand_line(tr, state.hands[seat])))
    ask = _ask(tr, ctx, game, turn, kind)
    if ctx.closed:
        return Panel("\n".join(lines), (), position=game.position, prompt=ask)
    return Panel("\n".join(lines), _buttons(tr.language, state.hands[seat], kind),
                 columns=COLUMNS, extra=_declare_row(tr, ctx.match.id, game, seat),
                 position=game.position, prompt=ask)


def _ask(tr: Translator, ctx: MatchContext, game: ArmchairGame, turn: ToAct | None,
         kind: str | None) -> str:
    if game.finished:
        return ctx.overruled_line(game.outcome, tr) or result_line(tr, ctx.names, game,
                                                                  replay_of(ctx, game))
    if ctx.closed:
        return ctx.closed_line(tr)
    if kind is None:
        who = ctx.names[turn.seat] if turn is not None and turn.seat is not None else ""
        return tr("armchair.panel_wait" if who else "armchair.panel_wait_toss", name=who)
    return tr(f"armchair.panel_ask_{kind}")


@lru_cache(maxsize=1024)
def _buttons(language: str, hand: tuple[int, ...], kind: str | None
             ) -> tuple[tuple[str, str], ...]:
    """Remembered by the hand's value: both hands are drawn again after every action, and
    a hand's buttons (its cards sorted and named) change only with its cards or its turn."""
    tr = Translator(language)
    cards = sorted(set(hand))
    if kind in CARD_KINDS:
        return tuple((card(tr, code), card_name(code)) for code in cards)
    if kind == "exchange":
        swaps = tuple((tr("armchair.swap_button", card=card(tr, code)),
                       f"swap {card_name(code)}") for code in cards)
        return (*swaps, (tr("armchair.keep_button"), "keep"))
    return ()


def _declare_row(tr: Translator, match_id: int, game: ArmchairGame,
                 seat: int) -> tuple[tuple[InlineKeyboardButton, ...], ...]:
    """The batting side may declare between deliveries: one button, then a confirmation."""
    if not game.may_declare(seat):
        return ()
    return ((_declare_button(tr("armchair.declare_button"), match_id, game.position, 0),),)


def confirm_rows(tr: Translator, match_id: int, at: int) -> list[list[InlineKeyboardButton]]:
    """The declaration's confirmation, in place of the panel's buttons."""
    return [[_declare_button(tr("armchair.declare_yes"), match_id, at, 1),
             _declare_button(tr("armchair.declare_no"), match_id, at, 2)]]


def _declare_button(text: str, match_id: int, at: int, step: int) -> InlineKeyboardButton:
    """A :class:`Declare` button, packed and copied as the panel's own buttons are: the
    batter's panel carries one after every action."""
    return press_button(text, packed(Declare, match_id, at, step))


def _resolve(game: ArmchairGame, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """A typed or pressed card is the move the match waits for now."""
    turn = game.to_act
    return resolve(turn.kind if turn is not None else None, action)


def describe(tr: Translator, action: dict[str, Any], before: ArmchairGame) -> str:
    """A hidden move in words, for an organiser's copy (/hostcopy) and /enter: an exchange of
    no cards keeps the hand."""
    if action["type"] == "exchange" and not action["cards"]:
        return tr("armchair.copy_keep")
    if action["type"] == "exchange":
        cards = ", ".join(card(tr, text) for text in action["cards"])
        return tr("armchair.copy_exchange", cards=cards)
    if action["type"] == "declare":
        return tr("armchair.copy_declare")
    return tr(f"armchair.copy_{action['type']}", card=card(tr, action["card"]))


def held(tr: Translator, game: ArmchairGame, seat: int) -> str:
    """A player's cards, for the organiser entering a move for them (/enter, in private)."""
    return hand_line(tr, game.state.hands[seat])


def unread(tr: Translator, game: ArmchairGame, match_id: int, word: str) -> str | None:
    """A word typed in private before any card is played: the toss and the choice of bat
    or bowl are made on the score card in the group (None once cards are played)."""
    turn = game.to_act
    if turn is None or turn.kind not in OPENING:
        return None
    return tr(f"armchair.unread_{turn.kind}", word=word, match=match_id)


HAND = HiddenInput(types=("discard", "bowl", "bat", "exchange"), parse=parse_move,
                   panel=panel, describe=describe, late_minutes=None,  # play.LATE instead
                   resolve=_resolve, position=lambda game: game.position, held=held,
                   redrawn_by_announce=True, unread=unread)  # play.refresh_panels
"""The hand of a match, by DM (declared in the game's ``Game.hidden``)."""
