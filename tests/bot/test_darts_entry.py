"""The darts keypad's callback data, typed lines and the /correct arguments (the chat flows
are in the darts_* transcripts)."""

from __future__ import annotations

import pytest
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.features.darts.entry import parse_correction, read_line
from bot.features.darts.keypad import keypad, read
from bot.features.darts.kinds import KINDS
from bot.i18n import Translator
from games.darts.fincricket import FinCricketMatch
from games.darts.shanghai import ShanghaiMatch


def test_every_button_fits_telegram_and_reads_back() -> None:
    for kind, state in (("shanghai", ShanghaiMatch(3)), ("fincricket", FinCricketMatch(3))):
        markup = keypad(Translator("fi"), KINDS[kind], 123456789012, state)
        buttons = [b for row in markup.inline_keyboard for b in row]
        assert len(buttons) == 3 * len(KINDS[kind].sectors) + 5
        for button in buttons:
            assert len(button.callback_data.encode()) <= 64
            press = read(button.callback_data)
            assert press is not None and press.match_id == 123456789012
            assert press.position == (1, 0, 0)


def test_a_keypad_leaves_its_layout_and_the_keypads_before_it_as_they_were() -> None:
    state = ShanghaiMatch(3)
    first = keypad(Translator("en"), KINDS["shanghai"], 7, state)
    state.apply({"type": "dart", "dart": "T20"})
    second = keypad(Translator("en"), KINDS["shanghai"], 7, state)
    assert first.inline_keyboard[0][0].callback_data == "dt:7:1.0.0:S20"
    assert second.inline_keyboard[0][0].callback_data == "dt:7:1.0.1:S20"
    assert first.inline_keyboard[0][0].model_fields_set == {"text", "callback_data"}
    built = InlineKeyboardButton(text="S20", callback_data="dt:7:1.0.1:S20")
    assert second.inline_keyboard[0][0] == built  # what a validated button is, to the last part
    assert second.inline_keyboard[0][0].model_dump_json() == built.model_dump_json()
    third = keypad(Translator("en"), KINDS["shanghai"], 8, state)
    assert [[b.text for b in row] for row in third.inline_keyboard] == \
        [[b.text for b in row] for row in first.inline_keyboard]
    assert third.inline_keyboard[-1][-1].callback_data == "dt:8:1.0.1:E"


def test_a_keypad_is_the_keyboard_validated_from_its_buttons() -> None:
    state = FinCricketMatch(3)
    markup = keypad(Translator("ru"), KINDS["fincricket"], 7, state)
    built = InlineKeyboardMarkup(inline_keyboard=[
        [InlineKeyboardButton(text=b.text, callback_data=b.callback_data) for b in row]
        for row in markup.inline_keyboard])
    assert markup == built
    assert markup.model_dump_json() == built.model_dump_json()
    assert markup.inline_keyboard is not keypad(Translator("ru"), KINDS["fincricket"], 7,
                                                state).inline_keyboard


def test_forged_data_is_not_read() -> None:
    for data in ("dt:1:x", "dt:1:1.0.0:T99", "dt:1:1.0.0:Q20", "dt:1:1.0:T20", "", None,
                 "dt:1:1.0.0:T20:extra"):
        assert read(data) is None


def test_correction_arguments() -> None:
    assert parse_correction("3 5 T20 S20 miss wrong button") == {
        "match": 3, "leg": None, "visit": 5, "darts": ["T20", "S20", "miss"],
        "reason": "wrong button"}
    assert parse_correction("#3.2 1 nothing hit") == {
        "match": 3, "leg": 2, "visit": 1, "darts": [], "reason": "nothing hit"}
    assert parse_correction("3 5 T20 X20 typo")["darts"] == ["T20", "X20"]
    assert parse_correction("3 5 T2O S20 typo")["darts"] == ["T2O", "S20"]  # refused as a dart
    assert parse_correction("3 5 Today was odd")["reason"] == "Today was odd"
    for bad in (None, "", "3", "3 5 T20", "3 0 T20 why", "x 5 T20 why"):
        assert parse_correction(bad) is None


@pytest.mark.parametrize(("typed", "darts", "command"), [
    ("T20,T19,T18", ["T20", "T19", "T18"], None),
    ("t20; s19, мимо!", ["t20", "s19", "мимо"], None),
    ("SB DB bulli", ["SB", "DB", "bulli"], None),
    ("tuplabulli, tupla bulli", ["tuplabulli", "tupla bulli"], None),
    ("tripla 20 Tupla 19 3x18", ["tripla 20", "Tupla 19", "3x18"], None),
    ("S20 конец", ["S20"], "end"),
    ("отмена", [], "undo"),
])
def test_typed_lines(typed: str, darts: list[str], command: str | None) -> None:
    assert read_line(typed) == (darts, command)


@pytest.mark.parametrize("typed", ["S20 D20 T20 отмена", "T20 nice", "привет", "T20T20T20",
                                   "tripla 20 oli hieno", "tupla", "3x"])
def test_lines_that_are_no_visit(typed: str) -> None:
    assert read_line(typed) is None
