import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.common.errors import IllegalAction
from games.tournament import (
    DARTS_TIEBREAKS,
    DICE_CUP_POINTS,
    DICE_CUP_TIEBREAKS,
    Points,
    Result,
    played_for_withdrawal,
    standings,
    tied_groups,
)

CHESS = Points(win=1, draw=0.5, loss=0)
A, B, C, D, E = "ABCDE"

# Hand-worked table 1: a five-player round robin scored 1 / ½ / 0.
#
#        A    B    C    D    E   | points
#   A    -    1    ½    1    0   | 2.5
#   B    0    -    1    ½    1   | 2.5
#   C    ½    0    -    1    ½   | 2
#   D    0    ½    0    -    1   | 1.5
#   E    1    0    ½    0    -   | 1.5
#
# Buchholz (sum of the opponents' points):
#   A: B2.5 + C2 + D1.5 + E1.5 = 7.5     B: A2.5 + C2 + D1.5 + E1.5 = 7.5
#   C: 2.5 + 2.5 + 1.5 + 1.5 = 8         D, E: 2.5 + 2.5 + 2 + 1.5 = 8.5
# Median Buchholz (without the best and the worst opponent):
#   A: C2 + D1.5 = 3.5   B: 3.5   C: B2.5 + D1.5 = 4   D: B2.5 + C2 = 4.5   E: 4.5
# Sonneborn-Berger (beaten opponents' points + half of the drawn ones'):
#   A: B2.5 + D1.5 + ½·C2 = 5           B: C2 + E1.5 + ½·D1.5 = 4.25
#   C: D1.5 + ½·(A2.5 + E1.5) = 3.5     D: E1.5 + ½·B2.5 = 2.75
#   E: A2.5 + ½·C2 = 3.5
# Head-to-head: A beat B; D beat E.
TABLE_1 = [
    Result(A, B, A),
    Result(A, C),
    Result(A, D, A),
    Result(A, E, E),
    Result(B, C, B),
    Result(B, D),
    Result(B, E, B),
    Result(C, D, C),
    Result(C, E),
    Result(D, E, D),
]


def table(players, results, **options):
    return [(row.player, row.place) for row in standings(players, results, **options)]


def test_table_1_values():
    rows = {row.player: row for row in standings("ABCDE", TABLE_1, points=CHESS)}
    assert {p: r.points for p, r in rows.items()} == {A: 2.5, B: 2.5, C: 2, D: 1.5, E: 1.5}
    assert {p: r.buchholz for p, r in rows.items()} == {A: 7.5, B: 7.5, C: 8, D: 8.5, E: 8.5}
    assert {p: r.median_buchholz for p, r in rows.items()} == {
        A: 3.5,
        B: 3.5,
        C: 4,
        D: 4.5,
        E: 4.5,
    }
    assert {p: r.sonneborn_berger for p, r in rows.items()} == {
        A: 5,
        B: 4.25,
        C: 3.5,
        D: 2.75,
        E: 3.5,
    }
    assert (rows[A].wins, rows[A].draws, rows[A].losses, rows[A].played) == (2, 1, 1, 4)


def test_table_1_orders():
    players = "ABCDE"
    assert table(players, TABLE_1, points=CHESS) == [(A, 1), (B, 1), (C, 3), (D, 4), (E, 4)]
    assert table(players, TABLE_1, points=CHESS, tiebreaks=["h2h"]) == [
        (A, 1),
        (B, 2),
        (C, 3),
        (D, 4),
        (E, 5),
    ]
    assert table(players, TABLE_1, points=CHESS, tiebreaks=["sonneborn_berger"]) == [
        (A, 1),
        (B, 2),
        (C, 3),
        (E, 4),
        (D, 5),
    ]
    for key in ("buchholz", "median_buchholz", "wins"):
        assert table(players, TABLE_1, points=CHESS, tiebreaks=[key])[3:] == [(D, 4), (E, 4)]


