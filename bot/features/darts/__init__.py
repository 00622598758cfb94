"""Darts in the chat (``docs/rules.md``): Cricket-Shanghai and FinCricket scored on one live
scoreboard per match with a keypad, the bull-off or coin before leg 1, typed darts, legs,
statistics (also in /export) and the result handed to the tournament format."""

from functools import partial

from bot.features.darts import entry, starter
from bot.features.darts.kinds import (
    fincricket_engine,
    legs_needed,
    legs_score_problem,
    shanghai_engine,
)
from bot.features.darts.launch import bull_note, fincricket_note, launch
from bot.features.darts.opening import at_oche
from bot.features.darts.play import PLAYBOOK, board_again
from bot.features.darts.stats import darts_stats
from bot.features.formats.game import formats_game
from bot.game_settings import choice, odd
from games.tournament import DARTS_TIEBREAKS

_in_place = partial(board_again, new=False)  # a match closed outside its play
_DARTS = {"launch": launch, "playbook": PLAYBOOK, "routers": (starter.router, entry.router),
          "export_sections": {"darts_stats": darts_stats}, "match_hint": "formats.match.on_board",
          "tiebreaks": DARTS_TIEBREAKS, "draws": False, "check_score": legs_score_problem,
          "winning_score": legs_needed, "waits": at_oche}

SHANGHAI = formats_game(
    "shanghai",
    {"max_players": 0, "approval": "off", "checkin": 0, "format": "round_robin", "legs": 3,
     "bull": "visit"},
    {"legs": odd(1, 21), "bull": choice("visit", "strict")},
    engines={"shanghai": shanghai_engine}, match_kind="shanghai", setup_note=bull_note,
    unseen={"shanghai": "darts.rights_unseen"},
    boards={"shanghai": board_again}, settled_boards={"shanghai": _in_place},
    **_DARTS)
FINCRICKET = formats_game(
    "fincricket",
    {"max_players": 0, "approval": "off", "checkin": 0, "format": "round_robin", "legs": 1},
    {"legs": odd(1, 21)},
    engines={"fincricket": fincricket_engine}, match_kind="fincricket",
    unseen={"fincricket": "darts.rights_unseen"},
    boards={"fincricket": board_again}, settled_boards={"fincricket": _in_place},
    setup_note=fincricket_note, **_DARTS)
