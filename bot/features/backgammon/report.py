"""Players report and check games: the winner reports each game with the card's buttons or
``/game gammon cube 2``; the loser answers Confirm / Dispute (or /confirm, /dispute); the
final score may come in one step, ``/result 5:3``. An organiser settles a disputed or wrong
entry with ``/game @winner single cube 2 reason`` (logged)."""

from __future__ import annotations

from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message, Update

from bot.features.backgammon.card import (
    BACK,
    NO_CHOICE,
    Answer,
    Form,
    form_fits,
    game_words,
)
from bot.features.backgammon.play import (
    act,
    decision,
    load,
    organiser_only,
    sender_match,
    show_card,
)
from bot.features.backgammon.settings import GAME
from bot.features.backgammon.words import parse_game, typed_game
from bot.features.formats.common import parse_claim
from bot.features.handlers import Handlers
from bot.i18n import Translator
from bot.middlewares.filters import IN_GROUP
from bot.middlewares.scope import Scope
from bot.play.context import MatchContext, handles_of
from bot.play.perform import Alongside, board_owed_after_faults
from bot.play.refusal import Refusal
from bot.play.said import Said
from bot.play.topics import named_player_match
from bot.sending import at_once
from bot.services import Services
from games.backgammon.protocol import BoardMatch

router = Handlers("backgammon-report")


@router.message(Command("game"), IN_GROUP)
async def game_command(message: Message, command: CommandObject, scope: Scope,
                       services: Services, tr: Translator, event_update: Update) -> None:
    words = (command.args or "").split()
    if words and words[0].startswith("@"):
        await _settle(message, words, scope, tr, event_update.update_id)
        return
    parsed = parse_game(words)
    if parsed is None or parsed[1]:
        raise Refusal("backgammon.game_usage")
    ctx = await sender_match(scope, tr)
    seat = ctx.seat(message.from_user.id)
    await act(ctx, [{"type": "report", "player": seat, "winner": seat, **parsed[0]}],
              message.from_user.id, event_update.update_id)


async def _settle(message: Message, words: list[str], scope: Scope, tr: Translator,
                  update_id: int) -> None:
    """``/game @winner single cube 2 reason``: an organiser settles the waiting report or
    replaces the last confirmed game; logged with the reason."""
    services = scope.services
    user, match = await named_player_match(scope, tr, words[0], GAME)
    if match is None:  # a match that is over is corrected as the tournament's result
        raise Refusal("backgammon.error.none_to_settle", name=words[0])
    ctx = await load(services, tr, match.id)
    await organiser_only(ctx, message.from_user.id)
    parsed = parse_game(words[1:])
    if parsed is None:
        raise Refusal("backgammon.settle_usage")
    game, rest = parsed
    if not rest:
        raise Refusal("formats.error.reason_required")
    action = {"type": "correct", "winner": ctx.seat(user.id), **game}
    before = await services.matches.state(ctx.match)
    logged = decision(ctx, message.from_user.id, "correct", " ".join(rest), entry=action)
    words = dict(name=ctx.names[action["winner"]], game=game_words(tr, game),
                 reason=" ".join(rest))
    if before.pending is None and before.entries:  # the last confirmed game is replaced
        last = before.entries[-1]
        text = tr("backgammon.replaced_game", number=before.game_number - 1,
                  was=f"{ctx.names[last['winner']]} — {game_words(tr, last)}", **words)
    else:  # (with nothing to replace the engine refuses it)
        text = tr("backgammon.settled", **words)
    await act(ctx, [action], message.from_user.id, update_id, logged=logged,
              said=[Said.in_match(ctx, text)])


