"""Score entry in the group: the keypad (before leg 1: the bull-off or the coin), typed
darts (a line of three darts is a visit, committed at once; a shorter line waits for more
or End turn), the typed words for Undo and End turn (and /undo), /board to show the
scoreboard again, and the organiser's /correct for committed visits (logged)."""

from __future__ import annotations

import random
import re
from functools import partial

from aiogram import F
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message, Update

from bot.features.access import is_organiser
from bot.features.darts.keypad import END, PREFIX, read
from bot.features.darts.opening import Opening, starter_action
from bot.features.darts.play import (
    LIVE,
    PLAYBOOK,
    DartsPlay,
    dart_label,
    load,
    match_for,
    no_match_answer,
    perform,
    running_tournaments,
)
from bot.features.handlers import Handlers
from bot.i18n import Translator
from bot.middlewares.filters import IN_GROUP
from bot.middlewares.scope import Scope
from bot.play.context import own_text
from bot.play.perform import refused
from bot.play.refusal import Refusal
from bot.play.said import Said
from bot.services import Services
from bot.snapshots import tried
from games.common.errors import IllegalAction
from games.darts.match import LegsMatch
from games.darts.notation import darts_word, parse_dart, split_line, written_as_dart
from games.darts.turn import DARTS_PER_VISIT
from storage.repositories.organiser_log import log_entry

router = Handlers("darts")
_DART_LIKE = re.compile(r"^(?:[A-ZА-ЯЁ]\d{1,2}|[SDTСДТ](?=\w*\d)\w{1,4})$", re.IGNORECASE)
"""A dart, or a mistyped one (``X20``, ``T2O``): refused as such, not read as the reason."""
_BARE_NUMBER = re.compile(r"^\d{1,3}$")
_MATCH_REF = re.compile(r"^#?(\d{1,12})(?:\.(\d{1,3}))?$")
MAX_TYPED = 6
_UNPLAYED = {"pending": "darts.correct_not_started", "bye": "darts.correct_bye"}
"""Why /correct finds no visits in a match that was never played."""
# Typed instead of the keypad's Undo and End turn (ru, en, fi; the seed's «Kumoa» and
# «Päätä vuoro» too). End turn may also close a line of darts: «S20 конец».
UNDO_WORDS = frozenset({"отмена", "отменить", "undo", "peru", "kumoa"})
END_WORDS = frozenset({"конец", "конец подхода", "end", "end turn", "valmis", "päätä",
                       "päätä vuoro"})


def read_line(text: str) -> tuple[list[str], str | None] | None:
    """A typed line as (darts, "undo" | "end" | None); None when it is not darts entry."""
    words = split_line(text)
    said = " ".join(words).lower()
    if said in UNDO_WORDS:
        return [], "undo"
    command = None
    for size in (2, 1):
        if len(words) >= size and " ".join(words[-size:]).lower() in END_WORDS:
            words, command = words[:-size], "end"
            break
    if len(words) > MAX_TYPED or not all(map(written_as_dart, words)) or not (words or command):
        return None
    return words, command


async def _typed_darts(message: Message, services: Services) -> dict | bool:
    if not message.text:
        return False
    line = read_line(message.text)
    if line is None or not await running_tournaments(services, message.chat.id):
        return False
    return {"darts": line[0], "command": line[1]}


def _normalised(words: list[str], play: DartsPlay) -> list[str]:
    """The darts in the log's notation (``Т20`` → ``T20``); refused if one is bad."""
    try:
        return [str(parse_dart(word)) for word in words]
    except IllegalAction as error:
        raise refused(play, PLAYBOOK, error) from None


@router.message(Command("undo"), IN_GROUP)
async def undo(message: Message, event_update: Update, scope: Scope, services: Services,
               tr: Translator) -> None:
    """/undo does what «undo» typed does; a command is answered even without a match."""
    if not await _enter(message.from_user.id, [], "undo", event_update.update_id, scope,
                        services, tr):
        await message.reply(await no_match_answer(scope, tr) or tr("darts.not_in_match"))


@router.message(IN_GROUP, _typed_darts)
async def typed(message: Message, darts: list[str], command: str | None,
                event_update: Update, scope: Scope, services: Services,
                tr: Translator) -> None:
    entered = await _enter(message.from_user.id, darts, command, event_update.update_id,
                           scope, services, tr)
    # a lone «end» or «undo» without a match is ordinary chat
    if not entered and darts and (answer := await no_match_answer(scope, tr)):
        await message.reply(answer)


