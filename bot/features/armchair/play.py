"""One armchair match in the chat (``docs/armchair.md``): the launch (the deal, the score
card with the toss button, each hand in its DM), what the group is told after every action
(the delivery, the innings' end, a new deck), and the end of the match — its result into the
tournament, or, where a bracket needs a winner, the same match dealt again."""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot import games
from bot.features.armchair.hand import HAND, LATE_MINUTES, OPENING
from bot.features.armchair.keyboards import BatFirst, Toss
from bot.features.armchair.settings import replay_of
from bot.features.armchair.texts import card, innings_over, last_ball_line, result_line, score_card
from bot.features.formats.results import record_played
from bot.features.keyboards import keyboard_of, link_keyboard, packed, press_button, stacked
from bot.i18n import Translator, lines
from bot.match_service import Change, Clocks
from bot.play import clock, hidden
from bot.play.board import show_board
from bot.play.context import MatchContext, handles_of, own_text
from bot.play.launch import start_match
from bot.play.perform import Playbook, draw_chance, error_params
from bot.sending import at_once
from bot.services import Services
from games.armchair_cricket import chance_action
from games.armchair_cricket.contract import ArmchairGame
from games.armchair_cricket.state import ArmchairState
from games.common.errors import IllegalAction
from storage.repositories.jobs import Job
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament

LATE = "armchair_late"  # the clock of the move a player owes


def explain(tr: Translator, error: IllegalAction, match: MatchRow | None = None) -> str:
    key = f"armchair.error.{error.code}"
    if not tr.has(key):
        return tr("armchair.error.other", code=error.code)
    params = error_params(error)
    if "whose" in params and tr.has(f"{key}_of"):  # an organiser's /enter: of the player
        key = f"{key}_of"
    if error.code == "wrong_phase":
        params["now"] = tr(f"armchair.phase_{params.get('phase', 'bowl')}")
    if "card" in params:  # named in the engine's notation (BALL 5): say it as the hands do
        params["card"] = card(tr, params["card"])
    return tr(key, **params)


def chance(game: ArmchairGame, rng) -> dict[str, Any] | None:
    """The shuffle the match waits for (the deal, a new deck), drawn by the bot. The toss is
    not drawn here: a player asks for it with the score card's 🪙."""
    turn = game.to_act
    if turn is None or turn.seat is not None or turn.kind != "shuffle":
        return None
    return chance_action(game.state, rng)


async def launch(services: Services, tournament: Tournament, match: MatchRow) -> None:
    """Deal, post the score card (🪙 for the toss, and the link to each player's hand: the
    match's one group message at its start) and each player's hand in their DM."""
    ctx = await start_match(services, tournament, match)
    await _deal(ctx)
    await _open(ctx)


async def _open(ctx: MatchContext) -> None:
    """A new deal's score card and both hands; a player the bot cannot write to is asked on
    the card (its 🃏 button opens the private chat) to open the chat, instead of in one more
    group message (:func:`hidden.opened_with_panels`)."""
    async with ctx.services.matches.lock(ctx.match.id):
        game = await ctx.services.matches.state(ctx.match)
        await hidden.opened_with_panels(ctx, partial(refresh_panels, ctx, fresh=True,
                                                     tell=False), partial(show_card, ctx, game))


async def _deal(ctx: MatchContext) -> None:
    """The deal a new match (or a replay) waits for, and the late clock of its toss."""
    services = ctx.services
    async with services.matches.lock(ctx.match.id):
        await draw_chance(ctx, PLAYBOOK)
        late = await clocks(ctx)
        await clock.carry(ctx, late(await services.matches.current(ctx.match)))


