"""Playing a Cup group match in the chat: 🎲 or /roll, «ничья»/«переброс», /match.

A roll is checked by the engine and committed to the match log before anything is said;
then the bot waits for the dice animation (about four seconds) and announces the result.
"""

from __future__ import annotations

from aiogram import F
from aiogram.filters import Command
from aiogram.types import Message, Update

from bot.features.cup.stage import after_match, group_table, names, render_table
from bot.features.handlers import Handlers
from bot.i18n import Markup, Translator
from bot.services import Services
from games.common.errors import IllegalAction
from games.dice_cup import GroupMatch
from storage.repositories.matches import DuplicateUpdate, MatchRow
from storage.repositories.tournaments import Tournament

router = Handlers("cup")
DICE_ANIMATION_SECONDS = 4
DRAW_WORDS = {"ничья": "draw", "draw": "draw", "tasapeli": "draw",
              "переброс": "reroll", "reroll": "reroll", "uusintaheitto": "reroll"}


async def _my_match(services: Services, chat_id: int, user_id: int
                    ) -> tuple[Tournament, MatchRow | None] | None:
    """The running Cup tournament of this chat and the user's running match in it."""
    for tournament in await services.repos.tournaments.active_in_chat(chat_id):
        if tournament.game == "cup" and tournament.status in ("running", "paused"):
            return tournament, await services.repos.matches.current_for_player(
                tournament.id, user_id)
    return None


def _index(match: MatchRow, user_id: int) -> int:
    return 0 if match.player_a == user_id else 1


@router.message(F.dice, F.chat.type != "private")
async def dice(message: Message, event_update: Update, services: Services,
               tr: Translator) -> None:
    found = await _my_match(services, message.chat.id, message.from_user.id)
    if found is None:
        return  # no Cup under way here: a 🎲 is just a 🎲
    tournament, match = found
    if match is None:
        await message.reply(tr("cup.not_in_match"))
    elif message.forward_origin is not None:
        await message.reply(tr("cup.forwarded"))
    elif message.dice.emoji != "🎲":
        await message.reply(tr("cup.wrong_emoji", emoji=message.dice.emoji))
    else:
        await _roll(services, tr, message, tournament, match, message.dice.value,
                    event_update.update_id)


@router.message(Command("roll"), F.chat.type != "private")
async def roll_command(message: Message, event_update: Update, services: Services,
                       tr: Translator) -> None:
    found = await _my_match(services, message.chat.id, message.from_user.id)
    if found is None or found[1] is None:
        await message.reply(tr("cup.not_in_match"))
        return
    tournament, match = found
    dry_run = await services.matches.state(match)
    try:
        dry_run.apply({"type": "roll", "player": _index(match, message.from_user.id),
                       "value": 1})
    except IllegalAction as error:
        await message.reply(tr(f"cup.error.{error.code}"))
        return
    sent = await services.bot.send_dice(message.chat.id, emoji="🎲")
    await _roll(services, tr, message, tournament, match, sent.dice.value,
                event_update.update_id)


async def _roll(services: Services, tr: Translator, message: Message, tournament: Tournament,
                match: MatchRow, value: int, update_id: int) -> None:
    player = _index(match, message.from_user.id)
    before = await services.matches.state(match)
    state = await _act(services, tr, message, match,
                       {"type": "roll", "player": player, "value": value}, update_id)
    if state is None:
        return
    await services.clock.sleep(DICE_ANIMATION_SECONDS)
    label = await names(services, tournament.id)
    await _announce(services, tr, tournament, match, before, state, label, rolled=(player, value))


async def _act(services: Services, tr: Translator, message: Message, match: MatchRow,
               action: dict, update_id: int) -> GroupMatch | None:
    if match.status == "paused":
        await message.reply(tr("cup.paused"))
        return None
    try:
        return await services.matches.act(match, action, message.from_user.id, update_id)
    except IllegalAction as error:
        await message.reply(tr(f"cup.error.{error.code}"))
    except DuplicateUpdate:
        pass
    return None


