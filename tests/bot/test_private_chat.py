"""What the bot answers in a private chat to what no feature reads, and ``/hand`` typed in
the group (``bot/features/common.py``): nothing a player types goes unanswered there, and
nothing of it changes a match."""

from __future__ import annotations

from pathlib import Path

from tests.bot.sandbox_run import opened
from tests.bot.test_armchair import SETUP

ARMCHAIR = SETUP.format(options="wickets=1")
"""Match 1, Bob — Alice, waiting for the toss; both hands are in the players' DMs."""
TOSSED = ARMCHAIR + "bob@g: [🪙 Toss]\nalice@g: [🏏 Alice bats first]\n"
"""Match 1 past its toss and choice: cards are played (before them a word typed in private
is answered with the toss or the choice the score card waits for)."""


async def _said(tmp_path: Path, setup: str, lines: list[str]) -> tuple[list[str], int]:
    """What the bot printed for ``lines`` after ``setup`` (seed 5: each message's first
    line and its buttons), and how many actions match 1 logged meanwhile."""
    output: list[str] = []
    async with opened(tmp_path, seed=5, emit=output.append) as sandbox:
        await sandbox.run_lines(setup.splitlines())
        actions = sandbox.app.services.repos.matches.actions
        before, start = len(await actions(1)), len(output)
        await sandbox.run_lines(lines)
        logged = len(await actions(1)) - before
    shown = [line for line in output[start:] if line.startswith(("→", "✎", "✗", "  ["))]
    return shown, logged


async def test_a_word_that_is_no_move_gets_an_answer_and_changes_nothing(tmp_path: Path) -> None:
    said, logged = await _said(tmp_path, TOSSED,
                               ["bob@dm: bowl 3", "bob@dm: bat 99", "bob@dm: hello"])
    assert said == [
        f"→ bob@dm: “{word}” is not a move: type a card from your hand as it is written there"
        " (for example BALL 5); after a wicket, “swap BAT 3” (one or two cards) or “keep”;"
        " or press its button. /hand sends your hand again."
        for word in ("bowl 3", "bat 99", "hello")]
    assert logged == 0


async def test_swap_alone_is_asked_which_cards_and_keeps_nothing(tmp_path: Path) -> None:
    said, logged = await _said(tmp_path, TOSSED, ["bob@dm: swap"])
    assert len(said) == 1 and said[0].startswith("→ bob@dm: “swap” is not a move:")
    assert logged == 0


async def test_chat_from_someone_without_a_match_is_pointed_to_help(tmp_path: Path) -> None:
    said, _ = await _said(tmp_path, "alice@dm: /start", ["alice@dm: hello"])
    assert said == ["→ alice@dm: I did not understand that: /help lists what I do here."]


async def test_a_groups_command_in_private_says_so_and_an_unknown_one_says_that(
        tmp_path: Path) -> None:
    said, _ = await _said(tmp_path, "alice@dm: /start", [
        "alice@dm: /roll", "alice@dm: /board", "alice@dm: /double", "alice@dm: /foo"])
    assert said == ["→ alice@dm: This command works in the tournament's group."] * 3 + [
        "→ alice@dm: I do not know /foo: /help lists what I do here."]


async def test_hand_in_the_group_sends_the_hand_to_private(tmp_path: Path) -> None:
    said, logged = await _said(tmp_path, ARMCHAIR, ["bob@g: /hand", "carol@g: /hand"])
    assert said == ["→ bob@dm: 🃏 Match #1 against Alice",
                    "✗ bob@dm#3",
                    "→ g: 📬 Sent to you in private (button).",
                    "  [💬 Open the chat with the bot]",
                    "→ g: None of your live matches has cards or a secret choice for you in "
                    "private."]
    assert logged == 0


async def test_hand_in_the_group_from_a_player_the_bot_cannot_write_to(tmp_path: Path) -> None:
    """Only the panel's own answer: the group is told once how to open the chat."""
    said, _ = await _said(tmp_path, ARMCHAIR, ["! block bob", "bob@g: /hand"])
    assert len(said) == 2
    assert said[0].startswith("→ g: Bob, I cannot write to you in private")
    assert said[1] == "  [💬 Open the chat with the bot]"
