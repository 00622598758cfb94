"""/match, /standings and /bracket for the Cup: pictures where they read better, with the
text table as the fallback when a picture cannot be drawn."""

from __future__ import annotations

from collections.abc import Callable
from itertools import takewhile
from typing import Any

from aiogram.filters import Command
from aiogram.types import Message

from bot.features.cup.betting import board_text
from bot.features.cup.common import my_play, running_cup
from bot.features.cup.hp import status as hp_status
from bot.features.cup.playoff import STAGE as PLAYOFF
from bot.features.cup.playoff import (
    THIRD,
    THIRD_VOTE,
    bracket_of,
    final_places,
    match_title,
    round_title,
)
from bot.features.cup.rolling import match_status
from bot.features.cup.stage import STAGE as GROUPS
from bot.features.cup.stage import (
    group_line,
    group_tables,
    marked_names,
    qualified,
    render_table,
    table_title,
)
from bot.features.cup.third import vote_status
from bot.features.handlers import Handlers
from bot.features.mine import dm_answer, match_answer
from bot.i18n import Markup, Translator, lines, opening
from bot.middlewares.filters import IN_GROUP, topic_of
from bot.play.context import LIVE, MatchContext, names_of
from bot.render import BAR_MARK, Box, bracket_png, standings_png
from bot.render.posting import post_pictures
from bot.services import Services
from games.tournament.standings import Row
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament

router = Handlers("cup-status")


@router.message(Command("match"), IN_GROUP)
async def my_match(message: Message, services: Services, tr: Translator) -> None:
    await message.reply(await _match_text(services, tr, message.chat.id, message.from_user.id))


@match_answer(router)
async def _match_of(services: Services, tr: Translator, tournament: Tournament,
                    user_id: int) -> str:
    return await _match_text(services, tr, tournament.chat_id, user_id)


async def _match_text(services: Services, tr: Translator, chat_id: int, user_id: int) -> str:
    tournament, play = await my_play(services, tr, chat_id, user_id)
    if play is None:
        if tournament is None and (ended := await _latest_cup(services, chat_id)):
            return tr("match.finished", title=ended.title)
        if tournament is None:
            return tr("cup.not_in_match")
        entry = await services.repos.entrants.get(tournament.id, user_id)
        if entry is None or entry.status != "approved":  # an onlooker, or out of it
            out = entry is not None and entry.status in ("disqualified", "replaced")
            return tr(f"cup.match.{entry.status}" if out else "cup.match.not_entered",
                      title=tournament.title)
        rows = await services.repos.matches.for_tournament(tournament.id)
        return _without_match(tr, tournament, user_id, rows)
    state = await services.matches.state(play.match)
    if hasattr(state, "round") and hasattr(state, "score"):
        return lines(group_line(tr, tournament, play.match), match_status(play, state))
    head = tr("cup.match_other", a=play.names[0], b=play.names[1],
              format=tr(f"cup.format.{play.match.kind}"))
    now = _NOW.get(play.match.kind)
    return head if now is None else lines(head, now(play, state))


_NOW: dict[str, Callable[[MatchContext, Any], str]] = {
    "hp": lambda play, state: hp_status(play, state)[0],
    "betting": board_text,
    "third_choice": lambda play, state: vote_status(play, state)[0],
}
"""The newest message of a playoff match, as /match tells it: the round or hand, whose turn
it is, what is awaited."""


def _final_slot(tournament: Tournament) -> str:
    """The final's slot in the playoff bracket (``W3-1`` for eight qualifiers)."""
    rounds = max(1, (len(tournament.state.get("playoff_seeds", [])) - 1).bit_length())
    return f"W{rounds}-1"