# Hand-worked table 2: five players, three Swiss rounds with byes, scored 1 / ½ / 0.
#   R1: 1-3 won by 1, 2-4 won by 4, 5 bye    R2: 1-4 drawn, 5-2 won by 5, 3 bye
#   R3: 1-5 won by 5, 4-3 won by 4, 2 bye
# Points: 1: 1.5, 2: 1, 3: 1, 4: 2.5, 5: 3. A bye has no opponent:
#   Buchholz   1: 3(1) + 4(2.5) + 5(3) = 6.5   2: 4 + 5 = 5.5   3: 1 + 4 = 4
#              4: 2(1) + 1(1.5) + 3(1) = 3.5   5: 2 + 1 = 2.5
#   Median     1: 2.5   2: 0   3: 0   4: 1   5: 0
#   S-B        1: 3(1) + ½·4(2.5) = 2.25   2: 0   3: 0   4: 2 + ½·1.5 + 3 = 2.75
#              5: 2(1) + 1(1.5) = 2.5
TABLE_2 = [
    Result(1, 3, 1, round=1),
    Result(2, 4, 4, round=1),
    Result(5, round=1),
    Result(1, 4, None, round=2),
    Result(5, 2, 5, round=2),
    Result(3, round=2),
    Result(1, 5, 5, round=3),
    Result(4, 3, 4, round=3),
    Result(2, round=3),
]


def test_table_2_swiss_with_byes():
    rows = {row.player: row for row in standings([1, 2, 3, 4, 5], TABLE_2, points=CHESS)}
    assert [rows[p].points for p in range(1, 6)] == [1.5, 1, 1, 2.5, 3]
    assert [rows[p].buchholz for p in range(1, 6)] == [6.5, 5.5, 4, 3.5, 2.5]
    assert [rows[p].median_buchholz for p in range(1, 6)] == [2.5, 0, 0, 1, 0]
    assert [rows[p].sonneborn_berger for p in range(1, 6)] == [2.25, 0, 0, 2.75, 2.5]
    assert [rows[p].wins for p in range(1, 6)] == [1, 1, 1, 2, 3]
    # 2 and 3 never met: head-to-head leaves them tied, Buchholz does not.
    assert table([1, 2, 3, 4, 5], TABLE_2, points=CHESS, tiebreaks=["h2h"])[3:] == [(2, 4), (3, 4)]
    assert table([1, 2, 3, 4, 5], TABLE_2, points=CHESS, tiebreaks=["h2h", "buchholz"]) == [
        (5, 1),
        (4, 2),
        (1, 3),
        (2, 4),
        (3, 5),
    ]


def test_head_to_head_is_reapplied_within_the_parts_still_tied():
    # A, B, C, D all have 6 points (3/1/0). Among the four: A 6, B 6, C 3, D 3;
    # then A beat B and C beat D. E and F are the outsiders (drawn with each other).
    results = [
        Result(A, B, A),
        Result(A, C, A),
        Result(D, A, D),
        Result(B, C, B),
        Result(B, D, B),
        Result(C, D, C),
        Result(C, "E", C),
        Result(D, "F", D),
        Result("E", "F"),
    ]
    players = [D, C, B, A, "E", "F"]
    assert table(players, results, points=DICE_CUP_POINTS) == [
        (D, 1),
        (C, 1),
        (B, 1),
        (A, 1),
        ("E", 5),
        ("F", 5),
    ]
    assert table(players, results, points=DICE_CUP_POINTS, tiebreaks=["h2h"]) == [
        (A, 1),
        (B, 2),
        (C, 3),
        (D, 4),
        ("E", 5),
        ("F", 5),
    ]


def test_dice_cup_order_round_difference_then_rounds_won():
    # A three-way cycle with equal points; round difference and rounds won decide.
    results = [
        Result(A, B, A, score=(3, 0)),
        Result(B, C, B, score=(3, 2)),
        Result(C, A, C, score=(3, 1)),
        Result(A, D, None, score=(2, 2)),
        Result(B, D, None, score=(2, 2)),
        Result(C, D, None, score=(2, 2)),
    ]
    rows = standings("ABCD", results, points=DICE_CUP_POINTS, tiebreaks=DICE_CUP_TIEBREAKS)
    # A: +3 −2 ±0 = +1 from 6 rounds; C: −1 +2 = +1 from 7; B: −3 +1 = −2 from 5.
    assert [(r.player, r.place, r.points, r.diff, r.scored) for r in rows] == [
        (C, 1, 4, 1, 7),
        (A, 2, 4, 1, 6),
        (B, 3, 4, -2, 5),
        (D, 4, 3, 0, 6),
    ]


