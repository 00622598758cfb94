"""``/resign`` asks first: a resignation is scored by the position (a backgammon, times the
cube, can end a match at once) and cannot be undone, so the player reads what it costs and
confirms with a button (only theirs counts; the match must not have moved on meanwhile).
``/resign match`` the same for the whole match."""

from __future__ import annotations

from functools import partial

from aiogram import F
from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, Message, Update

from bot.features.backgammon.live.flow import PLAYBOOK, act, same_step
from bot.features.backgammon.live.moves import decision_action, played_here, sender_match
from bot.features.handlers import Handlers
from bot.features.keyboards import pressed_on_its_question, question_keyboard
from bot.i18n import Markup, Translator
from bot.middlewares.filters import IN_GROUP
from bot.middlewares.scope import Scope
from bot.play.context import LIVE, MatchContext, load_match
from bot.play.held import Held
from bot.play.perform import refused
from bot.play.refusal import Refusal, unless_paused
from bot.services import Services
from games.backgammon.game import DOUBLED
from games.backgammon.protocol import VALUES
from games.backgammon.result import game_result
from games.backgammon.session import LiveMatch
from games.common.errors import IllegalAction
from storage.repositories.jobs import Job

router = Handlers("backgammon-resign")
MATCH_WORDS = ("match", "матч", "ottelu")
GAME_WORDS = ("game", "партия", "партию", "peli", "erä")
GIVE_UP = ("luovutan",)
VALUE_NAMES = {points: name for name, points in VALUES.items()}


class Resign(CallbackData, prefix="bgr"):
    """The answer to "resign?": the match, its step when asked, the asking seat."""
    match_id: int
    step: int
    seat: int
    whole: bool
    sure: bool


@router.message(Command("resign"), IN_GROUP)
async def resign(message: Message, command: CommandObject, scope: Scope,
                 tr: Translator) -> None:
    ctx = await sender_match(scope, tr)
    word = (command.args or "").strip().lower()
    if word and word not in MATCH_WORDS + GAME_WORDS:
        raise Refusal("backgammon.live.error.resign_usage")
    await _ask(message, ctx, word in MATCH_WORDS)


@router.message(IN_GROUP, F.text.func(lambda text: text is not None
                                       and text.strip().lower() in GIVE_UP))
async def said_give_up(message: Message, event_update: Update, scope: Scope,
                       services: Services, tr: Translator) -> None:
    """«Luovutan» ("I give up") typed by a player of a match here: at a double it passes,
    as the Finnish prompt «otatko vai luovutatko?» asks; elsewhere it asks as ``/resign``
    does (the game). From anyone else it is chat, not answered."""
    ctx = await played_here(scope, tr)
    if ctx is None:
        return
    if (await services.matches.current(ctx.match)).phase != DOUBLED:
        await _ask(message, ctx, whole=False)
        return
    seat = ctx.seat(message.from_user.id)
    await act(ctx, [await decision_action(ctx, "pass", seat)], message.from_user.id,
              event_update.update_id)


async def _ask(message: Message, ctx: MatchContext, whole: bool) -> None:
    """Ask the sender whether they resign the game (or the ``whole`` match), with what it
    costs; refused at once in a pause or when the engine would refuse it."""
    services, tr = ctx.services, ctx.tr
    await unless_paused(services, ctx.match)  # refused now, not at the answer's press
    seat = ctx.seat(message.from_user.id)
    state = await services.matches.state(ctx.match)  # a copy: tried, never kept
    try:
        state.apply(_action(seat, whole))
    except IllegalAction as error:  # not their turn, a double waiting …
        raise refused(ctx, PLAYBOOK, error) from None
    state = await services.matches.state(ctx.match)
    question = _question(ctx, state, seat, whole)
    await message.reply(question, reply_markup=question_keyboard(
        tr("backgammon.live.button.resign"), tr("backgammon.live.button.play_on"),
        partial(Resign, match_id=ctx.match.id, step=state.steps, seat=seat, whole=whole)))


def _action(seat: int, whole: bool) -> dict:
    return {"type": "resign_match" if whole else "resign", "player": seat}


def _question(ctx: MatchContext, state: LiveMatch, seat: int, whole: bool) -> str:
    """What resigning costs: the match to the opponent, or the game by the position (the
    match when those points are all the opponent needs: in a 1-point match, always)."""
    tr, name, winner = ctx.tr, ctx.names[seat], ctx.names[1 - seat]
    if whole:
        return tr("backgammon.live.resign_match_ask", name=name, winner=winner)
    game = state.game
    per_cube = game_result(game.position, winner=1)  # the resigning player is on roll
    if per_cube * game.cube >= state.match.away(1 - seat):
        return tr("backgammon.live.resign_ask_match_won", name=name, winner=winner,
                  number=len(state.match.games) + 1)
    return tr("backgammon.live.resign_ask", name=name, winner=winner, cube=game.cube,
              number=len(state.match.games) + 1,
              value=tr(f"backgammon.value.{VALUE_NAMES[per_cube]}"),
              points=Markup(tr("formats.n_points", count=per_cube * game.cube)))


@router.callback_query(Resign.filter())
async def answer(query: CallbackQuery, callback_data: Resign, event_update: Update,
                 services: Services, tr: Translator) -> None:
    ctx = await load_match(services, tr, callback_data.match_id)
    seat = callback_data.seat
    if not pressed_on_its_question(query) or ctx is None \
            or ctx.tournament.chat_id != query.message.chat.id or seat not in (0, 1):
        raise Refusal("callback.stale")
    if ctx.match.status not in LIVE:  # over by another way (or by this question, its press
        # written by a process that stopped before taking the buttons off)
        raise Refusal("callback.stale", closes=True)
    if ctx.seat(query.from_user.id) != seat:
        raise Refusal("backgammon.live.resign_not_yours", name=ctx.names[seat])
    if not callback_data.sure:
        await query.answer()
        await query.message.edit_text(tr("backgammon.live.resign_kept", name=ctx.names[seat]))
        return
    question = [query.message.chat.id, query.message.message_id]
    closing = Held(ANSWERED_JOB, ctx.match.tournament_id, services.clock.now(),
                   {"question": question})
    try:
        await act(ctx, [_action(seat, callback_data.whole)], query.from_user.id,
                  event_update.update_id, check=same_step(callback_data.step),
                  alongside=[query.answer], logged=closing.write)
    finally:  # done, or out of date: the question takes no more presses
        await closing.done_by(services, services.outbox.drop_buttons(*question))


ANSWERED_JOB = "backgammon_resign_answered"
"""Written with a resignation its question's press made: the question's buttons taken off,
also by a bot that stopped right after the write (they stayed for good)."""


async def question_answered(services: Services, job: Job) -> None:
    """:data:`ANSWERED_JOB`: the question takes no more presses."""
    await services.outbox.drop_buttons(*job.payload["question"])


JOBS = {ANSWERED_JOB: question_answered}
