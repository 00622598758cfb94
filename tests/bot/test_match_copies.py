"""A match action of an engine without a copy of its own (darts) does not copy the match's
state: the engine applies in place on the service's spare replica. The only copies are made
once per match (its launch reads the state, the first action makes the spare), never per
action. (Engines with ``__replica__`` copy themselves per action, more cheaply than a replay:
``tests/games/common/test_replicas.py``.)"""

from __future__ import annotations

import pytest

from bot import match_service
from tests.bot.sandbox_run import run_script

VISITS = 30


@pytest.mark.asyncio
async def test_actions_make_no_copy_of_the_state(tmp_path, monkeypatch) -> None:
    copies, original = [], match_service.snapshots.replica
    monkeypatch.setattr(match_service.snapshots, "replica",
                        lambda value: copies.append(value) or original(value))
    script = ["org@grp: /new shanghai Лег legs=1", "alice@grp: /register",
              "bob@grp: /register", "org@grp: /begin", "org@grp: [🎯 Булл-офф: Alice]"]
    script += [f"{who}@grp: miss miss miss" for _ in range(VISITS) for who in ("alice", "bob")]
    output = await run_script(tmp_path, "\n".join(script), language="ru")
    assert any(f"(№{2 * VISITS + 1} в леге)" in line for line in output)  # every visit counted
    assert len(copies) <= 3