@router.callback_query(Form.filter())
async def form_button(query: CallbackQuery, callback_data: Form, services: Services,
                      tr: Translator, event_update: Update) -> None:
    """A report form is built on the match card itself (no message of its own: a double
    press posts nothing twice, and the group is spared a message a game): each press picks
    one thing, the last one sends the report, ↩️ Back (either player) gives the card its own
    buttons again. A form is its player's (the card's first press makes it theirs) and its
    game's: a press by the opponent, or on a form of a game already reported, is refused."""
    ctx = await load(services, tr, callback_data.match_id)
    seat = ctx.seat(query.from_user.id)
    if seat is None:
        raise Refusal("backgammon.error.not_in_match")
    state = await services.matches.state(ctx.match)
    if not form_fits(callback_data, state):
        raise Refusal("callback.stale")
    if callback_data.how == BACK:
        services.matches.keep_draft(ctx.match.id, None)
        await at_once(_form_shown(ctx, state), query.answer())
        return
    if callback_data.seat not in (-1, seat):
        raise Refusal("backgammon.error.not_your_form", name=ctx.names[callback_data.seat])
    form = callback_data.model_copy(update={"seat": seat})
    if form.how == NO_CHOICE:
        if form.cube == 0 and state.no_cube:  # the Crawford game, a 1-point match: nothing to ask
            form = form.model_copy(update={"cube": 1})
        services.matches.keep_draft(ctx.match.id, form)  # redrawn, the card keeps it
        await at_once(_form_shown(ctx, state), query.answer())
        return
    game = {"value": form.value, "cube": form.cube, "how": form.how}
    await act(ctx, [{"type": "report", "player": seat, "winner": seat, **game}],
              query.from_user.id, event_update.update_id, alongside=[query.answer])


async def _form_shown(ctx: MatchContext, state: BoardMatch) -> None:
    """The card drawn with the form's step kept: should Telegram be out of reach, it is
    drawn a minute later, the step with it (the player pressed it, and it is kept)."""
    async with board_owed_after_faults(ctx.services, ctx.match):
        await show_card(ctx, state)


@router.callback_query(Answer.filter())
async def answer_button(query: CallbackQuery, callback_data: Answer, services: Services,
                        tr: Translator, event_update: Update) -> None:
    ctx = await load(services, tr, callback_data.match_id)
    kind = "confirm" if callback_data.agree else "dispute"
    await _answer(ctx, kind, query.from_user.id, event_update.update_id,
                  alongside=[query.answer])


@router.message(Command("confirm", "dispute"), IN_GROUP)
async def answer_command(message: Message, command: CommandObject, scope: Scope,
                         tr: Translator, event_update: Update) -> None:
    ctx = await sender_match(scope, tr)
    await _answer(ctx, command.command.lower(), message.from_user.id, event_update.update_id)


async def _answer(ctx: MatchContext, kind: str, user_id: int, update_id: int,
                  alongside: Alongside = ()) -> None:
    """The opponent confirms or disputes the reported game (``alongside``: as :func:`act`'s);
    a dispute tells the organisers how to settle it."""
    said = []
    if kind == "dispute" and (state := await ctx.services.matches.state(ctx.match)).pending:
        said.append(Said.in_match(ctx, ctx.tr(
            "backgammon.disputed", a=ctx.names[0], b=ctx.names[1],
            hint=await _settle_hint(ctx, state))))
    await act(ctx, [{"type": kind, "player": ctx.seat(user_id)}], user_id, update_id,
              alongside=alongside, said=said)


async def _settle_hint(ctx: MatchContext, state: BoardMatch) -> str:
    """The organisers' command that settles it: /game for a game, /setresult for a final
    score, with the claim filled in."""
    handle = await handles_of(ctx.services, ctx.tournament.id)
    pending, users = state.pending, ctx.match.players
    if "final" in pending:
        score = pending["final"]
        return f"/setresult {handle[users[0]]} {handle[users[1]]} {score[0]}:{score[1]}"
    return f"/game {handle[users[pending['winner']]]} {typed_game(ctx.tr.language, pending)}"


@router.message(Command("result"), IN_GROUP)
async def result_command(message: Message, command: CommandObject, scope: Scope,
                         services: Services, tr: Translator, event_update: Update) -> None:
    """The final score in one step (the sender's first), checked by the opponent: the
    opponent's own /result answers a waiting one, confirming the same score and disputing
    another."""
    ctx = await sender_match(scope, tr)
    claim = parse_claim(command.args)
    if claim is not None and claim.outcome == "draw":
        raise Refusal("formats.error.no_draws")
    if claim is None or claim.score is None:
        raise Refusal("backgammon.result_usage")
    seat = ctx.seat(message.from_user.id)
    score = list(claim.score) if seat == 0 else [claim.score[1], claim.score[0]]
    waiting = (await services.matches.current(ctx.match)).pending
    if waiting is not None and "final" in waiting and waiting["player"] != seat:
        await _answer(ctx, "confirm" if waiting["final"] == score else "dispute",
                      message.from_user.id, event_update.update_id)
        return
    await act(ctx, [{"type": "final", "player": seat, "score": score}], message.from_user.id,
              event_update.update_id)
