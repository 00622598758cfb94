"""The Cup's group stage: round-robin matches created at the start, one round at a time,
standings after every match, and the qualifiers handed to the playoff."""

from __future__ import annotations

from bot.features.cup.common import Play, names_of, on_finish
from bot.features.cup.playoff import start_playoff
from bot.features.lifecycle import on_start
from bot.i18n import Markup, Translator
from bot.match_service import engine_kind
from bot.services import Services
from games.dice_cup import GroupMatch
from games.tournament import round_robin
from games.tournament.results import DICE_CUP_POINTS, Result
from games.tournament.standings import DICE_CUP_TIEBREAKS, Row, standings, tied_groups
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Entrant, Tournament

STAGE = "groups"


@engine_kind("group")
def _group_engine(settings: dict) -> GroupMatch:
    return GroupMatch()


@on_start("cup")
async def start_group_stage(services: Services, tournament: Tournament,
                            players: list[Entrant]) -> None:
    """Create every group match now (later rounds wait) and open round 1."""
    seeded = sorted(players, key=lambda e: e.seed)
    now = services.clock.now()
    for number, pairs in enumerate(round_robin([e.user_id for e in seeded]), start=1):
        for index, (a, b) in enumerate(pairs, start=1):
            await services.repos.matches.create(
                tournament.id, STAGE, number, f"R{number}-{index}", "group", a, b, now,
                status="bye" if b is None else "pending")
    tr = await services.translator_for_chat(tournament.chat_id)
    await open_round(services, tr, tournament, 1)


async def open_round(services: Services, tr: Translator, tournament: Tournament,
                     number: int) -> None:
    matches = await services.repos.matches.for_tournament(tournament.id, STAGE)
    label = await names_of(services, tournament.id)
    lines = []
    for match in (m for m in matches if m.round == number):
        if match.status == "bye":
            lines.append(tr("cup.round_bye", name=label[match.player_a]))
        elif match.status == "void":
            lines.append(tr("cup.round_void", a=label[match.player_a], b=label[match.player_b]))
        else:
            await services.repos.matches.update(match.id, services.clock.now(),
                                                status="running")
            lines.append(tr("cup.round_pair", a=label[match.player_a],
                            b=label[match.player_b]))
    total = max(m.round for m in matches)
    await services.bot.send_message(tournament.chat_id, tr(
        "cup.round_opened", number=number, total=total, pairs=Markup("\n".join(lines))))
    await advance_groups(services, tr, tournament, number)


def results_of(matches: list[MatchRow]) -> list[Result]:
    return [Result(m.player_a, m.player_b, m.winner, tuple(m.result.get("score", (0, 0))),
                   round=m.round)
            for m in matches if m.status == "finished" and m.player_b is not None]


async def group_table(services: Services, tournament: Tournament, lot=None) -> list[Row]:
    """The group table; disqualified players' results are annulled (SPEC §6). With ``lot``
    the ties left after every tie-break are drawn (the roll-off), else they share a place."""
    matches = await services.repos.matches.for_tournament(tournament.id, STAGE)
    entrants = await services.repos.entrants.list(tournament.id, ("approved", "disqualified"))
    players = [e.user_id for e in sorted(entrants, key=lambda e: e.seed or 0)]
    disqualified = [e.user_id for e in entrants if e.status == "disqualified"]
    return standings(players, results_of(matches), points=DICE_CUP_POINTS,
                     tiebreaks=DICE_CUP_TIEBREAKS, round_robin=True,
                     disqualified=disqualified, lot=lot)


def render_table(tr: Translator, rows: list[Row], label: dict[int, str]) -> str:
    return "\n".join(tr("cup.table_row", place=row.place or "—", name=label[row.player],
                        points=row.points, wins=row.wins, draws=row.draws, losses=row.losses,
                        scored=row.scored, conceded=row.scored - row.diff)
                     for row in rows)


@on_finish(STAGE)
async def after_group_match(play: Play, state) -> None:
    """Post the table, then move the stage on if this match completed its round."""
    services, tr, tournament = play.services, play.tr, play.tournament
    label = await names_of(services, tournament.id)
    rows = await group_table(services, tournament)
    await play.say(tr("cup.table", title=tournament.title,
                      rows=Markup(render_table(tr, rows, label))))
    await advance_groups(services, tr, tournament, play.match.round)


async def advance_groups(services: Services, tr: Translator, tournament: Tournament,
                         round_no: int) -> None:
    """Open the next round once nothing of ``round_no`` is still being played, or close the
    stage after the last round (ties for a place are drawn by lot and announced)."""
    matches = await services.repos.matches.for_tournament(tournament.id, STAGE)
    if any(m.round == round_no and m.status in ("running", "paused") for m in matches):
        return
    if any(m.round == round_no + 1 for m in matches):
        await open_round(services, tr, tournament, round_no + 1)
        return
    tied = tied_groups(await group_table(services, tournament))
    rows = await group_table(services, tournament, lot=services.rng)
    if tied:
        label = await names_of(services, tournament.id)
        order = {row.player: row.place for row in rows}
        lines = [", ".join(label[p] for p in sorted(group, key=order.get)) for group in tied]
        await services.bot.send_message(tournament.chat_id, tr(
            "cup.roll_off", groups=Markup("\n".join(lines))))
    await start_playoff(services, tr, tournament, [row.player for row in rows
                                                   if row.place is not None])
