"""The live board of a match: one message edited in place as the match moves on.

Its message id is kept on the match row. ``new=True`` posts it again at the bottom of the
chat and takes the buttons off the old one, so a press on an old board is refused by the
game (its buttons carry the position they were drawn for). /board does that for the
sender's match, in every game whose match kind has a board (:attr:`~bot.games.Game.boards`).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from aiogram.filters import Command
from aiogram.types import InlineKeyboardMarkup, Message

from bot.features.handlers import Handlers
from bot.games import game_of
from bot.i18n import Translator
from bot.middlewares.scope import Scope
from bot.play import clock, hidden
from bot.play.context import LIVE, MatchContext, context_for, in_its_chat
from bot.play.perform import bot_moves, carry_clocks, draw_chance, owe_board
from bot.play.redraw import redraw_in_place
from bot.play.refusal import GROUP_ONLY, Refusal
from bot.play.topics import other_match_topic
from bot.scheduler import PASSING_FAULTS, retry_delay
from bot.services import Services
from storage.repositories.jobs import Job
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament


async def show_board(ctx: MatchContext, text: str, markup: InlineKeyboardMarkup | None, *,
                     new: bool = False, drop_old: bool = True) -> None:
    """Draw the match's board: in place, or (``new``) as a new message below, the old one's
    buttons taken off once it is out (``drop_old=False``: left, the Cup's earlier messages).
    A busy group's edit in place may wait in the board queue (:mod:`bot.board_queue`); one
    that then fails is owed (:func:`~bot.play.perform.owe_board`)."""
    services = ctx.services
    match = await services.repos.matches.get(ctx.match.id)
    chat_id = ctx.tournament.chat_id
    current = None if new else match.board_message_id
    message_id = await services.outbox.board(chat_id, current, text, markup,
                                             thread_id=match.thread_id, resend=not ctx.closed,
                                             lost=partial(owe_board, services, match))
    if message_id != match.board_message_id:
        await services.repos.matches.update(match.id, services.clock.now(),
                                            board_message_id=message_id)
    ctx.match = await services.repos.matches.get(match.id)
    if new and drop_old and match.board_message_id not in (None, message_id):  # once out:
        await services.outbox.drop_buttons(chat_id, match.board_message_id)  # a board to press


async def retire_board(services: Services, tournament: Tournament, match: MatchRow, *,
                       corrected: bool = False) -> None:
    """Show on its board that ``match`` (as it was before) was closed outside its play — a
    walkover, a result an organiser set, a friendly's resignation — so nobody goes on
    pressing it: the game's own drawing of its board (:attr:`~bot.games.Game.settled_boards`),
    else its buttons taken off; the players' private panels (a hand, a choice) say who won,
    without buttons. ``corrected``: an organiser's new result for a match already closed,
    whose board and panels must name the new winner."""
    if match.status not in LIVE and not corrected:
        return
    redraw = game_of(tournament.game).settled_boards.get(match.kind)
    async with services.matches.lock(match.id):  # after an action under way, if any
        services.matches.forget(match.id)  # read again as closed: among the finished ones
    tr = await services.translator_for_chat(tournament.chat_id)
    ctx = await context_for(services, tr, tournament, await services.repos.matches.get(match.id))
    if corrected and redraw and await _shown_as_before(ctx, match):
        return
    if match.board_message_id is not None:
        await (redraw(ctx, await services.matches.state(ctx.match)) if redraw else
               services.outbox.drop_buttons(tournament.chat_id, match.board_message_id))
    await hidden.redraw_panels(ctx)  # ctx: the match as closed, its winner known


async def closed_boards(services: Services, closed: list[MatchRow],
                        noted: list[int]) -> list[MatchRow]:
    """The boards a job that closes matches owes to :func:`retire_board`: those it closed
    that were live, and, run again after a stop, those it ``noted`` before closing them
    and closed then (none of them is found open now), as they were."""
    live = [row for row in closed if row.status in LIVE]
    found = {row.id for row in live}
    return live + [replace(await services.repos.matches.get(row_id), status="running")
                   for row_id in noted if row_id not in found]  # as they were


async def _shown_as_before(ctx: MatchContext, before: MatchRow) -> bool:
    """Whether a corrected match's board (drawn by its game) and panels end as they did with its row
    ``before`` the correction (a score its closed board does not give): nothing to redraw."""
    outcome = (await ctx.services.matches.state(ctx.match)).outcome
    return replace(ctx, match=before).settled_line(outcome) == ctx.settled_line(outcome)


async def redraw_paused(services: Services, tournament: Tournament) -> None:
    """Once ``tournament`` is paused or resumed: each live board that says its match is
    paused (:attr:`~bot.games.Game.paused_boards`) redrawn in place, the pause said or gone,
    and the players' private panels (:func:`~bot.play.hidden.redraw_live`)."""
    drawers = game_of(tournament.game).paused_boards
    tr = await services.translator_for_chat(tournament.chat_id)
    for match in await services.repos.matches.for_tournament(tournament.id):
        draw = drawers.get(match.kind)
        if draw is None or match.status not in LIVE or match.board_message_id is None:
            continue
        async with services.matches.lock(match.id):  # after an action under way, if any
            ctx = await context_for(services, tr, tournament,
                                    await services.repos.matches.get(match.id))
            if ctx.match.status in LIVE:
                await draw(ctx, await services.matches.state(ctx.match))
    await hidden.redraw_live(services, tournament)


async def shown_again(services: Services, update_id: int, sender: int | None = None) -> bool:
    """Update ``update_id``, claimed by a match's action before this process started, is
    delivered again: Telegram had not been told it was handled, so the process that wrote
    the action may have stopped before showing it. The match's board and its players'
    panels are drawn again in place, as the match now stands (nothing new is posted but
    what the action was the first to show, :func:`drawn_again`; an ending's result is the
    start-up's, :data:`~bot.match_service.RESULT_OWED`), and the bot makes its move in a
    match it plays when it is its turn (the stopped process may have died before it).
    ``sender``: the user who sent the update in their private chat with the bot, who can
    be written to now, whatever their panel's last send met. Whether ``update_id`` was a
    match's action."""
    match_id = await services.repos.matches.of_update(update_id)
    if match_id is not None:
        await drawn_again(services, match_id, reached=sender)
    return match_id is not None


async def result_owed(services: Services, job: Job) -> None:
    """:data:`~bot.match_service.RESULT_OWED`, found pending at start-up (the process
    stopped after the action that ended a match's play, before its result went into the
    tournament) or run after a finish that failed. The game's ``finish`` runs now, unless
    the match left the live ones since (its result recorded); a match whose play goes on
    (taken back by an organiser's undo, or dealt again by a finish that failed before the
    new deal was shown) has its board and panels drawn again in place instead, its
    players' new hands with them (:func:`drawn_again`)."""
    match = await services.repos.matches.get(job.payload["match_id"])
    if match is None or match.status not in LIVE:
        return
    ctx = await in_its_chat(services, match)
    async with services.matches.lock(match.id):
        state = await services.matches.current(match)
    if state.finished:
        await game_of(ctx.tournament.game).playbook.finish(ctx, state,
                                                          job.payload.get("actor_id"))
    else:
        await drawn_again(services, match.id)


async def board_owed(services: Services, job: Job) -> None:
    """:data:`~bot.play.perform.BOARD_OWED`: an action's announcement did not reach
    Telegram (out of reach through the sending layer's retries), so the match's board and
    panels still show the position before it, and a press on them is refused as old: they
    are drawn again in place as the match now stands (retried as any job while Telegram
    stays out of reach; its clocks are held until the next try, as the first minute held
    them: nobody sees the position meanwhile)."""
    match = await services.repos.matches.get(job.payload["match_id"])
    if match is None or match.status not in LIVE:
        return
    try:
        await drawn_again(services, match.id)
    except PASSING_FAULTS:
        if (wait := retry_delay(job)) is not None:
            await clock.held(services, match.id, wait.total_seconds())
        raise


async def drawn_again(services: Services, match_id: int, *, reached: int | None = None
                      ) -> None:
    """The board and panels of match ``match_id`` drawn again in place as it now stands,
    and the bot's move made where it plays and it is its turn (see :func:`shown_again`).
    A live match none was shown of gets its first board posted (a Cup match's first roll
    posts it); a closed one does not: one closed before anyone played (an organiser's
    ``/setresult``) is told of by its closing alone, as when nothing stopped. ``reached``:
    a player the bot can write to now (:func:`hidden.redraw_panels`)."""
    async with services.matches.lock(match_id):  # after the match's action under way
        ctx = await in_its_chat(services, await services.repos.matches.get(match_id))
        if ctx.match.kind not in game_of(ctx.tournament.game).engines:
            return  # a report (played away): what it owes to say is a job's, held with it
        await _drawn_as_owed(ctx)
        await redraw_in_place(ctx, owed=ctx.match.status in LIVE)
        await hidden.redraw_panels(ctx, missing=True, reached=reached)
        state = await services.matches.current(ctx.match)
    game = game_of(ctx.tournament.game)
    if game.playbook is not None and ctx.match.status == "running":  # the bot's own move
        await bot_moves(ctx, game.playbook, state)  # (/practice), if it never made it


async def _drawn_as_owed(ctx: MatchContext) -> None:
    """The bot's random draws a live match waits for (:func:`draw_chance`: a new deck
    shuffled once an action emptied the draw pile), made now: the process that wrote the
    action stopped before them, and the match stood at a draw nobody makes (the armchair
    card asked for the toss). The late clock of whoever they leave awaited is set, as
    with the action; the result they may bring is the held job's, run after."""
    playbook = game_of(ctx.tournament.game).playbook
    if playbook is None or ctx.match.status not in LIVE:
        return
    if (drawn := await draw_chance(ctx, playbook)) is None:
        return
    if drawn.owed is not None:
        ctx.services.scheduler.follow(drawn.owed)
    clocks = None if playbook.clocks is None else await playbook.clocks(ctx)
    await carry_clocks(ctx, clocks, drawn.after)


router = Handlers("play-board")


@router.message(Command("board"))
async def board_again(message: Message, scope: Scope, services: Services,
                      tr: Translator) -> None:
    """Post the sender's match board again at the bottom of the chat (a busy group has
    scrolled it away): each of their boards when they play in two tournaments here (in a
    match's topic: that match's alone); an organiser outside every match gets the topic's
    board, else the chat's only live board."""
    if not scope.in_group:
        raise Refusal(GROUP_ONLY)
    mine = await scope.live_matches()
    if len(mine) > 1:
        mine = [match for match in mine if await _has_board(services, match)] or mine[:1]
    matches = mine or [match for match in [await _only_board(services, scope)] if match]
    if not matches:
        if answer := await other_match_topic(scope, tr):
            raise Refusal(text=answer)
        target = await scope.target()
        raise Refusal(target.error or "play.not_in_match", **(target.error_params or {}))
    moved = [match for match in matches if await _post_again(message, services, tr, match)]
    if moved:  # said once, however many boards went to their matches' topics
        await message.reply(tr("play.board_in_topic" if len(moved) == 1
                               else "play.boards_in_topics"))


async def _has_board(services: Services, match: MatchRow) -> bool:
    tournament = await services.repos.tournaments.get(match.tournament_id)
    return match.kind in game_of(tournament.game).boards


async def _post_again(message: Message, services: Services, tr: Translator,
                      match: MatchRow) -> bool:
    """Draw ``match``'s board anew; whether it went to a topic other than the message's."""
    tournament = await services.repos.tournaments.get(match.tournament_id)
    game = game_of(tournament.game)
    draw = game.boards.get(match.kind)
    if draw is None and match.kind not in game.engines:  # played away, its result reported
        raise Refusal("play.board_reported", match=match.id)
    if draw is None:
        raise Refusal("play.not_for_game", command="board", game=tr(f"game.{game.key}"))
    async with services.matches.lock(match.id):  # no action redraws it meanwhile
        ctx = await context_for(services, tr, tournament,
                                await services.repos.matches.get(match.id))
        if ctx.match.status not in LIVE:  # it ended while this update waited for the lock
            raise Refusal("play.not_in_match")
        await draw(ctx, await services.matches.state(ctx.match))
    return bool(ctx.match.thread_id) and message.message_thread_id != ctx.match.thread_id


async def _only_board(services: Services, scope: Scope) -> MatchRow | None:
    """For an organiser, the live match of the topic the command was sent in, else the
    chat's one live match that has a board (refused with several: whose would it be?);
    None for anyone else."""
    if not await scope.organiser():
        return None
    if (topic := await scope.topic_match()) is not None:
        return topic if topic.status in LIVE and await _has_board(services, topic) else None
    live = [match for tournament in await services.repos.tournaments.active_in_chat(
                scope.chat.id) if tournament.status in LIVE
            for match in await services.repos.matches.for_tournament(tournament.id)
            if match.status in LIVE and match.kind in game_of(tournament.game).boards]
    if len(live) > 1:
        raise Refusal("play.board_several", count=len(live))
    return live[0] if live else None
