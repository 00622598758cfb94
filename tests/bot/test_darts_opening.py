"""Who starts a darts match (the bull-off or the coin, logged as the first action), the
typed words for Undo and End turn, and the bull-off buttons."""

from __future__ import annotations

import copy

import pytest

from bot.features.darts.entry import read_line
from bot.features.darts.keypad import opening_pad, read
from bot.features.darts.opening import Opening, starter_action
from bot.i18n import Translator
from games.common.errors import IllegalAction
from games.common.match import replay
from games.darts.fincricket import FinCricketMatch
from games.darts.shanghai import ShanghaiMatch

CLOSE_ALL = ["T20 S20 D20", "T19 S19 D19", "T18 S18 D18", "T17 S17 D17", "T16 S16 D16",
             "T15 S15 D15", "25 25 50"]


def _shanghai(legs: int = 3) -> Opening:
    return Opening(lambda starter: ShanghaiMatch(legs=legs, starter=starter))


def _visit(line: str) -> list[dict]:
    return [{"type": "dart", "dart": d} for d in line.split()] + [{"type": "end_visit"}]


def _win_leg(match: Opening) -> None:
    """The player at the oche closes everything in seven visits; the other misses."""
    leg = match.leg
    for number, line in enumerate(CLOSE_ALL):
        if number:
            for action in _visit("miss miss miss"):
                match.apply(action)
        for action in _visit(line):
            match.apply(action)
    assert leg.finished


def test_darts_wait_for_the_starter() -> None:
    match = _shanghai()
    assert not match.started and match.starter is None
    for action in ({"type": "dart", "dart": "T20"}, {"type": "end_visit"}, {"type": "undo"},
                   {"type": "correct", "visit": 0, "darts": []}):
        with pytest.raises(IllegalAction) as refused:
            match.apply(action)
        assert refused.value.code == "no_starter"
    assert match.legs[0].history == () and match.legs[0].pending == ()


def test_the_starter_is_chosen_once_and_legs_alternate_from_it() -> None:
    match = _shanghai()
    match.apply(starter_action(1, "coin"))
    assert (match.started, match.starter, match.how, match.current) == (True, 1, "coin", 1)
    with pytest.raises(IllegalAction) as refused:
        match.apply(starter_action(0, "bull"))
    assert refused.value.code == "starter_known"
    _win_leg(match)
    assert match.leg.starter == 0 and match.legs_won == (0, 1)
    _win_leg(match)  # player 0 starts leg 2 and wins it
    assert match.legs_won == (1, 1) and match.leg.starter == 1
    _win_leg(match)
    assert match.finished and match.winner == 1


@pytest.mark.parametrize("action", [
    {"type": "starter", "player": 2}, {"type": "starter", "player": "0"},
    {"type": "starter", "player": 0, "how": "dice"}, {"type": "starter"}])
def test_a_bad_starter_changes_nothing(action: dict) -> None:
    match = _shanghai()
    with pytest.raises(IllegalAction):
        match.apply(action)
    assert not match.started


def test_replay_and_copies_rebuild_the_same_match() -> None:
    log = [starter_action(1, "bull"), {"type": "dart", "dart": "T20", "player": 1}]
    match = replay(Opening(lambda s: FinCricketMatch(legs=1, starter=s)), log)
    twin = copy.deepcopy(match)
    twin.apply({"type": "end_visit"})
    assert match.leg.pending and not twin.leg.pending  # the copy is independent
    assert twin.current == 0 and twin.starter == 1 and twin.leg.scores == (0, 0)


def test_typed_words() -> None:
    assert read_line("отмена") == ([], "undo")
    assert read_line("Undo!") == ([], "undo")
    assert read_line("peru") == ([], "undo")
    for end in ("конец", "End", "valmis", "päätä vuoro", "Конец подхода", "end turn"):
        assert read_line(end) == ([], "end"), end
    assert read_line("50 25 конец") == (["50", "25"], "end")
    assert read_line("T20 S20 D20") == (["T20", "S20", "D20"], None)
    assert read_line("T 18 S 5 miss") == (["T 18", "S 5", "miss"], None)  # a ring apart
    assert read_line("т 20 конец") == (["т 20"], "end")
    for chat in ("конец света", "undo that", "hello", "", "end end", "T20 undo"):
        assert read_line(chat) is None, chat


def test_bull_off_buttons_read_back() -> None:
    markup = opening_pad(Translator("ru"), 7, _shanghai(), ("Ann", "Ben"))
    buttons = [b for row in markup.inline_keyboard for b in row]
    assert [b.text for b in buttons] == ["🎯 Булл-офф: Ann", "🎯 Булл-офф: Ben", "🪙 Монетка"]
    presses = [read(b.callback_data) for b in buttons]
    assert presses[0].action(1) == starter_action(0, "bull")
    assert presses[1].action(0) == starter_action(1, "bull")
    assert presses[2].is_coin and presses[0].position == (1, 0, 0)
