"""A bracket match a withdrawal decides before it is made (the finalist who leaves while the
other semi-final is played) is drawn as every walkover is: "+" for the winner, "−" for the
player who left, in the picture and in its text."""

from __future__ import annotations

from pathlib import Path

from bot.features.formats import status
from tests.bot.sandbox_run import run_script

SCRIPT = """\
org@se: /new armchair Four Cards format=single_elim play=report
ann@se: /register
ben@se: /register
cat@se: /register
dan@se: /register
org@se: /begin
ann@se: /result win
dan@se: /confirm
ann@se: /withdraw
ann@se: [🚪 Withdraw]
ben@se: /result win
cat@se: /confirm
org@se: /bracket
"""


async def test_a_final_left_before_it_was_made_is_a_walkover_in_the_bracket(
        tmp_path: Path, monkeypatch) -> None:
    posted: list[tuple] = []

    async def capture(services, chat_id, calls, caption, fallback, **kwargs) -> None:
        posted.append((calls, fallback()))
    monkeypatch.setattr(status, "post_pictures", capture)
    await run_script(tmp_path, SCRIPT)
    (calls, text), = posted
    (_, (_, rounds, _)), = calls
    assert rounds[-1] == ("Final", [("Ann", "Ben", "Ben", ("−", "+"))])
    assert "Final: Ann — Ben −:+ → Ben" in text
