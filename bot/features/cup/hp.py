"""The semi-final HP battle: hidden «атака»/«защита» choices by DM (panel buttons or typed
words in any language, through :mod:`bot.play.hidden`), then both roll in the group. The
group only learns that a player has chosen; both choices are shown after the round
resolves, with both HP. A late chooser is reminded by the match's late clock."""

from __future__ import annotations

from typing import Any

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.features.cup.common import announcer
from bot.features.cup.playoff import on_match_start, stage_title
from bot.i18n import Translator
from bot.play import clock, hidden
from bot.play.context import MatchContext
from games.dice_cup.words import parse_choice

CHOICE_MINUTES = 5  # after this a late chooser is reminded and the organisers alerted


def _panel(play: MatchContext, seat: int, tr: Translator, state: Any) -> hidden.Panel:
    """Ask for this round's choice; once made, show it (to its owner only)."""
    choice = state.choice_of(seat)
    if choice is not None:
        return hidden.Panel(tr(f"cup.hp_chosen_{choice}"))
    return hidden.Panel(tr("cup.hp_ask", round=state.round, opponent=play.names[1 - seat]),
                        ((tr("cup.hp_attack_button"), "attack"),
                         (tr("cup.hp_defend_button"), "defend")))


def _describe(tr: Translator, action: dict, before: Any) -> str:
    return tr("cup.hp_choice_copy", round=before.round,
              choice=tr(f"cup.hp_{action['choice']}_button"))


HP_INPUT = hidden.HiddenInput(types=("choose",), parse=parse_choice, panel=_panel,
                              describe=_describe, late_minutes=CHOICE_MINUTES)
"""The HP battle's secret «атака»/«защита», by DM (declared in the Cup's ``Game.hidden``)."""


@on_match_start("hp")
async def start_battle(play: MatchContext) -> None:
    tr = play.tr
    link = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
        text=tr("cup.hp_open_dm"), url=play.services.deep_link(f"m-{play.match.id}"))]])
    await play.say(tr("cup.hp_start", title=stage_title(play), a=play.names[0], b=play.names[1],
                      hp=play.tournament.settings.get("hp", 20)), reply_markup=link)
    await hidden.open_panels(play)


@announcer("hp")
async def announce_hp(play: MatchContext, before, after, event: dict) -> None:
    tr, name = play.tr, play.names
    if event["type"] == "choose":
        key = "cup.hp_both_chosen" if after.both_chosen else "cup.hp_has_chosen"
        await play.say(tr(key, name=name[event["player"]]))
        return
    lines = []
    if len(after.history) == len(before.history):
        lines.append(tr("cup.rolled", name=name[event["player"]], value=event["value"]))
    else:
        lines.append(_round_text(tr, name, after.history[-1], len(after.history)))
    if after.finished:
        lines.append(tr("cup.hp_won", winner=name[after.winner], loser=name[1 - after.winner]))
    await play.say("\n".join(lines))
    if after.finished:
        await clock.stop(play)
    elif len(after.history) > len(before.history):
        await hidden.open_panels(play)


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
              b=name[1], hpa=record.hp[0], hpb=record.hp[1])