@router.message(F.text.lower().in_(DRAW_WORDS), F.chat.type != "private")
async def draw_vote(message: Message, event_update: Update, services: Services,
                    tr: Translator) -> None:
    found = await _my_match(services, message.chat.id, message.from_user.id)
    if found is None or found[1] is None:
        return
    tournament, match = found
    before = await services.matches.state(match)
    vote = DRAW_WORDS[message.text.lower()]
    state = await _act(services, tr, message, match,
                       {"type": "draw_vote", "player": _index(match, message.from_user.id),
                        "vote": vote}, event_update.update_id)
    if state is not None:
        label = await names(services, tournament.id)
        await _announce(services, tr, tournament, match, before, state, label,
                        voted=(_index(match, message.from_user.id), vote))


async def _announce(services: Services, tr: Translator, tournament: Tournament,
                    match: MatchRow, before: GroupMatch, state: GroupMatch,
                    label: dict[int, str], rolled: tuple[int, int] | None = None,
                    voted: tuple[int, str] | None = None) -> None:
    users = (match.player_a, match.player_b)
    name = (label[users[0]], label[users[1]])
    lines = []
    if rolled and len(state.history) == len(before.history):
        lines.append(tr("cup.rolled", name=name[rolled[0]], value=rolled[1]))
    for record in state.history[len(before.history):]:
        values = dict(a=name[0], va=record.values[0], b=name[1], vb=record.values[1],
                      number=record.number)
        if record.winner is None:
            lines.append(tr("cup.round_tied", **values))
        else:
            lines.append(tr("cup.round_won", winner=name[record.winner], **values,
                            sa=state.score[0], sb=state.score[1]))
    if state.voting and not before.voting:
        lines.append(tr("cup.vote_open"))
    elif voted and not state.finished:
        lines.append(tr(f"cup.voted_{voted[1]}", name=name[voted[0]]))
    if state.finished:
        await _finish(services, tr, tournament, match, state, name, lines)
        return
    if not state.voting:
        roller = state.roller
        lines.append(tr("cup.next_roll", name=name[roller], number=state.round))
    await services.bot.send_message(tournament.chat_id, "\n".join(lines))


async def _finish(services: Services, tr: Translator, tournament: Tournament,
                  match: MatchRow, state: GroupMatch, name: tuple[str, str],
                  lines: list[str]) -> None:
    users = (match.player_a, match.player_b)
    winner = None if state.winner is None else users[state.winner]
    await services.repos.matches.update(
        match.id, services.clock.now(), status="finished", winner=winner,
        result={"score": list(state.score), "points": list(state.points)})
    if state.draw:
        lines.append(tr("cup.match_drawn", a=name[0], b=name[1], sa=state.score[0],
                        sb=state.score[1]))
    else:
        lines.append(tr("cup.match_won", winner=name[state.winner],
                        loser=name[1 - state.winner], sw=state.score[state.winner],
                        sl=state.score[1 - state.winner]))
    await services.bot.send_message(tournament.chat_id, "\n".join(lines))
    async with services.lock(f"tournament-{tournament.id}"):
        finished = await services.repos.matches.get(match.id)
        await after_match(services, tr, tournament, finished)


@router.message(Command("match"))
async def my_match(message: Message, services: Services, tr: Translator) -> None:
    found = await _my_match(services, message.chat.id, message.from_user.id)
    if found is None or found[1] is None:
        await message.reply(tr("cup.not_in_match"))
        return
    tournament, match = found
    state = await services.matches.state(match)
    label = await names(services, tournament.id)
    name = (label[match.player_a], label[match.player_b])
    if state.voting:
        waiting = tr("cup.vote_open")
    else:
        waiting = tr("cup.next_roll", name=name[state.roller], number=state.round)
    await message.reply(tr("cup.match_state", a=name[0], b=name[1], sa=state.score[0],
                           sb=state.score[1], waiting=waiting))


@router.message(Command("standings"), F.chat.type != "private")
async def standings_command(message: Message, services: Services, tr: Translator) -> None:
    for tournament in await services.repos.tournaments.active_in_chat(message.chat.id):
        if tournament.game == "cup" and tournament.started:
            rows = await group_table(services, tournament)
            label = await names(services, tournament.id)
            await message.answer(tr("cup.table", title=tournament.title,
                                    rows=Markup(render_table(tr, rows, label))))
            return
    await message.answer(tr("standings.none"))
