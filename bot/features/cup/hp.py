"""The semi-final HP battle: hidden «атака»/«защита» choices by DM (buttons or typed words),
then both roll in the group. The group only learns that a player has chosen; both choices
are shown after the round resolves, with both HP."""

from __future__ import annotations

import contextlib
from datetime import timedelta

from aiogram import F
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.types import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
)

from bot.features.access import command_target
from bot.features.cup.common import announcer, my_play, my_play_anywhere, perform
from bot.features.cup.playoff import on_match_start, stage_title
from bot.features.handlers import Handlers
from bot.i18n import Translator
from bot.play.context import LIVE, MatchContext, context_for, load_match
from bot.play.refusal import Refusal
from bot.services import Services
from storage.repositories.jobs import Job

router = Handlers("cup-hp")
CHOICE_MINUTES = 5  # after this a late chooser is reminded and the organisers alerted
CHOICE_WORDS = {"атака": "attack", "атакую": "attack", "attack": "attack",
                "hyökkäys": "attack", "защита": "defend", "защищаюсь": "defend",
                "defend": "defend", "defence": "defend", "puolustus": "defend"}


class Choose(CallbackData, prefix="hp"):
    match_id: int
    choice: str


def _choice_word(message: Message) -> dict | bool:
    choice = CHOICE_WORDS.get((message.text or "").strip().lower())
    return {"choice": choice} if choice else False


@on_match_start("hp")
async def start_battle(play: MatchContext) -> None:
    tr = play.tr
    link = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
        text=tr("cup.hp_open_dm"), url=play.services.deep_link())]])
    await play.say(tr("cup.hp_start", title=stage_title(play), a=play.names[0], b=play.names[1],
                      hp=play.tournament.settings.get("hp", 20)), reply_markup=link)
    await ask_choices(play, 1)


async def ask_choices(play: MatchContext, round_no: int) -> None:
    """DM both players the choice buttons (a player the bot cannot reach is told in the
    group) and set the reminder for whoever is late."""
    await play.services.scheduler.add(
        "hp_late", play.services.clock.now() + timedelta(minutes=CHOICE_MINUTES),
        play.tournament.id, match_id=play.match.id, round=round_no)
    for index, user_id in enumerate((play.match.player_a, play.match.player_b)):
        user_tr = await play.services.translator_for_chat(user_id)
        keyboard = InlineKeyboardMarkup(inline_keyboard=[[
            InlineKeyboardButton(text=user_tr("cup.hp_attack_button"), callback_data=Choose(
                match_id=play.match.id, choice="attack").pack()),
            InlineKeyboardButton(text=user_tr("cup.hp_defend_button"), callback_data=Choose(
                match_id=play.match.id, choice="defend").pack())]])
        await play.services.outbox.dm(
            user_id, user_tr("cup.hp_ask", round=round_no, opponent=play.names[1 - index]),
            markup=keyboard, fallback_chat_id=play.tournament.chat_id,
            fallback_text=play.tr("cup.hp_cannot_dm", name=play.names[index]),
            button_text=play.tr("dm.open_button"))


@router.message(_choice_word, F.chat.type == "private")
async def typed_choice(message: Message, choice: str, event_update: Update,
                       services: Services) -> None:
    play = await my_play_anywhere(services, message.from_user.id)
    if play is None or play.match.kind != "hp":
        raise Refusal("cup.hp_no_battle")
    await _choose(play, message.from_user.id, choice, event_update.update_id)


@router.callback_query(Choose.filter())
async def choice_button(query: CallbackQuery, callback_data: Choose, services: Services,
                        tr: Translator) -> None:
    match = await services.repos.matches.get(callback_data.match_id)
    if match is None or callback_data.choice not in ("attack", "defend"):
        raise Refusal("callback.stale")
    group_tr = await services.translator_for_chat(
        (await services.repos.tournaments.get(match.tournament_id)).chat_id)
    play = await load_match(services, group_tr, match.id, ("hp",))
    if play is None or play.match.status not in LIVE:
        raise Refusal("callback.stale")
    if await _choose(play, query.from_user.id, callback_data.choice, None):
        await query.answer()


async def _choose(play: MatchContext, user_id: int, choice: str, update_id: int | None) -> bool:
    player = play.seat(user_id)
    if player is None:
        raise Refusal("cup.error.bad_player")
    applied = await perform(play, {"type": "choose", "player": player, "choice": choice},
                            user_id, update_id)
    if applied:
        user_tr = await play.services.translator_for_chat(user_id)
        await play.services.bot.send_message(user_id, user_tr(f"cup.hp_chosen_{choice}"))
        await _copy_to_hosts(play, player, choice)
    return applied


async def _copy_to_hosts(play: MatchContext, player: int, choice: str) -> None:
    """Organisers who opted in (/hostcopy on) get each choice as it is made, as the seed's
    host did; the group never sees it."""
    state = await play.services.matches.state(play.match)
    for host in play.tournament.state.get("host_copy", []):
        host_tr = await play.services.translator_for_chat(host)
        await play.services.outbox.dm(host, host_tr(
            "cup.hp_host_copy", name=play.names[player], round=state.round,
            choice=host_tr(f"cup.hp_{choice}_button")))


async def late_choice(services: Services, job: Job) -> None:
    match = await services.repos.matches.get(job.payload["match_id"])
    if match is None or match.status != "running":
        return
    state = await services.matches.state(match)
    if state.finished or state.round != job.payload["round"] or state.both_chosen:
        return
    tournament = await services.repos.tournaments.get(match.tournament_id)
    play = await context_for(services, await services.translator_for_chat(tournament.chat_id),
                          tournament, match)
    for index, user_id in enumerate(match.players):
        if state.has_chosen(index):
            continue
        user_tr = await services.translator_for_chat(user_id)
        await services.outbox.dm(user_id, user_tr("cup.hp_reminder", round=state.round))
        await play.say(play.tr("cup.hp_late", name=play.names[index],
                               minutes=CHOICE_MINUTES))


@router.message(Command("hostcopy"))
async def host_copy(message: Message, command: CommandObject, services: Services,
                    tr: Translator) -> None:
    """An organiser opts in (or out) to get every secret choice in their DM."""
    target = await command_target(message, services, tr, None, organiser=True)
    if target is None:
        return
    tournament, wanted = target.tournament, (command.args or "on").strip().lower() != "off"
    hosts = set(tournament.state.get("host_copy", []))
    hosts = hosts | {message.from_user.id} if wanted else hosts - {message.from_user.id}
    await services.repos.tournaments.set_state(tournament.id, "host_copy", sorted(hosts))
    await services.repos.organiser_log.record(
        message.from_user.id, "hostcopy", services.clock.now(), tournament_id=tournament.id,
        chat_id=message.chat.id, on=wanted)
    await message.answer(tr("cup.hp_host_on" if wanted else "cup.hp_host_off",
                            name=message.from_user.first_name))


@router.message(_choice_word, F.chat.type != "private")
async def choice_in_group(message: Message, services: Services, tr: Translator) -> None:
    """A secret choice typed in the group: not applied, removed if the bot may delete."""
    tournament, play = await my_play(services, tr, message.chat.id, message.from_user.id)
    if play is None or play.match.kind != "hp":
        return
    with contextlib.suppress(TelegramBadRequest):
        await services.bot.delete_message(message.chat.id, message.message_id)
    await play.say(tr("cup.hp_in_group", name=play.names[play.seat(message.from_user.id)]))


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
    if len(after.history) > len(before.history) and not after.finished:
        await ask_choices(play, after.round)


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
