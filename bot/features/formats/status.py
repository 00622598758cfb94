"""/standings and /bracket for the formats' tournaments: pictures, with the text as the
fallback when a picture cannot be drawn. The Cup answers for its own tournaments (this
router comes first and skips them)."""

from __future__ import annotations

import logging

from aiogram import F
from aiogram.dispatcher.event.bases import SkipHandler
from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, InputMediaPhoto, Message

from bot.features.access import target_tournament
from bot.features.formats import progress
from bot.features.formats.runner import GROUP_LETTERS, placings_text
from bot.features.formats.state import BRACKETS, Run, load, names_of
from bot.features.handlers import Handlers
from bot.i18n import Markup, Translator
from bot.render import bracket_png, standings_png
from bot.services import Services
from games.tournament import Bracket, Row

router = Handlers("formats-status")
log = logging.getLogger(__name__)


async def _run_here(message: Message, services: Services, tr: Translator,
                    args: str | None) -> Run | None:
    """The chat's non-Cup tournament once it has started (the Cup's go to the Cup)."""
    target = await target_tournament(services, message.chat.id, args)
    if target.tournament is None or target.tournament.game == "cup":
        raise SkipHandler
    if not target.tournament.started:
        await message.answer(tr("standings.none"))
        return None
    return await load(services, target.tournament.id)


async def _send_pictures(message: Message, pictures: list[bytes], caption: str) -> None:
    if len(pictures) == 1:
        await message.answer_photo(BufferedInputFile(pictures[0], "picture.png"),
                                   caption=caption)
        return
    await message.answer_media_group([
        InputMediaPhoto(media=BufferedInputFile(png, f"picture-{n}.png"),
                        caption=caption if n == 0 else None)
        for n, png in enumerate(pictures)])


def _cells(rows: list[Row], label: dict[int, str]) -> list[list[str]]:
    return [[str(r.place) if r.place else "—", label[r.player], str(r.points),
             f"{r.wins}-{r.draws}-{r.losses}", str(r.buchholz), str(r.sonneborn_berger)]
            for r in rows]


@router.message(Command("standings"), F.chat.type != "private")
async def standings_command(message: Message, command: CommandObject, services: Services,
                            tr: Translator) -> None:
    run = await _run_here(message, services, tr, command.args)
    if run is None:
        return
    title = run.tournament.title
    if run.phase in BRACKETS or run.phase == "swiss_elim":
        text = await placings_text(services, tr, run) or tr("formats.no_places_yet")
        key = "formats.final_placings" if run.tournament.status == "finished" \
            else "formats.placings_so_far"
        await message.answer(tr(key, title=title, placings=Markup(text)))
        if run.format != "groups_playoff":
            return
    label = await names_of(services, run.tournament.id)
    tables = progress.group_tables(run)
    header = tr("formats.table_header").split("|")
    many = len(tables) > 1
    try:
        pictures = [standings_png(f"{title} · {GROUP_LETTERS[i]}" if many else title, header,
                                  _cells(rows, label)) for i, rows in tables]
    except (OSError, ValueError):
        log.exception("standings picture failed; sending the text table")
        await message.answer(_text_tables(tr, title, tables, label))
        return
    await _send_pictures(message, pictures, tr("formats.standings_caption", title=title))


def _text_tables(tr: Translator, title: str, tables: list[tuple[int, list[Row]]],
                 label: dict[int, str]) -> str:
    blocks = []
    for index, rows in tables:
        lines = [tr("formats.table_row", place=r.place or "—", name=label[r.player],
                    points=r.points, wins=r.wins, draws=r.draws, losses=r.losses,
                    buchholz=r.buchholz) for r in rows]
        head = f"{GROUP_LETTERS[index]}:\n" if len(tables) > 1 else ""
        blocks.append(head + "\n".join(lines))
    return tr("formats.table", title=title, rows=Markup("\n\n".join(blocks)))


def _rounds(tr: Translator, bracket: Bracket, section: str, label: dict[int, str]
            ) -> list[tuple[str, list[tuple[str, str, str | None]]]]:
    def name(slot) -> str:
        if slot is None:
            return tr("formats.bye_slot")
        return label.get(slot, "?") if isinstance(slot, int) else "?"
    views = [v for v in bracket.matches if v.section == section and v.status != "void"]
    rounds = []
    for number in sorted({v.round for v in views}):
        matches = [(name(v.slots[0]), name(v.slots[1]), label.get(v.winner) if v.winner
                    else None) for v in views if v.round == number]
        rounds.append((tr(f"formats.column.{section}", round=number), matches))
    return rounds


@router.message(Command("bracket"), F.chat.type != "private")
async def bracket_command(message: Message, command: CommandObject, services: Services,
                          tr: Translator) -> None:
    run = await _run_here(message, services, tr, command.args)
    if run is None:
        return
    if run.phase not in BRACKETS:
        await message.answer(tr("bracket.none" if run.format == "groups_playoff"
                                else "formats.no_bracket"))
        return
    bracket, label = run.bracket(), await names_of(services, run.tournament.id)
    parts = [_rounds(tr, bracket, "W", label) + _rounds(tr, bracket, "3P", label)]
    if run.phase == "double_elim":
        parts[0] += _rounds(tr, bracket, "GF", label)
        parts.append(_rounds(tr, bracket, "L", label))
    title = run.tournament.title
    try:
        pictures = [png for rounds in parts for png in bracket_png(title, rounds)]
    except (OSError, ValueError):
        log.exception("bracket picture failed; sending the text")
        await message.answer(_text_bracket(tr, title, parts))
        return
    await _send_pictures(message, pictures, tr("formats.bracket_caption", title=title))


def _text_bracket(tr: Translator, title: str, parts: list) -> str:
    lines = [f"{name}: {a} — {b}" + (f" → {winner}" if winner else "")
             for rounds in parts for name, matches in rounds for a, b, winner in matches]
    return tr("formats.table", title=title, rows="\n".join(lines))
