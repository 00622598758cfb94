"""/export: everything about a tournament as JSON and its match log as CSV (one row per
action, so every round's dice are there), for organisers: sent to the organiser's private
chat (the group is told so in one line, not shown three to six files). An organiser who
never started the bot gets a deep-link button instead (``/start x-<tournament id>``): the
files come once the chat is open, and the group still sees one message.

A game adds its own parts (``bot.games.Game.export_sections``): a section returns its JSON
value and, optionally, a table that is sent as one more CSV file (standings, statistics …).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from aiogram import F
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import BufferedInputFile, Message

from bot.features.access import Target, Targeted, is_organiser
from bot.features.handlers import Handlers
from bot.features.keyboards import link_keyboard
from bot.games import Table, game_of
from bot.i18n import Translator
from bot.middlewares.filters import IN_PRIVATE
from bot.services import Services
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import LIVE, Tournament

router = Handlers("export")
ChatSection = Callable[[Services, int], Awaitable[tuple[Any, "Table | None"]]]
CHAT_SECTIONS: dict[str, ChatSection] = {}
"""Parts about the whole chat rather than one tournament (its friendly matches), added by
the features that keep them: name → a section like a game's, given the chat id."""
CSV_COLUMNS = ("match_id", "stage", "round", "slot", "format", "player_a", "player_b",
               "status", "winner", "seq", "actor", "action", "time")
LINK_PREFIX = "x-"
"""``/start x-<tournament id>``: the export of that tournament, to an organiser."""


async def collect(services: Services, tournament: Tournament) -> dict:
    repos = services.repos
    entrants = await repos.entrants.list(tournament.id)
    matches = [await _match_export(services, match)
               for match in await repos.matches.for_tournament(tournament.id)]
    hidden = {m["id"] for m in matches if "view" in m}  # live, with secrets: their log held back
    return {
        "tournament": {"id": tournament.id, "game": tournament.game, "title": tournament.title,
                       "status": tournament.status, "settings": tournament.settings,
                       "starts_at": tournament.starts_at.isoformat()
                       if tournament.starts_at else None, "timezone": tournament.timezone},
        "entrants": [{"user_id": e.user_id, "name": e.label, "username": e.username,
                      "status": e.status, "seed": e.seed, "checked_in": e.checked_in}
                     for e in entrants],
        "matches": matches,
        "organiser_log": [_without_secret(entry, hidden)
                          for entry in await repos.organiser_log.for_tournament(tournament.id)],
    }


def _without_secret(entry: dict[str, Any], hidden: set[int]) -> dict[str, Any]:
    """An organiser's log entry, less the move an ``/enter`` made for a player in a match
    whose log is held back (a choice or card the opponent has not seen yet)."""
    details = entry["details"]
    if entry["action"] != "enter" or details.get("match_id") not in hidden:
        return entry
    return entry | {"details": {key: value for key, value in details.items() if key != "move"}}


async def _match_export(services: Services, match: MatchRow) -> dict[str, Any]:
    """A match with its whole log — unless it is still being played and its engine hides
    something from someone (an unrevealed choice, a hand, the deck order): then only what
    everyone may see (``view(None)``), and the log once the match is over."""
    exported = {
        "id": match.id, "stage": match.stage, "round": match.round, "slot": match.slot,
        "format": match.kind, "players": [match.player_a, match.player_b],
        "status": match.status, "winner": match.winner, "result": match.result}
    if match.status in LIVE and (view := await _public_view(services, match)):
        return exported | {"view": view, "actions": []}
    actions = await services.repos.matches.actions(match.id)
    return exported | {"actions": [{"seq": a.seq, "actor": a.actor_id, "action": a.payload,
                                    "time": a.created_at} for a in actions]}


async def _public_view(services: Services, match: MatchRow) -> dict[str, Any] | None:
    """``view(None)`` of a live match whose players see more than everyone; else None."""
    tournament = await services.repos.tournaments.get(match.tournament_id)
    if match.kind not in game_of(tournament.game).engines:
        return None  # played elsewhere: its log holds the players' reports, all public
    state = await services.matches.current(match)
    public = state.view(None)
    return public if any(state.view(seat) != public for seat in (0, 1)) else None