def _without_match(tr: Translator, tournament: Tournament, user_id: int,
                   rows: list[MatchRow]) -> str:
    """Why an entrant of a running Cup has no match now: out of the playoff or through to
    its next round, not among the qualifiers, resting in this round of the group stage or
    done with it; else that there is none."""
    mine = [row for row in rows if user_id in (row.player_a, row.player_b)]
    decided = [row for row in mine if row.stage == PLAYOFF and row.slot != THIRD_VOTE
               and row.status == "finished"]
    if decided:
        last = max(decided, key=lambda row: (row.round, row.slot == THIRD))
        if last.slot == THIRD and last.winner == user_id:  # nothing comes after it
            return tr("cup.match.third_place")
        if last.winner == user_id and last.slot == _final_slot(tournament):
            return tr("cup.match.champion")
        key = "cup.match.through" if last.winner == user_id else "cup.match.out"
        return tr(key, stage=opening(match_title(tr, tournament, last)))
    seeds = tournament.state.get("playoff_seeds")
    if seeds and user_id not in seeds:
        return tr("cup.match.not_qualified")
    playing = min((row.round for row in rows if row.stage == GROUPS
                   and row.status in LIVE), default=None)
    mine_now = next((row for row in mine if row.stage == GROUPS and row.round == playing), None)
    if mine_now is not None and mine_now.status in ("bye", "finished"):
        key = "cup.match.rest" if mine_now.status == "bye" else "cup.match.round_done"
        return tr(key, round=playing)
    return tr("cup.not_in_match")


async def _latest_cup(services: Services, chat_id: int) -> Tournament | None:
    """The running Cup of the chat, else the newest finished one (its table stays readable)."""
    if running := await running_cup(services, chat_id):
        return running
    return await services.repos.tournaments.newest_in_chat(chat_id, game="cup",
                                                           status="finished")


async def _none_yet(services: Services, tr: Translator, chat_id: int, key: str) -> str:
    """Why there is nothing to show: ``key`` while a Cup waits for its start; no tournament
    at all when the chat has none (a friendly match is no tournament)."""
    waiting = await services.repos.tournaments.newest_in_chat(chat_id, game="cup")
    return tr(key if waiting else "tournament.none_here")


@router.message(Command("standings"), IN_GROUP)
async def standings_command(message: Message, services: Services, tr: Translator) -> None:
    tournament = await _latest_cup(services, message.chat.id)
    if tournament is None:
        await message.answer(await _none_yet(services, tr, message.chat.id, "standings.none"))
        return
    await post_standings(services, tr, tournament, 0, message.chat.id, topic_of(message))


