"""What the players of a match played in the bot do (``docs/backgammon.md``): moves typed in
notation (``24/18 13/10``, ``bar/22``, ``6/off``, ``13/7(2)``) or pressed on the board, Roll
and Double (``/roll``, ``/double``), Take and Pass (``/take``, ``/pass``); resignations are
:mod:`.resign`'s. Every action goes through
:func:`~bot.features.backgammon.live.flow.act`; a refusal says why and changes nothing."""

from __future__ import annotations

from aiogram import F
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message, Update

from bot.features.backgammon.live.board import Press, keep_picked, markup, unpack_steps
from bot.features.backgammon.live.flow import PLAYBOOK, act, same_step
from bot.features.backgammon.settings import GAME, LIVE_KIND
from bot.features.handlers import Handlers
from bot.i18n import Translator
from bot.middlewares.filters import IN_GROUP
from bot.middlewares.scope import Scope
from bot.play.context import LIVE, MatchContext, load_match
from bot.play.perform import board_owed_after_faults, refused
from bot.play.refusal import Refusal, unless_paused
from bot.play.topics import other_match_topic
from bot.sending import at_once
from bot.services import Services
from games.backgammon.parse import looks_like_play
from games.backgammon.session import LiveMatch
from games.backgammon.steps import play_of, steps_notation
from games.common.errors import IllegalAction
from storage.repositories.matches import MatchRow

router = Handlers("backgammon-live")
WORDS = {"roll": "roll", "double": "double", "take": "take", "pass": "pass"}
ALIASES = {"drop": "pass", "accept": "take", "redouble": "double"}
"""Commands players use for the cube's decisions: a drop is a pass, a redouble a double."""
SAID = {**WORDS, **ALIASES, "удваиваю": "double", "беру": "take", "принимаю": "take",
        "пас": "pass", "отказ": "pass", "бросаю": "roll",
        "tuplaan": "double", "tuplaa": "double", "otan": "take", "otetaan": "take",
        "passaan": "pass", "en ota": "pass", "heitän": "roll", "heitä": "roll"}
"""A decision typed alone as a word by a player of a match here (``take``, «беру», «otan»);
«luovutan» ("I give up") is :mod:`.resign`'s: a pass at a double, else a resignation asked."""


async def sender_match(scope: Scope, tr: Translator) -> MatchContext:
    """The sender's live backgammon match played in the bot in this chat (in a match's
    forum topic: that match), else refused: in another match's topic, saying whose it is."""
    match = await _own_live(scope)
    if match is None:
        raise Refusal(text=await other_match_topic(scope, tr, (GAME,)) or tr(
            "backgammon.live.error.match_over" if await _just_played(scope)
            else "backgammon.live.error.no_match"))
    return await load_match(scope.services, tr, match.id)


async def _own_live(scope: Scope) -> MatchRow | None:
    match = await scope.live_match(of=(GAME,))
    return match if match is not None and match.kind == LIVE_KIND else None


async def played_here(scope: Scope, tr: Translator) -> MatchContext | None:
    """The sender's live match played in the bot in this chat (in a match's forum topic:
    that match), for a move or decision they typed as plain text; None when they play none
    here (the text is chat, not answered), refused as over when their last match here has
    just ended."""
    match = await _own_live(scope)
    if match is None:
        if await _just_played(scope):
            raise Refusal("backgammon.live.error.match_over")
        return None
    return await load_match(scope.services, tr, match.id)


async def _just_played(scope: Scope) -> bool:
    """Whether the sender's last match in the chat is a backgammon match played in the bot
    that has ended."""
    last = await scope.services.repos.matches.last_for_player_in_chat(scope.chat.id,
                                                                       scope.user.id)
    return last is not None and last.kind == LIVE_KIND and last.status == "finished"


