"""Hidden input as the chat sees it (:mod:`bot.play.hidden` is the service):

- a word typed in the DM goes to the one match that awaits it; a player with several such
  matches is asked which one, with a button per match;
- a panel button applies its word (only the newest panel's buttons count);
- a hidden word typed in the group is not applied: it is deleted (when the bot may) and the
  player told to use the DM;
- ``/enter <match> @player <word> <reason>``: an organiser, in their own DM, enters a
  player's hidden action on their behalf (logged with the reason; the organiser is the
  action's actor). Not in a match they play in themselves;
- ``/hostcopy [off]``: an organiser gets (or stops getting) a copy of each hidden action.

A game that takes hidden input lists :data:`router` among its routers.
"""

from __future__ import annotations

import contextlib
from typing import Any

from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject
from aiogram.types import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
)

from bot import games
from bot.features.access import command_target, is_organiser
from bot.features.handlers import Handlers
from bot.features.keyboards import link_keyboard, pressed_on_its_question
from bot.i18n import Markup, Translator, clip, lines
from bot.middlewares.filters import IN_GROUP, IN_PRIVATE
from bot.play.context import MatchContext, context_for, own_text
from bot.play.hidden import (
    Pick,
    awaited,
    chat_button,
    input_of,
    live_hidden_matches,
    panels,
    read_word,
    submit,
)
from bot.play.perform import Alongside, refused
from bot.play.refusal import Refusal, paused
from bot.play.said import Said
from bot.services import Services
from bot.snapshots import tried
from games.common.errors import IllegalAction
from storage.repositories.matches import MatchRow
from storage.repositories.organiser_log import log_entry

router = Handlers("play-hidden")
MAX_WORD = 24  # a word carried in a button's callback data


def _hidden_word(message: Message) -> dict | bool:
    text = (message.text or "").strip()
    return {"word": text} if text and read_word(text) is not None else False


async def _context(services: Services, match: MatchRow) -> MatchContext:
    """``match``'s context, from the row just read (not read again by its id)."""
    tournament = await services.repos.tournaments.get(match.tournament_id)
    tr = await services.translator_for_chat(tournament.chat_id)
    return await context_for(services, tr, tournament, match)


async def _apply(services: Services, match: MatchRow, user_id: int, word: str,
                 update_id: int | None, at: int = -1, play: int = -1,
                 alongside: Alongside = ()) -> bool:
    """The sender's own word, for ``match`` (``at`` and ``play``: the pressed panel's
    position and play of the match; ``alongside``: said at the same time as the
    announcement, once accepted)."""
    action = input_of(match.kind).parse(word)
    ctx = await _context(services, match)
    seat = ctx.seat(user_id)
    if action is None or seat is None:
        raise Refusal("callback.stale")
    return await submit(ctx, seat, action, actor_id=user_id, update_id=update_id, at=at,
                        play=play, alongside=alongside)


@router.message(IN_PRIVATE, _hidden_word)
async def typed_word(message: Message, word: str, event_update: Update, services: Services,
                     tr: Translator) -> None:
    user_id = message.from_user.id
    live = [m for m in await live_hidden_matches(services, user_id)
            if input_of(m.kind).parse(word) is not None]
    if not live:
        raise Refusal("play.hidden_none")
    # One match is the target whether it awaits the word or not (its engine says why not):
    # whether it does is asked only to choose among several.
    waiting = live if len(live) == 1 else \
        [m for m in live if await awaited(services, m, m.players.index(user_id))]
    if len(waiting) > 1:  # asked only among the matches that can take it (a card in hand);
        # none can: the newest one's engine says why (not in your hand …), no question
        waiting = [m for m in waiting if await _takes(services, m, user_id, word)] \
            or waiting[-1:]
    if len(waiting) > 1:
        await message.answer(tr("play.hidden_which", word=clip(word)),
                             reply_markup=await _which(services, tr, waiting, word))
        return
    # No match awaits it: the newest one's engine says why (already chosen, roll first …).
    target = waiting[0] if waiting else live[-1]
    await _apply(services, target, user_id, word, event_update.update_id)


async def _takes(services: Services, match: MatchRow, user_id: int, word: str) -> bool:
    """Whether ``match`` would take the user's ``word`` now."""
    seat = match.players.index(user_id)
    return await _trial(services, match, seat, input_of(match.kind).parse(word)) is None


async def _trial(services: Services, match: MatchRow, seat: int,
                 action: dict[str, Any]) -> IllegalAction | None:
    """The engine's refusal of ``seat``'s ``action`` now (tried on a copy of the state), or
    None when it would be taken."""
    hidden = input_of(match.kind)
    state = await services.matches.current(match)  # read here, before any await
    action = {**action, "player": seat}
    try:
        if hidden.resolve is not None:
            action = hidden.resolve(state, seat, action)
        tried(state, action)
    except IllegalAction as error:
        return error
    return None


