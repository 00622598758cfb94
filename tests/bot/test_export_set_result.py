"""/export of a match an organiser's /setresult closed, played or not: the games' own
sections (darts statistics, backgammon games, armchair scorecards) show the result that was set and say who set
it, beside whatever was really played (the engine's log of a match closed early knows only
the darts or games thrown, and its legs or points would contradict the result)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from games.backgammon.mat import read_mat
from tests.bot.sandbox_run import run_script

FOUR = """\
ann@ex: /register
ben@ex: /register
cat@ex: /register
dan@ex: /register
"""
"""Four players enter the group's tournament."""

DARTS = """\
org@ex: /start
org@dm: /start
org@ex: /new shanghai League legs=3 format=round_robin
""" + FOUR + """\
org@ex: /begin
org@ex: /setresult @ann @dan 2:0 played on the club board
ben@ex: [🪙 Coin]
cat@ex: T20 T20 T20
org@ex: /setresult @ben @cat 0:2 Ben had to leave
org@ex: /export
"""

BACKGAMMON = """\
org@ex: /start
org@dm: /start
org@ex: /new backgammon Cards play=board format=round_robin length=3
""" + FOUR + """\
org@ex: /begin
org@ex: /setresult @ann @dan 3:0 played at the club
ben@ex: /game single
cat@ex: /confirm
org@ex: /setresult @ben @cat 1:3 Ben had to leave
org@ex: /export
"""

ARMCHAIR = """\
org@ex: /start
org@dm: /start
org@ex: /new armchair Cards wickets=1
""" + FOUR + """\
ann@dm: /start
ben@dm: /start
cat@dm: /start
dan@dm: /start
org@ex: /begin
org@ex: /setresult @ann @dan 40:12 played at the club
ben@ex: [🪙 Toss]
cat@ex: [🏏 Cat bats first]
ben@dm: [BALL 4]
cat@dm: [GLOVES 3]
ben@dm: [BALL 9]
cat@dm: [BAT 1]
org@ex: /setresult @ben @cat 0:1 Ben had to leave
org@ex: /export
"""
LIVE_BACKGAMMON = """\
org@ex: /start
org@dm: /start
org@ex: /new backgammon Live format=round_robin length=3
""" + FOUR + """\
org@ex: /begin
org@ex: /setresult @ann @dan 3:0 played at the club
cat@ex: 8/5 6/5
ben@ex: /double
cat@ex: /pass
cat@ex: 24/23 13/9
org@ex: /setresult @ben @cat 1:3 Ben had to leave
org@ex: /export
"""
SECTIONS = ("darts_stats.csv", "backgammon_games.csv", "armchair_stats.csv")


async def _exported(tmp_path: Path, script: str, seed: int = 1) -> tuple[dict, list[dict]]:
    """The export's JSON and the rows of its game section's CSV."""
    output = await run_script(tmp_path, script, seed=seed, files=True)
    assert not [line for line in output if line.startswith("!!")], output
    out = tmp_path / "out"
    data = json.loads(next(out.glob("*tournament-1.json")).read_text(encoding="utf-8"))
    section = next(p for p in out.iterdir() if p.name.endswith(SECTIONS))
    return data, list(csv.DictReader(section.read_text(encoding="utf-8").splitlines()))


def _names(data: dict) -> dict[int, str]:
    return {entrant["user_id"]: entrant["name"] for entrant in data["entrants"]}


def _between(items: list[dict], names: dict[int, str], *pair: str) -> dict:
    return next(item for item in items
                if {names[user] for user in item["players"]} == set(pair))


async def test_darts_stats_of_a_match_set_by_an_organiser(tmp_path: Path) -> None:
    data, rows = await _exported(tmp_path, DARTS)
    names = _names(data)
    stats = [m | {"players": [p["user_id"] for p in m["players"]]} for m in data["darts_stats"]]
    unplayed = _between(stats, names, "Ann", "Dan")  # closed before the bull-off
    played = _between(stats, names, "Ben", "Cat")  # closed after Cat's first visit
    for match, reason in ((unplayed, "played on the club board"), (played, "Ben had to leave")):
        legs = {names[p["user_id"]]: p["legs_won"]
                for p in next(m for m in data["darts_stats"]
                              if m["match_id"] == match["match_id"])["players"]}
        assert match["set_by_organiser"]["reason"] == reason
        assert sorted(legs.values()) == [0, 2]
        winner = names[next(m for m in data["matches"] if m["id"] == match["match_id"])["winner"]]
        assert legs[winner] == 2
    assert unplayed["starter"] is None and unplayed["result"] in ("2:0", "0:2")
    thrown = next(m for m in data["darts_stats"] if m["match_id"] == played["match_id"])
    assert sum(p["darts"] for p in thrown["players"]) == 3  # the visit thrown stays
    by_name = {(row["match_id"], row["name"]): row for row in rows}
    assert by_name[str(played["match_id"]), "Cat"]["legs_won"] == "2"
    assert by_name[str(played["match_id"]), "Cat"]["set_by_organiser"] == "Org: Ben had to leave"


