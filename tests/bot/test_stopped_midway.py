"""Work that stops midway (a start, a round made, a withdrawal's walkovers) is run again
at the next start and ends as work that never stopped would: what it wrote before the
stop is written with all it belongs with, so the run again finds either nothing or the
whole, and what it still owes (the boards of the matches it closed) is noted with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.features.formats import progress, results
from storage.repositories.matches import MatchesRepo
from tests.bot.sandbox_run import ProcessDied, died_in, opened, scenario_until


async def _die(*args, **kwargs) -> None:
    raise ProcessDied


async def test_a_round_robin_stopped_before_its_matches_were_written_opens_them_next_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seeded field and the matches are one write: before, the field was stored alone,
    and the start run again found it, made no matches and ended the tournament unplayed,
    its entrants all tied first."""
    begin = "org@g: /begin"
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until("armchair_private_answers", begin))
        stopped = await died_in(sandbox, monkeypatch, output, begin, progress,
                                "_create_round_robin", _die)
        services = sandbox.app.services
        matches = await services.repos.matches.for_tournament(1)
        assert [match.status for match in matches] == ["running"]
        assert (await services.repos.tournaments.get(1)).status == "running"
    # the group speaks Russian (the transcript's /lang ru)
    assert "  ⚔️ Тур 1 из 1:" in output[stopped:], output[stopped:]
    assert not any("завершён" in line for line in output), output


async def test_a_round_stopped_before_its_bye_was_won_gives_the_bye_next_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A round's matches and its bye's win are one write: before, the bye was made alone,
    never won, and its player was said to rest the round, without the bye's point."""
    settle = MatchesRepo.settle

    async def die_at_the_bye(repo, match_id, entry, *args, **kwargs):
        if entry.get("meta") == "bye":
            raise ProcessDied
        return await settle(repo, match_id, entry, *args, **kwargs)

    begin = "org@sx: /begin"
    output: list[str] = []
    async with opened(tmp_path, emit=output.append, language="ru") as sandbox:
        await sandbox.run_lines(scenario_until("formats_swiss_elim", begin))
        await died_in(sandbox, monkeypatch, output, begin, MatchesRepo, "settle",
                      die_at_the_bye)
        matches = await sandbox.app.services.repos.matches.for_tournament(1)
        [bye] = [match for match in matches if match.player_b is None]
        assert bye.winner == bye.player_a
    assert "  • Erin — без пары (победа без игры)" in output, output


async def test_a_withdrawals_walkover_stopped_before_its_board_is_drawn_closed_next_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The matches a withdrawal closes are noted in its job with the closing: run again, it
    draws their boards closed (before, it found nothing open and left the board live, its
    keypad pressed in vain)."""
    withdraw = "olga@club: [🚪 Сняться]"
    output: list[str] = []
    async with opened(tmp_path, emit=output.append, language="ru") as sandbox:
        await sandbox.run_lines(scenario_until("formats_double_elim_withdrawal_walkovers",
                                               withdraw))
        await died_in(sandbox, monkeypatch, output, withdraw, results, "retire_board", _die)
        services = sandbox.app.services
        walkover = await services.repos.matches.get(3)
        board = sandbox.world.find(sandbox.world.group("club").id, walkover.board_message_id)
        assert walkover.status == "finished" and await services.repos.jobs.pending() == []
    assert "⏹ Матч закрыт, не доигран. Победитель: Ivan." in board.payload["text"]
    assert not board.payload.get("reply_markup")
