"""The semi-final HP battle: hidden «атака»/«защита» choices by DM (panel buttons or typed
words in any language, through :mod:`bot.play.hidden`), then both roll in the group. The
group only learns that a player has chosen; both choices are shown after the round
resolves, with both HP. A late chooser is reminded by the match's late clock."""

from __future__ import annotations

from functools import partial
from typing import Any

from aiogram.types import InlineKeyboardMarkup

from bot.features.cup.common import announcer, post
from bot.features.cup.playoff import THIRD, on_match_start, stage_title
from bot.i18n import Translator, lines
from bot.play import clock, hidden
from bot.play.board import show_board
from bot.play.context import MatchContext
from games.dice_cup.words import parse_choice

CHOICE_MINUTES = 5  # after this a late chooser is reminded and the organisers alerted


def _panel(play: MatchContext, seat: int, tr: Translator, state: Any) -> hidden.Panel:
    """Under the match's number, the round and the opponent: ask for this round's choice;
    once made, show it (to its owner only); closed outside the battle (a disqualification,
    an organiser's result), say who won."""
    head = tr("cup.hp_panel_head", match=play.match.id, round=state.round,
              opponent=play.names[1 - seat])
    if play.closed and not state.finished:
        return hidden.Panel(lines(head, play.closed_line(tr)))
    choice = state.choice_of(seat)
    if choice is not None:
        return hidden.Panel(lines(head, tr(f"cup.hp_chosen_{choice}")))
    return hidden.Panel(head, ((tr("cup.hp_attack_button"), "attack"),
                               (tr("cup.hp_defend_button"), "defend")),
                        position=_round(state), prompt=tr("cup.hp_ask"))


def _round(state: Any) -> int:
    """The round a panel's buttons were drawn for: a press on another round's panel (one
    Telegram would not delete, one of a round undone by /reopen) is refused as stale."""
    return state.round


def _describe(tr: Translator, action: dict, before: Any) -> str:
    return tr("cup.hp_choice_copy", round=before.round,
              choice=tr(f"cup.hp_{action['choice']}_button"))


HP_INPUT = hidden.HiddenInput(types=("choose",), parse=parse_choice, panel=_panel,
                              describe=_describe, late_minutes=CHOICE_MINUTES,
                              position=_round)
"""The HP battle's secret «атака»/«защита», by DM (declared in the Cup's ``Game.hidden``)."""


@on_match_start("hp")
async def start_battle(play: MatchContext) -> None:
    async with play.services.matches.lock(play.match.id):  # see hidden.opened_with_panels
        await _new_round(play, await play.services.matches.state(play.match))


async def _new_round(play: MatchContext, state: Any, *, clock_started: bool = False) -> None:
    """A round's message and both fresh panels; a player the bot cannot write to is asked
    on that message (its button opens the private chat) to open the chat, instead of in one
    more group message (:func:`hidden.opened_with_panels`)."""
    async def message(new: bool) -> None:
        await post(play, *await _asking(play, state), new=new)

    await hidden.opened_with_panels(play, partial(
        hidden.open_panels, play, clock_started=clock_started, tell=False), message)


@announcer("hp")
async def announce_hp(play: MatchContext, before, after, event: dict) -> None:
    """A resolved round is a new message; a choice or the first die edits the newest one."""
    resolved = len(after.history) > len(before.history)
    if resolved and not after.finished:  # the die started the late clock
        await _new_round(play, after, clock_started=True)
        return
    await post(play, *await _asking(play, after), new=resolved)
    if after.finished:
        await clock.stop(play)


async def redraw(play: MatchContext, state: Any) -> None:
    """The battle's newest message drawn again where it is, as it stands (closed outside the
    battle, after a correction, once a player it asked opened the private chat)."""
    await post(play, *await _asking(play, state), new=False)


async def board_again(play: MatchContext, state: Any) -> None:
    """/board: the battle's newest message posted again at the bottom of the chat, still
    asking the players the bot cannot write to to open the private chat."""
    await show_board(play, *await _asking(play, state), new=True)


async def _asking(play: MatchContext, state: Any) -> tuple[str, InlineKeyboardMarkup | None]:
    """:func:`status`, asking the players still to choose whom the bot has not been able to
    write to (since their panel failed to reach them) to open the private chat."""
    text, markup = status(play, state)
    if markup is None:  # no choice is missing: nobody to ask, no panels to look up
        return text, markup
    seats = [seat for seat in await hidden.still_unreached(play) if not state.has_chosen(seat)]
    return (lines(text, hidden.unreached_line(play, seats)) if seats else text), markup


def status(play: MatchContext, state) -> tuple[str, InlineKeyboardMarkup | None]:
    """The battle's newest message: the last round (or the opening), who has chosen or
    rolled in this one, and who acts next — with the button to the private chat while a
    choice is missing."""
    tr, name = play.tr, play.names
    if state.history:
        lines = [_round_text(tr, name, state.history[-1], len(state.history))]
        if max(state.hp) <= 0:  # both down: the margin decides
            lines.append(_both_down(tr, name, state))
    else:
        lines = [tr("cup.hp_start", title=stage_title(play), a=name[0], b=name[1],
                    hp=state.start_hp)]
    if state.finished:
        key = "cup.third_won_hp" if play.match.slot == THIRD else "cup.hp_won"
        return "\n".join(lines + [tr(key, winner=name[state.winner],
                                     loser=name[1 - state.winner])]), None
    rolled = [tr("cup.rolled", name=name[p], value=roll)
              for p, roll in enumerate(state.rolls) if roll is not None]
    if play.closed:  # the round left unplayed keeps what was rolled in it
        return "\n".join(lines + rolled + [play.closed_line()]), None
    choosing = [name[p] for p in (0, 1) if not state.has_chosen(p)]
    if choosing:
        lines += [tr("cup.hp_has_chosen", name=name[p]) for p in (0, 1) if state.has_chosen(p)]
        lines.append(tr("cup.hp_to_choose", number=state.round, names=", ".join(choosing)))
        return "\n".join(lines), hidden.chat_button(play.services, play.tr, play.match)
    lines += rolled
    rolling = [name[p] for p, roll in enumerate(state.rolls) if roll is None]
    lines.append(tr("cup.hp_to_roll", number=state.round, names=", ".join(rolling)))
    return "\n".join(lines), None


def _both_down(tr: Translator, name: tuple[str, str], state) -> str:
    """Both at 0 HP or below (fallen in this round, or already below after an equal one):
    the one with more HP left wins, equal plays on."""
    if state.winner is None:
        return tr("cup.hp_both_down_level")
    return tr("cup.hp_both_down", winner=name[state.winner], won=state.hp[state.winner],
              lost=state.hp[1 - state.winner])


def _round_text(tr: Translator, name: tuple[str, str], record, number: int) -> str:
    parts = []
    for p in (0, 1):
        if record.choices[p] == "attack":
            parts.append(tr("cup.hp_attacked", name=name[p], roll=record.rolls[p],
                            damage=record.damage[1 - p]))
        else:
            parts.append(tr("cup.hp_defended", name=name[p], roll=record.rolls[p],
                            heal=record.heals[p]))
    return tr("cup.hp_round", number=number, first=parts[0], second=parts[1], a=name[0],
              b=name[1], hpa=record.hp[0], hpb=record.hp[1])  # below 0 as it is