def test_results_against_higher_placed_players():
    # A 2.5 is clear first; B and C tie on 1.5. B drew with A, C lost to A, although C
    # beat B: against the higher-placed B is ahead, head-to-head C is.
    results = [
        Result(A, B),
        Result(A, C, A),
        Result(A, D, A),
        Result(B, C, C),
        Result(B, D, B),
        Result(C, D),
    ]
    assert table("ABCD", results, points=CHESS)[:3] == [(A, 1), (B, 2), (C, 2)]
    assert table("ABCD", results, points=CHESS, tiebreaks=["vs_higher"])[:3] == [
        (A, 1),
        (B, 2),
        (C, 3),
    ]
    assert table("ABCD", results, points=CHESS, tiebreaks=["h2h"])[1:3] == [(C, 2), (B, 3)]


def test_lot_by_random_source_or_callback():
    results = [Result(A, B)]
    rows = standings("AB", results, points=CHESS)
    assert tied_groups(rows) == [[A, B]]
    drawn = table("AB", results, points=CHESS, lot=random.Random(3))
    assert sorted(place for _, place in drawn) == [1, 2]
    assert drawn == table("AB", results, points=CHESS, lot=random.Random(3))
    assert table("AB", results, points=CHESS, lot=lambda tied: tied[::-1]) == [(B, 1), (A, 2)]
    assert tied_groups(standings("AB", results, points=CHESS, lot=lambda tied: tied)) == []
    with pytest.raises(IllegalAction, match="bad_lot"):
        standings("AB", results, points=CHESS, lot=lambda tied: [A, A])


def test_forfeits_count_as_wins_and_losses_without_a_score():
    results = [Result(A, B, A, forfeit=True), Result(B, C, B, score=(3, 1))]
    rows = {r.player: r for r in standings("ABC", results, points=DICE_CUP_POINTS)}
    assert (rows[A].points, rows[A].wins, rows[A].diff, rows[A].scored) == (3, 1, 0, 0)
    assert (rows[B].points, rows[B].losses, rows[B].diff) == (3, 1, 2)
    with pytest.raises(IllegalAction):
        Result(A, B, A, score=(3, 0), forfeit=True)


def test_a_walkover_counts_the_winning_score_against_nothing():
    """With ``walkover`` (legs that win a best of 3: 2) a forfeit counts 2:0 for its winner
    and 0:2 for its loser: the player who left ranks below a player who lost on the board,
    the walkover's winner above one who won 2:1."""
    results = [Result(A, C, A, score=(2, 1)), Result(B, D, B, forfeit=True)]
    rows = standings("ABCD", results, tiebreaks=("diff", "scored"), withdrawn={D}, walkover=2)
    assert [(r.player, r.place, r.scored, r.diff) for r in rows] == [
        (B, 1, 2, 2), (A, 2, 2, 1), (C, 3, 1, -1), (D, 4, 0, -2)]
    double = standings("AB", [Result(A, B, None, forfeit=True)], walkover=2)
    assert [(r.scored, r.diff) for r in double] == [(0, -2), (0, -2)]


def test_a_round_robin_withdrawals_forfeits_count_the_walkover_score():
    # E played two of four (beat A 3:1, lost to B 0:3) and withdrew: C and D win 3:0.
    results = [Result(E, A, E, score=(3, 1)), Result(E, B, B, score=(0, 3))]
    rows = {r.player: r for r in standings("ABCDE", results, withdrawn={E}, round_robin=True,
                                           walkover=3)}
    assert (rows[E].scored, rows[E].diff) == (3, -7)
    assert (rows[C].scored, rows[C].diff) == (rows[D].scored, rows[D].diff) == (3, 3)


def test_double_forfeit_is_a_loss_for_both():
    rows = {r.player: r for r in standings("AB", [Result(A, B, None, forfeit=True)])}
    assert rows[A].losses == rows[B].losses == 1 and rows[A].draws == 0


