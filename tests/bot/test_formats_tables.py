"""The formats' tables (docs/rules.md): darts rank players level on points by legs
difference, legs won and marks per visit, places still level are shared and said so, the
legs layout and its legend, and pictures named by what they show."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from bot import catalogue
from bot.features.formats import progress, state
from bot.features.formats.state import Run
from bot.features.formats.tables import (
    _cells,
    _header,
    legend,
    legs_layout,
    marked_names,
    shared_lines,
)
from bot.i18n import Translator
from games.tournament import Result, standings
from storage.repositories.matches import MatchRow
from storage.repositories.tournaments import Tournament
from tests.bot.sandbox_run import opened, run_script

A, B, C = 1, 2, 3
catalogue.install()


def _row(number: int, a: int, b: int, score: list[int], stat: list[list[int]] | None
         ) -> MatchRow:
    result = {"score": score, "forfeit": False} | ({"stat": stat} if stat else {})
    return MatchRow(number, 1, "main", number, f"R{number}-0", "shanghai", a, b, "finished",
                    a if score[0] > score[1] else b, result, None)


def _run(stats: bool, game: str = "shanghai") -> Run:
    """A darts round robin of three: A beat B, B beat C, C beat A, each 2:1 in legs."""
    tournament = Tournament(1, -1, game, "NDL", "running", {"format": "round_robin"}, None,
                            None, 0, {"run": {"players": [A, B, C], "groups": [[A, B, C]]}})
    marks = {A: [[20, 10], [15, 10]], B: [[30, 10], [12, 10]], C: [[14, 10], [18, 10]]}
    rows = [_row(1, A, B, [2, 1], marks[A] if stats else None),
            _row(2, B, C, [2, 1], marks[B] if stats else None),
            _row(3, C, A, [2, 1], marks[C] if stats else None)]
    return Run(tournament, rows)


def test_darts_level_on_points_and_legs_are_ordered_by_marks_per_visit() -> None:
    run = _run(stats=True)
    assert run.tiebreaks() == ("diff", "scored", "stat", "h2h")
    # Marks per visit over the table: A (20+18)/20, B (15+30)/20, C (12+14)/20.
    assert progress.table_stats(run.rows) == {A: Fraction(38, 20), B: Fraction(45, 20),
                                               C: Fraction(26, 20)}
    [(_, rows)] = progress.group_tables(run)
    assert [(r.player, r.place, r.points, r.diff, r.scored) for r in rows] == [
        (B, 1, 1, 0, 3), (A, 2, 1, 0, 3), (C, 3, 1, 0, 3)]
    assert shared_lines(Translator("en"), [("", rows)], {A: "A", B: "B", C: "C"}) == []


def test_a_player_who_left_is_marked_in_the_table() -> None:
    """A withdrawal's row stays in the table, its results counted, and a disqualified
    player's shows no place: each name now says why."""
    run = _run(stats=False)
    run.tournament.state["run"] |= {"withdrawn": [B], "disqualified": [C]}
    label = marked_names(Translator("en"), run, {A: "Ann", B: "Ben", C: "Cat"})
    assert label == {A: "Ann", B: "Ben (withdrew)", C: "Cat (disqualified)"}
    assert marked_names(Translator("ru"), run, {A: "Ann", B: "Ben", C: "Cat"})[B] == \
        "Ben (выход из турнира)"


def test_places_still_level_are_shared_and_said_so() -> None:
    [(_, rows)] = progress.group_tables(_run(stats=False))
    assert [r.place for r in rows] == [1, 1, 1]
    label = {A: "Ann", B: "Bea", C: "Cid", 4: "Dan", 5: "Eve"}
    assert shared_lines(Translator("en"), [("", rows)], label) == [
        "= Level on every tie-break, sharing a place: 1 — Ann, Bea, Cid."]
    other = standings([4, 5], [Result(4, 5, None, score=(1, 1))], tiebreaks=("diff",))
    assert shared_lines(Translator("ru"), [("A", rows), ("B", other)], label) == [
        "= Равны по всем дополнительным показателям и делят место: A 1 — Ann, Bea, Cid; "
        "B 1 — Dan, Eve."]
    # Before anyone has played, nothing is said.
    assert shared_lines(Translator("en"), [("", standings([A, B, C], []))], label) == []


def test_the_legs_layout_is_the_darts_games_own() -> None:
    assert legs_layout(_run(stats=False)) and legs_layout(_run(False, "fincricket"))
    assert not legs_layout(_run(False, "armchair"))
    tr = Translator("en")
    assert legend(tr, legs=None, bar=False)[0].startswith("Bh — Buchholz")
    assert legend(tr, legs="shanghai", bar=True)[-1] == "▌ go through to the playoff"


