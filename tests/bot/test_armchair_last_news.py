"""The group message that ends an armchair match says what ended it with the result, as
darts says its last leg (``bot/features/armchair/play.py``): the last ball, unless a
declaration ended the match, and the innings that ball or declaration closed."""

from __future__ import annotations

from types import SimpleNamespace

from bot.features.armchair.play import _last_news
from bot.i18n import Translator
from games.armchair_cricket.cards import card_code
from games.armchair_cricket.contract import ArmchairGame
from games.armchair_cricket.state import ArmchairState, Delivery, Innings, Outcome

CTX = SimpleNamespace(tr=Translator("en"), names=("Ann", "Ben"))
FIRST = Innings(number=1, batting=0, first_deck=1, runs=2, wickets=1, balls=9, closed=True)
SECOND = Innings(number=2, batting=1, first_deck=1, runs=7, wickets=1, balls=12, closed=True)


def _ended(third: Innings, last: Delivery) -> ArmchairGame:
    state = ArmchairState(innings=(FIRST, SECOND, third), last=last, phase="over",
                          outcome=Outcome(result="win", winner=1, ending="innings"))
    return ArmchairGame.from_state(state)


def _ball(number: int, result: str) -> Delivery:
    return Delivery(innings=3, ball=number, bowled=card_code("STUMPS 2"),
                    played=card_code("BALL 1"), result=result, runs=0)


def test_a_wicket_that_ends_the_match_is_said_with_the_innings_it_closed() -> None:
    third = Innings(number=3, batting=0, first_deck=1, runs=1, wickets=1, balls=4, closed=True)
    lines = _last_news(CTX, _ended(third, _ball(4, "wicket")))
    assert len(lines) == 2
    assert lines[0].startswith("🏏 0.4 Ben bowls STUMPS 2, Ann plays BALL 1")
    assert lines[1].startswith("🔚 3rd inns over")


def test_a_declaration_that_ends_the_match_is_said_without_an_earlier_ball() -> None:
    third = Innings(number=3, batting=0, first_deck=1, runs=1, wickets=0, balls=3,
                    declared=True, closed=True)
    lines = _last_news(CTX, _ended(third, _ball(3, "safe")))
    assert len(lines) == 1 and lines[0].startswith("🔚 3rd inns over")
    assert "declared" in lines[0]


def test_a_ball_that_wins_a_chase_is_said_though_it_closes_no_innings() -> None:
    fourth = Innings(number=4, batting=1, first_deck=1, runs=4, balls=2, target=4)
    ball = Delivery(innings=4, ball=2, bowled=card_code("GLOVES 3"),
                    played=card_code("GLOVES 9"), result="runs", runs=3)
    third = Innings(number=3, batting=0, first_deck=1, runs=1, wickets=1, balls=4, closed=True)
    state = ArmchairState(innings=(FIRST, SECOND, third, fourth), last=ball, phase="over",
                          outcome=Outcome(result="win", winner=1, ending="chase"))
    lines = _last_news(CTX, ArmchairGame.from_state(state))
    assert len(lines) == 1
    assert lines[0].startswith("🏏 0.2 Ann bowls GLOVES 3, Ben plays GLOVES 9")