async def _which(services: Services, tr: Translator, matches: list[MatchRow],
                 word: str) -> InlineKeyboardMarkup:
    """A button per match; each carries its match's position and play, so a press after
    the match moved on (or was taken back and played again) is refused instead of playing
    the word as another move."""
    rows = []
    for match in matches:
        ctx = await _context(services, match)
        label = tr("play.hidden_which_friendly" if ctx.tournament.friendly  # names them
                   else "play.hidden_which_button", match=match.id,
                   title=ctx.tournament.title, a=ctx.names[0], b=ctx.names[1])
        hidden = input_of(match.kind)
        state = await services.matches.current(match)
        at = -1 if hidden.position is None else hidden.position(state)
        rows.append([InlineKeyboardButton(text=label, callback_data=Pick(
            match_id=match.id, word=word[:MAX_WORD], panel=0, at=at,
            play=services.matches.play(match.id)).pack())])
    return InlineKeyboardMarkup(inline_keyboard=rows)


@router.callback_query(Pick.filter())
async def pick(query: CallbackQuery, callback_data: Pick, event_update: Update,
               services: Services) -> None:
    match = await services.repos.matches.get(callback_data.match_id)
    if match is None or input_of(match.kind) is None or match.status not in ("running",
                                                                              "paused"):
        raise Refusal("callback.stale")
    if query.from_user.id not in match.players:
        raise Refusal("play.not_in_match")
    newest = await panels(services).get(match.id, query.from_user.id)
    if callback_data.panel and query.message and query.message.message_id != newest:
        raise Refusal("callback.stale")
    if not callback_data.panel and not pressed_on_its_question(query):
        raise Refusal("callback.stale")  # answered already: its other match's button is gone
    await _apply(services, match, query.from_user.id, callback_data.word,
                 event_update.update_id, callback_data.at, callback_data.play,
                 alongside=[query.answer])
    if not callback_data.panel and query.message:  # the question is answered: close it
        tr = await services.translator_for_chat(query.from_user.id)
        with contextlib.suppress(TelegramBadRequest):
            await query.message.edit_text(tr("play.hidden_which_done", word=clip(
                callback_data.word), match=match.id))


@router.message(_hidden_word, IN_GROUP)
async def word_in_group(message: Message, word: str, services: Services,
                        tr: Translator) -> None:
    """A hidden word typed in the group: not applied, removed if the bot may delete; said
    where it was typed (its match's topic may be elsewhere: the word would vanish unsaid),
    under the button that opens the bot's chat at the match's panel (the player may never
    have opened it)."""
    match = next((match for _, match in await services.repos.matches.live_in_chat(
        message.chat.id, message.from_user.id)
        if (hidden := input_of(match.kind)) is not None and hidden.parse(word) is not None),
        None)
    if match is None:
        return  # not a hidden word of one of the sender's matches: ordinary chat
    with contextlib.suppress(TelegramBadRequest):
        await services.bot.delete_message(message.chat.id, message.message_id)
    ctx = await _context(services, match)
    await message.answer(own_text(tr, "play.hidden_in_group", match.kind,
                                  name=ctx.names[ctx.seat(message.from_user.id)]),
                         reply_markup=chat_button(services, tr, match))


@router.message(Command("enter"))
async def enter(message: Message, command: CommandObject, event_update: Update,
                services: Services, tr: Translator) -> None:
    """An organiser enters a player's hidden action on their behalf, in the DM only."""
    if message.chat.type != "private":
        with contextlib.suppress(TelegramBadRequest):  # it may carry the secret
            await services.bot.delete_message(message.chat.id, message.message_id)
        await message.answer(tr("play.enter_dm_only"))
        return
    ctx, seat, action, reason = await _entry(services, tr, message.from_user.id, command.args)
    if not await awaited(services, ctx.match, seat):  # said of the player, to the organiser
        raise Refusal("play.enter_not_awaited", name=ctx.names[seat], match=ctx.match.id)
    if (error := await _trial(services, ctx.match, seat, action)) is not None:
        raise Refusal(text=await _refused_for(ctx, tr, seat, error))
    logged = log_entry(message.from_user.id, "enter", services.clock.now(),
                       tournament_id=ctx.tournament.id, chat_id=ctx.tournament.chat_id,
                       reason=reason, match_id=ctx.match.id, player=ctx.match.players[seat],
                       move=action)
    said = await _entered(ctx, tr, message, seat, action, reason)
    try:
        await submit(ctx, seat, action, actor_id=message.from_user.id,
                     update_id=event_update.update_id, logged=logged, said=said)
    except Refusal as refusal:  # the engine speaks to the player: say whose it was
        raise Refusal("play.enter_refused", name=ctx.names[seat], match=ctx.match.id,
                      reason=Markup(refusal.render(tr))) from None


async def _entered(ctx: MatchContext, tr: Translator, message: Message, seat: int,
                   action: dict[str, Any], reason: str) -> list[Said]:
    """What an organiser's ``/enter`` says once it is taken: the entry confirmed to the
    organiser, and told in private to the player it was entered for (written with it)."""
    player = ctx.match.players[seat]
    player_tr = await ctx.services.translator_for_chat(player)
    hidden = input_of(ctx.match.kind)
    before = await ctx.services.matches.current(ctx.match)  # read here, before any await
    done = {**action, "player": seat}  # as it is applied: a typed card is read by the state
    if hidden.resolve is not None:
        done = hidden.resolve(before, seat, done)
    return [Said.answering(message, tr("play.entered", name=ctx.names[seat], match=ctx.match.id,
                                       word=hidden.describe(tr, done, before))),
            Said(player_tr("play.entered_for_you", match=ctx.match.id,
                           word=hidden.describe(player_tr, done, before), reason=reason),
                 player)]


