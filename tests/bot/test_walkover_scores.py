"""A walkover (a withdrawal's, an organiser's ``+:-``) counts in the tables as the score that
wins a match against nothing (``Game.winning_score``): darts the legs of a best of ``legs``,
backgammon the ``length``; a game without one (armchair's runs) counts none, nor does an
organiser's result in it, whatever score is typed. The tables and the export's standings
agree."""

from __future__ import annotations

import csv
from pathlib import Path

from bot import catalogue
from bot.features.formats.state import Run
from storage.repositories.tournaments import Tournament
from tests.bot.sandbox_run import run_script

catalogue.install()

WITHDRAWAL = """\
org@pub: /new shanghai Night format=swiss rounds=3 legs=3
alice@pub: /register
bob@pub: /register
carol@pub: /register
dave@pub: /register
org@pub: /begin
org@pub: /setresult @alice @carol 2:1 played on paper
dave@pub: /withdraw
dave@pub: [🚪 Withdraw]
org@pub: /export
org@pub: [📦 Get the export]
"""

FORFEIT = """\
org@rr: /new backgammon RR format=round_robin length=3 play=board
alice@rr: /register
bob@rr: /register
carol@rr: /register
org@rr: /begin
org@rr: /setresult @bob @carol +:- no show
org@rr: /export
org@rr: [📦 Get the export]
"""

ROUND_ROBIN_WITHDRAWAL = """\
org@rr: /new shanghai League legs=3
a@rr: /register
b@rr: /register
c@rr: /register
d@rr: /register
org@rr: /begin
org@rr: /setresult @d @a 2:1 p
org@rr: /setresult @b @c 2:0 p
org@rr: /setresult @a @b 2:1 p
org@rr: /setresult @c @d 2:1 p
d@rr: /withdraw
d@rr: [🚪 Withdraw]
org@rr: /setresult @a @c 2:0 p
org@rr: /export
org@rr: [📦 Get the export]
"""

ARMCHAIR_SET = """\
org@pub: /new armchair Night wickets=1
ann@pub: /register
ben@pub: /register
org@pub: /begin
org@pub: /setresult @ann @ben 9:0 Ben had to leave
org@pub: /export
org@pub: [📦 Get the export]
"""


async def _exported(tmp_path: Path, script: str) -> Path:
    output = await run_script(tmp_path, script, files=True)
    assert not [line for line in output if line.startswith("!!")]
    return tmp_path / "out"


def _csv(out: Path, name: str) -> list[dict[str, str]]:
    path = next(p for p in out.iterdir() if p.name.endswith(name))
    return list(csv.DictReader(path.open()))


def _table(out: Path) -> list[tuple[str, str, str, str]]:
    return [(row["place"], row["name"], row["scored"], row["diff"])
            for row in _csv(out, "standings.csv")]


async def _standings(tmp_path: Path, script: str) -> list[tuple[str, str, str, str]]:
    return _table(await _exported(tmp_path, script))


async def test_a_withdrawal_loses_its_walkover_by_the_legs_of_a_best_of_three(
        tmp_path: Path) -> None:
    """Dave withdrew before his match: Bob's walkover is 2:0, above Alice's 2:1 on the board,
    and Dave's 0:2 below Carol, who lost 1:2 (they ranked 2 Bob 0:0, 3 Dave 0:0, 4 Carol)."""
    assert await _standings(tmp_path, WITHDRAWAL) == [
        ("1", "Bob", "2", "2"), ("2", "Alice", "2", "1"), ("3", "Carol", "1", "-1"),
        ("4", "Dave", "0", "-2")]


async def test_an_organisers_forfeit_counts_the_match_length(tmp_path: Path) -> None:
    assert (await _standings(tmp_path, FORFEIT))[:2] == [
        ("1", "Bob", "3", "3"), ("2", "Carol", "0", "-3")]


async def test_a_round_robin_withdrawal_after_half_stores_its_walkover(tmp_path: Path) -> None:
    """D played two of three and withdrew from the match with B: it is stored as B's
    walkover (2:0 in the table, counted once), not as a void match."""
    out = await _exported(tmp_path, ROUND_ROBIN_WITHDRAWAL)
    assert _table(out) == [
        ("1", "B", "5", "3"), ("2", "A", "5", "2"), ("3", "D", "3", "-2"), ("4", "C", "2", "-3")]
    walkover = next(row for row in _csv(out, "pairings.csv") if {row["name_a"], row["name_b"]} == {"B", "D"})
    b = walkover["player_a"] if walkover["name_a"] == "B" else walkover["player_b"]
    assert (walkover["status"], walkover["winner"]) == ("finished", b)
    assert walkover["result"] == ("+:-" if walkover["name_a"] == "B" else "-:+")


async def test_an_organisers_armchair_result_counts_no_runs(tmp_path: Path) -> None:
    """An armchair match is scored in runs from play only: Ann's result set as 9:0 is a win
    with no runs in the table's score columns, as a walkover's."""
    assert await _standings(tmp_path, ARMCHAIR_SET) == [("1", "Ann", "0", "0"),
                                                         ("2", "Ben", "0", "0")]


def _run(game: str, settings: dict) -> Run:
    return Run(Tournament(1, -1, game, "T", "running", settings, None, None, 0, {}), [])


def test_each_games_walkover_score() -> None:
    assert _run("shanghai", {"legs": 5}).walkover() == 3
    assert _run("fincricket", {"legs": 1}).walkover() == 1
    assert _run("backgammon", {"length": 7}).walkover() == 7
    assert _run("armchair", {}).walkover() == 0
