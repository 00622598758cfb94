"""Swiss with elimination: a player is out after N match losses; play goes on until one
player remains. The rest are ranked by the round they went out in, then by wins."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.common.errors import IllegalAction
from games.tournament.results import Pair, Player, Result, check_players
from games.tournament.swiss import pair_round, swiss_inputs


class SwissElimination:
    """Rounds are paired as in Swiss, among the players still in, by wins.

    Unlike a fixed-length Swiss the event must go on until one player is left, so when
    nothing else is possible (say the last two have met) a rematch or a second bye is
    allowed, as rarely as possible. A bye is a win without play. Draws, if the game has
    them, count as neither win nor loss.

    State is rebuilt by creating the object again and applying the stored :attr:`log`
    events in order (:meth:`apply`); the byes are recorded by the engine itself.
    """

    def __init__(self, players: Sequence[Player], max_losses: int) -> None:
        field = list(players)
        check_players(field)
        if max_losses < 1:
            raise IllegalAction("bad_max_losses", max_losses=max_losses)
        self.players: tuple[Player, ...] = tuple(field)
        self.max_losses = max_losses
        self.results: list[Result] = []
        self.log: list[dict[str, Any]] = []
        self._out_round: dict[Player, int] = {}
        self._round = 0
        self._pairs: list[Pair] = []
        self._advance()

    @property
    def round(self) -> int:
        """The current round (1-based)."""
        return self._round

    @property
    def pairings(self) -> list[Pair]:
        """The current round's pairs, byes included."""
        return list(self._pairs)

    @property
    def pending(self) -> list[Pair]:
        """The current round's pairs still to be played."""
        decided = {frozenset(r.players) for r in self.results if r.round == self._round}
        return [
            pair
            for pair in self._pairs
            if frozenset(p for p in pair if p is not None) not in decided
        ]

    @property
    def active(self) -> list[Player]:
        """Players still in, in seeding order."""
        return [p for p in self.players if p not in self._out_round]

    @property
    def finished(self) -> bool:
        return not self.pending and len(self.active) <= 1

    @property
    def champion(self) -> Player | None:
        return self.active[0] if self.finished and self.active else None

    def out_round(self, player: Player) -> int | None:
        """The round in which the player went out (None while still in)."""
        return self._out_round.get(player)

    def wins(self, player: Player) -> int:
        return sum(r.outcome(player) == "win" for r in self.results if player in r.players)

    def losses(self, player: Player) -> int:
        return sum(r.outcome(player) == "loss" for r in self.results if player in r.players)

    def placings(self) -> dict[Player, int]:
        """Places of the players who are out (and of the champion once finished): a later
        exit ranks higher, then more wins; equal on both share a place."""
        key = {p: (-self._out_round[p], -self.wins(p)) for p in self._out_round}
        if self.champion is not None:
            key[self.champion] = (-(self._round + 1), 0)
        ranked = sorted(key.values())
        offset = len(self.active) - (self.champion is not None)
        return {p: offset + ranked.index(k) + 1 for p, k in key.items()}

    def record(
        self,
        a: Player,
        b: Player,
        winner: Player | None,
        *,
        score: tuple[int, int] | None = None,
        forfeit: bool = False,
    ) -> Result:
        """Record the result of a pending match of the current round."""
        if not any(frozenset(pair) == frozenset((a, b)) for pair in self.pending):
            raise IllegalAction("not_a_pending_match", a=a, b=b, round=self._round)
        result = Result(a, b, winner, score, forfeit, self._round)
        self._store(result)
        self.log.append({"type": "result", **result.to_dict()})
        self._advance()
        return result

    def withdraw(self, player: Player) -> None:
        """The player leaves: out this round; a pending match of theirs is a forfeit loss."""
        if player not in self.players:
            raise IllegalAction("unknown_player", player=player)
        if player in self._out_round:
            raise IllegalAction("already_out", player=player)
        self.log.append({"type": "withdraw", "player": player})
        self._out_round[player] = self._round
        for a, b in self.pending:
            if player in (a, b) and b is not None:
                self._store(Result(a, b, b if player == a else a, forfeit=True, round=self._round))
        self._advance()

    def apply(self, event: Mapping[str, Any]) -> None:
        """Apply one stored :attr:`log` event."""
        if event.get("type") == "result":
            result = Result.from_dict(event)
            self.record(
                result.a, result.b, result.winner, score=result.score, forfeit=result.forfeit
            )
        elif event.get("type") == "withdraw":
            self.withdraw(event["player"])
        else:
            raise IllegalAction("unknown_event", type=event.get("type"))

    def _store(self, result: Result) -> None:
        self.results.append(result)
        for p in result.players:
            if p not in self._out_round and self.losses(p) >= self.max_losses:
                self._out_round[p] = self._round

    def _advance(self) -> None:
        """Pair the next round once the current one is complete and two or more are in."""
        while not self.pending and len(self.active) > 1:
            self._round += 1
            self._pairs = pair_round(
                swiss_inputs(self.active, self.results).scores,
                [frozenset(r.players) for r in self.results if not r.is_bye],
                [r.a for r in self.results if r.is_bye],
                allow_repeats=True,
            )
            for a, b in self._pairs:
                if b is None:
                    self._store(Result(a, round=self._round))
