"""The formats' tables and brackets as pictures, with the text as the fallback when a
picture cannot be drawn; used by /standings and /bracket and by the table posted after
every completed round of a round robin or Swiss event.

A game whose declared tie-breaks use a statistic of its own (darts, ``docs/rules.md``)
gets the legs layout: legs won and lost, their difference and the statistic instead of
Buchholz and Sonneborn-Berger. Under the picture a legend says what the short column
names and the qualifiers' bar mean; players level on every tie-break share a place, and
the table says so.

Pictures are sent with :func:`bot.render.posting.post_pictures`, named by what they show.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from fractions import Fraction

from bot.features.formats import progress
from bot.features.formats.state import Run, names_of, ties_of
from bot.games import game_of
from bot.i18n import Markup, Translator, place_mark
from bot.middlewares.limits import CAPTION_LIMIT, size
from bot.play.context import own_key, own_text
from bot.render import BAR_MARK, standings_png
from bot.render.posting import post_pictures
from bot.services import Services
from games.tournament import Row, tied_groups

log = logging.getLogger(__name__)
GROUP_LETTERS = "ABCDEFGHIJKLMNOP"


def legs_layout(run: Run) -> bool:
    """Does the game rank by legs and a statistic of its own (the darts layout)?"""
    return "stat" in (game_of(run.tournament.game).tiebreaks or ())


def _stat_text(tr: Translator, value: Fraction | None) -> str:
    return tr.decimal(float(value)) if value is not None else "—"


def _cells(tr: Translator, rows: list[Row], label: dict[int, str],
           stats: dict[int, Fraction] | None, ties: dict[int, int] | None = None,
           diff: bool = False) -> list[list[str]]:
    """One picture row per player: the common columns, then the layout's own; ``ties``
    (when any match was tied) takes the ties out of the draws into a column of its own;
    ``diff`` (a tie-break of the table) shows the score difference after them."""
    cells = []
    for r in rows:
        common = [str(r.place) if r.place else "—", label[r.player], str(r.points)]
        if stats is not None:
            cells.append(common + [f"{r.wins}-{r.losses}", f"{r.scored}:{r.scored - r.diff}",
                                   _signed(r.diff), _stat_text(tr, stats.get(r.player))])
            continue
        tied = ties.get(r.player, 0) if ties is not None else None
        record = [f"{r.wins}-{r.draws - (tied or 0)}-{r.losses}",
                  *([] if tied is None else [str(tied)]), *([_signed(r.diff)] if diff else [])]
        cells.append(common + record + [str(r.buchholz), str(r.sonneborn_berger)])
    return cells


def _signed(number: int) -> str:
    return f"{number:+d}" if number else "0"


def _header(tr: Translator, game: str, stats: bool, ties: bool, diff: bool) -> list[str]:
    """The picture's column names, matching :func:`_cells` (the legs in the game's own
    word: FinCricket's games)."""
    if stats:
        return tr.plain(own_key(tr, "formats.table_header_legs", game)).split("|")
    header = tr.plain("formats.table_header_ties" if ties else "formats.table_header").split("|")
    return header[:-2] + ([tr.plain("formats.table_column_diff")] if diff else []) + header[-2:]


def _text_row(tr: Translator, game: str, r: Row, label: dict[int, str],
              stats: dict[int, Fraction] | None) -> str:
    points = Markup(tr("formats.n_points", count=r.points))
    if stats is None:
        return tr("formats.table_row", place=place_mark(r.place), name=label[r.player],
                  points=points, wins=r.wins, draws=r.draws, losses=r.losses,
                  buchholz=r.buchholz)
    return own_text(tr, "formats.table_row_legs", game, place=place_mark(r.place),
                    name=label[r.player], points=points, wins=r.wins, losses=r.losses,
                    won=r.scored, lost=r.scored - r.diff, stat=_stat_text(tr, stats.get(r.player)))


def shared_lines(tr: Translator, tables: list[tuple[str, list[Row]]],
                 label: dict[int, str]) -> list[str]:
    """One line naming the places shared by players level on every tie-break, each with
    its group's letter (""), or none; a table where nobody has played says nothing."""
    shared = []
    for letter, rows in tables:
        if not any(r.played for r in rows):
            continue
        place = {r.player: r.place for r in rows}
        shared += [tr.plain("formats.table_shared_place", place=f"{letter} {place[g[0]]}".strip(),
                            names=", ".join(label[p] for p in g)) for g in tied_groups(rows)]
    return [tr("formats.table_shared", places="; ".join(shared))] if shared else []


