"""The Cup's group stage: round-robin matches created at the start (in one group, or split
into ``groups`` by the snake), one round at a time, the group's table after every match,
and the qualifiers handed to the playoff (cross-seeded when there are several groups).

A match's group is the first part of its slot: ``G2-R3-1`` is group 2, round 3.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from itertools import groupby

from bot.features.cup.common import on_finish, say_once
from bot.features.cup.playoff import holders, playoff_size, round_title, start_playoff
from bot.games import Opening
from bot.i18n import Markup, Translator, lines, paragraphs, place_mark
from bot.play.context import LIVE, MatchContext, names_of
from bot.play.topics import open_topic
from bot.services import Services
from games.dice_cup import GroupMatch
from games.tournament import cross_seeded, round_robin, split_into_groups
from games.tournament.results import DICE_CUP_POINTS, Result
from games.tournament.standings import DICE_CUP_TIEBREAKS, Row, standings, tied_groups
from storage.repositories.matches import MatchRow, NewMatch
from storage.repositories.tournaments import Entrant, Tournament

STAGE = "groups"
ROLL_OFF = "roll_off"
"""The tournament state's key of the roll-off: each group of players still tied after every
tie-break when the stage ended, in the order drawn (drawn once, then read by every table)."""


def group_engine(settings: dict) -> GroupMatch:
    return GroupMatch()


def two_per_group(settings: dict) -> int:
    return 2 * settings.get("groups", 1)


async def start_group_stage(services: Services, tournament: Tournament,
                            players: list[Entrant], opening: Opening) -> None:
    """Create every group match now (later rounds wait) and open round 1 under the start's
    roster; run again after a stop, round 1 is opened again (its matches made once) and
    announced unless the roster above it was said."""
    seeded = [e.user_id for e in sorted(players, key=lambda e: e.seed)]
    if not await services.repos.matches.for_tournament(tournament.id, STAGE):
        groups = split_into_groups(seeded, tournament.settings.get("groups", 1))
        await services.repos.matches.create_many(tournament.id, STAGE, [
            NewMatch(number, f"G{group}-R{number}-{index}", "group", a, b,
                     "bye" if b is None else "pending")
            for group, members in enumerate(groups, start=1)
            for number, pairs in enumerate(round_robin(members), start=1)
            for index, (a, b) in enumerate(pairs, start=1)], services.clock.now())
    if opening.head:
        tr = await services.translator_for_chat(tournament.chat_id)
        await open_round(services, tr, tournament, 1, paragraphs(
            opening.head, smaller_playoff(tr, tournament, len(seeded))), opening.said)


def smaller_playoff(tr: Translator, tournament: Tournament, players: int) -> str:
    """Said at the start when the field cannot fill the playoff set up (``/new`` promised a
    playoff of 8, three entered): how many go through, and its rounds; else ""."""
    qualifiers = tournament.settings.get("qualifiers", 8)
    size = playoff_size(players, qualifiers)
    if size == qualifiers:
        return ""
    rounds = [round_title(tr, size, n, tournament.settings.get("formats"))
              for n in range(1, size.bit_length())]
    return tr("cup.playoff_smaller", players=Markup(tr("formats.n_players", count=players)),
              qualifiers=qualifiers, size=size, rounds=", ".join(rounds))


async def open_round(services: Services, tr: Translator, tournament: Tournament,
                     number: int, tables: str = "",
                     said: Callable[[], Awaitable[None]] | None = None) -> None:
    """Open round ``number``: its pairs in one message (under their group's name when the
    stage has several groups), after ``tables`` (the tables of the round just finished, or
    the start's roster and what the start says first) when given; ``said`` is awaited once
    that message went out."""
    matches = await services.repos.matches.for_tournament(tournament.id, STAGE)
    await services.repos.matches.update_many(
        {m.id: {"status": tournament.opening_status} for m in matches
         if m.round == number and m.status == "pending"}, services.clock.now())
    label = await names_of(services, tournament.id)
    lines = []
    for group, members in groupby((m for m in matches if m.round == number), key=group_of):
        if tournament.settings.get("groups", 1) > 1:
            lines.append(tr("cup.round_group", group=group_name(group)))
        # a disqualified player's rest (void, without an opponent) is not announced
        lines += [await _pair_line(services, tr, tournament, match, label) for match in members
                  if match.status != "void" or match.player_b is not None]
    total = max(m.round for m in matches)
    opened = tr("cup.round_opened", number=number, total=total, pairs=Markup("\n".join(lines)))
    await say_once(services, tournament, f"round {number}", paragraphs(tables, opened))
    if said is not None:
        await said()
    await advance_groups(services, tr, tournament, number)


async def _pair_line(services: Services, tr: Translator, tournament: Tournament,
                     match: MatchRow, label: dict[int, str]) -> str:
    """A match of the round being opened, as its message lists it (its topic opened)."""
    if match.status == "bye":
        return tr("cup.round_bye", name=label[match.player_a])
    if match.status == "void":
        return tr("cup.round_void", a=label[match.player_a], b=label[match.player_b])
    await open_topic(services, tournament, match, (label[match.player_a], label[match.player_b]))
    return tr("cup.round_pair", a=label[match.player_a], b=label[match.player_b])


def results_of(matches: list[MatchRow]) -> list[Result]:
    return [Result(m.player_a, m.player_b, m.winner, tuple(m.result.get("score", (0, 0))),
                   round=m.round)
            for m in matches if m.status == "finished" and m.player_b is not None]


def group_of(match: MatchRow) -> int:
    return int(match.slot.split("-")[0][1:])


def group_name(group: int) -> str:
    """A group's name as the players read it: A, B …"""
    return chr(ord("A") + group - 1)


def group_line(tr: Translator, tournament: Tournament, match: MatchRow) -> str | None:
    """"Group A." for a group-stage match when the stage has several groups, else None."""
    if match.stage != STAGE or tournament.settings.get("groups", 1) < 2:
        return None
    return tr("cup.in_group", group=group_name(group_of(match)))


async def group_tables(services: Services, tournament: Tournament) -> list[list[Row]]:
    """Every group's table; disqualified players' results are annulled (SPEC §6); an entry
    taken over by /replace is its new player's row, with its results so far. The ties left
    after every tie-break share a place, but those the roll-off drew (:data:`ROLL_OFF`)
    are in the order drawn."""
    matches = await services.repos.matches.for_tournament(tournament.id, STAGE)
    entrants = await services.repos.entrants.list(tournament.id)
    seed = {e.user_id: e.seed or 0 for e in entrants}
    disqualified = [e.user_id for e in entrants if e.status == "disqualified"]
    holder = holders(tournament)
    drawn = [holder(p) for group in tournament.state.get(ROLL_OFF, []) for p in group]
    tables = []
    for group in sorted({group_of(m) for m in matches}):
        mine = [m for m in matches if group_of(m) == group]
        players = sorted({holder(p) for m in mine for p in m.players if p is not None},
                         key=seed.get)
        results = [replace(r, a=holder(r.a), b=holder(r.b),
                           winner=None if r.winner is None else holder(r.winner))
                   for r in results_of(mine)]
        tables.append(in_drawn_order(standings(
            players, results, points=DICE_CUP_POINTS, tiebreaks=DICE_CUP_TIEBREAKS,
            round_robin=True, disqualified=disqualified), drawn))
    return tables


def in_drawn_order(rows: list[Row], drawn: list[int]) -> list[Row]:
    """``rows`` with each shared place whose players the roll-off drew put in the order
    drawn, a place each (a tie that came about later, all of whose players were not in
    the roll-off, stays shared)."""
    places = {}
    for group in tied_groups(rows):
        if set(group) <= set(drawn):
            first = next(row.place for row in rows if row.player == group[0])
            places |= {p: first + n for n, p in enumerate(sorted(group, key=drawn.index))}
    return sorted((replace(row, place=places.get(row.player, row.place)) for row in rows),
                  key=lambda row: (row.place is None, row.place or 0))


async def roll_off(services: Services, tournament: Tournament) -> Tournament:
    """The players still tied after every tie-break when the stage ends, drawn once into
    an order by the bot's seeded random source and stored (:data:`ROLL_OFF`): a job run
    again finds the draw made, and every table shows it. The tournament as it is now."""
    if ROLL_OFF in tournament.state:
        return tournament
    drawn = [group for table in await group_tables(services, tournament)
             for group in tied_groups(table)]
    for group in drawn:
        services.rng.shuffle(group)
    await services.repos.tournaments.set_state(tournament.id, ROLL_OFF, drawn)
    return await services.repos.tournaments.get(tournament.id)


def table_title(tr: Translator, tournament: Tournament, group: int) -> str:
    """A group table's title as plain text (callers escape it, or draw it)."""
    if tournament.settings.get("groups", 1) > 1:
        return tr.plain("cup.group_title", title=tournament.title, group=group_name(group))
    return tournament.title


def render_table(tr: Translator, rows: list[Row], label: dict[int, str]) -> str:
    return "\n".join(tr("cup.table_row", place=place_mark(row.place), name=label[row.player],
                        points=Markup(tr("formats.n_points", count=row.points)),
                        wins=row.wins, draws=row.draws, losses=row.losses,
                        scored=row.scored, conceded=row.scored - row.diff)
                     for row in rows)


@on_finish(STAGE)
async def after_group_match(play: MatchContext, told: dict) -> None:
    """Move the stage on: the tables come once the match's round is over."""
    await advance_groups(play.services, play.tr, play.tournament, play.match.round)


async def tables_text(services: Services, tr: Translator, tournament: Tournament) -> str:
    """Every group's table as text, one after the other; under a table the roll-off
    reordered, the players it drew in the order drawn."""
    tables = await group_tables(services, tournament)
    label = marked_names(tr, await names_of(services, tournament.id), tables)
    holder = holders(tournament)
    drawn = [[holder(p) for p in group] for group in tournament.state.get(ROLL_OFF, [])]
    return "\n\n".join(
        lines(tr("cup.table", title=table_title(tr, tournament, group),
                 rows=Markup(render_table(tr, rows, label))), _drawn_line(tr, rows, drawn, label))
        for group, rows in enumerate(tables, start=1))


def _drawn_line(tr: Translator, rows: list[Row], drawn: list[list[int]],
                label: dict[int, str]) -> str | None:
    """The roll-off of the players of ``rows`` (each group drawn, in the order drawn), or
    None when it drew none of them."""
    players = {row.player for row in rows}
    mine = [group for group in drawn if set(group) <= players]
    return tr("cup.roll_off", groups="\n".join(", ".join(label[p] for p in group)
                                              for group in mine)) if mine else None


def marked_names(tr: Translator, label: dict[int, str], tables: list[list[Row]]
                 ) -> dict[int, str]:
    """The names with a disqualified player marked so: their row stays, without a place."""
    return label | {row.player: tr.plain("formats.table.disqualified", name=label[row.player])
                    for rows in tables for row in rows if row.status == "disqualified"}


async def advance_groups(services: Services, tr: Translator, tournament: Tournament,
                         round_no: int) -> None:
    """Once nothing of ``round_no`` is still being played: the tables and the next round in
    one message, or after the last round the tables (ties for a place drawn by lot, said
    under the table they reorder) and the playoff's pairings in one message."""
    matches = await services.repos.matches.for_tournament(tournament.id, STAGE)
    if any(m.round == round_no and m.status in LIVE for m in matches):
        return
    played = any(m.round == round_no and m.status == "finished" for m in matches)
    if any(m.round == round_no + 1 for m in matches):
        tables = await tables_text(services, tr, tournament) if played else ""
        await open_round(services, tr, tournament, round_no + 1, tables)
        return
    tournament = await roll_off(services, tournament)
    tables = await tables_text(services, tr, tournament) \
        if played or tournament.state[ROLL_OFF] else ""
    await start_playoff(services, tr, tournament,
                        qualified(tournament, await group_tables(services, tournament)), tables)


def qualified(tournament: Tournament, tables: list[list[Row]]) -> list[int]:
    """The playoff seeds: the one group's order, or the groups' best cross-seeded (A1, B1 …
    then A2, B2 …, as many as the bracket holds, group-mates as far apart as it allows)."""
    rankings = [[row.player for row in table if row.place is not None] for table in tables]
    if len(rankings) == 1:
        return rankings[0]
    field = sum(len(r) for r in rankings)
    size = playoff_size(field, tournament.settings.get("qualifiers", 8))
    top = max(1, size // len(rankings))
    limit = playoff_size(sum(min(top, len(r)) for r in rankings), size)
    return cross_seeded(rankings, top, limit)
