"""Армчер-крикет played in the bot (``docs/armchair.md``): tournaments run by the formats,
each match dealt by the bot with every hand in its player's DM (buttons or typed cards),
one score card per match in the group, the toss and the bat/bowl choice by button, late
reminders, organisers' ``/enter`` and ``/hostcopy``, ``/practice armchair`` against the
bot player, and per-match statistics in /export. ``play=report`` plays at a table and
reports results with /result instead."""

from dataclasses import replace
from functools import partial

from bot.features.armchair import handlers
from bot.features.armchair.hand import HAND
from bot.features.armchair.play import LATE, PLAYBOOK, late_clock, launch, show_card
from bot.features.armchair.settings import DEFAULTS, KIND, PARSERS, engine, reported
from bot.features.armchair.stats import armchair_stats, leading_scorers
from bot.features.formats.game import formats_game
from bot.game_settings import settings_line
from bot.i18n import Translator
from bot.play import hidden_chat
from games.armchair_cricket import choose_action


def _bot_player(game, seat: int):
    """The bot's own move in /practice (it decides from what its seat may see)."""
    return choose_action(game.state, seat)


def _note(tr: Translator, settings: dict) -> str | None:
    if reported(settings):
        return None  # played at a table: the formats' own words on reporting say it all
    return tr("armchair.note", deck_limit=settings.get("deck_limit", 27),
              wickets=settings.get("wickets", 3),  # as /settings takes it in this language
              report=settings_line(tr, PARSERS, {"play": "report"}))


_FORMATS = formats_game(
    "armchair",
    {"max_players": 0, "approval": "off", "checkin": 0, "format": "round_robin", **DEFAULTS},
    PARSERS, routers=(handlers.router, hidden_chat.router),
    export_sections={"armchair_stats": armchair_stats},
    standings_note=leading_scorers,
    engines={KIND: engine}, match_kind=KIND, launch=launch, playbook=PLAYBOOK,
    hidden={KIND: HAND}, bot_player=_bot_player,
    setup_note=_note, reported_when=reported, match_hint="armchair.match_hint",
    set_score_note="armchair.set_score_not_runs",
    boards={KIND: partial(show_card, new=True)}, settled_boards={KIND: show_card},
    unseen={KIND: "armchair.rights_unseen"})
GAME = replace(_FORMATS, jobs={**_FORMATS.jobs, LATE: late_clock})
