"""The deal, the toss, the discards, deliveries, overs, exchanges and declarations."""

from __future__ import annotations

import random

import pytest

from games.armchair_cricket import ArmchairMatch, ToAct, chance_action, delivery_outcome
from games.common.errors import IllegalAction

from .helpers import FILLER, accounted, assert_illegal, ball, deal_order, started

BATTER = ["BAT 8", "BALL 9", "PADS 3", "GLOVES 2", "STUMPS 4", "BAT 1"]
BOWLER = ["BAT 5", "BAT 6", "BALL 7", "STUMPS 8", "GLOVES 10", "PADS 11"]
TOP = ["GLOVES 5", "STUMPS 6", "BALL 2", "BALL 3", "BAT 11", "PADS 9"]


def hand(match: ArmchairMatch, seat: int) -> list[str]:
    return [str(card) for card in match.view(seat).hand or ()]


def test_the_deal_toss_choice_and_discards() -> None:
    match = ArmchairMatch()
    assert match.to_act == ToAct("shuffle", None, 110)
    assert_illegal(match, {"type": "toss", "winner": 0}, "wrong_phase")
    assert_illegal(match, {"type": "shuffle", "order": list(range(109))}, "bad_shuffle")
    assert_illegal(match, {"type": "shuffle", "order": [0] * 110}, "bad_shuffle")
    hand0 = [*BATTER, FILLER[1]]
    hand1 = [*BOWLER, FILLER[0]]
    match.apply({"type": "shuffle", "order": deal_order(hand0, hand1, TOP)})
    assert sorted(hand(match, 0)) == sorted(hand0) and sorted(hand(match, 1)) == sorted(hand1)
    assert match.view().pile_size == 96 and accounted(match.state)
    assert match.to_act == ToAct("toss", None)
    match.apply({"type": "toss", "winner": 1})
    assert match.to_act == ToAct("choose", 1)
    assert_illegal(match, {"type": "choose", "player": 0, "bat_first": 0}, "not_your_turn")
    assert [a["bat_first"] for a in match.legal_actions()] == [0, 1]
    match.apply({"type": "choose", "player": 1, "bat_first": 0})  # the toss winner bowls
    assert match.state.side_a == 0 and match.view().batter == 0
    assert match.to_act == ToAct("discard", 1)  # the bowler discards first
    assert_illegal(match, {"type": "discard", "player": 0, "card": FILLER[1]}, "not_your_turn")
    assert_illegal(match, {"type": "discard", "player": 1, "card": "BAT 9"}, "card_not_in_hand")
    match.apply({"type": "discard", "player": 1, "card": FILLER[0]})
    assert match.to_act == ToAct("discard", 0)
    match.apply({"type": "discard", "player": 0, "card": FILLER[1]})
    assert match.to_act == ToAct("bowl", 1)
    assert match.view().hand_sizes == (6, 6) and match.view().discard_size == 2


def test_a_delivery_bowler_then_batter_each_draws() -> None:
    match = started(BATTER, BOWLER, TOP)
    assert_illegal(match, {"type": "bat", "player": 0, "card": "BAT 8"}, "wrong_phase")
    assert_illegal(match, {"type": "bowl", "player": 0, "card": "BAT 8"}, "not_your_turn")
    assert_illegal(match, {"type": "bowl", "player": 1, "card": "BAT 9"}, "card_not_in_hand")
    assert_illegal(match, {"type": "bowl", "player": 1, "card": "bat"}, "bad_card")
    match.apply({"type": "bowl", "player": 1, "card": "б5"})
    assert str(match.view().bowled) == "BAT 5"
    assert "GLOVES 5" in hand(match, 1) and "BAT 5" not in hand(match, 1)
    assert match.to_act == ToAct("bat", 0)
    assert_illegal(match, {"type": "bowl", "player": 1, "card": "BAT 6"}, "wrong_phase")
    match.apply({"type": "bat", "player": 0, "card": "BAT 8"})
    assert "STUMPS 6" in hand(match, 0) and "BAT 8" not in hand(match, 0)
    innings = match.view().innings[0]
    assert (innings.runs, innings.wickets, innings.balls, innings.overs) == (1, 0, 1, "0.1")
    last = match.view().last
    assert last is not None and last.to_dict() == {
        "innings": 1,
        "ball": 1,
        "bowled": "BAT 5",
        "played": "BAT 8",
        "result": "runs",
        "runs": 1,
    }
    # the played card is on the discard pile and cannot be played again
    assert_illegal(match, {"type": "bat", "player": 0, "card": "BAT 8"}, "wrong_phase")
    assert match.to_act == ToAct("bowl", 1) and accounted(match.state)


