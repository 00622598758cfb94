"""Whose move a live match waits for (``Game.waits_for``): what decides which of a player's
matches in one group a darts line, a 🎲 or /roll typed outside every match's topic is for
(``Scope.live_match``; the transcripts darts_oche_decides and topics_roll_decides)."""

from __future__ import annotations

from bot.catalogue import builtin_games
from bot.features.backgammon.settings import board_engine, live_engine
from bot.features.cup.stage import group_engine
from bot.features.darts.kinds import shanghai_engine
from bot.features.darts.opening import starter_action

GAMES = {game.key: game for game in builtin_games()}


def test_a_darts_match_waits_for_both_bull_off_then_for_the_player_at_the_oche() -> None:
    darts, state = GAMES["shanghai"], shanghai_engine({"legs": 1})
    assert darts.waits_for(state, 0) and darts.waits_for(state, 1)
    state.apply(starter_action(1, "bull"))
    assert darts.waits_for(state, 1) and not darts.waits_for(state, 0)
    for dart in ("T20", "T20", "T20"):
        state.apply({"type": "dart", "dart": dart, "player": 1})
    state.apply({"type": "end_visit", "player": 1})
    assert darts.waits_for(state, 0) and not darts.waits_for(state, 1)


def test_a_cup_match_waits_for_its_roller() -> None:
    cup, state = GAMES["cup"], group_engine({})
    roller = next(seat for seat in (0, 1) if state.legal_actions(seat))
    assert cup.waits_for(state, roller) and not cup.waits_for(state, 1 - roller)


def test_backgammon_in_the_bot_waits_for_the_player_to_act_a_board_match_for_nobody() -> None:
    backgammon = GAMES["backgammon"]
    live = live_engine({"length": 1})
    assert backgammon.waits_for(live, 0) and backgammon.waits_for(live, 1)  # opening roll
    live.apply({"type": "opening_roll", "dice": [5, 3]})
    mover = live.to_act
    assert backgammon.waits_for(live, mover) and not backgammon.waits_for(live, 1 - mover)
    board = board_engine({"length": 1})
    assert not backgammon.waits_for(board, 0) and not backgammon.waits_for(board, 1)