async def show_card(ctx: MatchContext, game: ArmchairGame, *, new: bool = False,
                    note: str | None = None) -> None:
    """The match's one score card in the group, edited in place (``note``: what the action
    just taken adds, see :func:`_card_note`); while the match is played, it asks the players
    the bot has not been able to write to since their hand failed to reach them to open
    the private chat."""
    last = ctx.overruled_line(game.outcome) if game.finished else \
        ctx.closed_line() if ctx.closed else None
    if (replay := replay_of(ctx, game)) is not None:
        last = result_line(ctx.tr, ctx.names, game, replay)
    unreached = [] if last else await hidden.still_unreached(ctx)
    if unreached:
        note = lines(note, hidden.unreached_line(ctx, unreached))
    tossing = not game.finished and (turn := game.to_act) is not None and turn.seat is None
    await show_board(ctx, score_card(ctx.tr, ctx.match.id, ctx.names, game, last, note,
                                     bot_seat=await _bot_seat(ctx) if tossing else None),
                     None if last else _card_buttons(ctx, game, asking=bool(unreached)),
                     new=new)


def _card_buttons(ctx: MatchContext, game: ArmchairGame, *, asking: bool
                  ) -> InlineKeyboardMarkup | None:
    """The buttons of the move the card waits for; while it ``asks`` a player to open the
    private chat, also the button that opens it (the toss's 🃏 opens it already)."""
    buttons = _turn_buttons(ctx, game)
    if not asking or (game.to_act is not None and game.to_act.kind == "toss"):
        return buttons
    return stacked(buttons, link_keyboard(ctx.tr("dm.open_button"),
                                          ctx.services.deep_link(f"m-{ctx.match.id}")))


def _turn_buttons(ctx: MatchContext, game: ArmchairGame) -> InlineKeyboardMarkup | None:
    turn, tr, at, match_id = game.to_act, ctx.tr, game.position, ctx.match.id
    if turn is not None and turn.kind == "toss":
        return keyboard_of([[
            press_button(tr("armchair.toss_button"), packed(Toss, match_id, at)),
            InlineKeyboardButton(text=tr("armchair.open_hand"),
                                 url=ctx.services.deep_link(f"m-{match_id}"))]])
    if turn is not None and turn.kind == "choose":
        name = ctx.names[turn.seat]
        return keyboard_of([[
            press_button(tr("armchair.bat_button", name=name), packed(BatFirst, match_id, at, 1)),
            press_button(tr("armchair.bowl_button", name=name),
                         packed(BatFirst, match_id, at, 0))]])
    return None


async def _bot_seat(ctx: MatchContext) -> int | None:
    return ctx.seat((await ctx.services.bot.me()).id)


async def refresh_panels(ctx: MatchContext, *, fresh: bool = False,
                         tell: bool = True) -> list[int]:
    """Every human player's hand panel, edited in place (``fresh``: sent anew); the seats
    the bot cannot write to (``tell``: the group is told, see :func:`hidden.show`). A player
    the bot could not write to yet is not tried again on every move: the group was told
    how to open the chat, and /hand or the deep link brings the hand."""
    robot = await _bot_seat(ctx)
    stored = hidden.panels(ctx.services)
    seats = [seat for seat in (0, 1) if seat != robot and (
        fresh or await stored.get(ctx.match.id, ctx.match.players[seat]) is not None)]
    return await hidden.show(ctx, *seats, fresh=fresh, tell=tell)


async def announce(ctx: MatchContext, change: Change, actions: list[dict]) -> None:
    """Tell the group what happened, redraw the score card and both hands — unless the bot
    answers at once (``/practice``): its move redraws them, so a move and its answer edit
    the card once, not twice. The card waits, too, while a delivery or the discards are
    half played (:func:`halfway`), but for the bot's answer: the move before it drew no
    card (a player batting against the bot had the card wait for the bot's ball, and then
    for the pair it starts, so it stood still for the whole innings)."""
    before, after = change.before, change.after
    lines = [] if after.finished else _news(ctx, before, after)  # finish says them
    note = _card_note(ctx, before, after, actions)
    robot = await _bot_seat(ctx)
    redraw = not _bot_answers(ctx, after, robot)
    answer = robot is not None and before.to_act is not None and before.to_act.seat == robot
    card = redraw and (note is not None or answer or not halfway(after))

    async def group() -> None:
        if lines:
            await ctx.say("\n".join(lines))
        if card:
            await show_card(ctx, after, note=note)

    await at_once(group(), *([refresh_panels(ctx)] if redraw else []))