def test_each_darts_game_has_its_own_legend_and_legs_column() -> None:
    """FinCricket calls legs games and its marks «osumat» on the board: its legend and
    column say so and name no other game; Shanghai's MPR counts elements."""
    fi = Translator("fi")
    assert legend(fi, legs="fincricket", bar=False) == [
        "Pelit — voitetut:hävityt, ± — peliero", "MPR — osumat vuoroa kohden"]
    assert legend(fi, legs="shanghai", bar=False)[1] == "MPR — elementit vuoroa kohden"
    assert _header(fi, "fincricket", stats=True, ties=False, diff=False)[4] == "Pelit"
    assert _header(fi, "shanghai", stats=True, ties=False, diff=False)[4] == "Erät"
    for language in ("ru", "en", "fi"):
        tr = Translator(language)
        for game, other in (("fincricket", "hanghai"), ("shanghai", "FinCricket")):
            assert not any(other in line for line in legend(tr, legs=game, bar=False))


def test_marks_per_visit_are_written_the_languages_way() -> None:
    run = _run(stats=True)
    [(_, rows)] = progress.group_tables(run)
    stats = progress.table_stats(run.rows)
    label = {A: "A", B: "B", C: "C"}
    assert [row[-1] for row in _cells(Translator("fi"), rows, label, stats)] == [
        "2,25", "1,90", "1,30"]
    assert [row[-1] for row in _cells(Translator("en"), rows, label, stats)] == [
        "2.25", "1.90", "1.30"]


def test_a_score_difference_that_ranks_the_table_is_a_column_of_its_own() -> None:
    """Armchair ranks by h2h, wins, then the runs' difference: a place it decides is seen."""
    run = _run(stats=False, game="armchair")
    assert "diff" in run.tiebreaks()
    [(_, rows)] = progress.group_tables(run)
    tr = Translator("en")
    assert _header(tr, "armchair", stats=False, ties=False, diff=True) == [
        "#", "Player", "Pts", "W-D-L", "±", "Bh", "SB"]
    cells = _cells(tr, rows, {A: "A", B: "B", C: "C"}, None, None, diff=True)
    assert [row[4] for row in cells] == ["0", "0", "0"] and len(cells[0]) == 7
    assert legend(tr, legs=None, bar=False, diff=True)[-1].startswith("± — score difference")
    assert _header(tr, "armchair", stats=False, ties=True, diff=False) == [
        "#", "Player", "Pts", "W-D-L", "T", "Bh", "SB"]


SCRIPT = """\
org@ndl: /new shanghai NDL format=single_elim third_place=on
alice@ndl: /register
bob@ndl: /register
carol@ndl: /register
dave@ndl: /register
org@ndl: /begin
org@ndl: /setresult @alice @dave 2:0 entered from the paper sheet
org@ndl: /setresult @bob @carol 1:2 entered from the paper sheet
org@ndl: /setresult @alice @carol 2:1 entered from the paper sheet
org@ndl: /setresult @dave @bob 2:0 entered from the paper sheet
org@ndl: /bracket
org@club: /new fincricket Club format=round_robin
alice@club: /register
bob@club: /register
carol@club: /register
org@club: /begin
org@club: /setresult @bob @carol 1:0 paper
org@club: /setresult @alice @bob 1:0 paper
org@club: /setresult @carol @alice 1:0 paper
org@club: /standings
"""


async def test_darts_pictures_are_named_and_a_three_way_tie_is_shared(tmp_path: Path) -> None:
    output = await run_script(tmp_path, SCRIPT, files=True)
    assert not [line for line in output if line.startswith("!!")]
    text = "\n".join(output)
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert [n for n in names if n.endswith("-shanghai-bracket.png")]
    assert [n for n in names if n.endswith("-fincricket-standings.png")]
    assert not [name for name in names if name.endswith("picture.png")]
    assert "Level on every tie-break, sharing a place: 1 — Alice, Bob, Carol." in text


async def test_a_bracket_is_built_once_for_its_picture(tmp_path: Path, monkeypatch) -> None:
    """/bracket replays the bracket's log once, not once more for each round's name (with
    128 players the repeats held the event loop for about 15 ms)."""
    lines = SCRIPT.split("org@ndl: /bracket")[0].splitlines()
    built = []
    elimination = state.single_elimination

    def counted(*args, **kwargs):
        built.append(args)
        return elimination(*args, **kwargs)

    async with opened(tmp_path, emit=lambda line: None) as sandbox:
        await sandbox.run_lines(lines)
        monkeypatch.setattr(state, "single_elimination", counted)
        await sandbox.run_lines(["org@ndl: /bracket"])
    assert len(built) == 1
