"""Choosing the format of the match for 3rd place."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.common.errors import IllegalAction
from games.common.match import Action, seats
from games.common.outcome import Outcome
from games.common.views import expecting_list, jsonable

from .actions import action_type, one_of, player_of, try_success

FORMATS = ("group", "order", "drop", "hp", "betting")


class ThirdPlaceChoice:
    """Both semi-final losers pick a format already played in the tournament.

    Actions: ``{"type": "pick", "player": p, "format": f}``; when the picks differ,
    ``{"type": "try", "player": 0, "success": bool}`` by the higher seed (player 0):
    success → player 0's pick. The engine has no clock: when the pick deadline passes and
    :attr:`needs_organiser_pick` is true, the bot applies ``{"type": "deadline"}``, which
    closes the vote (a late pick is refused with ``vote_closed``), and then
    ``{"type": "organiser_pick", "format": f}`` (after checking the sender is an organiser).

    A pick stays hidden from the other player and from ``view(None)`` until both have
    picked or the format is decided, so that the second picker cannot follow the first.

    ``outcome`` (score: 1 for each player whose pick became the format):

    * equal picks: ``result="tie"``, ``how="same_pick"``;
    * different picks: ``result="win"`` for the player whose pick was taken, ``how="try"``;
    * a pick missing at the deadline: ``result="draw"``, ``how="organiser_pick"``.

    ``legal_actions`` lists every pick and the template ``{"type": "try", "player": 0}``
    (any ``success``); the organiser's pick is not a seat's action and is not listed.
    """

    def __init__(self, available: Iterable[str] = FORMATS) -> None:
        self._available = tuple(available)
        if not self._available or not set(self._available) <= set(FORMATS):
            raise ValueError(f"available formats must be a non-empty subset of {FORMATS}")
        self._picks: list[str | None] = [None, None]
        self._result: str | None = None
        self._winner: int | None = None
        self._closed = False

    @property
    def available(self) -> tuple[str, ...]:
        return self._available

    def has_picked(self, player: int) -> bool:
        return self._picks[player] is not None

    def pick_of(self, player: int) -> str | None:
        return self._picks[player]

    @property
    def needs_try(self) -> bool:
        """Both picked different formats and player 0's ``/try`` has not decided yet."""
        p0, p1 = self._picks
        return self._result is None and p0 is not None and p1 is not None

    @property
    def needs_organiser_pick(self) -> bool:
        """True while a pick is missing: at the deadline the organiser must choose."""
        return self._result is None and None in self._picks

    @property
    def closed(self) -> bool:
        """The deadline passed with a pick missing: only the organiser's pick decides."""
        return self._closed

    @property
    def expecting(self) -> list[tuple[int, str]]:
        if self._result is not None or self._closed:
            return []
        if self.needs_try:
            return [(0, "try")]
        return [(p, "pick") for p in (0, 1) if self._picks[p] is None]

    @property
    def result(self) -> str | None:
        """The chosen format once decided."""
        return self._result

    @property
    def finished(self) -> bool:
        return self._result is not None

    @property
    def winner(self) -> int | None:
        """Whose pick was taken after a ``/try``; None for equal picks or an organiser pick."""
        return self._winner

    @property
    def outcome(self) -> Outcome | None:
        result = self._result
        if result is None:
            return None
        score = (int(self._picks[0] == result), int(self._picks[1] == result))
        if self._winner is not None:
            return Outcome.win(self._winner, score, "try")
        if None in self._picks:
            return Outcome(None, "draw", score, "organiser_pick")
        return Outcome(None, "tie", score, "same_pick")

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every pick open now, or the ``/try`` template (any ``success``)."""
        asked = seats(seat)
        if self._result is not None or self._closed:
            return []
        if self.needs_try:
            return [{"type": "try", "player": 0}] if 0 in asked else []
        return [
            {"type": "pick", "player": p, "format": fmt}
            for p in asked
            if self._picks[p] is None
            for fmt in self._available
        ]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see: a pick is hidden from the other player until both are in."""
        seats(seat)
        revealed = self._result is not None or None not in self._picks
        return {
            "available": list(self._available),
            "picked": [self.has_picked(p) for p in (0, 1)],
            "picks": [self._picks[p] if revealed or p == seat else None for p in (0, 1)],
            "needs_try": self.needs_try,
            "needs_organiser_pick": self.needs_organiser_pick,
            "closed": self._closed,
            "format": self._result,
            "expecting": expecting_list(self.expecting),
            "finished": self.finished,
            "outcome": jsonable(self.outcome),
        }

    def apply(self, action: Action) -> None:
        """Apply one action or raise :class:`IllegalAction` leaving the state unchanged."""
        kind = action_type(action, ("pick", "try", "organiser_pick", "deadline"))
        if kind == "deadline":
            if self._result is not None:
                raise IllegalAction("match_over")
            if not self.needs_organiser_pick or self._closed:
                raise IllegalAction("not_needed")
            self._closed = True
            return
        if kind == "organiser_pick":
            fmt = one_of(action, "format", self._available, "bad_format")
            if self._result is not None:
                raise IllegalAction("match_over")
            if not self.needs_organiser_pick:
                raise IllegalAction("not_needed")
            self._result = fmt
            return
        player = player_of(action)
        if self._result is not None:
            raise IllegalAction("match_over")
        if kind == "pick":
            fmt = one_of(action, "format", self._available, "bad_format")
            if self._closed:
                raise IllegalAction("vote_closed")
            if self._picks[player] is not None:
                raise IllegalAction("already_chosen")
            self._picks[player] = fmt
            if self._picks[0] == self._picks[1]:
                self._result = fmt
            return
        success = try_success(action)
        if not self.needs_try:
            raise IllegalAction("not_in_tiebreak")
        if player != 0:
            raise IllegalAction("not_your_turn", turn=0)
        self._winner = 0 if success else 1
        self._result = self._picks[self._winner]