async def _enter(user_id: int, darts: list[str], command: str | None, update_id: int,
                 scope: Scope, services: Services, tr: Translator) -> bool:
    """Enter typed darts and Undo or End turn for the player at the oche of the sender's
    match; False when there is no match to enter in."""
    play = await match_for(scope, tr)
    if play is None:
        return False
    darts = _normalised(darts, play)
    if len(darts) > DARTS_PER_VISIT:
        raise Refusal(text=tr("darts.error.too_many_typed", count=len(darts)))
    state = await services.matches.current(play.match)  # read only: no copy
    _check_room(tr, state, darts)
    player = state.current
    if command == "end" and not darts and play.match.status == "running":  # (a pause first)
        _refuse_lone_end(play, state, user_id)
    actions = [{"type": "dart", "dart": dart, "player": player} for dart in darts]
    if command == "undo":
        actions.append({"type": "undo", "player": player})
    elif len(darts) == 3 or command == "end":
        actions.append({"type": "end_visit", "player": player})
    await perform(play, actions, user_id, update_id)
    return True


def _refuse_lone_end(play: DartsPlay, state, user_id: int) -> None:
    """End turn with no dart of the visit entered is the thrower's only: from anyone else
    (an «end» or an End turn press sent twice) it would record the next player's visit as
    three misses nobody threw."""
    if state.started and not state.leg.pending and play.seat(user_id) != state.current:
        raise Refusal(text=play.text("darts.error.end_without_darts",
                                     name=play.names[state.current]))


def _check_room(tr: Translator, state, darts: list[str]) -> None:
    """Refuse typed darts that do not fit in the visit under way (a dart or two already
    entered, by the keypad or an earlier line), saying what is there and how many fit:
    the engine's own refusal would only say that a visit has three darts."""
    entered = state.leg.pending
    room = DARTS_PER_VISIT - len(entered)
    if entered and 0 < room < len(darts):
        raise Refusal(text=tr("darts.error.visit_overflow", room=room, count=len(darts),
                              entered=" · ".join(dart_label(tr, dart) for dart in entered)))


def _nearly_darts(message: Message) -> dict | bool:
    """Filter: a line that is nearly darts: darts with bare numbers among them (``20 20
    20``, ``T20 19``, ``60``), at least half of it darts (``S19 bulli!``, ``S20 D20 T20
    отмена``), or a ring's or the bull's word that is no dart as written (``double
    twenty``, «трипл двадцать»); the first word that is no dart, a darts word last
    (``twenty``, not ``double``), is given as ``stray``."""
    words = split_line(message.text or "")
    strays = [word for word in words if not written_as_dart(word)]
    if not strays or len(words) > MAX_TYPED:
        return False
    numbers = all(_BARE_NUMBER.match(word) for word in strays)
    said = [word for word in strays if not darts_word(word)]
    meant = numbers or 2 * len(strays) <= len(words) or len(said) < len(strays)
    return {"stray": (said or strays)[0]} if meant else False


@router.message(IN_GROUP, _nearly_darts)
async def nearly_darts(message: Message, stray: str, scope: Scope, tr: Translator) -> None:
    """Not read as darts (a number alone says no ring, or it is the visit's score), but a
    player of a live match here is told how to write a dart, so nothing they meant as a
    visit goes unanswered; anyone else is chatting."""
    if await match_for(scope, tr) is not None:
        raise Refusal(text=tr("darts.error.bad_notation", text=stray))


@router.callback_query(F.data.startswith(PREFIX))
async def pressed(query: CallbackQuery, event_update: Update, services: Services,
                  tr: Translator) -> None:
    press = read(query.data)
    if press is None:
        await query.answer(tr("darts.bad_button"), show_alert=True)
        return
    play = await load(services, tr, press.match_id)
    board = query.message
    if (play is None or board is None or board.chat.id != play.tournament.chat_id
            or board.message_id != play.match.board_message_id):
        await query.answer(tr("callback.stale"), show_alert=True)
        return
    if play.match.status not in LIVE:
        await query.answer(tr("darts.match_over"), show_alert=True)
        return
    if not await play.may_enter(query.from_user.id):
        await query.answer(tr("darts.not_your_match"), show_alert=True)
        return
    state = await services.matches.current(play.match)  # read only
    if press.is_coin:  # tossed once the press is found to count
        actions = partial(_coin, services.rng)
    else:
        if press.code == END:
            _refuse_lone_end(play, state, query.from_user.id)
        actions = [press.action(state.current)]
    await perform(play, actions, query.from_user.id, event_update.update_id,
                  expect=press.position, alongside=[query.answer])


