"""/starter: an organiser fixes a wrongly entered bull-off (or coin) before leg 1 has a
dart. The match log is never edited: a rewind marker takes the match back to its start and
the right starter is entered after it (``MatchService.rewind``)."""

from __future__ import annotations

from aiogram.filters import Command, CommandObject
from aiogram.types import Message, Update

from bot.features.access import is_organiser
from bot.features.darts.keypad import position
from bot.features.darts.opening import starter_action
from bot.features.darts.play import LIVE, load, perform
from bot.features.handlers import Handlers
from bot.i18n import Translator
from bot.middlewares.filters import IN_GROUP
from bot.play.said import Said
from bot.services import Services
from storage.repositories.organiser_log import log_entry

router = Handlers("darts-starter")
_NOT_LIVE = {"pending": "darts.starter_not_started", "bye": "darts.starter_bye"}
"""Why /starter cannot set who throws first in a match that is not being played (else:
it is over)."""


@router.message(Command("starter"), IN_GROUP)
async def set_starter(message: Message, command: CommandObject, event_update: Update,
                      services: Services, tr: Translator) -> None:
    organiser = message.from_user.id
    if not await is_organiser(services, message.chat.id, organiser):
        await message.reply(tr("access.organisers_only"))
        return
    words = (command.args or "").split()
    if len(words) < 3 or not words[0].isdecimal() or not words[1].startswith("@"):
        await message.reply(tr("darts.starter_usage"))
        return
    play = await load(services, tr, int(words[0]))
    user = await services.repos.users.by_username(words[1])
    if play is None or play.tournament.chat_id != message.chat.id:
        await message.reply(tr("darts.no_such_match", match=words[0]))
        return
    if play.match.status not in LIVE:
        await message.reply(tr(_NOT_LIVE.get(play.match.status, "darts.starter_over"),
                               match=play.match.id))
        return
    if user is None or user.id not in play.match.players:
        await message.reply(tr("darts.starter_not_a_player", name=words[1], match=words[0]))
        return
    state = await services.matches.state(play.match)
    if position(state) != (1, 0, 0):
        await message.reply(tr("darts.starter_too_late"))
        return
    if state.starter == play.seat(user.id):  # a repeated command: nothing to fix
        await message.reply(tr("darts.starter_already", name=play.names[state.starter],
                               match=play.match.id))
        return
    if state.started:
        await services.matches.rewind(play.match, 0, organiser)
    reason = " ".join(words[2:])
    player = play.seat(user.id)
    action = starter_action(player, "bull")
    logged = log_entry(organiser, "starter", services.clock.now(),
                       tournament_id=play.tournament.id, chat_id=message.chat.id,
                       reason=reason, match=play.match.id, starter=user.id)
    await perform(play, [action], organiser, event_update.update_id, logged=logged,
                  in_pause=True, said=[Said.answering(message, play.text(
                      "darts.starter_set", organiser=message.from_user.first_name,
                      match=play.match.id, name=play.names[player], reason=reason))])