def halfway(game: ArmchairGame) -> bool:
    """Whether a pair of moves is half played: the bowler has bowled and the batter is to
    answer, or the bowler has discarded and the batter is to. The score card names both
    players for the pair (``texts.turn_line``) and is edited once the pair is complete:
    Telegram counts an edit against a group's 20 messages a minute, shared by every match
    playing there, and a match plays some 600 cards, each of which edited the card."""
    turn = game.to_act
    return turn is not None and (turn.kind == "bat" or
                                 turn.kind == "discard" and turn.seat == game.state.batter)


def _bot_answers(ctx: MatchContext, game: ArmchairGame, robot: int | None) -> bool:
    """Whether the bot (at seat ``robot``, if it plays) plays the next move itself, right
    after this one."""
    return robot is not None and not game.finished and \
        games.game_of(ctx.tournament.game).bot_player(game, robot) is not None




async def clocks(ctx: MatchContext) -> Clocks:
    """The late clock of whoever must act next (a card from a human's hand, the toss, the
    toss winner's choice), set with each action; none while the bot or nobody is awaited."""
    return partial(_late_clock, await _bot_seat(ctx))


def _late_clock(robot: int | None, game: ArmchairGame) -> clock.Onward:
    turn = game.to_act
    if game.finished or turn is None or (turn.seat is not None and turn.seat == robot) \
            or (turn.kind not in HAND.types and turn.kind not in OPENING) \
            or (turn.seat is None and turn.kind != "toss"):
        return clock.Onward((LATE,))
    seat = -1 if turn.seat is None else turn.seat  # the toss: either player presses it
    return clock.Onward((LATE,), start=((LATE, timedelta(minutes=LATE_MINUTES),
                                         {"seat": seat, "kind": turn.kind}),))


def _news(ctx: MatchContext, before: ArmchairGame, after: ArmchairGame) -> list[str]:
    """What the group is told in a message of its own: an innings' end, with the ball that
    ended it and who bats next. Everything else shows on the score card, edited in place
    (:func:`_card_note`): every new group message spends the group's budget of about 20 a
    minute, shared by all its matches."""
    tr, names, old, new = ctx.tr, ctx.names, before.state, after.state
    ended = [innings_over(tr, names, after, innings) for innings in new.innings
             if innings.closed and not _was_closed(old, innings.number)]
    if ended and new.last is not None and new.last != old.last:
        return [last_ball_line(tr, names, after), *ended]
    return ended


def _card_note(ctx: MatchContext, before: ArmchairGame, after: ArmchairGame,
               actions: list[dict]) -> str | None:
    """What the score card adds until the next action: an exchange after a wicket (how many
    cards, never which) and a new deck."""
    tr, names, old, new = ctx.tr, ctx.names, before.state, after.state
    notes = []
    for action in actions:
        if action.get("type") == "exchange":
            count = len(action["cards"])
            notes.append(tr("armchair.exchanged", name=names[action["player"]], count=count)
                         if count else tr("armchair.kept", name=names[action["player"]]))
    if new.deck > old.deck:
        notes.append(tr("armchair.new_deck", deck=new.deck, limit=new.settings.deck_limit))
    return "\n".join(notes) or None


def _last_news(ctx: MatchContext, game: ArmchairGame) -> list[str]:
    """What ended the match, said with its result in one message (as darts says its last
    leg): the last ball, unless a declaration ended it, and the innings it closed."""
    state, tr, names = game.state, ctx.tr, ctx.names
    closing = state.innings[-1] if state.innings else None
    lines = []
    if state.last is not None and not (closing is not None and closing.declared):
        lines.append(last_ball_line(tr, names, game))
    if closing is not None and closing.closed:
        lines.append(innings_over(tr, names, game, closing))
    return lines