def _coin(rng: random.Random, state: Opening) -> list[dict]:
    """The bot's coin for who throws first, tossed while that is open (a second tap finds
    it decided and is refused as it is, with no coin tossed)."""
    return [starter_action(state.starter if state.started else rng.randrange(2), "coin")]


def parse_correction(args: str | None) -> dict | None:
    """``<match>[.<leg>] <visit> [dart dart dart] <reason…>`` → its parts; None if malformed."""
    words = (args or "").split()
    if len(words) < 3 or not (ref := _MATCH_REF.match(words[0])) or not words[1].isdecimal():
        return None
    darts = []
    rest = words[2:]
    while rest and len(darts) < 3 and (written_as_dart(rest[0]) or _DART_LIKE.match(rest[0])):
        darts.append(rest.pop(0))
    if not rest or int(words[1]) < 1:
        return None
    return {"match": int(ref[1]), "leg": int(ref[2]) if ref[2] else None,
            "visit": int(words[1]), "darts": darts, "reason": " ".join(rest)}


@router.message(Command("correct"), IN_GROUP)
async def correct(message: Message, command: CommandObject, event_update: Update,
                  services: Services, tr: Translator) -> None:
    user_id = message.from_user.id
    if not await is_organiser(services, message.chat.id, user_id):
        await message.reply(tr("access.organisers_only"))
        return
    parts = parse_correction(command.args)
    if parts is None:
        await message.reply(await _correct_usage(services, tr, message.chat.id))
        return
    play = await load(services, tr, parts["match"])
    if play is None or play.tournament.chat_id != message.chat.id:
        await message.reply(tr("darts.no_such_match", match=parts["match"]))
        return
    if play.match.status not in LIVE:
        unplayed = _UNPLAYED.get(play.match.status)
        await message.reply(play.text(unplayed, match=play.match.id) if unplayed
                            else tr("darts.correct_match_over"))
        return
    darts = _normalised(parts["darts"], play)
    action = {"type": "correct", "visit": parts["visit"] - 1, "darts": darts}
    if parts["leg"] is not None:
        action["leg"] = parts["leg"] - 1
    logged = log_entry(user_id, "correct", services.clock.now(),
                       tournament_id=play.tournament.id, chat_id=message.chat.id,
                       reason=parts["reason"], match=play.match.id, leg=parts["leg"],
                       visit=parts["visit"], darts=darts)
    said = await _correction_said(play, message, action, parts["reason"])
    await perform(play, [action], user_id, event_update.update_id, logged=logged,
                  in_pause=True, said=said)


async def _correct_usage(services: Services, tr: Translator, chat_id: int) -> str:
    """The /correct usage in the words of the chat's darts game (FinCricket's games and
    turns), the common one when both are played there."""
    games = {t.game for t in await running_tournaments(services, chat_id)}
    return own_text(tr, "darts.correct_usage", games.pop()) if len(games) == 1 \
        else tr("darts.correct_usage")


async def _correction_said(play: DartsPlay, message: Message, action: dict,
                           reason: str) -> list[Said]:
    """The correction said where /correct was typed, written with it
    (:mod:`bot.play.said`): told from the match as the correction leaves it; nothing when
    the rules refuse it (the refusal is said instead)."""
    try:
        state = tried(await play.services.matches.current(play.match), action)
    except IllegalAction:
        return []
    return [Said.answering(message, _correction_text(play, message, state, action, reason))]


def _correction_text(play: DartsPlay, message: Message, state: LegsMatch, action: dict,
                     reason: str) -> str:
    """Whose visit was corrected, by its number on the board (the player's own, and the
    leg's that /correct takes), to what."""
    tr, leg = play.tr, action.get("leg", state.corrected_leg(action))
    visits = state.legs[leg].history[:action["visit"] + 1]
    player = visits[-1].player
    darts = action["darts"]
    missed = [tr("darts.key_miss")] * (DARTS_PER_VISIT - len(darts))  # what the visit scores
    shown = " · ".join([dart_label(tr, parse_dart(dart)) for dart in darts] + missed)
    return play.text(
        "darts.corrected", organiser=message.from_user.first_name, name=play.names[player],
        visit=sum(visit.player == player for visit in visits), number=len(visits),
        leg=leg + 1, match=play.match.id, darts=shown, reason=reason)
