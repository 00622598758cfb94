"""Each format's rules for what is played next: the first round at the start, then, after
every change, the matches that became playable (and byes), or the end.

These functions only read and write storage; :mod:`bot.features.formats.runner` says what
happened in the chat.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache

from bot.features.formats.state import (
    AHEAD,
    BRACKETS,
    POINTS,
    STAGE,
    Run,
    load,
    match_kind,
    results_of,
    save_record,
)
from bot.game_settings import SWISS_ROUNDS
from bot.services import Services
from games.common.errors import IllegalAction
from games.tournament import (
    Result,
    Row,
    cross_seeded,
    placed_outside_playoff,
    round_robin,
    split_into_groups,
    standings,
    swiss_inputs,
    swiss_most_rounds,
    swiss_pairings,
    swiss_rounds_left,
)
from storage.repositories.matches import MatchRow, NewMatch
from storage.repositories.tournaments import LIVE


@dataclass
class Step:
    """What one pass changed: rows to announce, the finished flag, a note for the chat."""

    run: Run
    opened: list[MatchRow] = field(default_factory=list)
    finished: bool = False
    note: str | None = None
    note_params: dict = field(default_factory=dict)
    replaced: list[Replaced] = field(default_factory=list)
    """Players a corrected result put in a made match in another's place."""


@dataclass(frozen=True)
class Replaced:
    """In ``match`` (as it now reads), ``new`` plays in ``old``'s place."""

    match: MatchRow
    old: int
    new: int


def group_count(run: Run) -> int:
    default = 2 if run.format == "groups_playoff" else 1
    return run.settings.get("groups", default)


def minimum(settings: dict) -> int:
    """Players a format needs: two per group for groups, else two."""
    if settings.get("format") in ("round_robin", "groups_playoff"):
        return 2 * settings.get("groups", 2 if settings.get("format") == "groups_playoff" else 1)
    return 2


async def begin(services: Services, run: Run, players: list[int]) -> Run:
    """Store the seeded field; a round robin creates all its matches now (rounds open one
    at a time), the other formats pair as they go. One write: a start run again after a
    stop finds the field stored only with its matches (it used to find the field alone,
    made no matches, and ended the round robin at once, unplayed)."""
    groups = split_into_groups(players, group_count(run)) if run.phase == "round_robin" \
        else [players]
    async with services.db.together():
        run = await save_record(services, run, players=players, groups=groups)
        if run.phase == "round_robin":
            await _create_round_robin(services, run, groups)
    return await load(services, run.tournament.id)


async def _create_round_robin(services: Services, run: Run, groups: list[list[int]]) -> None:
    kind = match_kind(run.tournament)
    prefixes = [f"G{number}-" if len(groups) > 1 else "" for number in range(1, len(groups) + 1)]
    await services.repos.matches.create_many(run.tournament.id, STAGE, [
        NewMatch(round_no, f"{prefix}R{round_no}-{index}", kind, a, b)
        for prefix, group in zip(prefixes, groups, strict=True)
        for round_no, pairs in enumerate(round_robin(group), start=1)
        for index, (a, b) in enumerate(pairs, start=1)], services.clock.now())


async def advance(services: Services, run: Run) -> Step:
    """One pass of the format: open what became playable, or finish (a tournament over
    opens nothing: a result corrected after the end changes only its placings)."""
    if run.tournament.status == "finished":
        return Step(run, finished=True)
    if run.phase in BRACKETS:
        return await _bracket_step(services, run)
    if run.phase == "swiss_elim":
        return await _swiss_elim_step(services, run)
    if run.open_rows():
        return Step(run)
    if run.phase == "swiss":
        return await _swiss_step(services, run)
    return await _round_robin_step(services, run)


async def _round_robin_step(services: Services, run: Run) -> Step:
    pending = [row for row in run.rows if row.status == "pending"]
    if not pending:
        if run.format == "groups_playoff":
            return await _start_playoff(services, run)
        return Step(run, finished=True)
    number, playing = min(row.round for row in pending), run.tournament.opening_status
    opened = {row.id: {"status": playing if row.player_b is not None else "bye"}
              for row in pending if row.round == number}
    await services.repos.matches.update_many(opened, services.clock.now())
    run = await load(services, run.tournament.id)
    return Step(run, [row for row in run.rows if row.id in opened])