ROUND_ROBIN_5 = [
    Result(A, B, A),
    Result(A, C, C),
    Result(A, D, A),
    Result(B, C, B),
    Result(B, D, D),
    Result(C, D, C),
]


def test_round_robin_withdrawal_before_half_removes_the_results():
    # E played one of four matches (a win over A), then withdrew: that win is removed.
    results = [*ROUND_ROBIN_5, Result(E, A, E)]
    rows = standings("ABCDE", results, withdrawn={E}, round_robin=True)
    assert [(r.player, r.place, r.points, r.status) for r in rows] == [
        (A, 1, 2, "active"),
        (C, 1, 2, "active"),
        (B, 3, 1, "active"),
        (D, 3, 1, "active"),
        (E, None, 0, "withdrawn"),
    ]
    assert rows[0].losses == 1 and rows[-1].played == 0


def test_round_robin_withdrawal_after_half_keeps_results_and_forfeits_the_rest():
    # E played two of four (beat A, lost to B) and withdrew: C and D win by forfeit.
    results = [*ROUND_ROBIN_5, Result(E, A, E), Result(E, B, B)]
    rows = {r.player: r for r in standings("ABCDE", results, withdrawn={E}, round_robin=True)}
    assert (rows[E].points, rows[E].losses, rows[E].played, rows[E].status) == (
        1,
        3,
        4,
        "withdrawn",
    )
    assert rows[E].place is not None
    assert rows[C].points == 3 and rows[D].points == 2
    assert rows[A].points == 2


def test_a_walkover_from_a_withdrawn_player_is_not_a_played_match_of_a_second():
    # E withdrew after half (beat A, lost to B): C and D hold stored walkovers over E. D had
    # played only C, then withdrew too: one of four, the walkover not counted, so D is out.
    results = [Result(E, A, E), Result(E, B, B), Result(C, E, C, forfeit=True),
               Result(D, E, D, forfeit=True), Result(C, D, C)]
    assert played_for_withdrawal(D, results, {D, E}) == 1
    assert played_for_withdrawal(E, results, {D, E}) == 4
    rows = {r.player: r for r in standings("ABCDE", results, withdrawn={D, E}, round_robin=True)}
    assert rows[D].place is None and rows[E].place is not None
    assert (rows[C].wins, rows[E].losses, rows[E].played) == (1, 2, 3)


def test_two_withdrawn_players_who_never_met_both_lose():
    results = [Result(A, B, A), Result(A, C, A), Result(B, C, B)]
    rows = {r.player: r for r in standings("ABC", results, withdrawn={A, B}, round_robin=True)}
    assert rows[A].losses == 0 and rows[B].losses == 1 and rows[C].losses == 2
    results = [Result(A, C, A), Result(B, C, B), Result(A, D, D), Result(B, D, D)]
    rows = {r.player: r for r in standings("ABCD", results, withdrawn={A, B}, round_robin=True)}
    assert rows[A].losses == rows[B].losses == 2 and rows[A].played == rows[B].played == 3


def test_withdrawal_outside_round_robin_keeps_results():
    rows = {r.player: r for r in standings("ABCDE", TABLE_1, points=CHESS, withdrawn={E})}
    assert rows[E].points == 1.5 and rows[E].status == "withdrawn" and rows[E].place == 4


def test_disqualification_annuls_results():
    rows = standings("ABCDE", TABLE_1, points=CHESS, disqualified={A}, tiebreaks=["h2h"])
    assert [(r.player, r.place, r.points, r.status) for r in rows] == [
        (B, 1, 2.5, "active"),
        (C, 2, 1.5, "active"),
        (D, 3, 1.5, "active"),
        (E, 4, 0.5, "active"),
        (A, None, 0, "disqualified"),
    ]


def test_a_walkover_against_a_disqualified_player_stays_outside_a_round_robin():
    """Swiss: A is disqualified in round 2; C's walkover against A counts, the result A
    played (beating B) is annulled."""
    results = [Result(A, B, A, round=1), Result(C, D, C, round=1),
               Result(A, C, C, forfeit=True, round=2), Result(B, D, B, round=2)]
    rows = {r.player: r for r in standings("ABCD", results, disqualified={A})}
    assert (rows[C].points, rows[C].played) == (2, 2)
    assert (rows[B].points, rows[B].played) == (1, 1)  # the loss to A is annulled
    assert rows[A].status == "disqualified" and rows[A].place is None
    # a round robin annuls them all alike: C's walkover goes too
    rows = {r.player: r for r in standings("ABCD", results, disqualified={A},
                                           round_robin=True)}
    assert (rows[C].points, rows[C].played) == (1, 1)


