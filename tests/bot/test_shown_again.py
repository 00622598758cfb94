"""An action written by a process that stopped before showing it is shown when Telegram
delivers its update again to the next process: the match's board and the players' panels
are drawn again in place (bot/play/board.py, ``shown_again``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import bot.play.perform
from bot.sandbox.runner import Sandbox
from tests.bot.sandbox_run import opened, scenario_until
from tests.bot.test_scenarios import SCENARIOS, options_of

NEXT = "dora@dm: [STUMPS 9]"  # a card Dora holds only once the ball before it is shown


async def _nothing_shown(*calls) -> None:
    """``at_once`` of a process that stopped: none of the calls made (a coroutine closed)."""
    for call in calls:
        if hasattr(call, "close"):
            call.close()


@asynccontextmanager
async def _delivered_again(tmp_path: Path, monkeypatch, scenario: str, unshown: str, *,
                           before: str | None = None, stopped: dict[str, Any] | None = None
                           ) -> AsyncIterator[tuple[Sandbox, Callable[[], list[str]]]]:
    """Transcript ``scenario`` up to its line ``unshown`` (the one right before ``before``,
    when given), which is written and never shown (the process stops), then a restart and
    the update delivered again: the sandbox, and what it has printed from the delivery on,
    asked as it goes on. ``stopped``: more of ``bot.play.perform`` the stop cuts short."""
    options = options_of((SCENARIOS / f"{scenario}.txt").read_text(encoding="utf-8"))
    setup = scenario_until(scenario, before or unshown) + ([] if before else [unshown])
    assert setup[-1] == unshown
    output: list[str] = []
    async with opened(tmp_path, seed=int(options.get("seed", 1)),
                      language=options.get("lang", "ru"), emit=output.append) as sandbox:
        await sandbox.run_lines(setup[:-1])
        with monkeypatch.context() as patch:  # written, then the process stops
            patch.setattr(bot.play.perform, "at_once", _nothing_shown)
            for name, stand_in in (stopped or {}).items():
                patch.setattr(bot.play.perform, name, stand_in)
            await sandbox.line(unshown)
        await sandbox.line("! restart")
        shown = len(output)
        await sandbox.line("! replay")  # Telegram delivers the unconfirmed update again
        yield sandbox, lambda: output[shown:]


async def test_an_action_not_shown_before_a_restart_is_shown_when_delivered_again(
        tmp_path: Path, monkeypatch) -> None:
    """A card that completes a ball: Dora's hand changes, and she plays a card she holds
    only once that ball is shown."""
    async with _delivered_again(tmp_path, monkeypatch,
                                "armchair_single_elim_result_with_next_matches",
                                "alice@dm: [GLOVES 7]", before=NEXT) as (sandbox, said):
        assert any(line.startswith("✎ dora@dm") for line in said())
        await sandbox.line(NEXT)
        assert sandbox.errors == 0


async def _no_move(*args, **kwargs) -> None:
    """``bot_moves`` of a process that stopped before the bot's move."""


async def test_the_bots_move_not_made_before_a_restart_is_made_when_delivered_again(
        tmp_path: Path, monkeypatch) -> None:
    """/practice: a player's roll written, the process stopped before the bot rolled; when
    the roll is delivered again, the bot rolls, as it would have."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.line("alice@g: /practice cup")
        with monkeypatch.context() as patch:
            patch.setattr(bot.play.perform, "bot_moves", _no_move)
            await sandbox.line("alice@g: 🎲 5")
        await sandbox.line("! restart")
        rolled = len(output)
        await sandbox.line("! replay")
        assert any(line.startswith("→ g: 🎲=") for line in output[rolled:])
        assert sandbox.errors == 0


async def test_a_cup_matchs_first_roll_not_shown_before_a_restart_is_posted_when_delivered_again(
        tmp_path: Path, monkeypatch) -> None:
    """A Cup match's first message comes with its first roll: written, the process stopped
    before posting it, the roll delivered again posts it (there was none to draw in place),
    and the match goes on from it."""
    async with _delivered_again(tmp_path, monkeypatch, "cup_third_vote_walkover",
                                "dave@cup: 🎲 1") as (sandbox, said):
        assert said()[:3] == ["→ cup: 🎲 Dave_Jones vs Alice_Smith", "  Dave_Jones: 1.",
                              "  Round 1: Alice_Smith to roll."], said()
        await sandbox.line("alice@cup: 🎲 6")
        assert said()[3].startswith("→ cup: Round 1: Dave_Jones 1 — Alice_Smith 6")
        assert sandbox.errors == 0


async def test_a_cup_button_press_not_shown_before_a_restart_is_shown_when_delivered_again(
        tmp_path: Path, monkeypatch) -> None:
    """A Cup button's action (a third-place pick, a bet, a declaration) is written with its
    update, as a typed one is: the pick that decides the 3rd-place match's format, written
    and never shown, is shown on the vote when the press is delivered again (it was
    claimed apart, after the action: nothing told which match to draw)."""
    async with _delivered_again(tmp_path, monkeypatch, "cup_reopen_playoff_match",
                                "gleb@klub: [«HP»]") as (sandbox, said):
        assert said() == [
            "✎ klub#49: 🥉 Матч за 3-е место: Вера_Смирнова — Глеб_Орлов, оба выбрали «HP»."]
        assert sandbox.errors == 0


async def test_a_report_delivered_again_after_a_restart_shows_nothing_again(
        tmp_path: Path) -> None:
    """A match played away has no board to draw: its /result delivered again is dropped
    (the report's own message is a held job's, ``formats_claims_said``)."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["org@g: /new armchair Away format=single_elim play=report",
                                 "alice@g: /register", "bob@g: /register", "org@g: /begin",
                                 "alice@g: /result win", "! restart"])
        replayed = len(output)
        await sandbox.line("! replay")
        assert output[replayed:] == [] and sandbox.errors == 0


