"""Group stage: one die each per round, first to 3 round wins, optional agreed draw."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.common.errors import IllegalAction
from games.common.match import Action
from games.common.outcome import Outcome

from .actions import one_of
from .rounds import RollingRounds

WIN_POINTS = 3
DRAW_POINTS = 1
LOSS_POINTS = 0
VOTES = ("draw", "reroll")


class GroupMatch(RollingRounds):
    """Single-die rounds; a tied deciding round (2:2) may end the match as a draw.

    When the deciding round is tied both players vote with
    ``{"type": "draw_vote", "player": p, "vote": "draw" | "reroll"}``: two "draw" votes
    draw the match; one "reroll" re-rolls the deciding round at once, and from then on
    its ties are re-rolled without another vote. ``allow_draw=False`` (e.g. the 3rd-place
    match) always re-rolls.

    ``outcome``: a win (``how="played"``, score = round wins) or, after two "draw" votes,
    ``result="draw"`` with ``how="agreed_draw"`` at 2:2. That ending is a draw and not a tie
    although the score is level: the deciding round was never settled, the players agreed
    to stop. ``legal_actions`` lists both votes for each player still to vote.
    """

    def __init__(self, allow_draw: bool = True, wins_needed: int = 3) -> None:
        super().__init__(wins_needed)
        self._allow_draw = allow_draw
        self._voting = False
        self._votes: list[str | None] = [None, None]
        self._reroll_agreed = False
        self._draw = False

    def __replica__(self) -> GroupMatch:
        new = super().__replica__()
        new._votes = list(self._votes)
        return new

    @property
    def voting(self) -> bool:
        """True while the tied deciding round waits for both players' draw votes."""
        return self._voting

    @property
    def votes(self) -> tuple[str | None, str | None]:
        return self._votes[0], self._votes[1]

    @property
    def draw(self) -> bool:
        return self._draw

    @property
    def points(self) -> tuple[int, int] | None:
        """Standings points once finished: 3/0 for a win, 1/1 for a draw."""
        if not self._finished:
            return None
        if self._draw:
            return DRAW_POINTS, DRAW_POINTS
        return (WIN_POINTS, LOSS_POINTS) if self._winner == 0 else (LOSS_POINTS, WIN_POINTS)

    def final_scores(self) -> tuple[tuple[int, int], ...] | None:
        """The wins of :class:`RollingRounds`, and the draw at the deciding round."""
        draw = self._wins_needed - 1
        return (*super().final_scores(), *([(draw, draw)] if self._allow_draw else []))

    @property
    def outcome(self) -> Outcome | None:
        if self._draw:
            return Outcome(None, "draw", self.score, "agreed_draw")
        return super().outcome

    def _legal_for(self, player: int) -> list[Action]:
        if not self._voting:
            return super()._legal_for(player)
        if self._votes[player] is not None:
            return []
        return [{"type": "draw_vote", "player": player, "vote": vote} for vote in VOTES]

    def _view_extra(self) -> dict[str, Any]:
        return {"voting": self._voting, "votes": list(self.votes)}

    @property
    def expecting(self) -> list[tuple[int, str]]:
        if self._voting:
            return [(p, "draw_vote") for p in (0, 1) if self._votes[p] is None]
        return super().expecting

    def _handlers(self) -> dict[str, Callable[[int, Action], None]]:
        return {**super()._handlers(), "draw_vote": self._on_vote}

    def _check_can_roll(self, player: int) -> None:
        if self._voting:
            raise IllegalAction("vote_pending")
        super()._check_can_roll(player)

    def _on_tie(self) -> None:
        deciding = self._score == [self._wins_needed - 1] * 2
        if deciding and self._allow_draw and not self._reroll_agreed:
            self._voting = True

    def _on_vote(self, player: int, action: Action) -> None:
        vote = one_of(action, "vote", VOTES, "bad_vote")
        if not self._voting:
            raise IllegalAction("not_voting")
        if self._votes[player] is not None:
            raise IllegalAction("already_voted")
        self._votes[player] = vote
        if vote == "reroll":
            self._voting = False
            self._reroll_agreed = True
        elif self._votes == ["draw", "draw"]:
            self._voting = False
            self._draw = True
            self._finished = True
