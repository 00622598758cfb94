"""A Swiss event that runs out of legal pairings ends with a note in the group's own
language: the pairing engine gives the reason as a code, the catalogs give the words."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.sandbox_run import run_script

LEFT_TWO = """\
org@g: /new armchair Short Swiss format=swiss rounds=3 play=report
alice@g: /register
bob@g: /register
carol@g: /register
dave@g: /register
org@g: /begin
org@g: /dq @carol gone
org@g: /dq @dave gone
bob@g: /result 3:1
alice@g: /confirm
"""
"""Round 1 is Alice—Carol and Bob—Dave; with Carol and Dave disqualified, Alice—Bob in
round 2 is the last pairing left (round 3 would be a rematch). A field nobody left plays
the rounds it can without the note: they were said at the start."""


@pytest.mark.parametrize(("language", "note"), [
    ("en", "No round is left without a rematch, so the event ends here."),
    ("ru", "Следующий тур без повторных встреч составить нельзя, поэтому турнир завершён."),
    ("fi", "Kierrosta ilman uusintakohtaamisia ei enää ole, joten turnaus päättyy tähän."),
])
async def test_the_end_for_want_of_a_pairing_is_said_in_the_groups_language(
        tmp_path: Path, language: str, note: str) -> None:
    output = await run_script(tmp_path, LEFT_TWO, language=language)
    after = output[output.index(f"  {note}"):]  # under the last table, in its caption
    assert not any(line.startswith("→") for line in after) and after[-1].endswith('"')
    assert "🏆" in after[2]  # the final placings below it, in the same caption
