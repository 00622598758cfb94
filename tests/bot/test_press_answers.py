"""A pressed button is answered once its press is carried out, not after the group's
message it changes: in a busy group that message may wait up to a minute for the group's
window, and Telegram shows the press spinning meanwhile, then drops its answer."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from aiogram.methods import AnswerCallbackQuery

from bench.busy_group import RealWaits
from bot.method_fields import field
from bot.sandbox.runner import Sandbox
from bot.sending import rate_limiter
from tests.bot.sandbox_run import SCENARIOS, opened, scenario_until
from tests.bot.test_scenarios import options_of

PRESSES = [  # (transcript, a press in it, the group whose message the press changes)
    ("darts_restart_mid_visit", "alice@grp: [T20]", "grp"),
    ("first_hour_press", "alice@cup: [1-2-3]", "cup"),
    ("backgammon_live_match", "bob@g: [✅ Accept]", "g"),
    ("backgammon_live_match", "bob@g: [24]", "g"),
    ("backgammon_board_match", "bob@bg: [🏁 Single]", "bg"),
    ("backgammon_board_match", "bob@bg: [played out]", "bg"),
    ("backgammon_board_match", "alice@bg: [✅ Confirm]", "bg"),
    ("backgammon_board_forfeit_with_next_matches", "org@g: [🏳 Award by forfeit: Bob]", "g"),
    ("formats_double_elim", "dave@de: [✅ Подтвердить]", "de"),
    ("armchair_chase_declaration", "alice@dm: [✅ Yes, declare]", "g"),
    ("checkin_opening_is_status", "alice@club: [✅ Check in]", "club"),
]


def _full_window(box: Sandbox, chat_id: int) -> None:
    """The group's window full for the next half minute: its next message waits."""
    limiter = rate_limiter(box.app.bot.session)
    until = box.clock.now() + timedelta(seconds=30)
    limiter.group_windows[chat_id].closed_until = until.timestamp()


@pytest.mark.parametrize("scenario, press, group_name", PRESSES)
async def test_a_press_is_answered_before_the_group_message_it_changes_waits(
        tmp_path: Path, scenario: str, press: str, group_name: str) -> None:
    """The group's window full, the press's answer is the first call to leave for Telegram
    (recorded innermost, after the sending layer's waits), before the group's message. The
    keypad's press (darts) passed before the change: it is the case that shows the test
    can pass."""
    options = options_of((SCENARIOS / f"{scenario}.txt").read_text(encoding="utf-8"))
    made: list[str] = []

    async def recorded(make_request, bot, method):
        if isinstance(method, AnswerCallbackQuery):
            made.append("answer")
        elif field(method, "chat_id") == group and not type(method).__name__.startswith("Get"):
            made.append(type(method).__name__)
        return await make_request(bot, method)

    async with opened(tmp_path, seed=int(options.get("seed", 0)),
                      language=options.get("lang", "ru")) as box:
        await box.run_lines(scenario_until(scenario, press))
        group = box.world.group(group_name).id
        _full_window(box, group)
        box.clock.sleep = RealWaits(box)  # (the sandbox's own waits let nothing in)
        box.app.bot.session.middleware(recorded)
        await box.run_lines([press])
    assert "answer" in made and len(made) > 1 and made[0] == "answer", made