def action_words(args: str | None) -> list[str]:
    """The words of ``/enter`` after the match and the player, before the reason."""
    words = (args or "").split()[2:]
    for end in range(len(words), 0, -1):
        if read_word(" ".join(words[:end])) is not None:
            return words[:end]
    return []


async def _entry(services: Services, tr: Translator, organiser: int, args: str | None
                 ) -> tuple[MatchContext, int, dict[str, Any], str]:
    """Read and check ``/enter <match> @player <word> <reason>``; refused when wrong (without
    a move or a reason: with what the player holds, where the game shows it)."""
    words = (args or "").split()
    if len(words) < 2 or not words[0].lstrip("#").isdecimal():
        raise Refusal("play.enter_usage")
    match = await services.repos.matches.get(int(words[0].lstrip("#")))
    if match is not None and match.status == "paused" and input_of(match.kind) is not None:
        raise await paused(services, match.tournament_id)  # entered after /resume, like the players' own moves
    if match is None or input_of(match.kind) is None or match.status != "running":
        raise Refusal("play.enter_no_match", match=clip(words[0]))
    ctx = await _context(services, match)
    if not await is_organiser(services, ctx.tournament.chat_id, organiser):
        raise Refusal("access.organisers_only")
    if organiser in match.players:
        raise Refusal("play.enter_own_match")
    seat = await _seat_named(services, ctx, words[1])
    chosen = action_words(args)
    reason = " ".join(words[2 + len(chosen):])
    action = input_of(match.kind).parse(" ".join(chosen)) if chosen else None
    if action is None or not reason:
        held = await _held(ctx, tr, seat)
        raise Refusal(text=lines(held, tr("play.enter_usage_for", match=match.id, who=clip(
            words[1])))) if held else Refusal("play.enter_usage")
    return ctx, seat, action, reason


async def _held(ctx: MatchContext, tr: Translator, seat: int) -> str | None:
    """What the player of ``seat`` holds (their cards), for the organiser entering a move
    for them; None for a game where nothing is held."""
    hidden = input_of(ctx.match.kind)
    if hidden.held is None:
        return None
    held = hidden.held(tr, await ctx.services.matches.current(ctx.match), seat)
    return tr("play.enter_held", name=ctx.names[seat], match=ctx.match.id, held=held)


async def _refused_for(ctx: MatchContext, tr: Translator, seat: int,
                       error: IllegalAction) -> str:
    """The engine's refusal of a move entered for ``seat``, said of that player (``whose``:
    the game's text names them instead of saying "you"), with what they hold."""
    error.params["whose"] = ctx.names[seat]
    reason = refused(ctx, games.game_of(ctx.tournament.game).playbook, error).render(tr)
    return lines(tr("play.enter_refused", name=ctx.names[seat], match=ctx.match.id,
                    reason=Markup(reason)), await _held(ctx, tr, seat))


async def _seat_named(services: Services, ctx: MatchContext, who: str) -> int:
    """The seat of the player written as ``@username`` or as their shown name."""
    user = await services.repos.users.by_username(who.lstrip("@"))
    for seat, user_id in enumerate(ctx.match.players):
        if (user is not None and user.id == user_id) or ctx.names[seat].lower() == who.lower():
            return seat
    raise Refusal("play.enter_not_player", name=clip(who), match=ctx.match.id)


@router.message(Command("hostcopy"))
async def host_copy(message: Message, command: CommandObject, services: Services,
                    tr: Translator) -> None:
    """An organiser opts in (or out) to get every hidden action in their DM (never those of
    a match they play in themselves); one who never opened the private chat with the bot is
    told that the copies come only once they do, under a button that opens it."""
    target = await command_target(message, services, None, organiser=True)
    tournament, wanted = target.tournament, (command.args or "on").strip().lower() != "off"
    hosts = set(tournament.state.get("host_copy", []))
    hosts = hosts | {message.from_user.id} if wanted else hosts - {message.from_user.id}
    async with services.db.together():
        await services.repos.tournaments.set_state(tournament.id, "host_copy", sorted(hosts))
        await services.repos.organiser_log.record(
            message.from_user.id, "hostcopy", services.clock.now(),
            tournament_id=tournament.id, chat_id=message.chat.id, on=wanted)
    said = tr("play.hidden_host_on" if wanted else "play.hidden_host_off",
              name=message.from_user.first_name)
    if wanted and not await services.opened_private_chat(message.from_user.id):
        await message.answer(lines(said, tr("play.hidden_host_open_dm")), reply_markup=link_keyboard(
            tr("dm.open_button"), services.deep_link()))
        return
    await message.answer(said)
