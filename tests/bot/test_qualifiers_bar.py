"""The qualifiers' bar of a groups-then-playoff table (bot/features/formats/tables.py; the
Cup's, bot/features/cup/status.py) marks only players with a place: one who left the
tournament is never shown going through."""

from __future__ import annotations

from pathlib import Path

from bot.render.pictures import standings_png
from tests.bot.sandbox_run import SCENARIOS, opened

SETUP = """org@g: /new armchair GP play=report format=groups_playoff groups=2 top=2
alice@g: /register
bob@g: /register
carol@g: /register
dave@g: /register
erin@g: /register
org@g: /begin"""


def _standings_drawn(sandbox) -> list[tuple]:
    """The arguments of every standings picture the sandbox's renderer draws from now on."""
    drawn: list[tuple] = []
    renderer = sandbox.app.services.renderer
    draw = renderer.draw

    async def seen(calls):
        drawn.extend(args for function, args in calls if function is standings_png)
        return await draw(calls)
    renderer.draw = seen
    return drawn


async def test_a_player_who_left_is_not_barred_through(tmp_path: Path) -> None:
    async with opened(tmp_path) as sandbox:
        await sandbox.run_lines(SETUP.splitlines())
        drawn = _standings_drawn(sandbox)
        group_b = [e for e in await sandbox.app.services.repos.entrants.list(1)
                   if e.seed in (2, 3)]  # snake seeding: 1 4 5 in A, 2 3 in B
        leaver = group_b[0].user_id
        user = await sandbox.app.services.repos.users.get(leaver)
        await sandbox.run_lines([f"{user.username}@g: /withdraw",
                                 f"{user.username}@g: [🚪 Withdraw]", "org@g: /standings"])
    tables = {title: (cells, bar) for title, _, cells, bar, _ in drawn}
    cells, bar = tables["GP · B"]
    assert len(cells) == 2 and bar == 1  # the one left in group B, not the leaver
    assert tables["GP · A"][1] == 2


async def test_a_cup_player_disqualified_in_the_playoff_is_marked_not_barred(
        tmp_path: Path) -> None:
    script = (SCENARIOS / "cup_dq_walkover_named.txt").read_text(encoding="utf-8")
    async with opened(tmp_path) as sandbox:
        drawn = _standings_drawn(sandbox)
        await sandbox.run_lines(script.splitlines())
    (_, _, cells, bar, _), = drawn
    assert cells[-1][:2] == ["—", "Bob_Stone (disqualified)"]
    assert bar == 3
