"""The betting final: one board message per final, edited in place (hand, chips, pot,
open dice, whose turn), buttons for exactly the legal actions, typed words («чек», «колл»,
«рейз N», «фолд», «олл-ин»), and the hand results named by combination."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData
from aiogram.types import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
)

from bot.features.cup.common import announcer, button_play, perform, sender_play, tried
from bot.features.cup.playoff import THIRD, on_match_start, stage_title
from bot.features.handlers import Handlers
from bot.i18n import Translator, lines
from bot.middlewares.filters import IN_GROUP
from bot.middlewares.scope import Scope
from bot.play.board import show_board
from bot.play.context import MatchContext
from bot.services import Services
from games.dice_cup.words import parse_bet

router = Handlers("cup-betting")


class BetButton(CallbackData, prefix="bet"):
    match_id: int
    action: str


def _bet_word(message: Message) -> dict | bool:
    if not message.text:
        return False
    bet = parse_bet(message.text)
    return {"bet": {k: v for k, v in bet.items() if k != "type"}} if bet else False


@on_match_start("betting")
async def start_final(play: MatchContext) -> None:
    await show_final_board(play, await play.services.matches.state(play.match), new=True)


@router.message(IN_GROUP, _bet_word)
async def typed_bet(message: Message, bet: dict, event_update: Update, scope: Scope,
                    tr: Translator) -> None:
    play = await sender_play(scope, tr)
    if play is None or play.match.kind != "betting":
        return
    action = {"type": "bet", "player": play.seat(message.from_user.id)} | bet
    await perform(play, action, message.from_user.id, event_update.update_id)


@router.callback_query(BetButton.filter())
async def bet_button(query: CallbackQuery, callback_data: BetButton, event_update: Update,
                     services: Services, tr: Translator) -> None:
    play, player = await button_play(services, tr, query, callback_data.match_id, ("betting",))
    state = await services.matches.state(play.match)
    if callback_data.action == "raise" and (limits := state.raise_limits) \
            and state.to_act == player:  # the amount is typed: "рейз N"
        key = "cup.raise_only" if limits[0] == limits[1] else "cup.raise_how_much"
        await query.answer(tr(key, low=limits[0], high=limits[1]), show_alert=True)
        return
    # a raise pressed out of turn is refused as a typed one is: whose turn it is
    action = {"type": "bet", "player": player, "action": callback_data.action}
    await perform(play, action, query.from_user.id, event_update.update_id,
                  alongside=[query.answer])


@announcer("betting")
async def announce_betting(play: MatchContext, before, after, event: dict) -> None:
    """The board is edited in place; a hand's end or a /try (its outcome on top) posts it
    anew below the chat, so the newest message always says who acts next."""
    if event["type"] == "try":
        await show_final_board(play, after, new=True, lead=tried(play, event))
        return
    await show_final_board(play, after, new=len(after.hands) > len(before.hands))


async def show_final_board(play: MatchContext, state, *, new: bool = False,
                           lead: str | None = None) -> None:
    await show_board(play, lines(lead, board_text(play, state)),
                     _board_keyboard(play, state), new=new)


def board_text(play: MatchContext, state) -> str:
    """The last hand's result (or the final's opening), the board, and whose turn it is (or
    the final's result)."""
    tr, name = play.tr, play.names
    lines = [_hand_text(tr, name, state.hands[-1]) if state.hands else tr(
        "cup.final_start", title=stage_title(play), a=name[0], b=name[1],
        chips=play.tournament.settings.get("chips", 20))]
    dice = [" ".join(map(str, d)) or "—" for d in state.dice]
    lines.append(tr("cup.board", hand=state.hand, a=name[0], b=name[1], wa=state.wins[0],
                    wb=state.wins[1], ca=state.chips[0], cb=state.chips[1], pot=state.pot,
                    sa=state.stakes[0], sb=state.stakes[1], da=dice[0], db=dice[1],
                    round=state.betting_round))
    if state.finished:
        key = "cup.final_won_chips" if state.end_reason == "chips" else "cup.final_won"
        if play.match.slot == THIRD:  # betting chosen for the 3rd-place match
            key = "cup.third_won"
        return "\n".join(lines + [tr(key, winner=name[state.winner],
                                     loser=name[1 - state.winner], sw=state.wins[state.winner],
                                     sl=state.wins[1 - state.winner])])
    return "\n".join(lines + [play.closed_line() if play.closed else _waiting(tr, name, state)])


def _waiting(tr: Translator, name: tuple[str, str], state) -> str:
    if state.to_act is not None:
        return tr("cup.board_to_act", name=name[state.to_act], call=state.to_call)
    kinds = dict(state.expecting)
    if "try" in kinds.values():
        return tr("cup.board_try", name=name[0])
    rollers = [name[p] for p, kind in state.expecting if kind == "roll"]
    return tr("cup.board_roll", names=", ".join(rollers))


def _board_keyboard(play: MatchContext, state) -> InlineKeyboardMarkup | None:
    if state.finished or play.closed or not state.legal_bets:
        return None
    tr = play.tr
    buttons = [InlineKeyboardButton(
        text=tr(f"cup.bet_{action}", amount=state.to_call),
        callback_data=BetButton(match_id=play.match.id, action=action).pack())
        for action in state.legal_bets]
    return InlineKeyboardMarkup(inline_keyboard=[buttons])


def _hand_text(tr: Translator, name: tuple[str, str], record) -> str:
    if record.outcome == "fold":
        return tr("cup.hand_fold", number=record.number, winner=name[record.winner],
                  loser=name[1 - record.winner], pot=sum(record.stakes))
    combos = [tr(f"cup.combo_{combo}", dice="-".join(map(str, dice)))
              for (combo, _), dice in zip(record.combinations, record.dice, strict=True)]
    if record.outcome == "split":
        return tr("cup.hand_split", number=record.number, a=name[0], ca=combos[0], b=name[1],
                  cb=combos[1])
    winner, loser = record.winner, 1 - record.winner
    multiplier = record.combinations[winner][1]
    owed = record.stakes[loser] * (multiplier - 1)
    key = ("cup.hand_won" if not record.extra else
           "cup.hand_won_extra" if record.extra == owed else "cup.hand_won_capped")
    return tr(key, number=record.number, a=name[0], ca=combos[0], b=name[1], cb=combos[1],
              winner=name[winner], loser=name[loser], pot=sum(record.stakes),
              extra=record.extra, stake=record.stakes[loser], multiplier=multiplier, owed=owed)
