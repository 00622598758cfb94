"""A Swiss event whose players left cannot be paired for all its rounds says so where they
leave, in the group's own language, and numbers its rounds out of those it now plays."""

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
round 2 is the last pairing left (round 3 would be a rematch): Dave's disqualification says
the event plays 2 rounds, round 2 is said as the last, and the event ends after it with no
more said (it said "Round 2 of 3", then that no round was left)."""


@pytest.mark.parametrize(("language", "note", "heading"), [
    ("en", "📉 The players left cannot play more rounds without a rematch: the event plays "
           "2 rounds.", "⚔️ Round 2 of 2:"),
    ("ru", "📉 Оставшиеся игроки не могут сыграть больше туров без повторных встреч: турнир "
           "пройдёт в 2 тура.", "⚔️ Тур 2 из 2:"),
    ("fi", "📉 Jäljellä olevat pelaajat eivät voi pelata enempää kierroksia ilman "
           "uusintakohtaamisia: turnauksessa pelataan 2 kierrosta.", "⚔️ Kierros 2/2:"),
])
async def test_fewer_rounds_are_said_once_where_players_leave(
        tmp_path: Path, language: str, note: str, heading: str) -> None:
    output = await run_script(tmp_path, LEFT_TWO, language=language)
    assert [line for line in output if "📉" in line] == [f"  {note}"]
    assert output.index(f"  {note}") < output.index(f"  {heading}")
    assert output[output.index(f"  {note}") - 3].startswith("→ g: photo \"⛔ ")
    assert "🏆" in output[-3]  # the final placings under the last table, nothing else
