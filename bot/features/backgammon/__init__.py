"""Backgammon (``docs/backgammon.md``): tournaments run by the formats, each match played on a
real board with the bot as the match protocol (``play=board``) — a match card, every game
reported by its winner and checked by the loser, organisers' corrections, penalties, late
starts and appeals (the seed's §11), and every game in /export. ``play=bot`` is refused for
now."""

from dataclasses import replace

from bot.features.backgammon import organiser, report
from bot.features.backgammon.export import backgammon_games
from bot.features.backgammon.play import GRACE_JOB, PLAYBOOK, grace_passed, launch
from bot.features.backgammon.settings import DEFAULTS, KIND, PARSERS, board_engine, setup_note
from bot.features.formats import report as formats_report
from bot.features.formats.game import formats_game
from games.tournament.standings import BACKGAMMON_TIEBREAKS

_FORMATS = formats_game(
    "backgammon",
    {"max_players": 0, "approval": "off", "checkin": 0, "format": "swiss", "rounds": 5,
     **DEFAULTS},
    PARSERS, routers=(report.router, organiser.router),
    export_sections={"backgammon_games": backgammon_games},
    engines={KIND: board_engine}, match_kind=KIND, launch=launch, playbook=PLAYBOOK,
    setup_note=setup_note, tiebreaks=BACKGAMMON_TIEBREAKS, draws=False,
    match_hint="backgammon.match_hint")
# Results are reported through the match card here, not by the formats' /result flow.
GAME = replace(_FORMATS, jobs={**_FORMATS.jobs, GRACE_JOB: grace_passed},
               routers=tuple(r for r in _FORMATS.routers if r is not formats_report.router))