async def test_a_result_set_on_a_match_never_shown_posts_no_board_when_delivered_again(
        tmp_path: Path) -> None:
    """An organiser's /setresult closes a Cup match nobody rolled in (it has no message
    yet): delivered again after a restart, the closed match gets no board of its own (its
    result is the closing job's to say, as the first delivery said it)."""
    output: list[str] = []
    async with opened(tmp_path, language="en", emit=output.append) as sandbox:
        await sandbox.run_lines(scenario_until("cup_bet_is_a_raise", "alice@cup: 🎲 4"))
        await sandbox.line("! restart")
        replayed = len(output)
        await sandbox.line("! replay")
        assert not any("Dave_Jones vs Bob_Stone" in line for line in output[replayed:]), \
            output[replayed:]
        assert sandbox.errors == 0


async def test_a_players_first_private_action_not_shown_before_a_restart_sends_their_panel(
        tmp_path: Path, monkeypatch) -> None:
    """Alice never opened the bot's chat, so her first hand could not be sent; her first
    card typed there (her discard) is written, and the process stops before her panel goes
    out. Delivered again, the card's update shows she is in the chat now: her panel is sent
    (it was left unsent, as if the bot still could not write to her, until she wrote again)."""
    async with _delivered_again(tmp_path, monkeypatch, "armchair_chase_declaration",
                                "alice@dm: gloves 5") as (sandbox, said):
        assert "→ alice@dm: 🃏 Match #1 against Bob" in said(), said()
        await sandbox.run_lines(["bob@dm: [BALL 3]", "alice@dm: STUMPS8"])
        assert sandbox.errors == 0


_DRAW_CHANCE = bot.play.perform.draw_chance


async def _no_draw_after(ctx, playbook, before=None):
    """``draw_chance`` of a process that stops right after the action, before the bot's
    draw it calls for (the draw due before an action is made as ever)."""
    return None if before is not None else await _DRAW_CHANCE(ctx, playbook)


async def test_a_draw_due_after_an_action_before_a_restart_is_made_when_delivered_again(
        tmp_path: Path, monkeypatch) -> None:
    """Borya's ball empties the draw pile: the bot shuffles a new deck right after it. The
    ball written, the process stops before the shuffle; delivered again, the shuffle is
    made and the score card and hands show the ball to answer (the card asked for the
    toss, and Anya's answer was refused after the shuffle it made was written)."""
    async with _delivered_again(tmp_path, monkeypatch, "armchair_russian_typed",
                                "borya@dm: перчатки 8",
                                stopped={"draw_chance": _no_draw_after}) as (sandbox, said):
        assert "  Колода 2 из 27 · в доборе 97" in said(), said()
        assert not any("Жребий: любой" in line for line in said()), said()
        await sandbox.line("anya@dm: щ9")
        assert any("Anya отвечает щитки 9" in line for line in said()), said()
        assert sandbox.errors == 0


async def test_the_late_clock_runs_after_a_draw_made_when_delivered_again(
        tmp_path: Path, monkeypatch) -> None:
    """The new deck shuffled when Borya's ball is delivered again sets the late clock of
    whoever it awaits, as the shuffle made with the ball does: Anya, who does not answer,
    is reminded."""
    async with _delivered_again(tmp_path, monkeypatch, "armchair_russian_typed",
                                "borya@dm: перчатки 8",
                                stopped={"draw_chance": _no_draw_after}) as (sandbox, said):
        await sandbox.line("! advance 6m")
        assert any(line.startswith("→ anya@dm:") for line in said()), said()
        assert sandbox.errors == 0