@router.message(IN_GROUP, F.text.func(looks_like_play))
async def typed_move(message: Message, event_update: Update, scope: Scope,
                     services: Services, tr: Translator) -> None:
    """A play typed in notation, checked against the legal plays. From someone who plays
    no match in the bot here, nor has just finished one, it is talk about a position (as
    darts take a spectator's ``60``): not answered."""
    ctx = await played_here(scope, tr)
    if ctx is None:
        return
    seat = ctx.seat(message.from_user.id)
    check_turn(ctx, await services.matches.current(ctx.match), seat)
    await act(ctx, [{"type": "move", "player": seat, "play": message.text.strip()}],
              message.from_user.id, event_update.update_id)


@router.message(F.dice, IN_GROUP)
async def dice_sent(message: Message, scope: Scope, tr: Translator) -> None:
    """A 🎲 from a player of a match played here is a roll meant: answered as /roll would
    be refused now (another player's turn, the dice already rolled, a pause), else that the
    bot rolls both dice (Roll, /roll); from anyone else a 🎲 is ordinary chat."""
    match = await _own_live(scope)
    if match is None:
        return
    ctx = await load_match(scope.services, tr, match.id)
    await _check_roll(ctx, ctx.seat(message.from_user.id))
    raise Refusal("backgammon.live.error.dice_by_bot")


@router.message(Command(*WORDS, *ALIASES, "beaver"), IN_GROUP)
async def decision(message: Message, command: CommandObject, event_update: Update,
                   scope: Scope, tr: Translator) -> None:
    word = command.command.lower()
    if word == "beaver":
        raise Refusal("backgammon.live.error.no_beavers")
    ctx = await sender_match(scope, tr)
    seat = ctx.seat(message.from_user.id)
    await act(ctx, [await decision_action(ctx, ALIASES.get(word, word), seat)],
              message.from_user.id, event_update.update_id)


@router.message(IN_GROUP, F.text.func(lambda text: text is not None
                                       and text.strip().lower() in SAID))
async def said_decision(message: Message, event_update: Update, scope: Scope,
                        tr: Translator) -> None:
    """A decision typed as a word ("take", «беру») by a player of a match played here;
    from anyone else the word is chat, not answered."""
    ctx = await played_here(scope, tr)
    if ctx is None:
        return
    seat = ctx.seat(message.from_user.id)
    word = SAID[message.text.strip().lower()]
    await act(ctx, [await decision_action(ctx, word, seat)], message.from_user.id,
              event_update.update_id)


