"""Rolls and the round-based formats in the chat: the group stage, «Порядок» (order) and
«Убираю» (drop). 🎲 or /roll, declarations typed or by buttons, «ничья»/«переброс», /match.

Dice come in through the shared dice input (:mod:`bot.play.dice`): a roll is checked by the
engine and committed to the match log before anything is said; then the bot waits for the
dice animation (about four seconds) and announces the result.
"""

from __future__ import annotations

from functools import partial

from aiogram.filters.callback_data import CallbackData
from aiogram.types import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
)

from bot.features.cup.common import (
    announcer,
    button_play,
    perform,
    post,
    sender_play,
)
from bot.features.cup.playoff import THIRD, on_match_start, stage_title
from bot.features.handlers import Handlers
from bot.i18n import Translator
from bot.middlewares.filters import IN_GROUP
from bot.middlewares.scope import Scope
from bot.play.context import MatchContext
from bot.play.launch import start_match
from bot.services import Services
from games.dice_cup.words import parse_draw_vote, parse_drop, parse_order
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament

router = Handlers("cup-rolling")
KINDS = ("group", "group3", "order", "drop")
"""The match kinds played in rounds of rolls (the group stage's, and the playoff's «Порядок»
and «Убираю»)."""
ORDERS = ("123", "132", "213", "231", "312", "321")


class Declare(CallbackData, prefix="cd"):
    match_id: int
    value: str


# -- declarations and votes -----------------------------------------------------------


def _round_word(message: Message) -> dict | bool:
    """Filter: «ничья»/«переброс», an order or «убираю N» typed in a group."""
    if not message.text:
        return False
    text = message.text
    word = parse_draw_vote(text) or parse_drop(text) or parse_order(text)
    return {"word": word} if word else False


@router.message(IN_GROUP, _round_word)
async def typed_word(message: Message, word: dict, event_update: Update, scope: Scope,
                     tr: Translator) -> None:
    play = await sender_play(scope, tr)
    if play is None:
        return  # the word was not meant for a match
    if word["type"] == "declare" and play.match.kind != ("order" if "order" in word else "drop"):
        await message.reply(tr("cup.error.not_declaring"))
        return
    action = word | {"player": play.seat(message.from_user.id)}
    if await _declared_already(play, action):
        return  # the board says it already: a message in the group would only cost time
    await perform(play, action, message.from_user.id, event_update.update_id)


async def _declared_already(play: MatchContext, action: dict) -> bool:
    """Whether ``action`` declares what its player has declared this round already (the
    engine refuses it, as it changes nothing)."""
    if action["type"] != "declare":
        return False
    declared = getattr(await play.services.matches.current(play.match), "declarations", None)
    mine = None if declared is None else declared[action["player"]]
    return mine is not None and _declaration(mine).items() <= action.items()


@router.callback_query(Declare.filter())
async def declare_button(query: CallbackQuery, callback_data: Declare, event_update: Update,
                         services: Services, tr: Translator) -> None:
    play, player = await button_play(services, tr, query, callback_data.match_id,
                                     ("order", "drop"))
    value = callback_data.value
    action = {"type": "declare", "player": player}
    action |= ({"order": [int(c) for c in value]} if play.match.kind == "order"
               else {"drop": int(value)})

    await perform(play, action, query.from_user.id, event_update.update_id,
                  alongside=[partial(query.answer, tr("cup.declared_toast"))])


def declaration_keyboard(match_id: int, kind: str) -> InlineKeyboardMarkup:
    values = ORDERS if kind == "order" else ("1", "2", "3", "4")
    label = (lambda v: "-".join(v)) if kind == "order" else (lambda v: f"✖ {v}")
    return InlineKeyboardMarkup(inline_keyboard=[[
        InlineKeyboardButton(text=label(v), callback_data=Declare(match_id=match_id,
                                                                  value=v).pack())
        for v in values]])


# -- announcements --------------------------------------------------------------------


@announcer(*KINDS)
async def announce_rounds(play: MatchContext, before, after, event: dict) -> None:
    """A finished round (or match) is a new message; a die, a declaration or a vote that only
    moves the round on edits the match's newest message."""
    played = len(after.history) > len(before.history)
    if after.finished and not played:  # a draw agreed: the result alone, below the vote
        await post(play, _result_text(play.tr, play.names, after, play.match))
        return
    text, markup = status(play, after, event)
    await post(play, text, markup, new=played or after.finished)


def status(play: MatchContext, state, event: dict | None = None
            ) -> tuple[str, InlineKeyboardMarkup | None]:
    """The match's newest message: the last round played (or the match's opening), what the
    round being played has so far, and who acts next (or the vote, or the result)."""
    tr, name = play.tr, play.names
    lines = [_round_text(tr, name, state.history[-1], state) if state.history
             else _opening(play)]
    if state.finished:
        return "\n".join(lines + [_result_text(tr, name, state, play.match)]), None
    if play.closed:  # the round left unplayed keeps what was rolled in it
        return "\n".join(lines + _progress(tr, name, state) + [play.closed_line()]), None
    if getattr(state, "voting", False):
        lines.append(tr("cup.vote_open"))
        lines += [tr("cup.voted_draw", name=name[p]) for p in (0, 1) if state.votes[p]]
        return "\n".join(lines), None
    if event and event["type"] == "draw_vote":
        lines.append(tr("cup.voted_reroll", name=name[event["player"]]))
    lines += _progress(tr, name, state)
    text, markup = _next_step(play, state, state)
    return "\n".join(lines + [text]), markup


