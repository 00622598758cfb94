"""The formats' tables and brackets as pictures, with the text as the fallback when a
picture cannot be drawn; used by /standings and /bracket and by the table posted after
every completed round of a round robin or Swiss event.

Pictures are sent with :func:`bot.render.posting.post_pictures`.
"""

from __future__ import annotations

import logging

from bot.features.formats import progress
from bot.features.formats.state import Run, names_of
from bot.i18n import Markup, Translator
from bot.render import standings_png
from bot.render.posting import post_pictures
from bot.services import Services
from games.tournament import Row

log = logging.getLogger(__name__)
GROUP_LETTERS = "ABCDEFGHIJKLMNOP"


def _cells(rows: list[Row], label: dict[int, str]) -> list[list[str]]:
    return [[str(r.place) if r.place else "—", label[r.player], str(r.points),
             f"{r.wins}-{r.draws}-{r.losses}", str(r.buchholz), str(r.sonneborn_berger)]
            for r in rows]


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


async def post_tables(services: Services, tr: Translator, run: Run, caption: str,
                      chat_id: int | None = None) -> None:
    """The round robin or Swiss table(s) of ``run``, one picture per group, in its group
    (or in ``chat_id``: a player's DM)."""
    title = run.tournament.title
    label = await names_of(services, run.tournament.id)
    tables = progress.group_tables(run)
    header = tr("formats.table_header").split("|")
    many = len(tables) > 1

    def draw() -> list[bytes]:
        return [standings_png(f"{title} · {GROUP_LETTERS[i]}" if many else title, header,
                              _cells(rows, label)) for i, rows in tables]
    await post_pictures(services.bot, chat_id or run.tournament.chat_id, draw, caption,
                        lambda: _text_tables(tr, title, tables, label))