def test_a_forfeit_win_of_the_disqualified_player_is_annulled():
    rows = {r.player: r for r in standings("ABC", [Result(A, B, A, forfeit=True)],
                                           disqualified={A})}
    assert (rows[B].points, rows[B].played) == (0, 0)


def test_unknown_tiebreak():
    with pytest.raises(IllegalAction, match="unknown_tiebreak"):
        standings("AB", [], tiebreaks=["elo"])


def test_result_round_trip_and_validation():
    result = Result(1, 2, 2, score=(1, 3), round=4)
    assert Result.from_dict(result.to_dict()) == result
    assert Result.from_dict({"a": 5, "b": None}).winner == 5
    for bad in (
        {"a": 1, "b": 1},
        {"a": 1, "b": 2, "winner": 3},
        {"a": 1, "b": None, "winner": 2},
    ):
        with pytest.raises(IllegalAction):
            Result.from_dict(bad)


# Head-to-head again for a smaller group (docs/rules.md, "Standings and tie-breaks"):
# A beat B, B beat C, C beat A; D lost to all three. Points 6 each; the mini-league of
# A, B, C is level.
#   A: B 3:1 (+2), C 1:3 (−2), D 3:0 (+3)  diff +3, rounds won 7
#   B: A 1:3 (−2), C 3:2 (+1), D 3:0 (+3)  diff +2, rounds won 7
#   C: A 3:1 (+2), B 2:3 (−1), D 3:2 (+1)  diff +2, rounds won 8
CYCLE = [
    Result(A, B, A, score=(3, 1)),
    Result(B, C, B, score=(3, 2)),
    Result(C, A, C, score=(3, 1)),
    Result(A, D, A, score=(3, 0)),
    Result(B, D, B, score=(3, 0)),
    Result(C, D, C, score=(3, 2)),
]


def test_head_to_head_again_for_the_pair_a_later_key_leaves_tied():
    rows = standings("ABCD", CYCLE, points=DICE_CUP_POINTS, tiebreaks=DICE_CUP_TIEBREAKS)
    assert [(r.player, r.place, r.diff, r.scored) for r in rows] == [
        (A, 1, 3, 7),
        (B, 2, 2, 7),  # B beat C: above C although C won more rounds
        (C, 3, 2, 8),
        (D, 4, -7, 2),
    ]
    # Without head-to-head the rounds won put C above B.
    assert table("ABCD", CYCLE, points=DICE_CUP_POINTS, tiebreaks=["diff", "scored"])[1:3] == [
        (C, 2), (B, 3)]


def test_stat_key_orders_by_the_callers_values_and_shares_what_stays_level():
    # A beat B, B beat C, C beat A, all 1:0: level on points, legs difference, legs won.
    results = [Result(A, B, A, score=(1, 0)), Result(B, C, B, score=(1, 0)),
               Result(C, A, C, score=(1, 0))]
    stats = {A: Fraction(5, 2), B: Fraction(3), C: Fraction(5, 2)}
    rows = standings("ABC", results, tiebreaks=["diff", "scored", "stat"], stats=stats)
    assert [(r.player, r.place) for r in rows] == [(B, 1), (A, 2), (C, 2)]
    assert tied_groups(rows) == [[A, C]]


def test_stat_key_compares_only_players_who_both_have_the_statistic():
    # A Swiss round 1: A beat B 1:0 at the board, D withdrew and C won the walkover. C threw
    # no darts: no marks per visit, so it does not put C below A, nor D below B.
    results = [Result(A, B, A, score=(1, 0)), Result(C, D, C, forfeit=True)]
    stats = {A: Fraction(3), B: Fraction(0)}
    rows = standings("ABCD", results, tiebreaks=DARTS_TIEBREAKS, withdrawn=[D], stats=stats,
                     walkover=1)
    assert [(r.player, r.place) for r in rows] == [(A, 1), (C, 1), (B, 3), (D, 3)]
    assert tied_groups(rows) == [[A, C], [B, D]]



