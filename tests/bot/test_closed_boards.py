"""The boards a job that closes matches retires (``bot.play.board.closed_boards``): run
again after a stop part-way through its closing, it retires the ones closed before the
stop (noted, found closed) and the ones it closes now, each once."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

from bot.play.board import closed_boards
from storage.repositories.matches import MatchRow

SEMI = MatchRow(id=7, tournament_id=1, stage="playoff", round=1, slot="SF1", kind="hp",
                player_a=11, player_b=12, status="finished", winner=12, result={},
                board_message_id=40)
THIRD = replace(SEMI, id=8, slot="3RD", kind="third_choice", status="running", winner=None,
                board_message_id=41)


class _Matches:
    async def get(self, match_id: int) -> MatchRow:
        return {SEMI.id: SEMI, THIRD.id: THIRD}[match_id]


SERVICES = SimpleNamespace(repos=SimpleNamespace(matches=_Matches()))


async def test_the_first_run_retires_what_it_closed_live() -> None:
    assert await closed_boards(SERVICES, [THIRD], []) == [THIRD]


async def test_a_run_after_the_closing_retires_what_it_noted_as_it_was() -> None:
    assert await closed_boards(SERVICES, [], [SEMI.id]) == [replace(SEMI, status="running")]


async def test_a_run_after_part_of_the_closing_retires_both_once() -> None:
    """The semi-final closed before the stop, the 3rd-place vote still live: both boards."""
    assert await closed_boards(SERVICES, [THIRD], [SEMI.id, THIRD.id]) == [
        THIRD, replace(SEMI, status="running")]
