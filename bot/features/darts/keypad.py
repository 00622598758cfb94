"""The scoreboard's keypad: one button per dart of the game, Miss, Undo and End turn; before
leg 1, the bull-off's winner (either player) and the coin instead.

Callback data is ``dt:<match>:<leg>.<visits>.<darts>:<code>`` (well under Telegram's 64
bytes). The middle part is the position the board showed when it was drawn, so a press on
an old board, a double press and a press for a leg that is over are told apart from a
current one and change nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.features.darts.kinds import DartsKind
from bot.features.darts.opening import starter_action
from bot.features.keyboards import keyboard_of, press_button
from bot.i18n import Translator
from games.darts.match import LegsMatch

PREFIX = "dt:"
UNDO, END = "U", "E"
BULL_OFF, COIN = ("BA", "BB"), "C"
_DATA = re.compile(
    r"^dt:(\d{1,12}):(\d{1,3})\.(\d{1,4})\.(\d):(MISS|[SDT](?:[1-9]|1\d|20)|25|50|U|E|BA|BB|C)$")
SECTORS_PER_ROW = 2


@dataclass(frozen=True)
class Press:
    match_id: int
    position: tuple[int, int, int]
    code: str

    @property
    def is_coin(self) -> bool:
        return self.code == COIN

    def action(self, player: int) -> dict:
        """The action of a press for ``player`` at the oche (not for the coin: the caller
        tosses it)."""
        if self.code in BULL_OFF:
            return starter_action(BULL_OFF.index(self.code), "bull")
        if self.code == UNDO:
            return {"type": "undo", "player": player}
        if self.code == END:
            return {"type": "end_visit", "player": player}
        return {"type": "dart", "dart": self.code, "player": player}


def position(state: LegsMatch) -> tuple[int, int, int]:
    """Where the match stands: leg number (1-based), committed visits, darts entered."""
    return len(state.legs), len(state.leg.history), len(state.leg.pending)


def read(data: str | None) -> Press | None:
    """The press a button's data stands for; None when the data is not one of ours."""
    found = _DATA.match(data or "")
    if found is None:
        return None
    leg, visits, darts = int(found[2]), int(found[3]), int(found[4])
    return Press(int(found[1]), (leg, visits, darts), found[5])


def _button(match_id: int, state: LegsMatch) -> Callable[[str, str], InlineKeyboardButton]:
    where = ".".join(map(str, position(state)))

    def button(text: str, code: str) -> InlineKeyboardButton:
        return InlineKeyboardButton(text=text, callback_data=f"{PREFIX}{match_id}:{where}:{code}")
    return button


def opening_pad(tr: Translator, match_id: int, state: LegsMatch,
                names: tuple[str, str]) -> InlineKeyboardMarkup:
    """Before leg 1: who won the bull-off, or the coin."""
    button = _button(match_id, state)
    return keyboard_of([
        [button(tr("darts.key_bull_off", name=name), code)
         for name, code in zip(names, BULL_OFF, strict=True)],
        [button(tr("darts.key_coin"), COIN)]])


def keypad(tr: Translator, kind: DartsKind, match_id: int,
           state: LegsMatch) -> InlineKeyboardMarkup:
    """The 23 keys of a press, copied from validated templates (press_button, keyboard_of)
    rather than validated: a keypad is drawn again after every dart."""
    prefix = f"{PREFIX}{match_id}:{'.'.join(map(str, position(state)))}:"
    return keyboard_of([press_button(text, prefix + code) for text, code in row]
                       for row in _layout(tr.language, kind.sectors))


@lru_cache(maxsize=16)
def _layout(language: str, sectors: tuple[int, ...]) -> tuple[tuple[tuple[str, str], ...], ...]:
    """The keypad's keys of a language and kind, each as its text and code (built once)."""
    tr = Translator(language)
    rows = [tuple((f"{m}{sector}", f"{m}{sector}")
                  for sector in sectors[start:start + SECTORS_PER_ROW] for m in "SDT")
            for start in range(0, len(sectors), SECTORS_PER_ROW)]
    rows.append((("25", "25"), ("50", "50"), (tr("darts.key_miss"), "MISS")))
    rows.append(((tr("darts.key_undo"), UNDO), (tr("darts.key_end"), END)))
    return tuple(rows)
