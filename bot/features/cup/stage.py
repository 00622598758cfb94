"""The Cup's group stage: round-robin matches created at the start, one round at a time,
standings after every match, and the qualifiers seeded into the playoff bracket."""

from __future__ import annotations

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
PLAYOFF_ROUNDS = {16: "order", 8: "drop", 4: "hp", 2: "betting"}  # bracket size → format


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


async def names(services: Services, tournament_id: int) -> dict[int, str]:
    entrants = await services.repos.entrants.list(tournament_id)
    return {e.user_id: e.label for e in entrants}


async def open_round(services: Services, tr: Translator, tournament: Tournament,
                     number: int) -> None:
    matches = [m for m in await services.repos.matches.for_tournament(tournament.id, STAGE)
               if m.round == number]
    label = await names(services, tournament.id)
    lines = []
    for match in matches:
        if match.status == "bye":
            lines.append(tr("cup.round_bye", name=label[match.player_a]))
            continue
        await services.repos.matches.update(match.id, services.clock.now(), status="running")
        lines.append(tr("cup.round_pair", a=label[match.player_a], b=label[match.player_b]))
    total = max(m.round for m in await services.repos.matches.for_tournament(tournament.id,
                                                                             STAGE))
    await services.bot.send_message(tournament.chat_id, tr(
        "cup.round_opened", number=number, total=total, pairs=Markup("\n".join(lines))))


def results_of(matches: list[MatchRow]) -> list[Result]:
    results = []
    for match in matches:
        if match.status != "finished" or match.player_b is None:
            continue
        score = tuple(match.result.get("score", (0, 0)))
        results.append(Result(match.player_a, match.player_b, match.winner, score,
                              round=match.round))
    return results


async def group_table(services: Services, tournament: Tournament) -> list[Row]:
    matches = await services.repos.matches.for_tournament(tournament.id, STAGE)
    players = [e.user_id for e in sorted(
        await services.repos.entrants.list(tournament.id, ("approved",)),
        key=lambda e: e.seed or 0)]
    return standings(players, results_of(matches), points=DICE_CUP_POINTS,
                     tiebreaks=DICE_CUP_TIEBREAKS, round_robin=True)


def render_table(tr: Translator, rows: list[Row], label: dict[int, str]) -> str:
    return "\n".join(tr("cup.table_row", place=row.place, name=label[row.player],
                        points=row.points, wins=row.wins, draws=row.draws, losses=row.losses,
                        scored=row.scored, conceded=row.scored - row.diff)
                     for row in rows)


async def after_match(services: Services, tr: Translator, tournament: Tournament,
                      finished: MatchRow) -> None:
    """Post the table; open the next round when this one is complete, or close the stage."""
    label = await names(services, tournament.id)
    rows = await group_table(services, tournament)
    await services.bot.send_message(tournament.chat_id, tr(
        "cup.table", title=tournament.title, rows=Markup(render_table(tr, rows, label))))
    matches = await services.repos.matches.for_tournament(tournament.id, STAGE)
    if any(m.round == finished.round and m.status == "running" for m in matches):
        return
    if any(m.round == finished.round + 1 for m in matches):
        await open_round(services, tr, tournament, finished.round + 1)
        return
    await close_group_stage(services, tr, tournament, rows, label)


def bracket_size(players: int, qualifiers: int) -> int:
    """The playoff size: the configured qualifiers, or the largest power of two that fits."""
    size = qualifiers
    while size > players:
        size //= 2
    return max(size, 2)


async def close_group_stage(services: Services, tr: Translator, tournament: Tournament,
                            rows: list[Row], label: dict[int, str]) -> None:
    size = bracket_size(len(rows), tournament.settings.get("qualifiers", 8))
    qualified = [row.player for row in rows[:size]]
    pairs = [(qualified[i], qualified[size - 1 - i]) for i in _bracket_order(size)]
    lines = [tr("cup.playoff_pair", a=label[a], sa=qualified.index(a) + 1, b=label[b],
                sb=qualified.index(b) + 1) for a, b in pairs]
    await services.bot.send_message(tournament.chat_id, tr(
        "cup.groups_done", size=size, stage=tr(f"cup.format.{PLAYOFF_ROUNDS[size]}"),
        pairs=Markup("\n".join(lines))))


def _bracket_order(size: int) -> list[int]:
    """Seed indexes of the top halves in bracket order: 1v8, 4v5, 2v7, 3v6 for eight."""
    order = [0]
    while len(order) < size // 2:
        width = len(order) * 2
        order = [seed for top in order for seed in (top, width - 1 - top)]
    return order