def _opening(play: MatchContext) -> str:
    """What a match's first message says before any round is played."""
    if play.match.stage == "playoff":
        return play.tr("cup.playoff_match", format=stage_title(play), a=play.names[0],
                       b=play.names[1])
    return play.tr("cup.match_head", a=play.names[0], b=play.names[1])


def _progress(tr: Translator, name: tuple[str, str], state) -> list[str]:
    """The round being played so far: each player's declaration and dice, first roller
    first."""
    declared = getattr(state, "declarations", (None, None))
    first = state.first_roller
    lines = []
    for player in (first, 1 - first):
        parts = []
        if declared[player] is not None:
            parts.append(_declared_text(tr, name[player], _declaration(declared[player])))
        if dice := state.current_dice[player]:
            parts.append(tr("cup.rolled", name=name[player], value=", ".join(map(str, dice))))
        lines += parts
    return lines


def _declaration(value) -> dict:
    """A declaration as the engine keeps it, in the shape of a ``declare`` action."""
    return {"order": list(value)} if isinstance(value, tuple | list) else {"drop": value}


def _declared_text(tr: Translator, who: str, event: dict) -> str:
    if "order" in event:
        return tr("cup.declared_order", name=who, order="-".join(map(str, event["order"])))
    return tr("cup.declared_drop", name=who, drop=event["drop"])


def _round_text(tr: Translator, name: tuple[str, str], record, state) -> str:
    values = {"a": name[0], "va": _shown(record, 0), "b": name[1], "vb": _shown(record, 1),
              "number": record.number}
    if record.winner is None:
        return tr("cup.round_tied", **values)
    return tr("cup.round_won", winner=name[record.winner], sa=state.score[0],
              sb=state.score[1], **values)


def _shown(record, player: int) -> str:
    dice = record.dice[player]
    if len(dice) == 1:
        return str(record.values[player])
    return f"{'-'.join(map(str, dice))} → {record.values[player]}"


_RESULT_KEYS = {"groups": ("cup.match_won", "cup.match_drawn"),
                "friendly": ("cup.friendly_won", "cup.friendly_drawn")}  # else the playoff's


def _result_text(tr: Translator, name: tuple[str, str], state, match: MatchRow) -> str:
    """The result in the words of the match's stage: points in the group stage, going
    through in the playoff, 3rd place in its match, neither in a friendly."""
    won, drawn = _RESULT_KEYS.get(match.stage, ("cup.playoff_won", "cup.match_drawn"))
    if match.slot == THIRD:
        won = "cup.third_won"
    if state.draw:
        return tr(drawn, a=name[0], b=name[1], sa=state.score[0], sb=state.score[1])
    return tr(won, winner=name[state.winner], loser=name[1 - state.winner],
              sw=state.score[state.winner], sl=state.score[1 - state.winner])


def _next_step(play: MatchContext, before, after) -> tuple[str, InlineKeyboardMarkup | None]:
    """Who acts next; the declaration buttons stay while a declaration is still missing."""
    tr, name = play.tr, play.names
    waiting = [p for p, kind in after.expecting if kind == "declare"]
    markup = declaration_keyboard(play.match.id, play.match.kind) if waiting else None
    if len(waiting) == 2:
        return tr(f"cup.declare_{play.match.kind}", number=after.round), markup
    roller = after.roller
    if waiting and (roller is None or roller in waiting):
        return tr("cup.waiting_declaration", name=name[waiting[0]]), markup
    return tr("cup.next_roll", name=name[roller], number=after.round), markup


def match_status(play: MatchContext, state) -> str:
    """The /match text for the round-based formats."""
    if state.voting if hasattr(state, "voting") else False:
        waiting = play.tr("cup.vote_open")
    else:
        waiting, _ = _next_step(play, state, state)
    return play.tr("cup.match_state", a=play.names[0], b=play.names[1], sa=state.score[0],
                   sb=state.score[1], waiting=waiting)


@on_match_start("order", "drop", "group3")
async def start_rounds(play: MatchContext) -> None:
    text, markup = status(play, await play.services.matches.state(play.match))
    await post(play, text, markup)


async def launch_single_match(services: Services, tournament: Tournament,
                              match: MatchRow) -> None:
    """A Cup match outside the Cup's stages (a friendly): who plays, the score and whose
    roll it is."""
    ctx = await start_match(services, tournament, match)
    state = await services.matches.state(ctx.match)
    await post(ctx, ctx.tr("friendly.cup_start", a=ctx.names[0], b=ctx.names[1]) + "\n"
               + match_status(ctx, state))
