"""The scoreboard's keypad: one button per dart of the game, Miss, Undo and End turn.

Callback data is ``dt:<match>:<leg>.<visits>.<darts>:<code>`` (well under Telegram's 64
bytes). The middle part is the position the board showed when it was drawn, so a press on
an old board, a double press and a press for a leg that is over are told apart from a
current one and change nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.features.darts.kinds import DartsKind
from bot.i18n import Translator
from games.darts.match import LegsMatch

PREFIX = "dt:"
UNDO, END = "U", "E"
_DATA = re.compile(r"^dt:(\d{1,12}):(\d{1,3})\.(\d{1,4})\.(\d):(MISS|[SDT](?:[1-9]|1\d|20)|25|50|U|E)$")
SECTORS_PER_ROW = 2


@dataclass(frozen=True)
class Press:
    match_id: int
    position: tuple[int, int, int]
    code: str

    def action(self, player: int) -> dict:
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


def keypad(tr: Translator, kind: DartsKind, match_id: int,
           state: LegsMatch) -> InlineKeyboardMarkup:
    where = ".".join(map(str, position(state)))

    def button(text: str, code: str) -> InlineKeyboardButton:
        return InlineKeyboardButton(text=text, callback_data=f"{PREFIX}{match_id}:{where}:{code}")

    rows = []
    for start in range(0, len(kind.sectors), SECTORS_PER_ROW):
        rows.append([button(f"{m}{sector}", f"{m}{sector}")
                     for sector in kind.sectors[start:start + SECTORS_PER_ROW] for m in "SDT"])
    rows.append([button("25", "25"), button("50", "50"), button(tr("darts.key_miss"), "MISS")])
    rows.append([button(tr("darts.key_undo"), UNDO), button(tr("darts.key_end"), END)])
    return InlineKeyboardMarkup(inline_keyboard=rows)
