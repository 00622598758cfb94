"""The flow of a match played in the bot (``play=bot``, ``docs/backgammon.md``): the launch,
every accepted step followed by what the bot does itself — the dice it rolls (drawn once,
logged, replayed, never rolled again), a roll at once when the player on roll may not double,
a forced move or a turn with no move played with one line — then the board redrawn and the
clocks of whoever must act set; the end of the match into the tournament, said on its record."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Sequence
from datetime import timedelta
from functools import partial
from typing import Any

from bot.features.backgammon.live import clocks
from bot.features.backgammon.live.board import (
    dice_pair,
    dice_text,
    last_played,
    preview,
    show,
)
from bot.features.backgammon.settings import LIVE_KIND
from bot.features.formats.results import record_played
from bot.i18n import Translator, lines
from bot.match_service import Change, Clocks
from bot.play import clock
from bot.play.context import LIVE, MatchContext, context_for
from bot.play.launch import start_match
from bot.play.perform import Alongside, Playbook, bot_moves, error_params, perform
from bot.play.refusal import Refusal
from bot.play.said import Said
from bot.services import Services
from games.backgammon.bot import choose_play, should_double, should_take
from games.backgammon.game import DOUBLED, MOVE, OPENING, TURN, Played
from games.backgammon.session import LiveMatch
from games.common.errors import IllegalAction
from storage.db import Write
from storage.repositories.jobs import Job
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament

Action = dict[str, Any]


def explain(tr: Translator, error: IllegalAction, match: MatchRow | None = None) -> str:
    """An engine's refusal in words: the live texts first, then the board protocol's."""
    phase, params = error.params.get("phase"), error_params(error)
    if isinstance(dice := error.params.get("dice"), list):
        params["dice"] = dice_pair(dice)  # as the board shows the roll: 5-2
    for key in (f"backgammon.live.error.{error.code}.{phase}",
                f"backgammon.live.error.{error.code}", f"backgammon.error.{error.code}"):
        if tr.has(key):
            return tr(key, **params)
    return tr("backgammon.error.other", code=error.code)


async def announce(ctx: MatchContext, change: Change, actions: list[Action]) -> None:
    """One line for what the players should not miss; the board itself is redrawn once the
    bot has played its own part (:func:`advance`). A move the bot played for a player is
    held back: the board's ``↪`` lines show it (:func:`_moved`), so it is said only when
    the game ends, with the moves before it. The last game's end is said with the match's
    (:func:`finish`)."""
    before, after = change.before, change.after
    for action in actions:
        if action["type"] == "move":
            await _moved(ctx, before, action)
    if len(after.games) > len(before.games):
        over = _game_over(ctx, after)
        ctx.held, ctx.earlier, ctx.unseen = lines(*ctx.earlier, ctx.held), (), None
        if after.finished:
            ctx.held = lines(ctx.held, over)  # said with the match's end
        else:
            await _say(ctx, over)


async def _say(ctx: MatchContext, line: str) -> None:
    """Say ``line`` in one message with the line held back before it, if any."""
    held, ctx.held = ctx.held, None
    if text := lines(held, line):
        await ctx.say(text)


async def _moved(ctx: MatchContext, before: LiveMatch, action: Action) -> None:
    """A move: one the bot played for a player is held back (said only with the game's
    end); a move the bot played that another follows before any board showed it (a chain
    of forced moves, a player's forced move and the bot's own in ``/practice``) is given on
    the next board above the last move, not lost, nor said in a message a move."""
    forced = _bot_move(ctx, before, action)
    if ctx.unseen:
        ctx.earlier += (ctx.unseen,)
    ctx.held = forced or None
    game, robot = before.game, await clocks.bot_seat(ctx)
    ctx.unseen = last_played(ctx, Played(game.turn, game.dice, action["play"])) \
        if forced or game.turn == robot else None


def _bot_move(ctx: MatchContext, before: LiveMatch, action: Action) -> str:
    """The line of a move the bot plays for a player (forced, or none), else ""."""
    if action["type"] != "move" or before.phase != MOVE or len(before.plays()) != 1:
        return ""
    dice, name = dice_text(before.game.dice), ctx.names[before.game.turn]
    if not action["play"]:
        return ctx.tr("backgammon.live.no_move", name=name, dice=dice)
    return ctx.tr("backgammon.live.forced", name=name, dice=dice, play=action["play"])


def _game_over(ctx: MatchContext, state: LiveMatch) -> str:
    """Who won the game just ended, how and the score (and the Crawford game, if next)."""
    tr, names, game = ctx.tr, ctx.names, state.games[-1]
    outcome = game.outcome
    how = tr(f"backgammon.live.how.{outcome.reason}")
    value = tr(f"backgammon.value.{('single', 'gammon', 'backgammon')[outcome.points_per_cube - 1]}")
    line = tr("backgammon.live.game_won", number=len(state.games), name=names[outcome.winner],
              points=outcome.points, value=value, cube=outcome.cube, how=how,
              a=names[0], b=names[1], sa=state.score[0], sb=state.score[1])
    if state.game.crawford and not state.finished:
        line += "\n" + tr("backgammon.live.crawford_next")
    return line


async def finish(ctx: MatchContext, state: LiveMatch, actor_id: int | None) -> None:
    """The match is over: the result into the tournament, the winner (after what was held
    back: the last game's end) said in the caption of the match's record, which the
    tournament sends heading what it says next (the next matches, the final placings):
    one message (the game's :attr:`~bot.games.Game.records`)."""
    names, winner = ctx.names, state.winner
    said = ctx.tr(f"backgammon.live.match_{state.outcome.how}", winner=names[winner],
                  loser=names[1 - winner], sa=max(state.score), sb=min(state.score))
    held, ctx.held = ctx.held, None
    await record_played(ctx, winner, tuple(state.score), actor_id, said=lines(held, said))


PLAYBOOK = Playbook(explain=explain, announce=announce, finish=finish,
                    clocks=clocks.for_actions, preview=preview)


async def act(ctx: MatchContext, actions: list[Action], actor_id: int | None,
              update_id: int | None, check: Callable[[Any], None] | None = None,
              alongside: Alongside = (), *, logged: Write | None = None,
              in_pause: bool = False, clocks_set: Clocks | None = None,
              said: Sequence[Said] = ()) -> bool:
    """Apply a player's ``actions`` (with the time they spent), then let the bot play its
    part; False when this update was applied before. ``alongside``: said
    with the announcement once accepted (a pressed button answered); ``logged``: written
    with the actions (an organiser's log entry); ``in_pause``: taken while the match is
    paused (an organiser's ``/addtime``); ``clocks_set``: what the actions do to the clocks,
    when not the turn's (:func:`clocks.as_they_stand`); ``said``: said after the board."""
    state = await ctx.services.matches.current(ctx.match)  # read before any await
    seat = ctx.seat(actor_id) if actor_id is not None else None
    spent = await clocks.spent(ctx, state, seat)
    change = await perform(ctx, PLAYBOOK, spent + actions, actor_id=actor_id,
                           update_id=update_id, check=check, alongside=alongside,
                           logged=logged, in_pause=in_pause, clocks=clocks_set,
                           then=partial(advance, ctx), said=said)
    return change is not None


async def advance(ctx: MatchContext) -> None:
    """What the bot does by itself until a player must decide: opening rolls, rolls, forced
    moves; then the board. Each step is taken only where the match still stands where it
    was read, so two at once (an action's own, and the clock that makes the bot act after
    a stop, fired while that action waited) take each step once: the one that took the
    last draws the board."""
    matches = ctx.services.matches
    while True:
        state = await matches.current(ctx.match)
        step = state.steps  # before an await: the state may be the cache's own
        if (action := await automatic(ctx, state)) is None:
            break
        try:
            await perform(ctx, PLAYBOOK, [action], actor_id=None, update_id=None,
                          check=same_step(step))
        except Refusal as refusal:
            if refusal.key == "callback.stale":  # another took the step
                return
            raise
    ctx.held = ctx.unseen = None  # the bot's last move: the board's ↪ line shows it
    earlier, ctx.earlier = ctx.earlier, ()
    # under the lock, and not once an organiser closed the match (a /dq, a result set): that
    # draws its board closed, and this drawing must not come after it
    async with matches.lock(ctx.match.id):
        ctx.match = await ctx.services.repos.matches.get(ctx.match.id)
        # the board reads the cached state before its first await; the clocks were set with
        # the last action
        state = await matches.current(ctx.match)
        if ctx.match.status in LIVE or state.finished:
            await show(ctx, state, earlier=earlier)


async def automatic(ctx: MatchContext, state: LiveMatch) -> Action | None:
    """The bot's own next step, or None when a player must act. ``state`` is read before
    the first await (it may be the cached state itself)."""
    if state.finished or ctx.match.status != "running":
        return None
    game, dice = state.game, ctx.services.rng
    if game.phase == OPENING:
        return {"type": "opening_roll", "dice": [dice.randint(1, 6), dice.randint(1, 6)]}
    phase, turn, may_double = game.phase, game.turn, state.may_double()
    plays = state.plays() if phase == MOVE else ()
    if phase == TURN and (not may_double or turn == await clocks.bot_seat(ctx)):
        return {"type": "roll", "player": turn,
                "dice": [dice.randint(1, 6), dice.randint(1, 6)]}
    if len(plays) == 1:
        return {"type": "move", "player": turn, "play": plays[0].notation}
    return None


def bot_player(state: LiveMatch, seat: int) -> Action | None:
    """The bot's decision in ``/practice`` (``docs/backgammon.md``): double or not before
    its roll, take or pass, the play it picks when there is a choice. Its dice and forced
    moves come from :func:`automatic`, like anyone's."""
    if not isinstance(state, LiveMatch) or state.finished or state.to_act != seat:
        return None
    game = state.game
    if game.phase == TURN and state.may_double() and should_double(game, state.match):
        return {"type": "double", "player": seat}
    if game.phase == DOUBLED:
        answer = "take" if should_take(game, state.match) else "pass"
        return {"type": answer, "player": seat}
    if game.phase == MOVE and len(state.plays()) > 1:
        play = choose_play(game.position, game.dice, random.Random(state.steps))
        return {"type": "move", "player": seat, "play": play.notation}
    return None


async def launch(services: Services, tournament: Tournament, match: MatchRow) -> None:
    """Start the match: the opening roll, the board (the match's one message at its start:
    its caption says how to play until the first move), the first player's clock. Opened
    in a pause, its board says so and the opening roll waits on a clock that /resume
    starts with no time left (:func:`moves_on`): it survives a restart, like every clock."""
    ctx = await start_match(services, tournament, match)
    if ctx.match.status == "paused":
        state = await ctx.services.matches.current(ctx.match)
        await clock.start(ctx, clocks.OPENING_CLOCK, timedelta(0), step=state.steps,
                          seat=state.to_act)
    await advance(ctx)


async def moves_on(services: Services, job: Job) -> None:
    """The clock of the bot's own step (:data:`clocks.ONWARD_CLOCK`: an action was written
    and the bot stopped before it rolled or moved on from it; also a match opened in a
    pause, resumed): its step, the board and the clocks, unless the match moved on (closed
    by an organiser meanwhile, or the step taken)."""
    if (found := await _job_context(services, job)) is None:
        return
    ctx, state = found
    with contextlib.suppress(Refusal):  # paused, or moved on meanwhile
        await bot_moves(ctx, PLAYBOOK, state)
        await advance(ctx)


async def _job_context(services: Services, job: Job) -> tuple[MatchContext, LiveMatch] | None:
    """The match of a clock that still stands where the clock was set, else None."""
    match = await services.repos.matches.get(job.payload["match_id"])
    if match is None or match.status != "running" or match.kind != LIVE_KIND:
        return None
    tournament = await services.repos.tournaments.get(match.tournament_id)
    tr = await services.translator_for_chat(tournament.chat_id)
    ctx = await context_for(services, tr, tournament, match)
    state = await services.matches.state(match)
    return (ctx, state) if _stands(state, job) else None


def _stands(state: LiveMatch, job: Job) -> bool:
    """Whether the match is still at the step and player the clock ``job`` was set for."""
    return state.steps == job.payload.get("step") and state.to_act == job.payload.get("seat")


def same_step(step: int) -> Callable[[LiveMatch], None]:
    """A check for :func:`act`: refused as out of date when the match has moved on from
    ``step`` (a press on an old board, a clock set before)."""
    def check(state: LiveMatch) -> None:
        if state.steps != step:
            raise Refusal("callback.stale")
    return check


async def turn_over(services: Services, job: Job) -> None:
    """Timer and bank both spent: a pending double counts as passed (said with the game's
    end, one message), otherwise the match is lost on time (said with its record)."""
    found = await _job_context(services, job)
    if found is None:
        return
    ctx, state = found
    seat = job.payload["seat"]
    final = {"type": "timeout", "player": seat}
    if state.phase == DOUBLED:
        final = {"type": "pass", "player": seat}
        ctx.held = ctx.tr("backgammon.live.out_of_time_pass", name=ctx.names[seat])
    await _run(ctx, [{"type": "clock", "player": seat, "bank": 0}, final], job)


async def idle_over(services: Services, job: Job) -> None:
    """The tournament's inactivity limit passed: the current game is lost (a pending
    double passed), and the time bank the wait used is spent, as with a resignation (the
    bank is the whole match's); said in one message with the game's end."""
    found = await _job_context(services, job)
    if found is None:
        return
    ctx, state = found
    seat = job.payload["seat"]
    action = {"type": "pass", "player": seat} if state.phase == DOUBLED else \
        {"type": "resign", "player": seat, "idle": True}  # scored as a resignation
    spent = await clocks.spent(ctx, state, seat)  # read before the game ends
    ctx.held = ctx.tr("backgammon.live.idle", name=ctx.names[seat],  # said with the game's end
                      minutes=ctx.tournament.settings.get("idle", 0))
    await _run(ctx, [*spent, action], job)


async def _run(ctx: MatchContext, actions: list[Action], job: Job) -> None:
    with contextlib.suppress(Refusal):  # the match moved on (or was paused) meanwhile
        await perform(ctx, PLAYBOOK, actions, actor_id=None, update_id=None,
                      check=same_step(job.payload["step"]), then=partial(advance, ctx))


async def _remind(ctx: MatchContext, job: Job) -> clock.Alert | None:
    """A minute before the bank runs out: the player is told in the match's place, in one
    message with the reminders of the tournament's matches due with it (started together),
    what to do said once under them."""
    if not _stands(await ctx.services.matches.state(ctx.match), job):
        return None
    return clock.Alert(ctx.tr("backgammon.live.remind", name=ctx.names[job.payload["seat"]],
                              seconds=job.payload.get("left", clocks.REMIND_BEFORE)),
                       ctx.tr("backgammon.live.remind_how"))


remind = clock.timeout(clocks.REMIND_CLOCK, _remind)
JOBS = {clocks.OPENING_CLOCK: moves_on, clocks.ONWARD_CLOCK: moves_on,
        clocks.TURN_CLOCK: turn_over, clocks.REMIND_CLOCK: remind, clocks.IDLE_CLOCK: idle_over}
