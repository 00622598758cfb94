"""A backgammon match played on a real board, with the bot keeping the protocol (the seed's
§8 and §11, ``docs/backgammon.md``): a replayable engine of the engine contract
(``games/common/match.py``) wrapping :class:`~games.backgammon.match.Match`.

Actions (``player`` is the acting seat, None for someone outside the match):

* ``{"type": "report", "player", "winner", "value", "cube", "how"}`` — the winner of a game
  reports it: ``value`` single|gammon|backgammon, ``cube`` 1, 2 … 64, ``how``
  played|resigned|passed (a passed double scores the cube, never a gammon);
* ``{"type": "final", "player", "score": [a, b]}`` — the final score in one step (seat 0's
  first): a template, any reachable final at or above the running score;
* ``{"type": "confirm" | "dispute", "player"}`` — the opponent checks the waiting report;
* ``{"type": "correct", "winner", "value", "cube", "how"}`` — an organiser settles the waiting
  (or disputed) report, or replaces the last confirmed game until the next one is confirmed;
* ``{"type": "penalty", "player", "kind", "cube"}`` — against ``player``: a ``warning`` is
  recorded, a ``point`` goes to the opponent, a ``game`` awards the opponent the current game
  (single × ``cube``);
* ``{"type": "forfeit", "winner"}`` — an organiser awards the match (a late start);
* ``{"type": "grace_over"}`` — the late-start grace has passed (the clock's event, logged so
  that a replay knows it): ``late`` and, while nothing is reported, ``silent``.

Refusal codes: not_in_match, match_over, bad_value, bad_how, bad_cube, crawford_cube,
dead_cube (a cube above 1, or a passed double, in a 1-point match), passed_gammon,
winner_reports, report_pending, already_reported, nothing_to_confirm, already_confirmed
(the last game's report is settled, no new one waits: ``game``, its number),
own_report, with_organisers, nothing_to_correct, bad_score, bad_penalty, point_while_pending
(a penalty point while a report waits: it is settled first, as the report was made against
the score before the point).
A backgammon match never ends in a draw; ``outcome.how`` is played, reported or forfeit.
"""

from __future__ import annotations

import copy
from typing import Any

from games.backgammon.match import CUBE_VALUES, MAX_CUBE, Match
from games.common.errors import IllegalAction
from games.common.match import seats
from games.common.outcome import Outcome

VALUES = {"single": 1, "gammon": 2, "backgammon": 3}
HOWS = ("played", "resigned", "passed")
PENALTIES = ("warning", "point", "game")


