"""The group-message budget (issue 13, ``docs/rules.md`` "Messages in the group"): Telegram
lets a bot post about 20 messages a minute in a group, so every transcript in
tests/scenarios/ is held to the number of NEW group messages written for it in
tests/scenarios/budgets.toml. Edits, deleted messages and DMs do not count; the bot's own
🎲 for /roll does.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
BUDGETS = SCENARIOS / "budgets.toml"
_GROUP_MESSAGE = re.compile(r"^→ [a-z0-9_]+(?:/\d+)?: ")  # "→ cup:" or "→ cup/7:", not "@dm"


def group_messages(output: str) -> int:
    """How many new messages the bot sent to groups in a transcript's recorded output."""
    return sum(1 for line in output.splitlines() if _GROUP_MESSAGE.match(line))


def test_counts_only_new_group_messages() -> None:
    output = "\n".join(("→ cup: hello", "  more of it", "✎ cup#3: edited", "→ alice@dm: hi",
                        "→ cup/7: in a topic", "→ cup: 🎲=4", "✗ cup#3"))
    assert group_messages(output) == 3


@pytest.mark.parametrize("out", sorted(SCENARIOS.glob("*.out")), ids=lambda p: p.stem)
def test_transcript_stays_within_its_budget(out: Path) -> None:
    budgets = tomllib.loads(BUDGETS.read_text(encoding="utf-8"))
    count = group_messages(out.read_text(encoding="utf-8"))
    assert out.stem in budgets, (
        f"{out.stem} has no message budget: add the line `{out.stem} = {count}` to "
        f"{BUDGETS.relative_to(SCENARIOS.parent.parent)}")
    assert count <= budgets[out.stem], (
        f"{out.stem} sends {count} new group messages, its budget is {budgets[out.stem]}: "
        "say it with fewer messages (edit a status in place), or, if the new messages are "
        f"needed, raise the budget in {BUDGETS.name} and say why in the commit")