def test_six_deliveries_make_an_over() -> None:
    match = started(BATTER, BOWLER, TOP)
    for _ in range(6):
        match.apply(match.legal_actions()[0])
        bowled = str(match.view().bowled)
        options = match.legal_actions()
        safe = [a for a in options if delivery_outcome(bowled, a["card"])[0] != "wicket"]
        match.apply((safe or options)[0])
        if match.to_act == ToAct("exchange", 0):
            match.apply({"type": "exchange", "player": 0, "cards": []})
    innings = match.view().innings[0]
    assert innings.balls == 6 and innings.overs == "1.0"
    assert match.to_act == ToAct("bowl", 1)  # the same bowler: no change at the over


def test_a_wicket_lets_the_batter_exchange_up_to_two() -> None:
    match = started(BATTER, BOWLER, TOP)
    ball(match, "BAT 5", "PADS 3")
    assert match.view().innings[0].wickets == 1
    assert match.to_act == ToAct("exchange", 0)
    options = match.legal_actions()
    assert {"type": "exchange", "player": 0, "cards": []} in options
    assert {"type": "declare", "player": 0} in options
    assert len(options) == 1 + 6 + 15 + 1
    assert match.legal_actions(1) == []
    assert_illegal(match, {"type": "bowl", "player": 1, "card": "BAT 6"}, "wrong_phase")
    action = {"type": "exchange", "player": 0, "cards": ["BAT 1", "GLOVES 2", "STUMPS 4"]}
    assert_illegal(match, action, "too_many_cards")
    action = {"type": "exchange", "player": 0, "cards": ["BAT 1", "BAT 1"]}
    assert_illegal(match, action, "card_held_once")  # two packs: it could have been two
    action = {"type": "exchange", "player": 0, "cards": ["BAT 11"]}
    assert_illegal(match, action, "card_not_in_hand")
    assert_illegal(match, {"type": "exchange", "player": 0, "cards": "BAT 1"}, "bad_cards")
    pile = match.view().pile_size
    match.apply({"type": "exchange", "player": 0, "cards": ["BAT 1", "GLOVES 2"]})
    assert "BAT 1" not in hand(match, 0) and "GLOVES 2" not in hand(match, 0)
    assert {"BALL 2", "BALL 3"} <= set(hand(match, 0)) and len(hand(match, 0)) == 6
    assert match.view().pile_size == pile - 2 and accounted(match.state)
    assert match.to_act == ToAct("bowl", 1)


def test_the_exchange_may_be_skipped() -> None:
    match = started(BATTER, BOWLER, TOP)
    ball(match, "BAT 5", "PADS 3")
    before = hand(match, 0)
    match.apply({"type": "exchange", "player": 0, "cards": []})
    assert hand(match, 0) == before and match.to_act == ToAct("bowl", 1)


def test_the_third_wicket_ends_the_innings_without_an_exchange() -> None:
    top = ["PADS 4", "GLOVES 1", "PADS 5", "GLOVES 3", "PADS 6", "GLOVES 4"]
    match = started(BATTER, BOWLER, top)
    for bowled, played in (("PADS 11", "BAT 1"), ("GLOVES 10", "STUMPS 4")):
        ball(match, bowled, played)
        assert match.to_act == ToAct("exchange", 0)
        match.apply({"type": "exchange", "player": 0, "cards": []})
    ball(match, "STUMPS 8", "PADS 3")
    first, second = match.view().innings
    assert (first.wickets, first.closed, first.declared, first.balls) == (3, True, False, 3)
    assert (second.number, second.batting, second.balls) == (2, 1, 0)
    assert match.to_act == ToAct("bowl", 0)  # roles swap; hands and pile carry over
    assert match.view().hand_sizes == (6, 6) and accounted(match.state)


