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
from games.tournament.standings import DICE_CUP_TIEBREAKS, Row, standings
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
            continue
        await services.repos.matches.update(match.id, services.clock.now(), status="running")
        lines.append(tr("cup.round_pair", a=label[match.player_a], b=label[match.player_b]))
    total = max(m.round for m in matches)
    await services.bot.send_message(tournament.chat_id, tr(
        "cup.round_opened", number=number, total=total, pairs=Markup("\n".join(lines))))


def results_of(matches: list[MatchRow]) -> list[Result]:
    return [Result(m.player_a, m.player_b, m.winner, tuple(m.result.get("score", (0, 0))),
                   round=m.round)
            for m in matches if m.status == "finished" and m.player_b is not None]


async def group_table(services: Services, tournament: Tournament) -> list[Row]:
    matches = await services.repos.matches.for_tournament(tournament.id, STAGE)
    entrants = await services.repos.entrants.list(tournament.id, ("approved",))
    players = [e.user_id for e in sorted(entrants, key=lambda e: e.seed or 0)]
    return standings(players, results_of(matches), points=DICE_CUP_POINTS,
                     tiebreaks=DICE_CUP_TIEBREAKS, round_robin=True)


def render_table(tr: Translator, rows: list[Row], label: dict[int, str]) -> str:
    return "\n".join(tr("cup.table_row", place=row.place, name=label[row.player],
                        points=row.points, wins=row.wins, draws=row.draws, losses=row.losses,
                        scored=row.scored, conceded=row.scored - row.diff)
                     for row in rows)


@on_finish(STAGE)
async def after_group_match(play: Play, state) -> None:
    """Post the table; open the next round when this one is complete, or close the stage."""
    services, tr, tournament = play.services, play.tr, play.tournament
    label = await names_of(services, tournament.id)
    rows = await group_table(services, tournament)
    await play.say(tr("cup.table", title=tournament.title,
                      rows=Markup(render_table(tr, rows, label))))
    matches = await services.repos.matches.for_tournament(tournament.id, STAGE)
    round_no = play.match.round
    if any(m.round == round_no and m.status == "running" for m in matches):
        return
    if any(m.round == round_no + 1 for m in matches):
        await open_round(services, tr, tournament, round_no + 1)
        return
    await start_playoff(services, tr, tournament, [row.player for row in rows])
