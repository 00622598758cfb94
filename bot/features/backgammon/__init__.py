"""Backgammon (``docs/backgammon.md``): tournaments run by the formats. With ``play=bot`` (the
default) each match is played in the bot — server dice, legal moves only, cube, clocks and a
board picture (``bot/features/backgammon/live/``); with ``play=board`` it is played on a real
board with the bot as the match protocol — a match card, every game reported by its winner
and checked by the loser, organisers' corrections, penalties, late starts and appeals (the
seed's §11). Every game is in /export,
and the .mat record of every finished match played in the bot."""

from dataclasses import replace
from functools import partial

from bot.features.backgammon import organiser, report
from bot.features.backgammon.card import card_now
from bot.features.backgammon.export import backgammon_games
from bot.features.backgammon.live import board, flow, moves, record, resign, tools
from bot.features.backgammon.live.export import backgammon_mat
from bot.features.backgammon.play import (
    GRACE_JOB,
    PLAYBOOK,
    grace_passed,
    launch,
    show_card,
)
from bot.features.backgammon.settings import (
    DEFAULTS,
    GAME,
    KIND,
    LIVE_KIND,
    PARSERS,
    board_engine,
    kind_for,
    live_engine,
    match_length,
    match_score_problem,
    setup_note,
)
from bot.features.formats import report as formats_report
from bot.features.formats.game import formats_game
from bot.match_service import Change
from bot.play.context import MatchContext
from bot.play.perform import Playbook
from games.backgammon.session import LiveMatch
from games.tournament.standings import BACKGAMMON_TIEBREAKS


def _playbook(match_kind: str) -> Playbook:
    return flow.PLAYBOOK if match_kind == LIVE_KIND else PLAYBOOK


async def _announce(ctx: MatchContext, change: Change, actions: list) -> None:
    await _playbook(ctx.match.kind).announce(ctx, change, actions)


async def _finish(ctx: MatchContext, state, actor_id: int | None) -> None:
    await _playbook(ctx.match.kind).finish(ctx, state, actor_id)


async def _launch(services, tournament, match) -> None:
    await (flow.launch if match.kind == LIVE_KIND else launch)(services, tournament, match)


def _match_now(ctx: MatchContext, state) -> str:
    return (board.board_now if ctx.match.kind == LIVE_KIND else card_now)(ctx, state)


def _waits(state, seat: int) -> bool:
    """A match played in the bot waits for the player on roll or answering a double (for
    either before the opening roll); a match played on a board waits for nobody's turn here."""
    return isinstance(state, LiveMatch) and state.to_act in (None, seat)


def _bot_player(state, seat: int):
    """The bot plays backgammon only in the bot (a board match has nothing for it to do)."""
    return flow.bot_player(state, seat)


BOTH = Playbook(explain=lambda tr, error, match: _playbook(match.kind).explain(tr, error, match),
                announce=_announce, finish=_finish)
_FORMATS = formats_game(
    GAME,
    {"max_players": 0, "approval": "off", "checkin": 0, "format": "swiss", **DEFAULTS},
    PARSERS, routers=(report.router, organiser.router, moves.router, resign.router, tools.router,
             record.router),
    export_sections={"backgammon_games": backgammon_games, "backgammon_mat": backgammon_mat},
    engines={KIND: board_engine, LIVE_KIND: live_engine}, match_kind=KIND, kind_for=kind_for,
    launch=_launch, playbook=BOTH, setup_note=setup_note, tiebreaks=BACKGAMMON_TIEBREAKS,
    draws=False, match_hint="backgammon.match_hint", bot_player=_bot_player, waits=_waits,
    check_score=match_score_problem, winning_score=match_length, match_now=_match_now,
    settled_boards={KIND: show_card, LIVE_KIND: board.show},
    paused_boards={LIVE_KIND: board.show},
    unseen={LIVE_KIND: "backgammon.rights_unseen"},
    records={LIVE_KIND: record.send_record},
    boards={KIND: partial(show_card, new=True), LIVE_KIND: partial(board.show, new=True)})
# Results are reported through the match card or played out here, not by the formats' /result.
GAME = replace(_FORMATS, jobs={**_FORMATS.jobs, GRACE_JOB: grace_passed,
                               organiser.APPEAL_JOB: organiser.hand_on, **flow.JOBS,
                               **resign.JOBS},
               routers=tuple(r for r in _FORMATS.routers if r is not formats_report.router))
