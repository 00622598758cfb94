"""The shared turn model, exercised through both games."""

import pytest

from games.common.errors import IllegalAction
from games.common.match import replay
from games.darts.fincricket import FinCricket
from games.darts.notation import MISS, Dart
from games.darts.shanghai import ShanghaiLeg
from games.darts.turn import PlayerStats, Visit


def code_of(action, *args) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalAction) as error:
        action(*args)
    return error.value.code


@pytest.mark.parametrize("leg_type", [ShanghaiLeg, FinCricket])
def test_three_darts_per_visit(leg_type: type) -> None:
    leg = leg_type(starter=1)
    assert leg.current == 1
    for dart in ("S20", "miss", "25"):
        leg.throw(dart)
    assert code_of(leg.throw, "S20") == "visit_full"
    assert [str(d) for d in leg.pending] == ["S20", "MISS", "25"]
    leg.end_turn()
    assert leg.current == 0 and leg.pending == ()


@pytest.mark.parametrize("leg_type", [ShanghaiLeg, FinCricket])
def test_a_full_visit_is_refused_naming_whose_it_is(leg_type: type) -> None:
    """Either player may enter for the one at the oche: the refusal says whose visit is
    full (the bot names them), not just that a visit has three darts."""
    leg = leg_type(starter=1)
    for dart in ("S20", "S20", "S20"):
        leg.throw(dart)
    with pytest.raises(IllegalAction) as error:
        leg.throw("S19")
    assert error.value.params == {"turn": 1}


@pytest.mark.parametrize("leg_type", [ShanghaiLeg, FinCricket])
def test_undo_only_inside_the_active_visit(leg_type: type) -> None:
    leg = leg_type()
    assert code_of(leg.undo) == "nothing_to_undo"
    leg.throw("S20")
    leg.throw("D20")
    assert leg.undo() == Dart(2, 20)
    assert leg.pending == (Dart(1, 20),)
    leg.end_turn()
    assert code_of(leg.undo) == "nothing_to_undo"
    assert leg.history == (Visit(0, (Dart(1, 20),), 1),)


def test_darts_not_entered_count_as_misses() -> None:
    leg = ShanghaiLeg()
    leg.throw("S20")
    visit = leg.end_turn()
    assert visit.padded == (Dart(1, 20), MISS, MISS)
    assert leg.board(0)["20"] == 1
    leg.end_turn()  # an empty visit: three misses
    assert leg.history[-1].padded == (MISS, MISS, MISS)
    assert leg.current == 0


def test_refused_dart_changes_nothing() -> None:
    leg = ShanghaiLeg()
    leg.throw("S20")
    for bad, code in (("S14", "sector_not_in_play"), ("T25", "no_t25"), ("zz", "bad_notation")):
        assert code_of(leg.throw, bad) == code
    assert leg.pending == (Dart(1, 20),)


def test_apply_actions_and_player_check() -> None:
    leg = replay(
        ShanghaiLeg(),
        [
            {"type": "dart", "dart": "S20", "player": 0},
            {"type": "dart", "dart": "T19"},
            {"type": "undo", "player": 0},
            {"type": "end_visit", "player": 0},
        ],
    )
    assert leg.board(0)["20"] == 1 and leg.current == 1
    assert code_of(leg.apply, {"type": "dart", "dart": "S20", "player": 0}) == "not_your_turn"
    with pytest.raises(IllegalAction) as refused:
        leg.apply({"type": "dart", "dart": "S20", "player": 0})
    assert refused.value.params["turn"] == 1  # whose turn it is: the bot names them
    for bad in ({"type": "jump"}, {}, ["dart"], {"dart": "S20"}):
        assert code_of(leg.apply, bad) == "bad_action"
    assert code_of(leg.apply, {"type": "dart"}) == "bad_notation"


