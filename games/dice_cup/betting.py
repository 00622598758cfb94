"""The final: a series of three-dice betting hands played with chips.

How the rules read where the seed and SPEC section 3 leave room:

* Every hand starts with an ante from both players; the final ends when a player has
  ``hands_to_win`` hand wins or, at the start of a hand, a player cannot post the ante.
* A betting round opens once both players rolled its die (in any order). The first to act
  is the higher die in round 1; later, the last raiser of the previous betting round, else
  the higher dice total so far. On a tie player 0 (the higher seed) reports a ``/try``:
  success → player 0 acts first, failure → player 1.
* ``raise`` carries ``amount``: how much above the opponent's stake the raiser's stake goes
  (at least 1). A ``call`` may carry the ``amount`` it means to put in (a player typing
  what the Call button shows, «колл 3»): refused with ``wrong_call`` unless it is what is
  owed. No stake may exceed what the opponent could match, so a call is always
  affordable; ``allin`` puts in as much as that allows (a raise if it goes above the
  opponent's stake, otherwise a call). ``bet`` (the poker word for a first bet, with its
  ``amount``) is a raise while nothing is owed; while chips are owed it is refused with
  ``bet_while_owed`` and what is owed, so a player who meant a call is not taken as raising
  on top of it. When a player has no chips behind, the remaining dice are only rolled.
* Showdown: the better combination takes the pot. With ``payout="multiplier"`` the loser
  also pays ``loser_stake × (multiplier − 1)`` from their remaining chips, capped at what
  they have, where the multiplier is the WINNER's combination's. The winner's multiplier is
  used because the loser's can be ×0 ("nothing"), which would make the formula negative;
  the winner's is always at least ×1 since "nothing" never beats anything.
  ``payout="pot"`` ignores multipliers. Equal ranks (the same combination name) return
  each stake and nobody scores. A fold gives the pot and the hand win to the other player.

Contract (``games.common.match``): ``outcome`` is a win scored in hand wins, with
``how="ante"`` when the loser could not post the ante, ``"fold"`` when the deciding hand
was won by a fold and ``"played"`` when it was won at the showdown. ``legal_actions`` lists
every bet in full (each raise ``amount`` from 1 to the largest allowed) and two templates:
``{"type": "roll", "player": p}`` (any ``value`` 1–6) and ``{"type": "try", "player": 0}``
(any ``success``, the ``/try`` result the bot draws). Nothing is hidden: the dice are open.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from games.common.errors import IllegalAction
from games.common.match import Action, seats
from games.common.outcome import Outcome
from games.common.views import expecting_list, jsonable

from .actions import action_type, die_value, is_int, one_of, player_of, try_success
from .numbers import FullHouseRule, combination, rank

BET_ACTIONS = ("check", "call", "raise", "bet", "fold", "allin")
BETTING_ROUNDS = 3
Payout = Literal["multiplier", "pot"]


@dataclass(frozen=True)
class Bet:
    betting_round: int
    player: int
    action: str
    chips: int  # chips this action moved from the player's stack into the pot


@dataclass(frozen=True)
class HandRecord:
    """A finished hand; pairs are indexed by player."""

    number: int
    dice: tuple[tuple[int, ...], tuple[int, ...]]
    bets: tuple[Bet, ...]
    stakes: tuple[int, int]  # what each put in, ante included
    outcome: Literal["fold", "showdown", "split"]
    winner: int | None  # None for a split
    combinations: tuple[tuple[str, int], tuple[str, int]] | None  # None after a fold
    extra: int  # chips the loser paid on top of the pot (multiplier payout)
    chips: tuple[int, int]  # stacks after the hand


class BettingFinal:
    """Replayable final; see the module docstring for the rules as implemented.

    Actions: ``{"type": "roll", "player": p, "value": v}``,
    ``{"type": "try", "player": 0, "success": bool}``,
    ``{"type": "bet", "player": p, "action": "check" | "call" | "raise" | "bet" | "fold" |
    "allin", "amount": n}`` (``amount`` for raise and bet; a call may state it too).
    """

    def __init__(
        self,
        chips: int = 20,
        ante: int = 1,
        hands_to_win: int = 3,
        payout: Payout = "multiplier",
        full_house: FullHouseRule = "higher",
    ) -> None:
        if not (is_int(chips) and is_int(ante) and 1 <= ante <= chips):
            raise ValueError("need 1 <= ante <= chips")
        if hands_to_win < 1:
            raise ValueError("hands_to_win must be at least 1")
        if payout not in ("multiplier", "pot"):
            raise ValueError(f"payout must be 'multiplier' or 'pot', not {payout!r}")
        combination((1, 1, 2), full_house)  # rejects an unknown full_house rule now
        self._ante = ante
        self._hands_to_win = hands_to_win
        self._payout = payout
        self._full_house: FullHouseRule = full_house
        self._chips = [chips, chips]
        self._stakes = [0, 0]
        self._wins = [0, 0]
        self._hands: list[HandRecord] = []
        self._hand = 0
        self._finished = False
        self._winner: int | None = None
        self._end_reason: Literal["hands", "chips"] | None = None
        # Per-hand state, (re)set by _start_hand and _begin_betting_round.
        self._dice: tuple[list[int], list[int]] = ([], [])
        self._bets: list[Bet] = []
        self._betting_round = 1
        self._previous_raiser: int | None = None
        self._phase: Literal["roll", "try", "bet"] = "roll"
        self._actor: int | None = None
        self._round_raiser: int | None = None
        self._checked = False
        self._start_hand()

    # -- what the bot renders ------------------------------------------------------------

    @property
    def hand(self) -> int:
        """Number of the hand being played (the last one once finished)."""
        return self._hand

    def final_scores(self) -> tuple[tuple[int, int], ...] | None:
        """Hands won, the winner's first: at most ``hands_to_win``, fewer when the other
        player could not post the ante."""
        return tuple((won, lost) for won in range(1, self._hands_to_win + 1)
                     for lost in range(won))

    @property
    def betting_round(self) -> int:
        """1–3 within the current hand."""
        return self._betting_round

    @property
    def chips(self) -> tuple[int, int]:
        """Chips behind (not in the pot)."""
        return self._chips[0], self._chips[1]

    @property
    def stakes(self) -> tuple[int, int]:
        """Chips each player has put into the current pot, ante included."""
        return self._stakes[0], self._stakes[1]

    @property
    def pot(self) -> int:
        return self._stakes[0] + self._stakes[1]

    @property
    def wins(self) -> tuple[int, int]:
        return self._wins[0], self._wins[1]

    @property
    def dice(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Open dice of the current hand."""
        return tuple(self._dice[0]), tuple(self._dice[1])

    @property
    def bets(self) -> tuple[Bet, ...]:
        """Betting actions of the current hand."""
        return tuple(self._bets)

    @property
    def hands(self) -> tuple[HandRecord, ...]:
        return tuple(self._hands)

    @property
    def to_act(self) -> int | None:
        """The player who must bet now, None outside betting."""
        return None if self._finished or self._phase != "bet" else self._actor

    @property
    def to_call(self) -> int:
        """Chips the player to act must add to call (0: they may check)."""
        actor = self.to_act
        return 0 if actor is None else self._stakes[1 - actor] - self._stakes[actor]

    @property
    def raise_limits(self) -> tuple[int, int] | None:
        """Smallest and largest ``amount`` for a raise now, None if no raise is possible."""
        actor = self.to_act
        if actor is None:
            return None
        room = self._cap(actor) - self._stakes[1 - actor]
        return (1, room) if room >= 1 else None

    @property
    def legal_bets(self) -> tuple[str, ...]:
        """Betting actions open to :attr:`to_act` (empty outside betting)."""
        if self.to_act is None:
            return ()
        owed = "check" if self.to_call == 0 else "call"
        raises = ("raise",) if self.raise_limits else ()
        return (owed, *raises, "allin", "fold")

    @property
    def expecting(self) -> list[tuple[int, str]]:
        if self._finished:
            return []
        if self._phase == "roll":
            return [(p, "roll") for p in (0, 1) if len(self._dice[p]) < self._betting_round]
        if self._phase == "try":
            return [(0, "try")]
        actor = self.to_act
        return [] if actor is None else [(actor, "bet")]

    @property
    def finished(self) -> bool:
        return self._finished

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def draw(self) -> bool:
        return False

    @property
    def end_reason(self) -> Literal["hands", "chips"] | None:
        """Why the final ended: enough hand wins, or the loser could not post the ante."""
        return self._end_reason

    @property
    def outcome(self) -> Outcome | None:
        if self._winner is None:
            return None
        if self._end_reason == "chips":
            how = "ante"
        else:
            how = "fold" if self._hands[-1].outcome == "fold" else "played"
        return Outcome.win(self._winner, self.wins, how)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """What ``apply`` accepts now; roll and try are templates (see the module docstring)."""
        asked = seats(seat)
        if self._finished:
            return []
        if self._phase == "roll":
            due = [p for p in asked if len(self._dice[p]) < self._betting_round]
            return [{"type": "roll", "player": p} for p in due]
        if self._phase == "try":
            return [{"type": "try", "player": 0}] if 0 in asked else []
        actor = self.to_act
        return self._bet_actions(actor) if actor is not None and actor in asked else []

    def _bet_actions(self, actor: int) -> list[Action]:
        def bet(kind: str, **extra: int) -> Action:
            return {"type": "bet", "player": actor, "action": kind, **extra}

        limits = self.raise_limits
        raises = [] if limits is None else range(limits[0], limits[1] + 1)
        return [
            bet("check" if self.to_call == 0 else "call"),
            *(bet("raise", amount=amount) for amount in raises),
            bet("allin"),
            bet("fold"),
        ]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The public state; every seat sees the same (the dice are open)."""
        seats(seat)
        return {
            "hand": self._hand,
            "betting_round": self._betting_round,
            "chips": list(self.chips),
            "stakes": list(self.stakes),
            "pot": self.pot,
            "wins": list(self.wins),
            "dice": jsonable(self.dice),
            "bets": jsonable(self.bets),
            "hands": jsonable(self.hands),
            "to_act": self.to_act,
            "to_call": self.to_call,
            "raise_limits": jsonable(self.raise_limits),
            "legal_bets": list(self.legal_bets),
            "expecting": expecting_list(self.expecting),
            "finished": self._finished,
            "end_reason": self._end_reason,
            "outcome": jsonable(self.outcome),
        }

    # -- actions -------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply one action or raise :class:`IllegalAction` leaving the state unchanged."""
        kind = action_type(action, ("roll", "try", "bet"))
        player = player_of(action)
        if self._finished:
            raise IllegalAction("match_over")
        if kind == "roll":
            self._on_roll(player, die_value(action))
        elif kind == "try":
            self._on_try(player, try_success(action))
        else:
            self._on_bet(player, action)

    def _on_roll(self, player: int, value: int) -> None:
        if self._phase != "roll" or len(self._dice[player]) >= self._betting_round:
            raise IllegalAction("already_rolled")
        self._dice[player].append(value)
        if len(self._dice[1 - player]) == self._betting_round:
            self._open_betting()

    def _on_try(self, player: int, success: bool) -> None:
        if self._phase != "try":
            raise IllegalAction("not_in_tiebreak")
        if player != 0:
            raise IllegalAction("not_your_turn", turn=0)
        self._actor = 0 if success else 1
        self._phase = "bet"

    def _on_bet(self, player: int, action: Action) -> None:
        kind = one_of(action, "action", BET_ACTIONS, "bad_bet")
        if self._phase == "roll":
            raise IllegalAction("roll_first")
        if self._phase == "try":
            raise IllegalAction("try_first")
        if player != self._actor:
            raise IllegalAction("not_your_turn", turn=self._actor)
        other = 1 - player
        owed = self._stakes[other] - self._stakes[player]
        if kind == "check" and owed > 0:
            raise IllegalAction("cannot_check", to_call=owed)
        if kind == "call" and owed == 0:
            raise IllegalAction("nothing_to_call")
        if kind == "call" and action.get("amount", owed) != owed:
            raise IllegalAction("wrong_call", amount=action["amount"], to_call=owed)
        if kind == "bet" and owed > 0:
            raise IllegalAction("bet_while_owed", to_call=owed)
        kind = "raise" if kind == "bet" else kind
        if kind == "fold":
            self._bets.append(Bet(self._betting_round, player, kind, 0))
            self._end_hand("fold", other)
            return
        target = self._target_stake(kind, player, action)
        self._bets.append(Bet(self._betting_round, player, kind, target - self._stakes[player]))
        self._chips[player] -= target - self._stakes[player]
        self._stakes[player] = target
        if target > self._stakes[other]:
            self._round_raiser = player
            self._actor = other
        elif kind == "check" and not self._checked:
            self._checked = True
            self._actor = other
        else:
            self._close_betting_round()

    def _target_stake(self, kind: str, player: int, action: Action) -> int:
        """The player's stake after a check, call, raise or all-in; validates the raise."""
        facing = self._stakes[1 - player]
        if kind in ("check", "call"):
            return facing
        if kind == "allin":
            return self._cap(player)
        amount = action.get("amount")
        room = self._cap(player) - facing
        if room < 1:
            raise IllegalAction("cannot_raise")
        if not is_int(amount) or not 1 <= amount <= room:
            raise IllegalAction("bad_amount", amount=amount, min=1, max=room)
        return facing + amount

    # -- flow ----------------------------------------------------------------------------

    def _cap(self, player: int) -> int:
        """The highest stake ``player`` may reach: all they have, but no more than the
        opponent could match."""
        return min(self._chips[p] + self._stakes[p] for p in (player, 1 - player))

    def _start_hand(self) -> None:
        broke = [p for p in (0, 1) if self._chips[p] < self._ante]
        if broke:
            self._finish(1 - broke[0], "chips")
            return
        self._hand += 1
        for p in (0, 1):
            self._chips[p] -= self._ante
            self._stakes[p] = self._ante
        self._dice = ([], [])
        self._bets = []
        self._betting_round = 1
        self._previous_raiser = None
        self._begin_betting_round()

    def _begin_betting_round(self) -> None:
        self._phase = "roll"
        self._actor = None
        self._round_raiser = None
        self._checked = False

    def _open_betting(self) -> None:
        if 0 in self._chips:
            self._close_betting_round()  # someone is all-in: the dice are only rolled
            return
        if self._previous_raiser is not None:
            self._actor = self._previous_raiser
            self._phase = "bet"
            return
        totals = [sum(d) for d in self._dice]
        if totals[0] == totals[1]:
            self._phase = "try"
        else:
            self._actor = int(totals[1] > totals[0])
            self._phase = "bet"

    def _close_betting_round(self) -> None:
        if self._betting_round == BETTING_ROUNDS:
            self._showdown()
            return
        self._previous_raiser = self._round_raiser
        self._betting_round += 1
        self._begin_betting_round()

    def _showdown(self) -> None:
        combos = (
            combination(self._dice[0], self._full_house),
            combination(self._dice[1], self._full_house),
        )
        ranks = (rank(combos[0][0]), rank(combos[1][0]))
        if ranks[0] == ranks[1]:
            self._end_hand("split", None, combos)
            return
        winner = int(ranks[1] < ranks[0])
        loser = 1 - winner
        extra = 0
        if self._payout == "multiplier":
            extra = min(self._chips[loser], self._stakes[loser] * (combos[winner][1] - 1))
        self._end_hand("showdown", winner, combos, extra)

    def _end_hand(
        self,
        outcome: Literal["fold", "showdown", "split"],
        winner: int | None,
        combos: tuple[tuple[str, int], tuple[str, int]] | None = None,
        extra: int = 0,
    ) -> None:
        if winner is None:
            for p in (0, 1):
                self._chips[p] += self._stakes[p]
        else:
            self._chips[winner] += self.pot + extra
            self._chips[1 - winner] -= extra
            self._wins[winner] += 1
        self._hands.append(
            HandRecord(
                number=self._hand,
                dice=self.dice,
                bets=self.bets,
                stakes=self.stakes,
                outcome=outcome,
                winner=winner,
                combinations=combos,
                extra=extra,
                chips=self.chips,
            )
        )
        self._stakes = [0, 0]
        if winner is not None and self._wins[winner] >= self._hands_to_win:
            self._finish(winner, "hands")
        else:
            self._start_hand()

    def _finish(self, winner: int, reason: Literal["hands", "chips"]) -> None:
        self._finished = True
        self._winner = winner
        self._end_reason = reason
