"""The bot added to a group says what it does there and how to begin.

Telegram tells the bot it was added (a ``my_chat_member`` update); without an answer the
people who added it would have to guess ``/help``. One message: the games, how an organiser
creates a tournament, and — when the bot cannot see plain messages there yet — what to fix
(the same check as ``/new``'s), and the tournaments paused while it was away. Removed from
a group, it pauses the group's running tournaments at once (``group_lost``: their organisers
are told in private). Telegram also reports the bot as added to a group it has
just made a supergroup (``bot/features/migration.py``): that one is not greeted again when
the bot has seen the move first (``migrated_from``). Added by its link (the private chat's
"Add me to a group"), the bot then gets a ``/start`` from Telegram in the group, which the
greeting has answered (:func:`greeted_just_now`).
"""

from __future__ import annotations

from datetime import timedelta

from aiogram import F
from aiogram.filters import JOIN_TRANSITION, LEAVE_TRANSITION, ChatMemberUpdatedFilter
from aiogram.types import ChatMemberUpdated

from bot import games
from bot.features.handlers import Handlers
from bot.features.lifecycle import rights_problem
from bot.features.pause import group_lost
from bot.i18n import Translator
from bot.services import Services

router = Handlers("welcome")
GREETING_ANSWERS_START = timedelta(minutes=1)
"""How long after the greeting a ``/start`` sent in the group by the link counts as answered."""


def greeted_just_now(services: Services, chat_id: int) -> bool:
    """Whether the bot greeted the group a moment ago (:func:`added`)."""
    return services.remembered("greeted", chat_id)


@router.my_chat_member(ChatMemberUpdatedFilter(JOIN_TRANSITION),
                       F.chat.type.in_({"group", "supergroup"}))
async def added(event: ChatMemberUpdated, services: Services, tr: Translator) -> None:
    chat = await services.repos.chats.get(event.chat.id)
    if chat is not None and chat.migrated_from is not None:
        return  # the group Telegram has just made this supergroup: greeted as the group
    listed = "\n".join(tr("welcome.game", key=game.key, name=tr(f"game.{game.key}"))
                        for game in games.all_games())
    said = [tr("welcome.group", games=listed)]
    said += [tr("welcome.paused", title=tournament.title, id=tournament.id)
             for tournament in await services.repos.tournaments.active_in_chat(event.chat.id)
             if tournament.status == "paused"]
    if warning := await rights_problem(services, event.chat.id, tr):
        said.append(warning)
    await services.bot.send_message(event.chat.id, "\n\n".join(said))
    services.remember("greeted", event.chat.id, lasting=GREETING_ANSWERS_START)


@router.my_chat_member(ChatMemberUpdatedFilter(LEAVE_TRANSITION),
                       F.chat.type.in_({"group", "supergroup"}))
async def removed(event: ChatMemberUpdated, services: Services) -> None:
    """Removed from a group: its running tournaments pause at once (no clock runs out while
    nobody can play) and their organisers are told in private how to go on."""
    await group_lost(services, event.chat.id)