def test_correction_recomputes_the_leg() -> None:
    leg = ShanghaiLeg()
    replay(leg, [{"type": "dart", "dart": d} for d in ("S20", "D20")])
    leg.end_turn()
    leg.throw("S19")
    leg.end_turn()
    leg.apply({"type": "correct", "visit": 0, "darts": ["S20", "D20", "T20"]})
    assert leg.board(0)["20"] == 3
    assert leg.board(1)["19"] == 1
    assert [v.marks for v in leg.history] == [3, 1]
    leg.apply({"type": "correct", "darts": ["miss"]})  # default: the last visit
    assert leg.board(1)["19"] == 0


def test_correction_refusals() -> None:
    leg = ShanghaiLeg()
    assert code_of(leg.correct, 0, []) == "no_such_visit"
    leg.end_turn()
    assert code_of(leg.correct, 1, []) == "no_such_visit"
    assert code_of(leg.correct, "0", []) == "no_such_visit"
    assert code_of(leg.correct, 0, "S20") == "bad_action"
    assert code_of(leg.correct, 0, ["S20"] * 4) == "visit_full"
    assert code_of(leg.correct, 0, ["S14"]) == "sector_not_in_play"
    leg.throw("S20")
    assert code_of(leg.correct, 0, []) == "visit_in_progress"


def test_a_correction_that_changes_nothing_is_refused() -> None:
    leg = ShanghaiLeg()
    leg.throw("S20")
    leg.end_turn()  # entered as one dart: the other two are misses
    leg.end_turn()
    assert code_of(leg.correct, 0, ["S20"]) == "correction_unchanged"
    assert code_of(leg.correct, 0, ["S20", "miss", "miss"]) == "correction_unchanged"
    assert code_of(leg.correct, -1, []) == "correction_unchanged"
    leg.correct(0, ["S20", "D20"])
    assert leg.board(0)["20"] == 2  # Shanghai's elements: the single and the double


def test_the_last_visit_counts_its_darts_entered() -> None:
    """A leg's last visit may be its finish, where the darts entered are counted: the same
    marks with a dart more is a change."""
    leg = ShanghaiLeg()
    leg.throw("S20")
    leg.end_turn()
    leg.correct(0, ["S20", "miss"])
    assert len(leg.history[0].darts) == 2


def test_correction_cannot_end_a_leg_before_visits_already_played() -> None:
    leg = ShanghaiLeg()
    closing = [["S20", "D20", "T20"], ["S19", "D19", "T19"], ["S18", "D18", "T18"]]
    closing += [["S17", "D17", "T17"], ["S16", "D16", "T16"], ["S15", "D15", "T15"]]
    for darts in closing:
        for dart in darts:
            leg.throw(dart)
        leg.end_turn()
        leg.end_turn()  # the opponent misses
    leg.throw("25")
    leg.end_turn()  # player 0: one bull element short
    leg.end_turn()
    assert not leg.finished
    assert code_of(leg.correct, -2, ["25", "25", "50"]) == "correction_conflict"
    leg.correct(-2, ["25", "25"])
    assert leg.board(0)["BULL"] == 2 and not leg.finished


def test_stats_count_three_darts_a_visit_except_the_finish() -> None:
    leg = ShanghaiLeg()
    for _ in range(6):
        leg.end_turn()
    assert leg.stats(0) == PlayerStats(darts=9, visits=3, marks=0)
    assert leg.stats(1).per_visit == 0.0
    assert code_of(leg.stats, 2) == "bad_setting"


def test_bad_starter() -> None:
    assert code_of(ShanghaiLeg, 2) == "bad_setting"
    assert code_of(FinCricket, True) == "bad_setting"


@pytest.mark.parametrize("starter", [0, 1])
def test_visits_of_counts_each_players_committed_visits(starter: int) -> None:
    leg = ShanghaiLeg(starter=starter)
    for _ in range(5):
        assert [leg.visits_of(p) for p in (0, 1)] == [
            sum(visit.player == p for visit in leg.history) for p in (0, 1)]
        leg.throw("S20")
        leg.end_turn()
    assert leg.visits_of(starter) == 3 and leg.visits_of(1 - starter) == 2
