"""The board of a backgammon match played in the bot: one photo per match, edited in place
(``editMessageMedia``) after every step, whose caption carries in text the GNU Backgammon
Position ID, the last move played, the dice to play, who is to act, the score and the
clocks; its buttons fit the moment (Roll / Double, Take / Pass, the legal plays or the
point-by-point picker)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial
from typing import NamedTuple

from aiogram.exceptions import TelegramBadRequest
from aiogram.filters.callback_data import CallbackData
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
)

from bot.features.keyboards import keyboard_of, packed, press_button
from bot.play.context import MatchContext
from bot.play.perform import owe_board
from bot.play.refusal import pause_line
from bot.render.backgammon import BoardScene, board_png
from bot.sending import at_once
from games.backgammon.game import DOUBLED, MOVE, OPENING, TURN, Played
from games.backgammon.session import LiveMatch
from games.backgammon.steps import Step, next_steps, play_of
from storage.repositories.matches import MatchRow

log = logging.getLogger(__name__)
PLAY_BUTTONS = 8  # up to this many legal plays are offered as buttons, else the picker
NO_STEPS = "-"


class Press(CallbackData, prefix="bgl"):
    """A press on the board drawn at ``step`` (the match's step count): ``act`` is roll,
    double, take, pass, a play's index (``p3``), a point picked (``s24``), a die for it
    (``d5``), undo or confirm; ``steps`` is the play picked so far (``2403.1301``)."""

    match_id: int
    step: int
    act: str
    steps: str = NO_STEPS


def press_data(match_id: int, step: int, act: str, steps: list[Step]) -> str:
    """A board button's data: ``Press(...).pack()``, without the model."""
    return packed(Press, match_id, step, act, pack_steps(steps))


def pack_steps(steps: list[Step]) -> str:
    return ".".join(f"{source:02d}{die}" for source, die in steps) or NO_STEPS


def unpack_steps(text: str) -> list[Step]:
    if text == NO_STEPS:
        return []
    return [(int(part[:2]), int(part[2:])) for part in text.split(".")]


def dice_text(dice: tuple[int, int]) -> str:
    """``🎲 5-2``: the higher die first, as players say it."""
    return f"🎲 {dice_pair(dice)}"


def dice_pair(dice: Sequence[int]) -> str:
    """``5-2``: the higher die first."""
    return f"{max(dice)}-{min(dice)}"


def clock_text(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def caption(ctx: MatchContext, state: LiveMatch, *, past: bool = False,
            earlier: Sequence[str] = (), now: LiveMatch | None = None) -> str:
    """The board's text: match and score, Position ID, the last move (``earlier``: the
    lines of the moves played since the last board that it follows), dice, who is to act,
    the banks (``past``: a position of ``/position N``, whose banks are not known from its
    moves and whose player is not asked to act; ``now``: the match as it stands, whose end,
    when it was played out, the past position ends with)."""
    above, below = caption_lines(ctx, state, past=past, earlier=earlier, now=now)
    return "\n".join([*above, *below])


def caption_lines(ctx: MatchContext, state: LiveMatch, *, past: bool = False,
                  earlier: Sequence[str] = (), now: LiveMatch | None = None
                  ) -> tuple[list[str], list[str]]:
    """:func:`caption`'s lines in two parts: through who is to act, and the rest (the
    banks), between which a paused match says its pause."""
    tr, names, game = ctx.tr, ctx.names, state.game
    lines = [_header(ctx, state), f"Position ID: {game.position.id}"]
    if game.last_played is not None:
        lines.extend([*earlier, last_played(ctx, game.last_played)])
    elif game.phase == MOVE:  # the game's first move: the opening roll decided it
        lines.append(_opening(ctx, game.turn, game.dice, game.tied_openings))
    lines.append(_status(ctx, state, past, now or state))
    if state.finished or ctx.closed or past:  # who won, or who acts next, is its last line
        return lines, []
    below = [tr("backgammon.live.clocks", a=names[0], b=names[1],
                ta=clock_text(state.banks[0]), tb=clock_text(state.banks[1]))]
    if not state.games and game.moves_played < 2:  # until each player has moved once (in a
        below.append(tr("backgammon.live.how_to_play"))  # practice the bot may move first)
    return lines, below


def board_now(ctx: MatchContext, state: LiveMatch) -> str:
    """The board's header and whose move it is (/match)."""
    return "\n".join([_header(ctx, state), _status(ctx, state, False, state)])


def _header(ctx: MatchContext, state: LiveMatch) -> str:
    """``Match 1: Alice 0 – 0 Bob, to 7 · game 1`` (and the Crawford game's mark, or whose
    the cube is once it was taken: the board says it, no message of its own)."""
    tr, names, game = ctx.tr, ctx.names, state.game
    crawford = tr("backgammon.live.crawford") if game.crawford and not state.finished else ""
    cube = "" if game.cube_owner is None or state.finished else \
        tr("backgammon.live.cube_owned", cube=game.cube, name=names[game.cube_owner])
    return tr("backgammon.live.header", match=ctx.match.id, a=names[0], b=names[1],
              sa=state.score[0], sb=state.score[1], length=state.length,
              number=game_number(state), crawford=crawford, cube=cube)


def _opening(ctx: MatchContext, starter: int, dice: Sequence[int],
             ties: Sequence[int] = ()) -> str:
    """``↪ Opening roll: Alice 5, Bob 2``: the starter rolled the higher die; equal rolls
    before it are told on the same line (``after 6-6``), not in messages of their own."""
    rolled = [min(dice), min(dice)]
    rolled[starter] = max(dice)
    line = ctx.tr("backgammon.live.last_opening", a=ctx.names[0], b=ctx.names[1],
                  da=rolled[0], db=rolled[1])
    if not ties:
        return line
    return ctx.tr("backgammon.live.after_ties", opening=line,
                  ties=", ".join(f"{die}-{die}" for die in ties))


def game_number(state: LiveMatch) -> int:
    """The number of the game on the board: the one in play, or the last one when the
    match is over (ended by its last game, or during one by a timeout or resignation)."""
    return len(state.games) + (0 if state.game.finished else 1)


def last_played(ctx: MatchContext, played: Played) -> str:
    """``↪ Bob 3-1: 8/5 6/5``: what the last move of the game was, so a player who looked
    away (or plays the bot) sees what changed on the board."""
    key = "backgammon.live.last_played" if played.notation else "backgammon.live.last_no_move"
    return ctx.tr(key, name=ctx.names[played.player], dice=dice_pair(played.dice),
                  play=played.notation)


def _status(ctx: MatchContext, state: LiveMatch, past: bool, now: LiveMatch) -> str:
    """Who is to act in ``state``; who won, once the match (``now``) is over."""
    tr, names, game = ctx.tr, ctx.names, state.game
    asks = "backgammon.live.past" if past else "backgammon.live"  # past: no commands
    if now.finished:  # played out, resigned or lost on time: not "closed unplayed"
        return ctx.overruled_line(now.outcome) or tr(
            f"backgammon.live.won_{now.outcome.how}", winner=names[now.winner],
            loser=names[1 - now.winner])
    if ctx.closed:  # a walkover, a result an organiser set
        return ctx.closed_line()
    name = names[game.turn]
    if game.phase == MOVE:
        return tr("backgammon.live.to_play", dice=dice_text(game.dice),
                  name=name)
    if game.phase == DOUBLED:
        return tr(f"{asks}.doubled", name=name, cube=game.cube * 2,
                  other=names[1 - game.turn])
    if game.phase == TURN:
        return tr(f"{asks}.to_roll", name=name)
    return tr("backgammon.live.opening")


def scene(ctx: MatchContext, state: LiveMatch, *, past: bool = False) -> BoardScene:
    game, tr = state.game, ctx.tr
    clocks = None if past else (clock_text(state.banks[0]), clock_text(state.banks[1]))
    over = state.finished or ctx.closed  # nobody is to play
    keys = ("pips", "match_to", *(("crawford",) if game.crawford else ()),
            *(() if over else ("to_play",)))
    words = {key: tr.plain(f"backgammon.live.word.{key}") for key in keys}
    return BoardScene(game.position, ctx.names, game.turn, game.dice, game.cube,
                      game.cube_owner, not (game.crawford or game.dead_cube), state.score,
                      state.length, clocks, words)


def markup(ctx: MatchContext, state: LiveMatch, steps: list[Step] | None = None,
           source: int | None = None) -> InlineKeyboardMarkup | None:
    """The buttons for the moment; ``steps`` and ``source``: the picker's choice so far."""
    game, tr = state.game, ctx.tr

    def button(label: str, act: str, picked: list[Step] | None = None) -> InlineKeyboardButton:
        return press_button(label, press_data(ctx.match.id, state.steps, act, picked or []))

    if state.finished or ctx.closed:
        return None
    if game.phase == TURN and state.may_double():
        return _rows([button(tr("backgammon.live.button.roll"), "roll"),
                      button(tr("backgammon.live.button.double"), "double")])
    if game.phase == DOUBLED:
        return _rows([button(tr("backgammon.live.button.take"), "take"),
                      button(tr("backgammon.live.button.pass"), "pass")])
    if game.phase != MOVE:
        return None
    plays = state.plays()
    if len(plays) <= PLAY_BUTTONS:
        return _rows([button(play.notation, f"p{index}") for index, play in enumerate(plays)],
                     width=2)
    return _picker(tr, state, steps or [], source, button)


def keep_picked(ctx: MatchContext, state: LiveMatch, steps: list[Step],
                source: int | None) -> None:
    """Keep the picker's choice on the board of ``state`` for a board drawn again (/board)."""
    ctx.services.matches.keep_draft(ctx.match.id, (state.steps, steps, source))


def picked(ctx: MatchContext, state: LiveMatch) -> tuple[list[Step], int | None]:
    """The picker's choice kept on the board of ``state`` (:func:`keep_picked`): the steps
    picked and the point picked up; none once any action has followed it."""
    draft = ctx.services.matches.draft(ctx.match.id)
    return (draft[1], draft[2]) if draft is not None and draft[0] == state.steps else ([], None)


def _picker(tr, state: LiveMatch, steps: list[Step], source: int | None, button):
    """Pick a point, then the die to move its checker by; Undo and Confirm below."""
    game = state.game
    options = next_steps(game.position, game.dice, steps)
    if source is None:
        points = sorted({s for s, _ in options}, reverse=True)
        row = [button(_point(tr, s), f"s{s}", steps) for s in points]
    else:
        row = [button(f"{_point(tr, source)}→{_point(tr, max(source - die, 0))}",
                      f"d{source:02d}{die}", steps) for s, die in options if s == source]
    control = []
    if steps or source is not None:
        control.append(button(tr("backgammon.live.button.undo"),
                              "back" if source is not None else "undo", steps))
    if steps and not options and (play := play_of(game.position, game.dice, steps)):
        control.append(button(tr("backgammon.live.button.confirm", play=play.notation),
                              "confirm", steps))
    markup_ = _rows(row, width=6)
    if control:
        markup_.inline_keyboard.append(control)
    return markup_


def _point(tr, point: int) -> str:
    if point == 25:
        return tr.plain("backgammon.live.bar")
    return tr.plain("backgammon.live.off") if point == 0 else str(point)


def _rows(buttons: list[InlineKeyboardButton], width: int = 2) -> InlineKeyboardMarkup:
    return keyboard_of(buttons[i:i + width] for i in range(0, len(buttons), width))


def preview(ctx: MatchContext, state: LiveMatch) -> None:
    """The playbook's preview: start drawing the board of the state an action has just made,
    while the action is written, unless the bot moves on from it at once (see
    :func:`bot_moves_on`). :func:`show` takes the drawing when its board is the same."""
    if state.finished or bot_moves_on(state):
        return
    board = scene(ctx, state)
    ctx.early_picture = (_Early(state, state.steps, board),
                         ctx.services.renderer.begin(board_png, board))


class _Early(NamedTuple):
    """The board :func:`preview` began to draw, and the state (at its step) it shows."""

    state: LiveMatch
    steps: int
    board: BoardScene


def _scene_now(ctx: MatchContext, state: LiveMatch) -> BoardScene:
    """The scene of ``state``: the one :func:`preview` built when it drew this very state at
    this step (the bot played nothing since), not built again; else built now."""
    early = ctx.early_picture
    if early is not None and early[0].state is state and early[0].steps == state.steps:
        return early[0].board
    return scene(ctx, state)


def bot_moves_on(state: LiveMatch) -> bool:
    """Whether the bot moves on from ``state`` by itself, whoever plays: the opening roll, a
    roll no cube decision comes before, a forced move (or a turn with none)."""
    game = state.game
    return (game.phase == OPENING or (game.phase == TURN and not state.may_double())
            or (game.phase == MOVE and len(state.plays()) == 1))


async def _drawing(ctx: MatchContext, board: BoardScene) -> bytes:
    """The picture of ``board``: the one this update started early when it shows the same,
    else drawn now (an early one that no longer fits is dropped)."""
    early, ctx.early_picture = ctx.early_picture, None
    if early is not None:
        if early[0].board == board:
            return await early[1]
        early[1].cancel()  # the worker's answer is still read, and dropped
    return await ctx.services.renderer.picture(board_png, board)


async def show(ctx: MatchContext, state: LiveMatch, *, new: bool = False,
               earlier: Sequence[str] = ()) -> None:
    """Edit the match's board in place (send it when there is none, or ``new``), with the
    ``earlier`` moves above its last one; in a busy group the edit may wait in the board
    queue while the match goes on (:mod:`bot.board_queue`; owed if it then fails).
    Everything is read from ``state`` before the first await, so it may be the match's
    cached state itself; the caption's pause line is read while the worker draws the
    picture (or finishes the drawing :func:`preview` started)."""
    services = ctx.services
    board, keys = _scene_now(ctx, state), markup(ctx, state, *picked(ctx, state))
    above, below = caption_lines(ctx, state, earlier=earlier)
    over = not below  # a match over, or closed, says no pause

    async def words() -> tuple[MatchRow, str]:
        match = await services.repos.matches.get(ctx.match.id)
        pause = "" if over else await pause_line(services, match, ctx.tr)
        return match, "\n".join([*above, *([pause] if pause else []), *below])

    png, (match, text) = await at_once(_drawing(ctx, board), words())
    photo = BufferedInputFile(png, f"backgammon-{match.id}.png")
    chat_id = ctx.tournament.chat_id
    if match.board_message_id is not None and not new:
        edit = partial(services.bot.edit_message_media,
                       InputMediaPhoto(media=photo, caption=text), chat_id=chat_id,
                       message_id=match.board_message_id, reply_markup=keys)
        if services.outbox.queued(chat_id, match.board_message_id, edit,
                                  partial(owe_board, services, match)):
            return  # a busy group: drawn once its window has room (bot.board_queue)
        try:
            await edit()
            return
        except TelegramBadRequest as error:
            log.warning("board of match %s sent again: %s", match.id, error.message)
    sent = await services.bot.send_photo(chat_id, photo, caption=text, reply_markup=keys,
                                         message_thread_id=match.thread_id)
    await services.repos.matches.update(match.id, services.clock.now(),
                                        board_message_id=sent.message_id)
    ctx.match = await services.repos.matches.get(match.id)
    if match.board_message_id is not None:  # once the new one is out: a board to press stays
        await services.outbox.drop_buttons(chat_id, match.board_message_id)
