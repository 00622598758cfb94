"""A group that became a supergroup, met by a call of an update the bot handles again."""

from __future__ import annotations

from pathlib import Path

from tests.bot.sandbox_run import opened


async def test_a_refused_update_that_meets_the_move_changed_nothing_of_its_own(
        tmp_path: Path) -> None:
    """A non-organiser's /begin, refused, is delivered again after a restart; meanwhile the
    group became a supergroup the bot has not heard of: the organiser check's call meets
    Telegram's refusal and moves the group, and the update is refused again. The move is
    where the group lives, not the update's write: no "refused after it wrote" (the fuzzer's
    seed 700581), and the tournament is found in the supergroup."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as sandbox:
        await sandbox.run_lines(["org@g: hi", "alice@g: hi", "org@g: /new shanghai Darts",
                                 "alice@g: /begin", "! migrate g unseen", "! restart",
                                 "! replay", "org@g: /players"])
        [tournament] = await sandbox.app.services.repos.tournaments.active_in_chat(
            sandbox.world.group("g").id)
    assert not any(line.startswith("!!") for line in output), output
    assert output[-1] == "→ g: No applications for “Darts” yet.", output
    assert tournament.title == "Darts"
