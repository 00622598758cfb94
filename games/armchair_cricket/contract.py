"""The match under the engine contract every game of the bot follows (``docs/engines.md``):
``outcome`` as a :class:`games.common.outcome.Outcome` (the score is each seat's runs, ``how``
the ending) and ``view`` as a JSON-able dict. The richer :class:`ArmchairMatch` stays for
the rules' own tests and the bot player; the bot stores and replays this one.
"""

from __future__ import annotations

from typing import Any

from games.common.outcome import Outcome

from .match import ArmchairMatch
from .view import view


class ArmchairGame(ArmchairMatch):
    """:class:`ArmchairMatch` whose ``outcome`` and ``view`` are the contract's."""

    @property
    def outcome(self) -> Outcome | None:  # type: ignore[override]
        ended = self.state.outcome
        if ended is None:
            return None
        return Outcome(ended.winner, ended.result, self.state.totals, ended.ending)

    def view(self, seat: int | None = None) -> dict[str, Any]:  # type: ignore[override]
        """What ``seat`` may see (None: everyone), as JSON-able data."""
        return view(self.state, seat).to_dict()

    @property
    def position(self) -> int:
        """How many actions the match has taken: the position a keyboard was drawn at."""
        return self.state.step
