"""What /checkin answers before a scheduled start's check-in opens, and to an applicant
still awaiting approval (``bot/features/roster.py``): each says when or why, and nothing is
checked in."""

from __future__ import annotations

from pathlib import Path

from aiogram.exceptions import TelegramBadRequest

from tests.bot.sandbox_run import opened

# The newest application card is Bob's: Bob is approved, Alice still waits.
SETUP = """! now 2026-12-05T10:00+00:00
org@g: /new shanghai Early legs=1 checkin=30 approval=on
alice@g: /register
bob@g: /register
org@g: [✅ Approve]
org@g: /schedule 2026-12-05 12:00 UTC"""


async def _answers(tmp_path: Path, lines: list[str]) -> tuple[list[str], int]:
    """The bot's messages for ``lines`` after SETUP, and how many entrants checked in."""
    output: list[str] = []
    async with opened(tmp_path, seed=1, emit=output.append) as sandbox:
        await sandbox.run_lines(SETUP.splitlines())
        start = len(output)
        await sandbox.run_lines(lines)
        entrants = await sandbox.app.services.repos.entrants.list(1)
    said = [line for line in output[start:] if line.startswith(("→", "⚑"))]
    return said, sum(entrant.checked_in for entrant in entrants)


async def test_a_check_in_before_it_opens_says_when_and_changes_nothing(tmp_path: Path) -> None:
    said, checked_in = await _answers(tmp_path, ["bob@g: /checkin"])
    assert said == ["→ g: Check-in for “Early” opens 05.12.2026 11:30, UTC: check in then"
                    " (I will say so here)."]
    assert checked_in == 0


async def test_an_applicant_awaiting_approval_is_told_so(tmp_path: Path) -> None:
    said, checked_in = await _answers(tmp_path, ["! advance 1h45m", "alice@g: /checkin"])
    assert said[-1] == ("→ g: Your application for “Early” still awaits an organiser's"
                        " approval: once it is approved, check in.")
    assert checked_in == 0


async def test_with_no_start_set_check_in_waits_for_one(tmp_path: Path) -> None:
    """Check-in opens its minutes before a start, so with none set a /checkin or a press
    of an old Check-in button says so and checks nobody in."""
    output: list[str] = []
    async with opened(tmp_path, seed=1, emit=output.append) as sandbox:
        await sandbox.run_lines(["org@g: /new fincricket Later legs=1", "bob@g: /register",
                                 "org@g: /settings checkin=30"])
        start = len(output)
        await sandbox.run_lines(["bob@g: /checkin", "bob@g: callback ci:1"])
        entrants = await sandbox.app.services.repos.entrants.list(1)
    waits = ("Check-in for “Later” opens 30 min before the start, once one is set"
             " (/schedule): check in then (I will say so here).")
    assert output[start:] == [f"→ g: {waits}", f"⚑ bob: {waits}"]
    assert not any(entrant.checked_in for entrant in entrants)


async def test_a_press_in_private_before_it_opens_says_it_is_announced_in_the_group(
        tmp_path: Path) -> None:
    """The Check-in button pressed in private says when check-in opens and that the
    group (not this chat) is told then."""
    said, checked_in = await _answers(tmp_path, ["bob@dm: /start", "bob@dm: callback ci:1"])
    assert said[-1] == ("⚑ bob: Check-in for “Early” opens 05.12.2026 11:30, UTC: check in"
                        " then (I will say so in the group).")
    assert checked_in == 0


async def test_a_check_in_the_status_counts_is_a_thumbs_up_else_words(tmp_path: Path,
                                                                      monkeypatch) -> None:
    """Once check-in is open, the opening is the check-in status: a typed /checkin redraws
    its count and is answered by 👍 on the command, not by a group message; where the group
    takes no such reaction (Telegram refuses it), by words as before."""
    output: list[str] = []
    async with opened(tmp_path, seed=1, emit=output.append) as sandbox:
        await sandbox.run_lines([*SETUP.splitlines(), "! advance 1h45m"])
        start = len(output)
        await sandbox.run_lines(["bob@g: /checkin"])
        thumbs_up = output[start:]
        group = sandbox.world.messages[sandbox.world.group("g").id]
        command = next(message for message in reversed(group) if not message.from_bot)

        async def no_reactions(method):
            raise TelegramBadRequest(method=method, message="Bad Request: REACTION_INVALID")

        monkeypatch.setattr(sandbox.app.bot.session, "_set_message_reaction", no_reactions)
        await sandbox.run_lines(["org@g: /settings checkin=off", "org@g: /settings checkin=30",
                                 "! advance 1m"])
        start = len(output)
        await sandbox.run_lines(["bob@g: /checkin"])
        in_words = output[start:]
    assert [line for line in thumbs_up if line.startswith(("→", "♡"))] == [
        f"♡ g#{command.message_id}: 👍"]
    assert "  ✅ Checked in: 1 of 1." in thumbs_up
    assert "→ g: ✅ Bob, you are checked in for “Early”." in in_words
    assert not any(line.startswith("♡") for line in in_words)
