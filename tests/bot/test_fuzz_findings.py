"""Defects the fuzzer found, each kept as the shrunk transcript that showed it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.sandbox_run import run_script, said

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
NEW_AFTER_ITS_ID_WAS_NAMED = """\
org@g2: /begin #1
org@g1: /new shanghai Title
"""
"""``/begin #1`` before tournament 1 existed left "no tournament 1" remembered: the /new
that made it then read it as missing."""
MATCH_NAMED_BY_A_FORGED_BUTTON_BEFORE_IT_EXISTS = """\
org@g0: /new backgammon Fuzz approval=off length=3 format=double_elim
heidi@g0: /register
alice@g0: /register
grace@g0: /register
org@g0: /begin
grace@g0: callback bgl:5:4:roll:-
! advance 1d
"""
"""A press naming match 5 before it was paired left "no match 5" remembered: when the
bracket made match 5, it could not be started."""

PICK_DELIVERED_AGAIN_AFTER_A_RESTART = """\
org@g1: /new backgammon Fuzz approval=off
bob@g1: /register
heidi@g1: /register
org@g1: /begin
bob@g1: [24]
! restart
! replay
"""
"""A point picked on the board writes nothing, so its update is not claimed: delivered
again after a restart it drew the same buttons again, which Telegram refused as not
modified, raised into the handler; and its answer, refused as the press was answered
already, would raise there too."""


@pytest.mark.parametrize(("script", "seed", "last"), [
    (CUP_OF_TWO_LOSES_ONE, 0, "🥇 Alice_Smith"),
    (DQ_OF_A_PLAYER_ALREADY_OUT, 268624, "Their results are annulled"),
    (NEW_AFTER_ITS_ID_WAS_NAMED, 1, "Matches: best of 3."),
    (MATCH_NAMED_BY_A_FORGED_BUTTON_BEFORE_IT_EXISTS, 1, "🥉 3. Alice"),
    (PICK_DELIVERED_AGAIN_AFTER_A_RESTART, 786687, "Bob to play"),
])
async def test_fuzz_finding_is_answered(tmp_path: Path, script: str, seed: int,
                                        last: str) -> None:
    output = await run_script(tmp_path, script, seed=seed)
    assert not [line for line in output if line.startswith("!! error")], output
    sent = [message for message in said(output) if message.startswith("→ ")]
    assert last in sent[-1]  # the last message sent: boards edited after it may follow