def _letters(tables: list[tuple[int, list[Row]]]) -> list[tuple[str, list[Row]]]:
    many = len(tables) > 1
    return [(GROUP_LETTERS[index] if many else "", rows) for index, rows in tables]


def _text_tables(tr: Translator, run: Run, tables: list[tuple[int, list[Row]]],
                 label: dict[int, str], stats: dict[int, Fraction] | None) -> str:
    blocks = []
    for index, rows in tables:
        lines = [_text_row(tr, run.tournament.game, r, label, stats) for r in rows]
        head = f"{GROUP_LETTERS[index]}:\n" if len(tables) > 1 else ""
        blocks.append(head + "\n".join(lines))
    notes = shared_lines(tr, _letters(tables), label)
    return tr("formats.table", title=run.tournament.title,
              rows=Markup("\n\n".join(blocks + notes)))


def qualifiers(run: Run) -> int:
    """How many of each group's table go on (the bar), in a group stage with a playoff."""
    return run.settings.get("top", 2) if run.format == "groups_playoff" else 0


def legend(tr: Translator, legs: str | None, bar: bool, ties: bool = False,
           diff: bool = False) -> list[str]:
    """The legend lines under a table picture; ``legs``: the game whose legs layout it is
    (its own words: Shanghai's elements, FinCricket's games and marks), None for the
    standard one."""
    key = own_key(tr, "formats.legend.legs", legs) if legs else "formats.legend.standard"
    lines = tr.plain(key).split("\n")
    lines += [tr.plain("formats.legend.ties")] if ties else []
    lines += [tr.plain("formats.legend.diff")] if diff else []
    return lines + ([f"{BAR_MARK} {tr.plain('formats.legend.bar')}"] if bar else [])


def _ties(run: Run, tables: list[tuple[int, list[Row]]]) -> dict[int, int] | None:
    """Each player's ties, when any finished match was a tie (armchair: equal totals)."""
    if not any(row.result.get("tie") for row in run.rows if row.status == "finished"):
        return None
    return {r.player: ties_of(run, r.player) for _, rows in tables for r in rows}


def marked_names(tr: Translator, run: Run, label: dict[int, str]) -> dict[int, str]:
    """The names with a player who withdrew or was disqualified marked so: their row
    stays in the table (a withdrawal's results may still count), their place in the final
    placings (a finalist who left is second), without saying why."""
    marks = {player: "formats.table.withdrew" for player in run.record.get("withdrawn", [])}
    marks |= {player: "formats.table.disqualified"
              for player in run.record.get("disqualified", [])}
    return label | {player: tr.plain(key, name=label.get(player, "?"))
                    for player, key in marks.items()}


async def post_tables(services: Services, tr: Translator, run: Run, caption: str,
                      chat_id: int | None = None, *, lead: Sequence[str] = (),
                      then: Sequence[str] = (), thread_id: int | None = None) -> bool:
    """The round robin or Swiss table(s) of ``run``, one picture per group, in its group
    (or in ``chat_id``: a player's DM; in its forum topic ``thread_id``), with the shared
    places said in the caption, and
    ``lead`` (the result that ended the round) above and ``then`` (what comes next: the next
    round's pairs) below when all of it fits a caption: one message instead of three.
    Whether they were carried (all or none)."""
    title = run.tournament.title
    label = marked_names(tr, run, await names_of(services, run.tournament.id))
    tables = progress.decided_tables(run)
    stats = progress.table_stats(run.rows) if legs_layout(run) else None
    ties = None if stats is not None else _ties(run, tables)
    diff = stats is None and "diff" in run.tiebreaks()  # it may decide a place: shown
    game = run.tournament.game
    header = _header(tr, game, stats is not None, ties is not None, diff)
    many, bar = len(tables) > 1, qualifiers(run)
    notes = shared_lines(tr, _letters(tables), label)

    lines = legend(tr, game if stats is not None else None, bar > 0, ties is not None, diff)
    calls = [(standings_png, (f"{title} · {GROUP_LETTERS[i]}" if many else title, header,
                              _cells(tr, rows, label, stats, ties, diff),
                              min(bar, sum(row.place is not None for row in rows)), lines))
             for i, rows in tables]  # a player who left (no place) is never barred through
    head = "\n".join([caption, *notes])
    carried = size("\n\n".join([*lead, head, *then])) <= CAPTION_LIMIT
    above, below = (list(lead), list(then)) if carried else ([], [])
    await post_pictures(services, chat_id or run.tournament.chat_id, calls,
                        "\n\n".join([*above, head, *below]),
                        lambda: "\n\n".join([*above, _text_tables(tr, run, tables, label,
                                                                    stats), *below]),
                        name=f"{run.tournament.game}-standings", thread_id=thread_id)
    return carried