def test_darts_players_level_on_legs_and_marks_are_ordered_by_their_match():
    # Two Swiss rounds, every match 2:1: B and C each won one and lost one (legs 3:3) with
    # the same marks per visit; the match between them (C beat B) puts C above B, where
    # the table made them share the place.
    results = [Result(A, C, A, score=(2, 1)), Result(B, D, B, score=(2, 1)),
               Result(A, D, A, score=(2, 1)), Result(C, B, C, score=(2, 1))]
    stats = {A: Fraction(2), B: Fraction(2), C: Fraction(2), D: Fraction(2)}
    rows = standings("ABCD", results, tiebreaks=DARTS_TIEBREAKS, stats=stats)
    assert [(r.player, r.place) for r in rows] == [(A, 1), (C, 2), (B, 3), (D, 4)]
    without = standings("ABCD", results, tiebreaks=DARTS_TIEBREAKS[:-1], stats=stats)
    assert tied_groups(without) == [[B, C]]

@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=6, max_size=6))
def test_a_pair_level_after_round_difference_is_ordered_by_their_match(losers):
    """A beat B, B beat C, C beat A, all beat D: whenever exactly two of A, B, C are level on
    round difference, the winner of their match is above, whatever the rounds won."""
    pairs = [(A, B), (B, C), (C, A), (A, D), (B, D), (C, D)]
    results = [Result(w, lo, w, score=(3, n)) for (w, lo), n in zip(pairs, losers, strict=True)]
    rows = standings("ABCD", results, points=DICE_CUP_POINTS, tiebreaks=DICE_CUP_TIEBREAKS)
    place = {r.player: r.place for r in rows}
    diff = {r.player: r.diff for r in rows}
    for winner, loser in pairs[:3]:
        third = ({A, B, C} - {winner, loser}).pop()
        if diff[winner] == diff[loser] != diff[third]:
            assert place[winner] < place[loser]


def _by_hand(players, results, points):
    """Each player's points, Buchholz, median Buchholz and Sonneborn-Berger, added up in
    Fractions result by result (the definitions in the module's docstring)."""
    share = {"win": Fraction(1), "draw": Fraction(1, 2), "loss": Fraction(0)}
    mine = {p: [r for r in results if p in r.players] for p in players}
    score = {p: sum((points[r.outcome(p)] for r in mine[p]), Fraction(0)) for p in players}
    figures = {}
    for p in players:
        met = [(score.get(r.opponent(p), Fraction(0)), r.outcome(p)) for r in mine[p]
               if not r.is_bye]
        figures[p] = (score[p], sum((s for s, _ in met), Fraction(0)),
                      sum(sorted(s for s, _ in met)[1:-1], Fraction(0)),
                      sum((s * share[o] for s, o in met), Fraction(0)))
    return figures


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "draw", "forfeit"]), min_size=10, max_size=10),
       st.sampled_from([Points(), CHESS, DICE_CUP_POINTS, Points(win=2, draw=0.5, loss=0.1)]))
def test_the_tie_break_figures_are_the_sums_of_their_definitions(outcomes, points):
    """Points and the opponents' tie-breaks, counted in whole units of a point, equal the
    same sums made in Fractions result by result, whatever the scoring."""
    pairs = [(a, b) for n, a in enumerate("ABCDE") for b in "ABCDE"[n + 1:]]
    results = [Result(a, b, {"a": a, "b": b}.get(o), forfeit=o == "forfeit")
               for (a, b), o in zip(pairs, outcomes, strict=True)] + [Result(A, None, A)]
    rows = standings("ABCDE", results, points=points,
                     tiebreaks=["buchholz", "median_buchholz", "sonneborn_berger"])
    for row in rows:
        figures = _by_hand("ABCDE", results, points)[row.player]
        assert (row.points, row.buchholz, row.median_buchholz, row.sonneborn_berger) == \
            tuple(float(f) if f.denominator > 1 else int(f) for f in figures)
