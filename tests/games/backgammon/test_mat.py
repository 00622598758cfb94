"""The Jellyfish .mat match record (docs/backgammon.md, "The match record"): written from the
bot's match log, read back, and every move replayed through the engine to the same positions
and the same final score."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from games.backgammon import Game, Match, game_result
from games.backgammon.bot import choose_play, should_double, should_take
from games.backgammon.game import MOVE, OPENING, TURN
from games.backgammon.mat import MatEntry, MatRecord, read_mat, write_mat
from games.backgammon.plays import plays_of
from games.common.errors import IllegalAction

Action = dict
# plan(game number, game, match, turns played in this game) -> a cube or resign action or None
Plan = Callable[[int, Game, Match, int], str | None]


# --------------------------------------------------------------------------- the log


def _log_match(length: int, seed: int, plan: Plan, random_plays: bool = False,
               ) -> tuple[list[Action], Match, list[str]]:
    """A whole match played by the bot (or random plays), as the bot logs it; also the
    Position ID after every move."""
    rng, match, log, ids = random.Random(seed), Match(length), [], []
    number = 0
    while not match.finished:
        number += 1
        game = Game(crawford=match.crawford)
        _play_game(game, match, rng, plan, number, log, ids, random_plays)
        outcome = game.outcome
        assert outcome is not None
        match.record_game(outcome.winner, outcome.points_per_cube, outcome.cube, outcome.passed)
    return log, match, ids


def _play_game(game: Game, match: Match, rng: random.Random, plan: Plan, number: int,
               log: list[Action], ids: list[str], random_plays: bool) -> None:
    def act(action: Action) -> None:
        game.apply(action)
        log.append(action)

    while game.phase == OPENING:
        act({"type": "opening_roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
    turns = 0
    while not game.finished:
        if game.phase == TURN:
            decision = plan(number, game, match, turns)
            if decision == "resign":
                act({"type": "resign", "player": game.turn})
                return
            if decision in ("take", "pass"):
                act({"type": "double", "player": game.turn})
                act({"type": decision, "player": 1 - game.turn})
                if game.finished:
                    return
            act({"type": "roll", "player": game.turn, "dice": [rng.randint(1, 6),
                                                               rng.randint(1, 6)]})
            log.append({"type": "add_time", "player": game.turn, "seconds": 12})  # ignored
        plays = plays_of(game.position, game.dice)
        play = rng.choice(plays) if random_plays else choose_play(game.position, game.dice, rng)
        act({"type": "move", "player": game.turn, "play": play.notation})
        ids.append(game.position.id)
        turns += 1


# --------------------------------------------------------------------------- the replay


def _replay(record: MatRecord) -> tuple[Match, list[str]]:
    """Every game of the record through Game and Match; the Position ID after every move."""
    match, ids = Match(record.length), []
    for mat_game in record.games:
        assert mat_game.score == match.score, (mat_game.number, mat_game.score, match.score)
        game = Game(crawford=match.crawford)
        for entry in mat_game.entries():
            if entry.kind == "win":
                _win(game, match, entry)
            else:
                _act(game, entry)
                if entry.kind == "move":
                    ids.append(game.position.id)
    return match, ids


def _act(game: Game, entry: MatEntry) -> None:
    player = entry.player
    if entry.kind == "move":
        assert entry.dice is not None
        high, low = entry.dice
        if game.phase == OPENING:
            game.apply({"type": "opening_roll", "dice": [high, low] if player == 0 else [low,
                                                                                    high]})
        else:
            game.apply({"type": "roll", "player": player, "dice": [high, low]})
        assert game.turn == player
        game.apply({"type": "move", "player": player, "play": entry.moves})
    else:
        kind = {"double": "double", "take": "take", "drop": "pass"}[entry.kind]
        game.apply({"type": kind, "player": player})
        if kind == "double":
            assert entry.value == 2 * game.cube


def _win(game: Game, match: Match, entry: MatEntry) -> None:
    """A win line: the end of a played-out game or a pass, else a resignation of the game
    (scored by position) or of the match (the points needed)."""
    if game.outcome is None:
        resigned = game_result(game.position, winner=1) * game.cube
        if game.phase in (TURN, MOVE) and entry.player == 1 - game.turn \
                and resigned == entry.value:
            game.apply({"type": "resign", "player": game.turn})
        else:
            assert entry.match and entry.value == match.away(entry.player)
            match.resign_match(1 - entry.player)
            return
    outcome = game.outcome
    assert outcome is not None
    assert (outcome.winner, outcome.points) == (entry.player, entry.value)
    match.record_game(outcome.winner, outcome.points_per_cube, outcome.cube, outcome.passed)
    assert match.finished == entry.match


def _round_trip(log: list[Action], match: Match, ids: list[str], length: int) -> str:
    text = write_mat(("Alice Smith", "Борис"), length, log)
    record = read_mat(text)
    assert record.names == ("Alice Smith", "Борис") and record.length == length
    replayed, replayed_ids = _replay(record)
    assert replayed.score == match.score and replayed.winner == match.winner
    assert replayed_ids == ids
    _importable(text)
    return text


def _importable(text: str) -> None:
    """What GNU Backgammon's importer needs: the header, games, no repeat counts, and each
    move line split into the right columns (read_mat splits them the same way)."""
    lines = text.splitlines()
    assert re.fullmatch(r" \d+ point match", lines[0]) and lines[1] == ""
    for line in lines:
        assert "(" not in line and "\t" not in line
        if "Game " in line:
            assert re.fullmatch(r" Game \d+", line)


# --------------------------------------------------------------------------- scripted match


def _three_point_plan(number: int, game: Game, match: Match, turns: int) -> str | None:
    """Game 1: a double passed. Game 2: a double taken, played out. Game 3: the Crawford
    game. Game 4: the player on roll resigns once the opponent has borne a checker off."""
    if not game.may_double(game.turn) and number != 4:
        return None
    if number == 1 and turns == 3:
        return "pass"
    if number == 2 and turns == 2:
        return "take"
    if number == 4 and game.position.borne_off[1] > 0:
        return "resign"
    return None


def _scripted_match() -> tuple[list[Action], Match, list[str]]:
    """The first seed whose 3-point match shows every case: 1-0 after a passed double, a
    taken double won single (1-2), the Crawford game won by seat 0 (2-2), a resignation, a
    turn with no legal move and bear-offs."""
    for seed in range(400):
        log, match, ids = _log_match(3, seed, _three_point_plan)
        if len(match.games) != 4 or not any(a.get("play") == "" for a in log):
            continue
        first, second, third, fourth = match.games
        if (first.passed and (second.cube, second.points) == (2, 2) and second.winner == 1
                and third.crawford and third.winner == 0 and third.points == 1
                and any(a["type"] == "resign" for a in log)):
            return log, match, ids
    raise AssertionError("no seed gives the scripted match")


def test_scripted_three_point_match_replays_to_the_same_score() -> None:
    log, match, ids = _scripted_match()
    text = _round_trip(log, match, ids, 3)
    record = read_mat(text)
    assert [game.score for game in record.games] == [(0, 0), (1, 0), (1, 2), (2, 2)]
    kinds = [[(entry.player, entry.kind) for entry in game.entries()
              if entry.kind != "move"] for game in record.games]
    assert kinds[0] == [(0, "double"), (1, "drop"), (0, "win")]
    doubler = kinds[1][0][0]
    assert kinds[1] == [(doubler, "double"), (1 - doubler, "take"), (1, "win")]
    assert kinds[2] == [(0, "win")]  # the Crawford game: no cube
    assert len(kinds[3]) == 1 and kinds[3][0][1] == "win"
    last = record.games[3].entries()[-1]
    assert last.match and match.finished and max(match.score) == 3
    assert " Doubles => 2" in text and "Takes" in text and "Drops" in text
    assert "/off" in text and re.search(r"\) [1-6][1-6]:( |$)", text, re.MULTILINE)
    assert re.search(r"^\s+\d+\) .*\b([1-6][1-6]):$|[1-6][1-6]:\s{2,}[1-6][1-6]:", text,
                     re.MULTILINE), "a roll with no legal move is written bare"
    assert text.rstrip().endswith("and the match")


def test_layout_of_a_known_opening() -> None:
    log = [{"type": "opening_roll", "dice": [2, 2]},  # equal: rolled again, no line
           {"type": "opening_roll", "dice": [1, 3]},  # seat 1 starts with 3-1
           {"type": "move", "player": 1, "play": "8/5 6/5"},
           {"type": "roll", "player": 0, "dice": [2, 4]},
           {"type": "move", "player": 0, "play": "13/9 13/11"},
           {"type": "double", "player": 1},
           {"type": "take", "player": 0},
           {"type": "roll", "player": 1, "dice": [6, 4]},
           {"type": "move", "player": 1, "play": "24/14"},
           {"type": "clock", "player": 0},
           {"type": "resign", "player": 0}]
    text = write_mat(("Alice", "Bob"), 5, log)
    assert text == (" 5 point match\n\n Game 1\n"
                    " Alice : 0                         Bob : 0\n"
                    "  1)                               31: 8/5 6/5\n"
                    "  2) 42: 13/9 13/11                Doubles => 2\n"
                    "  3)  Takes                        64: 24/18 18/14*\n"
                    "                                   Wins 6 points and the match\n\n")
    record = read_mat(text)
    assert [len(line.entries()) for game in record.games for line in game.lines] == [1, 2, 2, 1]
    match, _ = _replay(record)
    assert match.score == (0, 5)  # a backgammon (a checker on the bar) × 2, capped


def test_timeout_and_match_resignation_give_the_points_needed() -> None:
    opening = [{"type": "opening_roll", "dice": [3, 1]},
               {"type": "move", "player": 0, "play": "8/5 6/5"}]
    text = write_mat(("A", "B"), 7, [*opening, {"type": "timeout", "player": 1}])
    assert text.rstrip().endswith("      Wins 7 points and the match")
    match, _ = _replay(read_mat(text))
    assert match.score == (7, 0)
    between = [*opening, {"type": "roll", "player": 1, "dice": [6, 6]},
               {"type": "resign", "player": 1}, {"type": "resign_match", "player": 0}]
    text = write_mat(("A", "B"), 5, between)
    record = read_mat(text)
    assert [game.score for game in record.games] == [(0, 0), (3, 0)]  # a backgammon first
    assert record.games[1].entries() == [MatEntry(1, "win", value=5, match=True)]
    match, _ = _replay(record)
    assert match.score == (3, 5) and match.winner == 1


def test_a_game_of_its_opening_roll_alone_is_not_written() -> None:
    """A match closed (or looked at) right after a new game's opening roll: the record ends
    with the last game played, not with an empty game's header; a first game's stands."""
    first = [{"type": "opening_roll", "dice": [5, 2]},
             {"type": "move", "player": 0, "play": "13/8 6/4"},
             {"type": "double", "player": 1}, {"type": "pass", "player": 0}]
    text = write_mat(("A", "B"), 3, [*first, {"type": "opening_roll", "dice": [1, 3]}])
    assert text == write_mat(("A", "B"), 3, first)
    assert "Game 2" not in text and text.rstrip().endswith("Wins 1 point")
    alone = write_mat(("A", "B"), 3, first[:1])  # the first game's header stands
    assert alone.split("\n")[2:4] == [" Game 1", f" A : 0{' ' * 29}B : 0"]


def test_a_refused_log_is_an_error() -> None:
    with pytest.raises(IllegalAction):
        write_mat(("A", "B"), 3, [{"type": "opening_roll", "dice": [3, 1]},
                                  {"type": "move", "player": 0, "play": "24/18"}])
    with pytest.raises(ValueError):
        write_mat(("A", "B"), 1, [{"type": "opening_roll", "dice": [3, 1]},
                                  {"type": "timeout", "player": 0},
                                  {"type": "timeout", "player": 1}])
    with pytest.raises(ValueError):
        read_mat("hello\n")


def test_names_are_made_readable() -> None:
    text = write_mat(("Game Master: X", "  "), 1, [])
    assert text == " 1 point match\n\n"
    log = [{"type": "opening_roll", "dice": [3, 1]}, {"type": "resign", "player": 0}]
    record = read_mat(write_mat(("Game Master: X", "\n"), 1, log))
    assert record.names == ("Game-Master X", "Player 2")


@pytest.mark.parametrize("seed", range(6))
def test_random_matches_round_trip(seed: int) -> None:
    rng = random.Random(seed)

    def plan(number: int, game: Game, match: Match, turns: int) -> str | None:
        if game.may_double(game.turn) and should_double(game, match):
            probe = Game.from_position(game.position, game.turn, game.cube, game.cube_owner)
            probe.apply({"type": "double", "player": game.turn})
            return "take" if should_take(probe, match) else "pass"
        if rng.random() < 0.01:
            return "resign"
        return None

    log, match, ids = _log_match(5, 1000 + seed, plan, random_plays=seed % 2 == 1)
    _round_trip(log, match, ids, 5)