def table_csv(table: Table) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(table[0])
    writer.writerows(table[1])
    return out.getvalue()


def as_csv(data: dict) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for match in data["matches"]:
        head = [match["id"], match["stage"], match["round"], match["slot"], match["format"],
                *match["players"], match["status"], match["winner"]]
        for action in match["actions"] or [{"seq": "", "actor": "", "action": "", "time": ""}]:
            writer.writerow([*head, action["seq"], action["actor"],
                             json.dumps(action["action"], ensure_ascii=False)
                             if action["action"] else "", action["time"]])
    return out.getvalue()


@router.message(Command("export"), Targeted(organiser=True))
async def export(message: Message, command: CommandObject, services: Services,
                 tr: Translator, target: Target) -> None:
    tournament, user_id = target.tournament, message.from_user.id
    if await services.opened_private_chat(user_id) and await _deliver(
            services, tournament, user_id, tr):  # drawn up only for a chat it can reach
        await message.answer(tr("export.sent_private", title=tournament.title))
        return
    await message.reply(tr("export.open_private", title=tournament.title),
                        reply_markup=link_keyboard(tr("export.open_button"), services.deep_link(
                            f"{LINK_PREFIX}{tournament.id}")))


@router.message(CommandStart(deep_link=True, magic=F.args.regexp(rf"^{LINK_PREFIX}\d+$")),
                IN_PRIVATE)
async def export_from_link(message: Message, command: CommandObject, services: Services,
                           tr: Translator) -> None:
    """The button /export gives an organiser the bot could not write to (it opens the
    private chat): the files, if the one who pressed it is an organiser of the tournament."""
    tournament = await services.repos.tournaments.get(int(command.args.removeprefix(LINK_PREFIX)))
    if tournament is None:
        await message.answer(tr("tournament.link_unknown"))
    elif not await is_organiser(services, tournament.chat_id, message.from_user.id):
        await message.answer(tr("export.organisers_only", title=tournament.title))
    else:
        await _deliver(services, tournament, message.from_user.id, tr)


async def _deliver(services: Services, tournament: Tournament, user_id: int,
                   tr: Translator) -> bool:
    """Send the export to ``user_id``'s private chat; False when the bot cannot write there
    (the user never started it)."""
    data = await collect(services, tournament)
    tables = {}
    sections = [(name, partial(section, services, tournament)) for name, section
                in game_of(tournament.game).export_sections.items()]
    sections += [(name, partial(section, services, tournament.chat_id))
                 for name, section in CHAT_SECTIONS.items()]
    for name, section in sections:
        data[name], table = await section()
        if table is not None:
            tables[name] = table
    files = _files(f"tournament-{tournament.id}", data, tables)
    return await _send(services, user_id, files, tr("export.caption", title=tournament.title))


def _files(stem: str, data: dict, tables: dict[str, Table]) -> list[BufferedInputFile]:
    """The export's files: everything as JSON, each section's table, the match log last."""
    return [BufferedInputFile(json.dumps(data, ensure_ascii=False, indent=2).encode(),
                              f"{stem}.json"),
            *(BufferedInputFile(table_csv(table).encode(), f"{stem}-{name}.csv")
              for name, table in tables.items()),
            BufferedInputFile(as_csv(data).encode(), f"{stem}.csv")]


async def _send(services: Services, chat_id: int, files: list[BufferedInputFile],
                caption: str) -> bool:
    """Send ``files`` to ``chat_id``, the last with ``caption``; False when the chat is a
    private one the bot cannot write to (its user never started it), which the first file
    finds out."""
    for number, file in enumerate(files, start=1):
        sent = await services.bot.send_document(
            chat_id, file, caption=caption if number == len(files) else None)
        if sent is None:  # undeliverable to a private chat (``bot/sending.py``)
            return False
    return True
