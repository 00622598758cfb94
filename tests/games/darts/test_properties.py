"""Property tests for both darts games."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.errors import IllegalAction
from games.darts.fincricket import NUMBERS, FinCricket
from games.darts.notation import parse_dart
from games.darts.shanghai import CHAINS, TARGETS, ShanghaiLeg, ShanghaiMatch, score_visit


def darts_on(sectors: range | list[int]) -> st.SearchStrategy[str]:
    numbered = [f"{m}{s}" for s in sectors for m in "SDT"]
    return st.sampled_from([*numbered, "25", "50", "MISS"])


shanghai_darts = darts_on(range(15, 21))
visits = st.lists(shanghai_darts, max_size=3)
progresses = st.fixed_dictionaries({t: st.integers(0, 3) for t in TARGETS})
bull_rules = st.sampled_from(["visit", "strict"])


def is_subsequence(needed: list, darts: list) -> bool:
    remaining = iter(darts)
    return all(any(dart == element for dart in remaining) for element in needed)


@given(progresses, visits, bull_rules)
def test_shanghai_progress_never_goes_down(progress: dict, darts: list, bull: str) -> None:
    after = score_visit(progress, darts, bull)
    assert all(progress[t] <= after[t] <= 3 for t in TARGETS)


@given(progresses, visits, bull_rules)
def test_shanghai_chain_never_skips_an_element(progress: dict, darts: list, bull: str) -> None:
    after = score_visit(progress, darts, bull)
    thrown = [parse_dart(dart) for dart in darts]
    for target in TARGETS:
        made = list(CHAINS[target][progress[target] : after[target]])
        if target == "BULL" and bull == "strict":
            assert is_subsequence(made, thrown)
        else:
            # every element made has its own dart…
            assert not Counter(made) - Counter(thrown)
            # …and the chain stops only where the next element was not (or no longer) thrown.
            if after[target] < 3:
                following = CHAINS[target][after[target]]
                assert thrown.count(following) <= made.count(following)


@given(progresses, st.permutations(["T20", "D20", "S19"]) | st.permutations(["50", "25", "T19"]))
def test_shanghai_visit_rule_ignores_throw_order(progress: dict, darts: list) -> None:
    assert score_visit(progress, darts) == score_visit(progress, sorted(darts))


@settings(max_examples=50)
@given(st.lists(visits, max_size=40), bull_rules)
def test_shanghai_leg_boards_only_grow(played: list, bull: str) -> None:
    leg = ShanghaiLeg(bull=bull)
    for darts in played:
        if leg.finished:
            break
        before = leg.board(leg.current)
        for dart in darts:
            leg.throw(dart)
        player = leg.current
        leg.end_turn()
        assert all(before[t] <= leg.board(player)[t] for t in TARGETS)
        assert leg.finished == all(done == 3 for done in leg.board(player).values())



@settings(max_examples=50)
@given(st.lists(visits, max_size=20), visits, bull_rules)
def test_shanghai_preview_is_the_visit_entered_scored(played: list, entered: list,
                                                      bull: str) -> None:
    """The board's preview, scored from the engine's own board and darts, is what
    score_visit makes of the committed board and the darts entered."""
    leg = ShanghaiLeg(bull=bull)
    for darts in played:
        if leg.finished:
            return
        for dart in darts:
            leg.throw(dart)
        leg.end_turn()
    if leg.finished:
        return
    for dart in entered:
        leg.throw(dart)
    board = leg.board(leg.current)
    assert leg.preview == score_visit(board, entered, bull)
    assert leg.preview_progress == tuple(leg.preview.values())
    assert leg.progress(leg.current) == tuple(board.values())



match_steps = st.lists(visits.map(lambda darts: ("visit", darts))
                       | st.tuples(st.just("correct"), st.integers(0, 3), st.integers(0, 9),
                                   visits), max_size=120)


@settings(max_examples=60)
@given(match_steps, st.sampled_from([1, 3, 5]))
def test_a_match_is_finished_when_its_legs_won_decide_it(steps: list, legs: int) -> None:
    """``finished`` counts the legs only once the current leg is over: as played and as
    corrected, it says what counting them at every step says."""
    match = ShanghaiMatch(legs=legs)
    for step in steps:
        if match.finished:
            break
        try:
            if step[0] == "visit":
                for dart in step[1]:
                    match.apply({"type": "dart", "dart": dart})
                match.apply({"type": "end_visit"})
            else:
                match.apply({"type": "correct", "leg": step[1], "visit": step[2],
                             "darts": step[3]})
        except IllegalAction:
            pass
        assert match.finished == (max(match.legs_won) > legs // 2)


fin_actions = st.lists(darts_on(NUMBERS) | st.sampled_from(["undo", "end"]), max_size=150)


@settings(max_examples=60)
@given(fin_actions)
def test_fincricket_scores_never_decrease_and_closed_sectors_never_score(actions: list) -> None:
    game = FinCricket()
    for action in actions:
        scores, closed = game.scores, game.closed
        marks = [[game.marks(p, s) for s in NUMBERS] for p in (0, 1)]
        try:
            if action == "undo":
                game.undo()
                continue
            if action == "end":
                game.end_turn()
                assert game.closed >= closed
                assert game.scores == scores
                continue
            dart = game.throw(action)
        except IllegalAction as error:
            assert error.code in {"nothing_to_undo", "visit_full", "finished"}
            assert game.scores == scores
            continue
        assert all(now >= then for now, then in zip(game.scores, scores, strict=True))
        if dart.sector in closed or dart.is_miss:
            assert game.scores == scores
        assert game.closed == closed  # closing waits for the end of the turn
        assert all(0 <= game.marks(p, s) <= 3 for p in (0, 1) for s in NUMBERS)
        assert all(game.marks(p, s) >= marks[p][s - NUMBERS[0]] for p in (0, 1) for s in NUMBERS)


@settings(max_examples=60)
@given(st.lists(darts_on(NUMBERS), min_size=1, max_size=3))
def test_fincricket_undo_restores_the_turn(darts: list) -> None:
    game = FinCricket()
    game.throw("T20")
    game.throw("T19")
    game.end_turn()
    before = game.scores, [game.marks(1, s) for s in NUMBERS]
    for dart in darts:
        game.throw(dart)
    for _ in darts:
        game.undo()
    assert (game.scores, [game.marks(1, s) for s in NUMBERS]) == before