def test_declaring_is_the_batting_sides_choice_between_deliveries() -> None:
    match = started(BATTER, BOWLER, TOP)
    ball(match, "BAT 5", "BAT 8")
    assert match.legal_actions(0) == [{"type": "declare", "player": 0}]
    assert {"type": "declare", "player": 1} not in match.legal_actions(1)
    assert_illegal(match, {"type": "declare", "player": 1}, "not_batting")
    match.apply({"type": "bowl", "player": 1, "card": "BAT 6"})
    assert_illegal(match, {"type": "declare", "player": 0}, "ball_in_play")
    match.apply({"type": "bat", "player": 0, "card": "BALL 9"})
    hands = match.state.hands
    match.apply({"type": "declare", "player": 0})
    first, second = match.view().innings
    assert (first.runs, first.wickets, first.declared, first.closed) == (1, 0, True, True)
    assert second.batting == 1 and match.to_act == ToAct("bowl", 0)
    assert match.state.hands == hands  # no new deal
    assert_illegal(match, {"type": "declare", "player": 0}, "not_batting")  # now bowling


def test_actions_in_the_wrong_shape_are_refused() -> None:
    match = started(BATTER, BOWLER, TOP)
    for action in (None, [], {}, {"type": "pass"}, {"type": 3}):
        assert_illegal(match, action, "bad_action")
    assert_illegal(match, {"type": "bowl", "player": 2, "card": "BAT 5"}, "bad_player")
    assert_illegal(match, {"type": "bowl", "player": True, "card": "BAT 5"}, "bad_player")
    assert_illegal(match, {"type": "bowl", "player": 1, "card": 5}, "bad_card")
    assert_illegal(match, {"type": "shuffle", "order": []}, "no_shuffle_needed")


def test_legal_actions_list_each_distinct_card_once() -> None:
    match = ArmchairMatch()
    same = ["BAT 1"] * 2 + ["BALL 2"] * 2 + ["GLOVES 3"] * 2 + ["PADS 4"]
    other = ["STUMPS 1", "STUMPS 2", "STUMPS 3", "STUMPS 4", "STUMPS 5", "STUMPS 6", "PADS 5"]
    match.apply({"type": "shuffle", "order": deal_order(other, same)})
    match.apply({"type": "toss", "winner": 0})
    match.apply({"type": "choose", "player": 0, "bat_first": 0})
    cards = [action["card"] for action in match.legal_actions()]
    assert cards == ["BAT 1", "BALL 2", "GLOVES 3", "PADS 4"]
    assert all(action["player"] == 1 for action in match.legal_actions())


def test_views_hide_what_a_seat_may_not_see() -> None:
    match = started(BATTER, BOWLER, TOP)
    match.apply({"type": "bowl", "player": 1, "card": "BAT 5"})
    public = match.view().to_dict()
    assert public["hand"] is None and public["bowled"] == "BAT 5"
    assert public["hand_sizes"] == [6, 6] and public["pile_size"] == 95
    assert public["to_act"] == {"kind": "bat", "seat": 0}
    exported = repr(public)
    assert not [card for card in BATTER if f"'{card}'" in exported]
    assert not [card for card in BOWLER[1:] if f"'{card}'" in exported]
    assert sorted(hand(match, 0)) == sorted(BATTER)
    assert sorted(hand(match, 1)) == sorted([*BOWLER[1:], TOP[0]])
    assert match.view(1).to_dict()["hand"] == hand(match, 1)


def test_chance_actions_come_from_the_random_source_passed_in() -> None:
    match = ArmchairMatch()
    first = chance_action(match.state, random.Random(5))
    assert first == chance_action(match.state, random.Random(5))
    assert sorted(first["order"]) == list(range(110))
    match.apply(first)
    toss = chance_action(match.state, random.Random(5))
    assert toss["type"] == "toss" and toss["winner"] in (0, 1)
    match.apply(toss)
    with pytest.raises(IllegalAction) as caught:
        chance_action(match.state, random.Random(5))  # the toss winner must choose
    assert caught.value.code == "no_chance_action"
