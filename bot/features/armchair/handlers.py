"""The armchair buttons outside the hand's cards: 🪙 and the toss winner's choice on the
score card, and declaring from the hand panel with a confirmation. Each press carries the
position it was drawn at; a press after the match moved on is refused and changes nothing.
Cards themselves (buttons and typed) go through :mod:`bot.play.hidden_chat`."""

from __future__ import annotations

import contextlib
import random
from functools import partial
from typing import Any

from aiogram.exceptions import TelegramBadRequest
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Update

from bot.features.access import is_organiser
from bot.features.armchair.hand import confirm_rows
from bot.features.armchair.keyboards import BatFirst, Declare, Toss
from bot.features.armchair.play import PLAYBOOK, explain
from bot.features.armchair.settings import KIND
from bot.features.handlers import Handlers
from bot.play import hidden
from bot.play.context import LIVE, MatchContext, load_match
from bot.play.perform import perform
from bot.play.refusal import Refusal
from bot.services import Services
from bot.snapshots import tried
from games.common.errors import IllegalAction

router = Handlers("armchair")


async def _match(services: Services, match_id: int) -> MatchContext:
    """The live armchair match a button names, in its group's language."""
    found = await services.repos.matches.get(match_id)
    if found is None or found.kind != KIND or found.status not in LIVE:
        raise Refusal("callback.stale")
    tournament = await services.repos.tournaments.get(found.tournament_id)
    tr = await services.translator_for_chat(tournament.chat_id)
    return await load_match(services, tr, match_id, (KIND,))


def _at(position: int):
    """A perform check: the press counts only at the position it was drawn at."""
    def check(game) -> None:
        if game.position != position:
            raise Refusal("callback.stale")
    return check


def _toss(rng: random.Random, state: Any) -> list[dict]:
    """The bot's coin, tossed once the press is found to count (at the position its button
    was drawn at: the toss is still to come)."""
    return [{"type": "toss", "winner": rng.randrange(2)}]


@router.callback_query(Toss.filter())
async def toss(query: CallbackQuery, callback_data: Toss, event_update: Update,
               services: Services) -> None:
    """Either player (or an organiser) asks the bot to toss the coin; the bot draws it."""
    ctx = await _match(services, callback_data.match_id)
    user = query.from_user.id
    if ctx.seat(user) is None and not await is_organiser(services, ctx.tournament.chat_id,
                                                         user):
        raise Refusal("armchair.error.not_player")
    await perform(ctx, PLAYBOOK, partial(_toss, services.rng), actor_id=user,
                  update_id=event_update.update_id,
                  check=_at(callback_data.at), alongside=[query.answer])


@router.callback_query(BatFirst.filter())
async def bat_first(query: CallbackQuery, callback_data: BatFirst, event_update: Update,
                    services: Services) -> None:
    """The toss winner chooses to bat or to bowl first — or an organiser for them (a toss
    winner who does not come back would stall the match)."""
    ctx = await _match(services, callback_data.match_id)
    seat = ctx.seat(query.from_user.id)
    if seat is None:
        turn = (await services.matches.current(ctx.match)).to_act
        if ctx.tournament.friendly or \
                not await is_organiser(services, ctx.tournament.chat_id, query.from_user.id):
            raise Refusal("armchair.error.not_player")
        if turn is None or turn.kind != "choose":
            raise Refusal("callback.stale")
        seat = turn.seat
    first = seat if callback_data.bats else 1 - seat
    await perform(ctx, PLAYBOOK, [{"type": "choose", "player": seat, "bat_first": first}],
                  actor_id=query.from_user.id, update_id=event_update.update_id,
                  check=_at(callback_data.at), alongside=[query.answer])


def _why_not_declare(game, seat: int) -> IllegalAction:
    """The rules' own reason a declaration of ``seat`` is refused now."""
    try:
        tried(game, {"type": "declare", "player": seat})
    except IllegalAction as error:
        return error
    return IllegalAction("wrong_phase", phase=game.state.phase)


@router.callback_query(Declare.filter())
async def declare(query: CallbackQuery, callback_data: Declare, event_update: Update,
                  services: Services) -> None:
    """Declare: ask to confirm (step 0), declare (1) or go back to the hand (2)."""
    ctx = await _match(services, callback_data.match_id)
    user = query.from_user.id
    seat = ctx.seat(user)
    if seat is None:
        raise Refusal("armchair.error.not_player")
    game = await services.matches.current(ctx.match)
    if game.position != callback_data.at:
        raise Refusal("callback.stale")
    user_tr = await services.translator_for_chat(user)
    if not game.may_declare(seat):
        raise Refusal(text=explain(user_tr, _why_not_declare(game, seat)))
    if callback_data.step == 0:
        with contextlib.suppress(TelegramBadRequest):
            await query.message.edit_reply_markup(reply_markup=InlineKeyboardMarkup(
                inline_keyboard=confirm_rows(user_tr, ctx.match.id, callback_data.at)))
        await query.answer(user_tr("armchair.declare_sure"))
        return
    if callback_data.step == 1:
        await hidden.submit(ctx, seat, {"type": "declare"}, actor_id=user,
                            update_id=event_update.update_id, at=callback_data.at,
                            alongside=[query.answer])
        return
    await hidden.show(ctx, seat)
    await query.answer()
