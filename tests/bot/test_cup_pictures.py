"""The Cup's pictures are named by what they show, the table has a legend for the
qualifiers' bar, and the bracket shows scores and the 3rd-place match (issue 13, §6)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.sandbox_run import run_script

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


async def test_cup_pictures_are_named_by_what_they_show(tmp_path: Path) -> None:
    script = (SCENARIOS / "cup_full_four.txt").read_text(encoding="utf-8")
    output = await run_script(tmp_path, script + "\norg@cup: /standings\norg@cup: /bracket\n",
                              seed=3, language="ru", files=True)
    assert not [line for line in output if line.startswith("!!")]
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert [n for n in names if n.endswith("cup-standings.png")], names
    assert [n for n in names if n.endswith("cup-bracket.png")], names
    assert not [n for n in names if n.endswith("picture.png")], names