async def _start_playoff(services: Services, run: Run) -> Step:
    """Rank each group, cross-seed the top K of each into single elimination."""
    ranked = [[row.player for row in rows] for rows in _playoff_rankings(run)]
    seeds = cross_seeded(ranked, run.settings.get("top", 2))
    run = await save_record(services, run, seeds=seeds, log=[])
    step = await _bracket_step(services, run)
    step.note, step.note_params = "formats.playoff_started", {"count": len(seeds)}
    return step


def _playoff_rankings(run: Run) -> list[list[Row]]:
    """Each group's table without the players who may not go on (removed, or no place)."""
    return [[row for row in table if row.place is not None and row.player not in run.removed]
            for _, table in group_tables(run)]


def seeded_at_the_line(run: Run) -> list[tuple[int, list[int], list[int]]]:
    """Players level on every tie-break across a group's qualifying line, whom seeding
    (the registration order) split: (group index, those through, those out)."""
    top, found = run.settings.get("top", 2), []
    for index, rows in enumerate(_playoff_rankings(run)):
        if len(rows) <= top or rows[top - 1].place != rows[top].place:
            continue
        tied = [row.player for row in rows if row.place == rows[top].place]
        through = {row.player for row in rows[:top]}
        found.append((index, [p for p in tied if p in through],
                      [p for p in tied if p not in through]))
    return found


def decided_tables(run: Run) -> list[tuple[int, list[Row]]]:
    """The group tables as shown: once the playoff started, a tie at a qualifying line that
    seeding split shows those out below those through (A 1, 1, 3 instead of 1, 1, 1)."""
    tables = group_tables(run)
    if "seeds" not in run.record:
        return tables
    for index, through, out in seeded_at_the_line(run):
        rows = tables[index][1]
        tables[index] = (index, [replace(row, place=row.place + len(through))
                                 if row.player in out else row for row in rows])
    return tables


def _round_robin_kept(run: Run, leaving: int | None = None) -> list[int]:
    """The rounds a round robin plays: those with a match opened, or still to open between
    two players in (``leaving``: one about to leave); a round that withdrawals left only
    rests in (its matches void or walkovers decided ahead) passes unsaid and is not counted."""
    gone = run.removed | ({leaving} if leaving is not None else set())
    return sorted({row.round for row in run.rows
                   if row.slot[0] in "GR" and row.player_b is not None
                   and not row.result.get(AHEAD)
                   and not (row.status == "pending" and gone & set(row.players))})


def round_robin_rounds(run: Run, leaving: int | None = None) -> int:
    """How many rounds a round robin plays (:func:`_round_robin_kept`)."""
    return len(_round_robin_kept(run, leaving))


def round_said(run: Run, number: int) -> int:
    """Round ``number`` as said to the chat: in a round robin, counting only the rounds it
    plays, so that a round of rests only leaves no gap in the headings."""
    if run.phase != "round_robin":
        return number
    return sum(1 for kept in _round_robin_kept(run) if kept <= number)


def swiss_planned_rounds(run: Run, leaving: int | None = None) -> int:
    """The rounds a Swiss event plays: those set, or fewer when its field cannot play that
    many without a rematch (the organiser was warned at the start); once players have left
    (``leaving``: one about to), the rounds paired so far and as many more as the players
    still in can be paired for (the count said where it shrinks, the removal's answer)."""
    most = min(run.settings.get("rounds", SWISS_ROUNDS), swiss_most_rounds(len(run.seeds)))
    gone = run.removed | ({leaving} if leaving is not None else set())
    if not gone:
        return most
    paired = max((row.round for row in run.rows), default=0)
    met = [row for row in run.rows if row.status != "void"]
    return paired + swiss_rounds_left(
        [p for p in run.seeds if p not in gone],
        [frozenset(row.players) for row in met if row.player_b is not None],
        [row.player_a for row in met if row.player_b is None], most - paired)


async def _swiss_step(services: Services, run: Run) -> Step:
    played = max((row.round for row in run.rows), default=0)
    planned = swiss_planned_rounds(run)
    if played >= planned:
        return Step(run, finished=True)
    results = results_of(run.rows)
    inputs = swiss_inputs([p for p in run.seeds if p not in run.removed], results, POINTS)
    every = swiss_inputs(run.seeds, results, POINTS)
    try:
        pairs = swiss_pairings(inputs.scores, every.played, every.had_bye,
                               rounds_after=planned - (played + 1))
    except IllegalAction as error:  # the look-ahead's bounds reached: no round is left
        return Step(run, finished=True,
                    note=f"formats.swiss_unpairable.{error.params['reason']}")
    return await _create_pairs(services, run, played + 1, "S", pairs)