@dm_answer(router, "standings")
async def post_standings(services: Services, tr: Translator, tournament: Tournament,
                         user_id: int, chat_id: int, thread_id: int | None = None) -> None:
    """The group tables of ``tournament``, posted in ``chat_id`` (its forum topic
    ``thread_id``): one picture, or an album of one per group (one message in the chat's
    feed)."""
    header = tr("cup.table_header").split("|")
    qualifiers = len(tournament.state.get("playoff_seeds", [])) or \
        tournament.settings.get("qualifiers", 8)
    tables = await group_tables(services, tournament)
    label = marked_names(tr, await names_of(services, tournament.id), tables)
    titles = [table_title(tr, tournament, group) for group in range(1, len(tables) + 1)]
    calls = [(standings_png, (title, header, [
        [str(r.place or "—"), label[r.player], str(r.points), f"{r.wins}-{r.draws}-{r.losses}",
         f"{r.scored}:{r.scored - r.diff}"] for r in rows],
        _going_through(tournament, rows, max(1, qualifiers // len(tables))),
        [f"{BAR_MARK} {tr.plain('cup.legend.bar')}"]))
        for title, rows in zip(titles, tables, strict=True)]

    def as_text() -> str:
        return "\n\n".join(tr("cup.table", title=title,
                               rows=Markup(render_table(tr, rows, label)))
                            for title, rows in zip(titles, tables, strict=True))
    caption_title = titles[0] if len(titles) == 1 else tournament.title
    await post_pictures(services, chat_id, calls,
                        tr("cup.standings_caption", title=caption_title), as_text,
                        name="cup-standings", thread_id=thread_id)


def _going_through(tournament: Tournament, rows: list[Row], per_group: int) -> int:
    """How many of a table's first rows the qualifiers' bar marks: at most ``per_group``,
    never a player without a place (disqualified) nor, once the playoff is seeded, one not
    among its seeds."""
    seeds = tournament.state.get("playoff_seeds")
    ranked = takewhile(lambda row: row.place is not None
                       and (seeds is None or row.player in seeds), rows)
    return min(per_group, sum(1 for _ in ranked))


@router.message(Command("bracket"), IN_GROUP)
async def bracket_command(message: Message, services: Services, tr: Translator) -> None:
    tournament = await _latest_cup(services, message.chat.id)
    if tournament is None:
        await message.answer(await _none_yet(services, tr, message.chat.id, "bracket.none"))
        return
    if "playoff_seeds" not in tournament.state:
        await message.answer(tr("bracket.none"))
        return
    await post_bracket(services, tr, tournament, 0, message.chat.id, topic_of(message))


@dm_answer(router, "bracket")
async def post_bracket(services: Services, tr: Translator, tournament: Tournament,
                       user_id: int, chat_id: int, thread_id: int | None = None) -> None:
    """The playoff bracket of ``tournament``, posted in ``chat_id`` (its forum topic
    ``thread_id``)."""
    if "playoff_seeds" not in tournament.state:
        await services.bot.send_message(chat_id, tr("bracket.none"), message_thread_id=thread_id)
        return
    seeds = tournament.state["playoff_seeds"]
    matches = await services.repos.matches.for_tournament(tournament.id, PLAYOFF)
    bracket, rows = bracket_of(tournament, matches), {m.slot: m for m in matches}
    label = await names_of(services, tournament.id)

    def name(slot) -> str:
        return label.get(slot, "?") if isinstance(slot, int) else "?"
    rounds = []
    for number in range(1, bracket.rounds + 1):
        views = [v for v in bracket.matches if v.section == "W" and v.round == number]
        rounds.append((round_title(tr, len(seeds), number, tournament.settings.get("formats")),
                       [Box(name(v.slots[0]), name(v.slots[1]),
                            label.get(v.winner) if v.winner else None,
                            _score(rows.get(v.id), v.slots[0]),
                            pending=v.unfilled)
                        for v in views]))
    third = _third(tr, rows.get(THIRD), label)
    await post_pictures(services, chat_id, [(bracket_png, (tournament.title, rounds, third))],
                        tr("cup.bracket_caption", title=tournament.title),
                        lambda: tr("cup.bracket_text", title=tournament.title,
                                   rounds=_bracket_text(
                                       rounds + ([(third[0], [third[1]])] if third else []))),
                        name="cup-bracket", thread_id=thread_id)


def _score(row: MatchRow | None, first: object = None) -> tuple[str, str] | None:
    """The score a bracket shows: rounds or hands won, "+"/"−" for a walkover; an HP
    battle's remaining hit points (below 0 when a player falls) say less than its check
    mark, so none is shown."""
    if row is None or (row.kind == "hp" and not row.walkover):
        return None
    return row.score_texts(first if isinstance(first, int) else None)


def _third(tr: Translator, row: MatchRow | None, label: dict[int, str]
           ) -> tuple[str, tuple] | None:
    """The 3rd-place match as a bracket round of one match, once it has its players."""
    if row is None:
        return None
    match = (label.get(row.player_a, "?"), label.get(row.player_b, "?"),
             label.get(row.winner) if row.winner else None, _score(row))
    return tr.plain("cup.bracket_third"), match


def _bracket_text(rounds: list) -> str:
    lines = []
    for name, matches in rounds:
        lines.append(f"{name}:")
        lines += [f"  {a} — {b}" + (f" → {winner}" if winner else "")
                  for a, b, winner, *_ in matches]
    return "\n".join(lines)


async def standings_export(services: Services, tournament: Tournament):
    """The Cup's group tables in the export (JSON and a CSV table)."""
    if not tournament.started:
        return None, None
    label = await names_of(services, tournament.id)
    rows = [[group, row.place, row.player, label[row.player], row.points, row.wins, row.draws,
             row.losses, row.scored, row.scored - row.diff]
            for group, table in enumerate(await group_tables(services, tournament), start=1)
            for row in table]
    header = ["group", "place", "user_id", "name", "points", "wins", "draws", "losses",
              "rounds_won", "rounds_lost"]
    return [dict(zip(header, row, strict=True)) for row in rows], (header, rows)


async def placings_export(services: Services, tournament: Tournament):
    """The Cup's final placings in the export once it is over (JSON and a CSV table): the
    podium, or the one player a Cup ended without a playoff had left."""
    if tournament.status != "finished":
        return None, None
    if "playoff_seeds" in tournament.state:
        places = await final_places(services, tournament) or []
    else:
        places = [(1, player) for player in
                  qualified(tournament, await group_tables(services, tournament))[:1]]
    label = await names_of(services, tournament.id)
    header = ["place", "user_id", "name"]
    rows = [[place, player, label[player]] for place, player in places]
    return [dict(zip(header, row, strict=True)) for row in rows], (header, rows)
