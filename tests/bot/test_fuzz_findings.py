"""Defects the fuzzer found, each kept as the shrunk transcript that showed it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.sandbox_run import run_script

CUP_OF_TWO_LOSES_ONE = """\
org@cup: /new cup Two approval=off
alice@cup: hi
bob@cup: hi
org@cup: /add @alice Alice_Smith
org@cup: /add @bob Bob_Stone
org@cup: /begin
org@cup: /dq @bob no-show
"""
DQ_OF_A_PLAYER_ALREADY_OUT = """\
org@g0: /new armchair Fuzz approval=off format=swiss_elim
alice@g0: /register
carol@g0: /register
dave@g0: /register
grace@g0: /register
org@g0: /begin
carol@g0: /result win
alice@g0: /result 5:3
dave@g0: /confirm
grace@g0: /confirm
dave@g0: /result 3:5
grace@g0: /result 5:3
org@g0: /dq @dave reason
"""




@pytest.mark.parametrize(("script", "seed", "last"), [
    (CUP_OF_TWO_LOSES_ONE, 0, "🥇 Alice_Smith"),
    (DQ_OF_A_PLAYER_ALREADY_OUT, 268624, "Their results are annulled"),
])
async def test_fuzz_finding_is_answered(tmp_path: Path, script: str, seed: int,
                                        last: str) -> None:
    output = await run_script(tmp_path, script, seed=seed)
    assert not [line for line in output if line.startswith("!! error")], output
    assert last in "\n".join(output[-3:])