async def _create_pairs(services: Services, run: Run, round_no: int, prefix: str,
                        pairs: list[tuple[int, int | None]]) -> Step:
    """Rows for a freshly paired round (a bye is a win without play)."""
    kind, existing = match_kind(run.tournament), {row.slot for row in run.rows}
    playing = run.tournament.opening_status
    await _create(services, run, [
        NewMatch(round_no, slot, kind, a, b, playing if b is not None else "bye")
        for index, (a, b) in enumerate(pairs, start=1)
        if (slot := f"{prefix}{round_no}-{index}") not in existing])
    new = await load(services, run.tournament.id)
    return Step(new, [row for row in new.rows if row.slot not in existing])


async def _swiss_elim_step(services: Services, run: Run) -> Step:
    engine = run.swiss_elim()
    if engine.finished:
        return Step(run, finished=True)
    return await _create_pairs(services, run, engine.round, "E", engine.pairings)


async def _bracket_step(services: Services, run: Run) -> Step:
    bracket = run.bracket()
    if bracket.finished:
        return Step(run, finished=True)
    kind, existing = match_kind(run.tournament), {row.slot for row in run.rows}
    await _follow_corrections(services, run)
    await _create(services, run, [
        NewMatch(view.round, view.id, kind, *view.slots, run.tournament.opening_status)
        if view.status == "ready"
        else NewMatch(view.round, view.id, kind, view.winner, None, "bye")
        for view in bracket.matches
        if view.id not in existing and view.status in ("ready", "walkover")])
    new = await load(services, run.tournament.id)
    by_id = {row.id: row for row in new.rows}
    return Step(new, [row for row in new.rows if row.slot not in existing],
                replaced=[Replaced(by_id[row_id], old, player)
                          for row_id, old, player in new.record.get(REPLACING, [])
                          if row_id in by_id])


REPLACING = "replacing"
"""The run record's players put in a made match by a correction (``[row id, the player
out, the player in]`` each) whose boards are drawn again and whose change is said with what
the tournament says next; noted with the rows they changed, so a process that stops before
that does it when the tournament goes on (:func:`replacements_said` forgets them)."""


async def _follow_corrections(services: Services, run: Run) -> None:
    """A made match whose place a corrected result gave to another player (nothing played
    in it yet: :func:`~bot.features.formats.results.next_begun`): that player put in it,
    logged as the row's settling entry, and noted in :data:`REPLACING`, in one write."""
    views, now = {view.id: view for view in run.bracket().matches}, services.clock.now()
    moved = [(row, side, old, player) for row in run.rows
             if row.status in LIVE and (view := views.get(row.slot)) is not None
             and view.status == "ready"
             for side, old, player in zip(("player_a", "player_b"), row.players, view.slots,
                                          strict=True) if old != player]
    if not moved:
        return
    async with services.db.together():
        for row, side, old, player in moved:
            await services.repos.matches.settle(row.id, {
                "meta": "replace", "side": side, "old": old, "new": player}, None, now)
        await save_record(services, run, **{REPLACING: [
            *run.record.get(REPLACING, []), *([row.id, old, player]
                                              for row, _, old, player in moved)]})


async def replacements_said(services: Services, tournament_id: int) -> None:
    """The players put in made matches (:data:`REPLACING`) are said: forgotten."""
    run = await load(services, tournament_id)
    if run.record.get(REPLACING):
        await save_record(services, run, **{REPLACING: []})


async def _create(services: Services, run: Run, new: list[NewMatch]) -> None:
    """The round's new matches and each bye's win in one write (a stop between the two
    left a bye made and never won: its player rested the round without its point)."""
    now = services.clock.now()
    async with services.db.together():
        for row in await services.repos.matches.create_many(run.tournament.id, STAGE, new, now):
            if row.player_b is None:
                await services.repos.matches.settle(
                    row.id, {"meta": "bye", "winner": row.player_a}, None, now)


TABLES_REMEMBERED = 256
"""Group tables kept computed (:func:`_ranked`), the least recently used forgotten first."""
_TABLE_SLOT = re.compile(r"^((G\d+-)?R|S)\d+-\d+$")


