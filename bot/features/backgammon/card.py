"""The match card: one message per match, edited in place after every step — the games, the
running score, the report waiting to be checked, the Crawford game, penalties and breaks —
with the buttons that fit the moment."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.features.backgammon.settings import breaks
from bot.i18n import Translator
from bot.play.context import LIVE, MatchContext
from games.backgammon.protocol import VALUES, BoardMatch

NO_CHOICE = "-"
BACK = "<"
"""A form's ``how`` that closes it: the card's own buttons again."""


class Form(CallbackData, prefix="bgf"):
    """A report being built with buttons on the match card: the value, then the cube, then
    how it ended; for game number ``game``, by the player in ``seat`` (-1: whoever presses
    it, as the card's first buttons and ↩️ Back)."""
    match_id: int
    value: str
    cube: int = 0
    how: str = NO_CHOICE
    game: int = 0
    seat: int = -1


class Answer(CallbackData, prefix="bga"):
    match_id: int
    agree: bool


class Forfeit(CallbackData, prefix="bgw"):
    """An organiser awards the match to ``seat`` after the late-start grace."""
    match_id: int
    seat: int


def game_words(tr: Translator, game: dict) -> str:
    """"gammon ×2, played out" in the chat's language."""
    words = tr(f"backgammon.value.{game['value']}")
    if game["cube"] > 1:
        words += f" ×{game['cube']}"
    how = tr(f"backgammon.how.{game['how']}")
    return f"{words}, {how}"


def _game_lines(ctx: MatchContext, state: BoardMatch) -> list[str]:
    lines, score, number = [], [0, 0], 0
    for entry in state.entries:
        score[entry["winner"]] = min(state.length, score[entry["winner"]]
                                     + points_of(entry))
        name = ctx.names[entry["winner"]]
        if entry["kind"] == "point":
            lines.append(ctx.tr("backgammon.card.point", name=name, loser=ctx.names[
                1 - entry["winner"]], a=score[0], b=score[1]))
            continue
        number += 1
        key = "backgammon.card.game_corrected" if entry.get("corrected") else \
            "backgammon.card.game"
        lines.append(ctx.tr(key, number=number, name=name, game=game_words(ctx.tr, entry),
                            a=score[0], b=score[1]))
    return lines


def points_of(entry: dict) -> int:
    return 1 if entry["kind"] == "point" else VALUES[entry["value"]] * entry["cube"]


def _status_line(ctx: MatchContext, state: BoardMatch) -> str:
    tr, names = ctx.tr, ctx.names
    if state.finished:
        return ctx.overruled_line(state.outcome) or tr(f"backgammon.card.won_{state.outcome.how}",
                                                      winner=names[state.winner])
    if ctx.match.status not in LIVE:
        return tr("backgammon.card.settled")
    pending = state.pending
    if pending is None:
        key = "backgammon.card.crawford" if state.crawford else "backgammon.card.playing"
        return tr(key, number=state.game_number)
    reporter, checker = names[pending["player"]], names[1 - pending["player"]]
    claim = tr("backgammon.card.final", a=names[0], b=names[1], sa=pending["final"][0],
               sb=pending["final"][1]) if "final" in pending else tr("backgammon.card.claim", name=names[pending["winner"]],
                                      game=game_words(tr, pending))
    key = "backgammon.card.disputed" if state.disputed else "backgammon.card.waiting"
    return tr(key, reporter=reporter, checker=checker, claim=claim)


def card_now(ctx: MatchContext, state: BoardMatch) -> str:
    """The card's score and status lines (/match): the game on, or the report awaited."""
    tr, names = ctx.tr, ctx.names
    return "\n".join([tr("backgammon.card.score", a=names[0], b=names[1], sa=state.score[0],
                          sb=state.score[1]), _status_line(ctx, state)])


def card_text(ctx: MatchContext, state: BoardMatch) -> str:
    tr, names = ctx.tr, ctx.names
    lines = [tr("backgammon.card.header", match=ctx.match.id, a=names[0], b=names[1],
                length=state.length),
             tr("backgammon.card.score", a=names[0], b=names[1], sa=state.score[0],
                sb=state.score[1])]
    lines += _game_lines(ctx, state)
    lines += [tr("backgammon.card.warning", name=names[p["player"]], number=p["game"])
              for p in state.penalties if p["kind"] == "warning"]
    lines.append(_status_line(ctx, state))
    if (count := breaks(state.length)) and not state.finished:
        lines.append(tr("backgammon.card.breaks", count=count))
    return "\n".join(lines)


def card_markup(ctx: MatchContext, state: BoardMatch) -> InlineKeyboardMarkup | None:
    tr, match_id = ctx.tr, ctx.match.id
    if state.finished or state.disputed or ctx.match.status not in LIVE:
        return None
    if state.pending is not None:
        return InlineKeyboardMarkup(inline_keyboard=[[
            InlineKeyboardButton(text=tr("backgammon.button.confirm"),
                                 callback_data=Answer(match_id=match_id, agree=True).pack()),
            InlineKeyboardButton(text=tr("backgammon.button.dispute"),
                                 callback_data=Answer(match_id=match_id, agree=False).pack())]])
    rows = [[InlineKeyboardButton(text=tr(f"backgammon.button.{value}"), callback_data=Form(
        match_id=match_id, value=value, game=state.game_number).pack()) for value in VALUES]]
    return InlineKeyboardMarkup(inline_keyboard=rows + _forfeit_rows(ctx, state))


def _forfeit_rows(ctx: MatchContext, state: BoardMatch) -> list[list[InlineKeyboardButton]]:
    """The organisers' "award by forfeit" buttons, once the late-start grace has passed
    with nothing reported."""
    if not (state.late and state.silent):
        return []
    return [[InlineKeyboardButton(
        text=ctx.tr("backgammon.button.forfeit", name=ctx.names[seat]),
        callback_data=Forfeit(match_id=ctx.match.id, seat=seat).pack()) for seat in (0, 1)]]


def form_fits(form: Form | None, state: BoardMatch) -> bool:
    """Whether a report form (pressed, or kept half filled) is still for the game on: that
    game not reported yet, the match not over."""
    return (form is not None and form.game == state.game_number and state.pending is None
            and not state.finished)


def card_view(ctx: MatchContext, state: BoardMatch) -> tuple[str, InlineKeyboardMarkup | None]:
    """The card's text and buttons; while a player has a report form half filled (kept by
    :meth:`~bot.match_service.MatchService.keep_draft`), the form's question and buttons,
    whatever redraws the card (the late start's forfeit buttons, a warning, /board)."""
    form = ctx.services.matches.draft(ctx.match.id)
    if ctx.match.status in LIVE and form_fits(form, state):
        return form_text(ctx, state, form), form_markup(ctx, state, form)
    return card_text(ctx, state), card_markup(ctx, state)


def form_text(ctx: MatchContext, state: BoardMatch, form: Form) -> str:
    """The card with the form's question under it."""
    tr, name = ctx.tr, ctx.names[form.seat]
    value = tr(f"backgammon.value.{form.value}")
    question = tr("backgammon.form_how", name=name, value=value, cube=form.cube) \
        if form.cube else tr("backgammon.form_cube", name=name, value=value)
    return f"{card_text(ctx, state)}\n{question}"


def form_markup(ctx: MatchContext, state: BoardMatch, form: Form) -> InlineKeyboardMarkup:
    """The next choice of a report form: the cube (none to choose in the Crawford game or a
    1-point match: the form starts at how it ended), then how the game ended (a passed double only for a single
    with a cube left to double); ↩️ Back under them, and the forfeit buttons when due."""
    tr = ctx.tr
    if form.cube == 0:
        buttons = [InlineKeyboardButton(text=f"×{cube}", callback_data=form.model_copy(
            update={"cube": cube}).pack()) for cube in (1, 2, 4, 8, 16, 32, 64)]
        rows = [buttons[:4], buttons[4:]]
    else:
        hows = ["played", "resigned"]
        if form.value == "single" and not state.no_cube and form.cube < 64:
            hows.append("passed")
        rows = [[InlineKeyboardButton(text=tr(f"backgammon.how.{how}"), callback_data=form.
                                      model_copy(update={"how": how}).pack()) for how in hows]]
    back = form.model_copy(update={"how": BACK, "seat": -1}).pack()
    return InlineKeyboardMarkup(inline_keyboard=[
        *rows, [InlineKeyboardButton(text=tr("backgammon.button.back"), callback_data=back)],
        *_forfeit_rows(ctx, state)])