async def decision_action(ctx: MatchContext, word: str, seat: int) -> dict:
    """The action of Roll, Double, Take or Pass; a roll carries the dice the bot draws
    now (only once the engine would take it, so no die is drawn for nothing). In a pause,
    refused with the pause's answer first."""
    if word == "roll":
        await _check_roll(ctx, seat)
        rng = ctx.services.rng
        return {"type": "roll", "player": seat, "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
    await unless_paused(ctx.services, ctx.match)
    state = await ctx.services.matches.current(ctx.match)  # read, never changed
    if word in ("take", "pass") and state.phase != "doubled":
        raise Refusal("backgammon.live.error.no_double")
    if word == "double":
        _check_double(ctx, state, seat)
    check_turn(ctx, state, seat)
    return {"type": word, "player": seat}


async def _check_roll(ctx: MatchContext, seat: int) -> None:
    """Refused with the moment's reason unless ``seat`` may roll now: a pause, another
    player's turn, the engine's (the dice already rolled, a double to answer …)."""
    await unless_paused(ctx.services, ctx.match)
    state = await ctx.services.matches.current(ctx.match)  # read, never changed
    check_turn(ctx, state, seat)
    if state.to_act != seat or state.phase != "turn":
        trial = {"type": "roll", "player": seat, "dice": [1, 2]}
        try:
            (await ctx.services.matches.state(ctx.match)).apply(trial)  # on a copy
        except IllegalAction as error:  # the engine's reason: not your turn, wrong phase …
            raise refused(ctx, PLAYBOOK, error) from None


def _check_double(ctx: MatchContext, state: LiveMatch, seat: int) -> None:
    """Why ``seat`` may not double, most telling reason first (the Crawford game, a 1-point
    match, the cube at 64 or the opponent's, another player's turn); the engine checks the
    rest."""
    game = state.game
    if game.crawford:
        raise Refusal("backgammon.live.error.no_cube_in_crawford_game")
    if game.dead_cube:
        raise Refusal("backgammon.live.error.dead_cube")
    if game.cube >= 64:
        raise Refusal("backgammon.live.error.cube_at_maximum", cube=game.cube)
    if game.cube_owner not in (None, seat):
        raise Refusal("backgammon.live.error.not_cube_owner")
    check_turn(ctx, state, seat)


def check_turn(ctx: MatchContext, state: LiveMatch, seat: int) -> None:
    """Refused with whose turn it is when it is not ``seat``'s."""
    if state.to_act is not None and state.to_act != seat:
        raise Refusal("backgammon.live.error.turn_of", name=ctx.names[state.to_act])


@router.callback_query(Press.filter())
async def press(query: CallbackQuery, callback_data: Press, event_update: Update,
                services: Services, tr: Translator) -> None:
    """A press on the board: refused when the board is old or the presser not to act."""
    ctx = await load_match(services, tr, callback_data.match_id, (LIVE_KIND,))
    if ctx is not None and ctx.match.status == "finished":
        raise Refusal("backgammon.live.error.match_over")
    if ctx is None or ctx.match.status not in LIVE:
        raise Refusal("callback.stale")
    await unless_paused(services, ctx.match)  # the picker does not open in a pause either
    state = await services.matches.current(ctx.match)  # read before any await, never changed
    if state.steps != callback_data.step:  # a busy group's board may not show it yet
        soon = services.outbox.redrawing(ctx.tournament.chat_id, ctx.match.board_message_id)
        raise Refusal("backgammon.live.error.board_redrawn_soon" if soon else "callback.stale")
    seat = ctx.seat(query.from_user.id)
    if seat is None:
        raise Refusal("backgammon.error.not_in_match")
    check_turn(ctx, state, seat)
    act_ = callback_data.act
    steps = unpack_steps(callback_data.steps)
    if act_ in WORDS:
        action = await decision_action(ctx, act_, seat)
    elif act_.startswith("p"):
        action = _listed_play(state, int(act_[1:]), seat)
    elif act_ == "confirm":
        action = _picked_play(state, steps, seat)
    else:
        await _pick(query, ctx, state, act_, steps)
        return
    await act(ctx, [action], query.from_user.id, event_update.update_id,
              check=same_step(callback_data.step), alongside=[query.answer])


def _listed_play(state: LiveMatch, index: int, seat: int) -> dict:
    plays = state.plays()
    if not 0 <= index < len(plays):
        raise Refusal("callback.stale")
    return {"type": "move", "player": seat, "play": plays[index].notation}


def _picked_play(state: LiveMatch, steps: list, seat: int) -> dict:
    play = play_of(state.game.position, state.game.dice, steps)
    if play is None:
        raise Refusal("callback.stale")
    return {"type": "move", "player": seat, "play": play.notation}


async def _pick(query: CallbackQuery, ctx: MatchContext, state: LiveMatch, act_: str,
                steps: list) -> None:
    """A point picked, a die for it, or Undo: only the board's buttons change (kept for a
    board /board posts again), and the press is answered with the steps picked so far (the
    caption shows the last move)."""
    source = None
    if act_.startswith("s"):
        source = int(act_[1:])
    elif act_.startswith("d"):
        steps = [*steps, (int(act_[1:3]), int(act_[3:]))]
    elif act_ == "undo":
        steps = steps[:-1]  # "back" only puts the picked point down
    keep_picked(ctx, state, steps, source)
    picked = steps_notation(state.game.position, steps)
    async with board_owed_after_faults(ctx.services, ctx.match):  # kept: drawn a minute later
        await at_once(
            query.message.edit_reply_markup(reply_markup=markup(ctx, state, steps, source)),
            query.answer(ctx.tr("backgammon.live.picked", play=picked) if picked else None))
