"""Around a match played in the bot (``docs/backgammon.md``): ``/position [N]`` (the board
after move N, as a picture with its Position ID) and the organisers' ``/addtime @user 2m
reason`` (time given back to a player's bank, the seed's §9 refund; logged with the reason)."""

from __future__ import annotations

import re

from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, Message, Update

from bot.features.access import is_organiser
from bot.features.backgammon.live import clocks
from bot.features.backgammon.live.board import caption, clock_text, scene
from bot.features.backgammon.live.flow import act
from bot.features.backgammon.live.record import sender_last_match
from bot.features.backgammon.settings import GAME, LIVE_KIND, clock_of
from bot.features.handlers import Handlers
from bot.i18n import Translator
from bot.match_service import effective_actions
from bot.middlewares.filters import IN_GROUP
from bot.middlewares.scope import Scope
from bot.play.context import load_match
from bot.play.refusal import Refusal
from bot.play.said import Said
from bot.play.topics import named_player_match, typed_in_its_topic
from bot.render.backgammon import board_png
from bot.services import Services
from games.backgammon.session import LiveMatch, after_moves
from games.common.errors import IllegalAction
from storage.repositories.organiser_log import log_entry

router = Handlers("backgammon-live-tools")
DURATION = re.compile(r"^(\d{1,4})(s|m|h|с|м|ч)?$", re.IGNORECASE)
UNITS = {"s": 1, "с": 1, "m": 60, "м": 60, "h": 3600, "ч": 3600}


@router.message(Command("position"), IN_GROUP)
async def position(message: Message, command: CommandObject, scope: Scope,
                   services: Services, tr: Translator) -> None:
    """The board of the sender's match after its move N (0: before the first; none: as it
    is now); with no match live, of their last one (a finished match is looked back at
    too)."""
    words = (command.args or "").split()
    if len(words) > 1 or (words and not words[0].isdecimal()):
        raise Refusal("backgammon.live.error.position_usage")
    ctx = await sender_last_match(scope, tr)
    current = await services.matches.state(ctx.match)
    if not words:  # the board as it is now (a new game may have no move yet)
        state, heading = current, tr("backgammon.live.position_now")
        words = [str(current.moves)]
    else:
        heading = tr("backgammon.live.position", number=words[0])
        state = _after(await services.repos.matches.actions(ctx.match.id),
                       ctx.tournament.settings.get("length", 5), int(words[0]))
    if state is None:
        raise Refusal("backgammon.live.error.no_such_move", moves=current.moves)
    text = heading + "\n" + caption(ctx, state, past=True, now=current)
    png = await services.renderer.picture(board_png, scene(ctx, state, past=True))
    await services.bot.send_photo(
        message.chat.id, BufferedInputFile(png, f"backgammon-{ctx.match.id}-{words[0]}.png"),
        caption=text, message_thread_id=message.message_thread_id)


def _after(actions, length: int, moves: int) -> LiveMatch | None:
    """The match after its move ``moves``, or None when it has not been played."""
    try:
        return after_moves(effective_actions(actions), length, moves)
    except IllegalAction:
        return None


@router.message(Command("addtime"), IN_GROUP)
async def addtime(message: Message, command: CommandObject, event_update: Update,
                  scope: Scope, services: Services, tr: Translator) -> None:
    """``/addtime @user 2m reason``: an organiser gives a player time back, at most the
    match's whole bank at a time (a slip such as ``500h`` would end the match's clock). Taken
    in a pause too: a pause is where an organiser settles a dispute about time. Said where
    it was typed: the match's place, else a reply naming the match."""
    words = (command.args or "").split()
    found = DURATION.match(words[1]) if len(words) > 2 else None
    if found is None or not words[0].startswith("@"):
        raise Refusal("backgammon.live.error.addtime_usage")
    seconds = int(found.group(1)) * UNITS[(found.group(2) or "m").lower()]
    user, match = await named_player_match(scope, tr, words[0], GAME)
    if match is None or match.kind != LIVE_KIND:
        raise Refusal("backgammon.live.error.no_match_of", name=words[0])
    ctx = await load_match(services, tr, match.id)
    if ctx.tournament.friendly:
        raise Refusal("backgammon.live.error.addtime_friendly")
    if not await is_organiser(services, message.chat.id, message.from_user.id):
        raise Refusal("backgammon.error.organisers_only")
    most = clock_of(ctx.tournament.settings)[1]
    if not 0 < seconds <= most:
        raise Refusal("backgammon.live.error.addtime_range", most=clock_text(most))
    seat, reason = ctx.seat(user.id), " ".join(words[2:])
    before = await services.matches.state(ctx.match)
    spent, going_on = await clocks.as_they_stand(ctx, before)  # the turn's clock goes on
    logged = log_entry(message.from_user.id, "addtime", services.clock.now(),
                       tournament_id=ctx.tournament.id, chat_id=message.chat.id, reason=reason,
                       match_id=match.id, player=user.id, seconds=seconds)
    if typed_in_its_topic(message, match):
        said = Said.in_match(ctx, tr("backgammon.live.time_added", name=ctx.names[seat],
                                     seconds=seconds, reason=reason))
    else:  # the organiser is answered where he typed; the board shows the new bank
        said = Said.answering(message, tr(
            "backgammon.live.time_added_to_match", name=ctx.names[seat], seconds=seconds,
            reason=reason, match=match.id), reply=True)
    await act(ctx, [*spent, {"type": "addtime", "player": seat, "seconds": seconds}], None,
              event_update.update_id, logged=logged, in_pause=True, clocks_set=going_on,
              said=[said])
