"""The friendly matches of a chat in its organisers' /export: a ``friendlies`` part of every
tournament's export there, and — where the chat has no tournament at all — an export of the
friendlies alone. Each friendly is exported like a tournament (players, the match, its
winner and result, the whole action log), plus one CSV row per logged action."""

from __future__ import annotations

import json
from typing import Any

from aiogram.filters import Command
from aiogram.types import BufferedInputFile, Message

from bot.features.export import CHAT_SECTIONS, collect, table_csv
from bot.features.handlers import Handlers
from bot.games import Table
from bot.i18n import Translator
from bot.middlewares.filters import IN_GROUP
from bot.middlewares.scope import Scope
from bot.play.refusal import Refusal
from bot.services import Services

router = Handlers("friendly-export")
CSV_HEADER = ["friendly_id", "game", "title", "match_id", "player_a", "player_b", "status",
              "winner", "seq", "actor", "action", "time"]


async def friendlies_section(services: Services, chat_id: int) -> tuple[Any, Table | None]:
    """Every friendly played in the chat: its export as JSON, and the actions as CSV rows."""
    played = [await collect(services, friendly)
              for friendly in await services.repos.tournaments.friendlies_in_chat(chat_id)]
    rows = [[item["tournament"]["id"], item["tournament"]["game"], item["tournament"]["title"],
             match["id"], *match["players"], match["status"], match["winner"], action["seq"],
             action["actor"], json.dumps(action["action"], ensure_ascii=False),
             action["time"]]
            for item in played for match in item["matches"] for action in match["actions"]]
    return played, (CSV_HEADER, rows) if rows else None


CHAT_SECTIONS["friendlies"] = friendlies_section


async def _friendlies_only(message: Message, scope: Scope) -> bool:
    """Filter: the group has friendly matches but no tournament for /export to be about."""
    if (await scope.target()).tournament is not None:
        return False
    return bool(await scope.services.repos.tournaments.friendlies_in_chat(message.chat.id))


@router.message(Command("export"), IN_GROUP, _friendlies_only)
async def export_friendlies(message: Message, scope: Scope, services: Services,
                            tr: Translator) -> None:
    if not await scope.organiser():
        raise Refusal("access.organisers_only")
    data, table = await friendlies_section(services, message.chat.id)
    stem = f"chat{message.chat.id}-friendlies"
    await message.answer_document(BufferedInputFile(
        json.dumps({"friendlies": data}, ensure_ascii=False, indent=2).encode(),
        f"{stem}.json"))
    if table is not None:
        await message.answer_document(BufferedInputFile(table_csv(table).encode(),
                                                        f"{stem}.csv"),
                                      caption=tr("friendly.export_caption", count=len(data)))