async def test_backgammon_games_of_a_match_set_by_an_organiser(tmp_path: Path) -> None:
    data, rows = await _exported(tmp_path, BACKGAMMON)
    names = _names(data)
    games = data["backgammon_games"]
    unplayed = _between(games, names, "Ann", "Dan")
    played = _between(games, names, "Ben", "Cat")
    for match, reason in ((unplayed, "played at the club"), (played, "Ben had to leave")):
        row = next(m for m in data["matches"] if m["id"] == match["match_id"])
        assert match["score"] == row["result"]["score"] and 3 in match["score"]
        assert match["set_by_organiser"]["reason"] == reason
        outcome = match["outcome"]  # the engine never finished it: it had none
        assert outcome["score"] == match["score"] and outcome["how"] == "set_by_organiser"
        assert match["players"][outcome["winner"]] == row["winner"]
    assert unplayed["games"] == [] and len(played["games"]) == 1  # the game played stays
    set_rows = [row for row in rows if row["entry"] == "setresult"]
    assert {row["match_id"] for row in set_rows} == {str(unplayed["match_id"]),
                                                     str(played["match_id"])}
    assert all(names[int(row["winner_id"])] == row["winner"] for row in set_rows)
    assert {row["set_by_organiser"] for row in set_rows} == {"Org: played at the club",
                                                            "Org: Ben had to leave"}


async def test_armchair_stats_of_a_match_set_by_an_organiser(tmp_path: Path) -> None:
    data, rows = await _exported(tmp_path, ARMCHAIR, seed=5)
    names = _names(data)
    cards = data["armchair_stats"]
    unplayed = _between(cards, names, "Ann", "Dan")  # closed before the toss
    played = _between(cards, names, "Ben", "Cat")  # closed after Cat's wicket on ball one
    for match, reason, winner in ((unplayed, "played at the club", "Ann"),
                                  (played, "Ben had to leave", "Cat")):
        outcome = match["outcome"]
        assert match["set_by_organiser"]["reason"] == reason
        assert outcome["result"] == "win" and outcome["how"] == "set_by_organiser"
        assert names[match["players"][outcome["winner"]]] == winner
    # a score an organiser sets counts no runs (played in the bot): none is kept
    assert unplayed["outcome"]["score"] is None and unplayed["innings"] == []
    assert [inn["wickets"] for inn in played["innings"]][:1] == [1]  # the ball bowled stays
    lines = {row["match_id"]: [] for row in rows}
    for row in rows:
        lines[row["match_id"]].append(row)
    (alone,) = lines[str(unplayed["match_id"])]  # one line with the result, no innings
    assert alone["innings"] == "" and alone["winner"] == "Ann"
    assert alone["score"] == unplayed["result"]
    assert alone["set_by_organiser"] == "Org: played at the club"
    assert all(row["winner"] == "Cat" and row["result"] == "win"
               for row in lines[str(played["match_id"])])


async def test_backgammon_mat_of_a_match_played_in_the_bot_set_by_an_organiser(
        tmp_path: Path) -> None:
    data, _ = await _exported(tmp_path, LIVE_BACKGAMMON)
    names = _names(data)
    records = data["backgammon_mat"]
    unplayed = _between(records, names, "Ann", "Dan")  # closed before the first move
    played = _between(records, names, "Ben", "Cat")  # closed in game 2, Ben leading 1:0
    for record, reason in ((unplayed, "played at the club"), (played, "Ben had to leave")):
        row = next(m for m in data["matches"] if m["id"] == record["match_id"])
        assert record["set_by_organiser"]["reason"] == reason
        assert record["result"] == ":".join(map(str, row["result"]["score"]))
        assert record["played_out"] is False
    assert unplayed["mat"] is None and unplayed["file"] is None
    first, broken_off = read_mat(played["mat"]).games  # the games played, no invented end
    won = first.entries()[-1]  # Ben doubled, Cat passed
    assert won.kind == "win" and names[played["players"][won.player]] == "Ben"
    assert sum(broken_off.score) == 1
    assert [entry.kind for entry in broken_off.entries()] == ["move"]  # Cat's 13/9 24/23
    assert played["file"] == f"match-{played['match_id']}.mat"
