"""/practice <game>: a friendly match against the bot, for games that declare a bot player
(``Game.bot_player``), and the bot's own moves.

The bot is a player like any other: its Telegram user (``bot.me()``) is the match's second
player and an entrant, so names render everywhere. Whenever a step of a friendly leaves the
bot to move, it moves at once through the same :func:`~bot.play.perform.perform` path
(actor None): for a roll it sends 🎲 through the Bot API and plays the die's value.
"""

from __future__ import annotations

from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.features.friendly import start
from bot.features.handlers import Handlers
from bot.features.keyboards import add_to_group_keyboard
from bot.i18n import Translator
from bot.play.refusal import Refusal
from bot.services import Services

router = Handlers("friendly-practice")


@router.message(Command("practice"))
async def practice(message: Message, command: CommandObject, services: Services,
                   tr: Translator) -> None:
    if message.chat.type == "private":
        raise Refusal("friendly.group_only", buttons=add_to_group_keyboard)
    words = (command.args or "").split()
    game = start.pick_game(tr, words[0] if words else None, usage="friendly.usage_practice",
                           bot_player=True)
    if game.bot_player is None:
        raise Refusal("friendly.no_bot_player", game=tr(f"game.{game.key}"), code=game.key,
                      games=", ".join(start.friendly_games(bot_player=True)))
    settings = start.settings_for(tr, game, words[1:])
    human = message.from_user
    await start.ensure_free(services, message.chat.id, human.id, human.first_name)
    me = await services.bot.me()
    await services.repos.users.upsert(me.id, me.username, me.first_name, None,
                                      services.clock.now())
    async with services.db.together():  # the friendly with its match owed (start.PLAY_JOB)
        friendly = await start.create(
            services, message.chat.id, game,
            tr.plain("friendly.title", a=human.first_name, b=me.first_name), settings,
            (human.id, me.id), "running")
        held = await services.repos.jobs.add(start.PLAY_JOB, services.clock.now(),
                                             friendly.id)
    await services.scheduler.stand_in(held, start.begin(services, friendly))