def group_of(slot: str) -> int:
    return int(slot[1:slot.index("-")]) - 1 if slot.startswith("G") else 0


def group_tables(run: Run) -> list[tuple[int, list[Row]]]:
    """Round robin or Swiss tables: one per group (index, rows); withdrawals per SPEC §6."""
    record = run.record
    withdrawn, disqualified = record.get("withdrawn", []), record.get("disqualified", [])
    is_rr = run.format in ("round_robin", "groups_playoff")
    groups = record.get("groups") if is_rr else [record["players"]]
    tables = []
    for index, group in enumerate(groups):
        rows = [row for row in run.rows if _TABLE_SLOT.match(row.slot)
                and group_of(row.slot) == index]
        tables.append((index, list(_ranked(
            tuple(group), tuple(results_of(rows)), run.tiebreaks(),
            tuple(p for p in withdrawn if p in group),
            tuple(p for p in disqualified if p in group), is_rr,
            tuple(table_stats(rows).items()), run.walkover()))))
    return tables


@lru_cache(maxsize=TABLES_REMEMBERED)
def _ranked(group: tuple[int, ...], results: tuple[Result, ...], tiebreaks: tuple[str, ...],
            withdrawn: tuple[int, ...], disqualified: tuple[int, ...], round_robin: bool,
            stats: tuple[tuple[int, Fraction], ...], walkover: int) -> tuple[Row, ...]:
    """A group's table, computed once for the same results: a round's end ranks the group
    to pair or place and again for the table it posts, and a ``/standings`` asked again
    before the next result is answered from here (ranking 8 players took ~0.8 ms)."""
    return tuple(standings(group, results, points=POINTS, tiebreaks=tiebreaks,
                           withdrawn=withdrawn, disqualified=disqualified,
                           round_robin=round_robin, stats=dict(stats), walkover=walkover))


def table_stats(rows: list[MatchRow]) -> dict[int, Fraction]:
    """Each player's value of the ``stat`` tie-break: the sums of the [numerator,
    denominator] pairs their finished matches stored (darts: marks per visit over the
    table's matches, ``docs/rules.md``); players without any are left out: the tie-break
    does not compare them (:func:`games.tournament.standings.split_by_stat`)."""
    sums: dict[int, list[int]] = {}
    for row in rows:
        stat = row.result.get("stat") if row.status == "finished" else None
        for player, (top, bottom) in zip(row.players, stat or (), strict=False):
            total = sums.setdefault(player, [0, 0])
            total[0], total[1] = total[0] + top, total[1] + bottom
    return {p: Fraction(top, bottom) for p, (top, bottom) in sums.items() if bottom}


def placings(run: Run) -> dict[int, int]:
    """Final places (shared numbers for shared places)."""
    if run.format == "groups_playoff" and run.phase in BRACKETS:
        return run.engine().placings() | _placed_in_groups(run)
    if run.phase in BRACKETS or run.phase == "swiss_elim":
        return run.engine().placings()
    places: dict[int, int] = {}
    for _, table in group_tables(run):
        places |= {row.player: row.place for row in table if row.place is not None}
    return places


def placed(run: Run) -> list[list[int]]:
    """The final places as [player, place] pairs in player order (as a job stores them):
    what a correction after the end compares to tell whether its placings moved."""
    return sorted([player, place] for player, place in placings(run).items())


def uncounted(run: Run) -> set[int]:
    """The players whose results the tables do not count (SPEC §6): the disqualified, and
    those a round robin removed for withdrawing before half their matches — the players
    without a place."""
    dropped = set(run.record.get("disqualified", []))
    if run.format in ("round_robin", "swiss", "groups_playoff"):
        dropped |= {row.player for _, table in group_tables(run) for row in table
                    if row.place is None}
    return dropped


def _placed_in_groups(run: Run) -> dict[int, int]:
    """The group players the playoff left out, placed after it by their group finish."""
    tables = [table for _, table in group_tables(run)]
    stats = table_stats([row for row in run.rows if _TABLE_SLOT.match(row.slot)])
    return placed_outside_playoff(tables, run.seeds, run.settings.get("top", 2),
                                  run.tiebreaks(), stats)


def is_open(row: MatchRow) -> bool:
    return row.status in LIVE