class BoardMatch:
    """The protocol of one match: confirmed games, the report waiting, penalties."""

    def __init__(self, length: int, crawford: bool = True) -> None:
        self.length, self.crawford_rule = length, crawford
        self.entries: list[dict[str, Any]] = []  # confirmed games and penalty points, in order
        self.penalties: list[dict[str, Any]] = []
        self.pending: dict[str, Any] | None = None
        self.disputed = False
        self.forfeit_winner: int | None = None
        self.final: list[int] | None = None
        self.late = False
        self.match = self._rebuild(self.entries)

    # --- the engine contract -------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.forfeit_winner is not None or self.final is not None or self.match.finished

    @property
    def winner(self) -> int | None:
        if self.forfeit_winner is not None:
            return self.forfeit_winner
        if self.final is not None:
            return 0 if self.final[0] > self.final[1] else 1
        return self.match.winner

    @property
    def score(self) -> tuple[int, int]:
        return (self.final[0], self.final[1]) if self.final else self.match.score

    @property
    def silent(self) -> bool:
        """Nothing has been reported in this match yet."""
        return not self.entries and self.pending is None

    @property
    def crawford(self) -> bool:
        """True while the game being played now is the Crawford game (no cube)."""
        return self.match.crawford

    @property
    def no_cube(self) -> bool:
        """True while the game being played now has no cube: the Crawford game, or any game
        of a 1-point match (its cube is dead: any win wins the match)."""
        return self.match.crawford or self.match.dead_cube

    @property
    def outcome(self) -> Outcome | None:
        if not self.finished:
            return None
        how = "forfeit" if self.forfeit_winner is not None else \
            "reported" if self.final is not None else "played"
        return Outcome.win(self.winner, self.score, how)

    def legal_actions(self, seat: int | None = None) -> list[dict[str, Any]]:
        """Reports a seat may make as the winner, or its confirm/dispute of a waiting report
        (``final`` is a template: any reachable score)."""
        if self.finished or self.disputed:
            return []
        found = []
        for player in seats(seat):
            if self.pending is not None:
                if self.pending["player"] != player:
                    found += [{"type": kind, "player": player} for kind in ("confirm", "dispute")]
                continue
            found += [game for game in self._reports(player) if self._fits(game)]
            found.append({"type": "final", "player": player})
        return found

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return {"length": self.length, "score": list(self.score), "crawford": self.crawford,
                "games": copy.deepcopy(self.entries), "pending": copy.deepcopy(self.pending),
                "disputed": self.disputed, "late": self.late, "penalties": copy.deepcopy(self.penalties),
                "outcome": self.outcome.to_dict() if self.outcome else None}

    def apply(self, action: dict[str, Any]) -> None:
        kind = action.get("type")
        if self.finished:
            raise IllegalAction("match_over")
        handler = getattr(self, f"_{kind}", None) if kind in _ACTIONS else None
        if handler is None:
            raise IllegalAction("unknown_action", kind=str(kind))
        handler(action)

    # --- actions ---------------------------------------------------------------------------

    def _report(self, action: dict[str, Any]) -> None:
        player = self._seat(action.get("player"))
        self._check_open()
        if self.pending is not None:
            raise IllegalAction("already_reported" if self.pending["player"] == player
                                else "report_pending")
        game = self._game(action)
        if game["winner"] != player:
            raise IllegalAction("winner_reports")
        self._check_game(game)
        self.pending = {"player": player, **game}

    def _final(self, action: dict[str, Any]) -> None:
        player = self._seat(action.get("player"))
        self._check_open()
        if self.pending is not None:
            raise IllegalAction("already_reported" if self.pending["player"] == player
                                else "report_pending")
        score = action.get("score")
        if not (isinstance(score, list | tuple) and len(score) == 2
                and Match.is_reachable_final(self.length, *score)
                and all(score[s] >= self.match.score[s] for s in (0, 1))):
            raise IllegalAction("bad_score", length=self.length)
        self.pending = {"player": player, "final": [score[0], score[1]]}

    def _confirm(self, action: dict[str, Any]) -> None:
        self._check_answer(action)
        self._settle(self.pending)

    def _dispute(self, action: dict[str, Any]) -> None:
        self._check_answer(action)
        self.disputed = True

    def _correct(self, action: dict[str, Any]) -> None:
        game = self._game(action)
        if self.pending is None:
            games = [i for i, entry in enumerate(self.entries) if entry["kind"] == "game"]
            if not games or games[-1] != len(self.entries) - 1:
                raise IllegalAction("nothing_to_correct")
            self._check_game(game, self._rebuild(self.entries[:-1]))
            self.entries[-1] = {"kind": "game", **game, "corrected": True}
            self.match = self._rebuild(self.entries)
            return
        self._check_game(game)
        self._settle({"player": None, **game, "corrected": True})

    def _penalty(self, action: dict[str, Any]) -> None:
        player = self._seat(action.get("player"))
        kind = action.get("kind")
        if kind not in PENALTIES:
            raise IllegalAction("bad_penalty")
        game = {"winner": 1 - player, "value": "single", "cube": action.get("cube", 1),
                "how": "penalty"}
        if kind == "game":
            self._check_game(game)
        if kind == "point" and self.pending is not None:  # it would change the score the
            raise IllegalAction("point_while_pending")  # report was checked against
        self.penalties.append({"player": player, "kind": kind, "game": self.game_number})
        if kind == "point":
            self._add({"kind": "point", "winner": 1 - player})
        elif kind == "game":
            self.pending, self.disputed = None, False
            self._add({"kind": "game", **game})

    def _forfeit(self, action: dict[str, Any]) -> None:
        self.forfeit_winner = self._seat(action.get("winner"))

    def _grace_over(self, action: dict[str, Any]) -> None:
        self.late = True

    # --- helpers -----------------------------------------------------------------------------

    @property
    def game_number(self) -> int:
        """The number of the game being played now (1 for the first)."""
        return sum(entry["kind"] == "game" for entry in self.entries) + 1

    def _rebuild(self, entries: list[dict[str, Any]]) -> Match:
        match = Match(self.length, self.crawford_rule)
        for entry in entries:
            if entry["kind"] == "point":
                match.award(entry["winner"])
            else:
                match.record_game(entry["winner"], VALUES[entry["value"]], entry["cube"],
                                  passed=entry["how"] == "passed")
        return match

    def _add(self, entry: dict[str, Any]) -> None:
        self.entries.append(entry)
        self.match = self._rebuild(self.entries)

    def _settle(self, report: dict[str, Any]) -> None:
        self.pending, self.disputed = None, False
        if "final" in report:
            self.final = report["final"]
            return
        self._add({"kind": "game", **{k: v for k, v in report.items() if k != "player"}})

    @staticmethod
    def _seat(value: Any) -> int:
        if type(value) is not int or value not in (0, 1):
            raise IllegalAction("not_in_match")
        return value

    def _game(self, action: dict[str, Any]) -> dict[str, Any]:
        winner = self._seat(action.get("winner"))
        value, how, cube = action.get("value"), action.get("how", "played"), action.get("cube", 1)
        if value not in VALUES:
            raise IllegalAction("bad_value")
        if how not in HOWS:
            raise IllegalAction("bad_how")
        return {"winner": winner, "value": value, "cube": cube, "how": how}

    def _check_game(self, game: dict[str, Any], match: Match | None = None) -> None:
        match = match or self.match
        cube = game["cube"]
        if type(cube) is not int or cube not in CUBE_VALUES:
            raise IllegalAction("bad_cube", cube=str(cube))
        if (match.crawford or match.dead_cube) and (cube > 1 or game["how"] == "passed"):
            raise IllegalAction("dead_cube" if match.dead_cube else "crawford_cube")
        if game["how"] == "passed" and game["value"] != "single":
            raise IllegalAction("passed_gammon")
        if game["how"] == "passed" and cube == MAX_CUBE:
            raise IllegalAction("bad_cube", cube=str(cube))

    def _fits(self, game: dict[str, Any]) -> bool:
        try:
            self._check_game(game)
        except IllegalAction:
            return False
        return True

    def _check_answer(self, action: dict[str, Any]) -> None:
        player = self._seat(action.get("player"))
        if self.pending is None:
            if self.entries and self.entries[-1]["kind"] == "game":  # the last report, settled
                raise IllegalAction("already_confirmed", game=self.game_number - 1)
            raise IllegalAction("nothing_to_confirm")
        if self.pending["player"] == player:
            raise IllegalAction("own_report")
        self._check_open()

    def _check_open(self) -> None:
        """A disputed report waits for the organisers: the players report nothing more."""
        if self.disputed:
            raise IllegalAction("with_organisers")

    @staticmethod
    def _reports(player: int) -> list[dict[str, Any]]:
        return [{"type": "report", "player": player, "winner": player, "value": value,
                 "cube": cube, "how": how}
                for value in VALUES for cube in sorted(CUBE_VALUES) for how in HOWS]


_ACTIONS = ("report", "final", "confirm", "dispute", "correct", "penalty", "forfeit",
            "grace_over")