def _was_closed(state: ArmchairState, number: int) -> bool:
    return number <= len(state.innings) and state.innings[number - 1].closed


async def finish(ctx: MatchContext, game: ArmchairGame, actor_id: int | None) -> None:
    """A tie or a draw where the format needs a winner is dealt again (said at once, in
    one message: the result and the replay); any other result goes into the tournament,
    which says it with what it makes: the next matches, the final placings (the late clock
    stopped with the last action)."""
    outcome, replay = game.outcome, replay_of(ctx, game)
    result = result_line(ctx.tr, ctx.names, game, replay)
    if replay is not None:
        await ctx.say(lines(*_last_news(ctx, game), result))
        await deal_again(ctx)
        return
    said = lines(*_last_news(ctx, game), ctx.tr("armchair.match_over", match=ctx.match.id,
                                                  line=result))
    await record_played(ctx, outcome.winner, tuple(outcome.score), actor_id,
                        tie=outcome.result == "tie", said=said)


async def deal_again(ctx: MatchContext) -> None:
    """The match starts over with a new deal; the played one stays in the log."""
    services = ctx.services
    await services.matches.rewind(ctx.match, 0, None)
    await _deal(ctx)
    await _open(ctx)


async def _late(ctx: MatchContext, job: Job) -> clock.Alert | None:
    """The player to move is late: remind them by DM and alert the organisers in the group
    (a friendly has none: not there) — or, when the bot cannot write to them (never started,
    blocked), tell the group how to open the bot's chat, with the alert in that message.
    The match waits."""
    seat = job.payload["seat"]
    if job.payload.get("kind") in OPENING:  # waited for on the score card, in the group
        return _opening_late(ctx, seat, await _bot_seat(ctx))
    user_id, kind, outbox = ctx.match.players[seat], ctx.match.kind, ctx.services.outbox
    user_tr = await ctx.services.translator_for_chat(user_id)
    reached = await outbox.dm(user_id, own_text(user_tr, "play.hidden_reminder", kind,
                                                match=ctx.match.id, round=""))
    alert = None
    if not ctx.tournament.friendly:  # a ready /enter: the late player's @username
        handle = (await handles_of(ctx.services, ctx.tournament.id))[user_id]
        alert = own_text(ctx.tr, "play.hidden_late", kind, name=ctx.names[seat],
                         minutes=LATE_MINUTES, match=ctx.match.id, handle=handle)
    if reached is not None:
        return None if alert is None else clock.Alert(alert)
    await outbox.open_chat_notice(  # one group message: how to open the chat, and the alert
        ctx.tournament.chat_id, lines(own_text(ctx.tr, "play.hidden_cannot_dm", kind,
                                               name=ctx.names[seat], match=ctx.match.id), alert),
        button_text=ctx.tr("dm.open_button"), payload=f"m-{ctx.match.id}",
        thread_id=ctx.match.thread_id)
    return None


def _opening_late(ctx: MatchContext, seat: int, robot: int | None) -> clock.Alert:
    """The toss (``seat`` -1: either player; against the bot, in the ``robot`` seat, the
    other) or the toss winner's choice is late."""
    if seat < 0:
        how = ctx.tr("armchair.late_toss_how") if robot is None else \
            ctx.tr("armchair.late_toss_how_against_bot", name=ctx.names[1 - robot])
        return clock.Alert(ctx.tr("armchair.late_toss", a=ctx.names[0], b=ctx.names[1],
                                  match=ctx.match.id, minutes=LATE_MINUTES), how)
    said = ctx.tr("armchair.late_choice", name=ctx.names[seat], match=ctx.match.id,
                  minutes=LATE_MINUTES)
    return clock.Alert(said, None if ctx.tournament.friendly
                       else ctx.tr("armchair.late_choice_organisers"))


late_clock = clock.timeout(LATE, _late)
"""The runner of the late clock (the game's ``jobs``)."""

PLAYBOOK = Playbook(explain=explain, announce=announce, finish=finish, chance=chance,
                    clocks=clocks)
