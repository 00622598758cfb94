"""A number past every row's id (SQLite's 64-bit integers), typed after ``#``, in a deep
link or carried by a forged button, names no tournament or match: it is answered as an id
that does not exist, never dropped with an error (SQLite refuses to bind such a number)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.bot.sandbox_run import opened, run_script, said
from tests.fuzz.generate import callbacks

HUGE = "9" * 25
HUGE_ID = "9" * 20
"""Past 2**63 - 1, yet short enough for a button's 64 bytes."""
SETUP = """\
alice@dm: /start
bob@dm: /start
org@g: /new backgammon Night play=bot length=1 approval=on
alice@g: /register
org@g: [✅ Approve]
alice@g: /challenge @bob backgammon length=1
bob@g: [✅ Accept]
"""


async def test_a_huge_id_typed_or_in_a_link_names_nothing(tmp_path: Path) -> None:
    output = await run_script(tmp_path, "\n".join([
        "org@g: /new shanghai Friday", f"org@g: /players #{HUGE}", f"org@g: /begin #{HUGE}",
        f"alice@dm: /start m-{HUGE}", f"alice@dm: /start reg-{HUGE}"]))
    assert not [line for line in output if line.startswith("!!")]
    answers = [message.split("\n")[0] for message in said(output)[1:]]
    assert answers == [f"→ g: There is no open tournament #{HUGE} in this group."] * 2 + [
        f"→ alice@dm: There is no match #{HUGE}.",
        "→ alice@dm: This link leads to a tournament that no longer exists."]


async def test_every_button_forged_with_a_huge_id_is_refused_without_an_error(
        tmp_path: Path) -> None:
    """Each button the set-up showed (an application's, a challenge's, the board's), each
    of its numbers in turn (a tournament's, a match's or a user's id, a board's step …)
    made 20 digits long."""
    output: list[str] = []
    async with opened(tmp_path, emit=output.append) as box:
        shown: dict[str, tuple[int, object]] = {}
        for line in SETUP.splitlines():
            await box.run_lines([line])
            for chat_id, messages in box.world.messages.items():
                shown.update((button["callback_data"], (chat_id, stored))
                             for stored in messages for button in callbacks(stored))
        forged = {data[:number.start()] + HUGE_ID + data[number.end():]: place
                  for data, place in shown.items() for number in re.finditer(r"\d+", data)}
        alice = box.world.user("alice")
        for data, (chat_id, stored) in forged.items():
            await box._callback(alice, chat_id, data, stored)
    assert {data.split(":")[0] for data in forged} >= {"app", "fr", "bgl"}
    assert not [line for line in output if line.startswith("!!")]
