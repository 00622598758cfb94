"""The Cup's roll-off (bot/features/cup/stage.py): players still tied after every tie-break
when the group stage ends are drawn into an order once; the draw is stored, and the tables,
the /standings picture (its qualifiers' bar) and the export show that order."""

from __future__ import annotations

from pathlib import Path

from bot.features.cup import status
from bot.features.cup.stage import ROLL_OFF, _drawn_line, in_drawn_order, roll_off
from bot.i18n import Translator
from bot.render.pictures import standings_png
from games.tournament.standings import Row
from tests.bot.sandbox_run import SCENARIOS, opened


def _row(player: int, place: int | None) -> Row:
    return Row(player, place, "active" if place else "disqualified", 3, 1, 1, 1, 4, 0, 0, 0,
               0, 5)


def test_only_a_tie_the_roll_off_drew_is_ordered() -> None:
    rows = [_row(1, 1), _row(2, 2), _row(3, 2), _row(4, 4), _row(5, 4), _row(6, None)]
    ordered = in_drawn_order(rows, [3, 2])
    assert [(r.player, r.place) for r in ordered] == [(1, 1), (3, 2), (2, 3), (4, 4), (5, 4),
                                                       (6, None)]


def test_the_roll_off_is_said_under_the_table_it_reorders() -> None:
    """With several groups, each table carries the roll-off of its own players only."""
    label = {player: f"P{player}" for player in range(1, 7)}
    group_a, group_b = [_row(1, 1), _row(2, 2), _row(3, 2)], [_row(4, 1), _row(5, 1), _row(6, 3)]
    drawn = [[3, 2], [5, 4]]
    tr = Translator("en")
    assert _drawn_line(tr, group_a, drawn, label).splitlines()[1:] == ["P3, P2"]
    assert _drawn_line(tr, group_b, drawn, label).splitlines()[1:] == ["P5, P4"]
    assert _drawn_line(tr, group_a, [[5, 4]], label) is None


async def test_the_draw_is_stored_and_every_table_shows_it(tmp_path: Path) -> None:
    script = (SCENARIOS / "cup_roll_off_stored.txt").read_text(encoding="utf-8").splitlines()
    async with opened(tmp_path) as sandbox:
        services = sandbox.app.services
        drawn: list[tuple] = []
        draw = services.renderer.draw

        async def seen(calls):
            drawn.extend(args for function, args in calls if function is standings_png)
            return await draw(calls)
        services.renderer.draw = seen
        await sandbox.run_lines(script)
        tournament = await services.repos.tournaments.get(1)
        label = {e.user_id: e.label for e in await services.repos.entrants.list(1)}
        stored = [[label[p] for p in group] for group in tournament.state[ROLL_OFF]]
        assert stored == [["Carol_King", "Bob_Stone"]]
        assert await roll_off(services, tournament) == tournament  # never drawn again
        exported, _ = await status.standings_export(services, tournament)
    assert [(row["place"], row["name"]) for row in exported] == [
        (1, "Alice_Smith"), (2, "Carol_King"), (3, "Bob_Stone"), (4, "Dave_Jones")]
    (_, _, cells, bar, _), = drawn
    assert [cell[:2] for cell in cells[:3]] == [["1", "Alice_Smith"], ["2", "Carol_King"],
                                               ["3", "Bob_Stone"]]
    assert bar == 2
