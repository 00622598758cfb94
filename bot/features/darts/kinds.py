"""The two darts games as the chat sees them: the keypad's sectors, the engine, the board
lines and the statistics. Everything else (scoreboard, keypad, entry, legs, results) is one
mechanism in this package, parameterised by a :class:`DartsKind`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from bot.features.darts.opening import Opening
from bot.i18n import Markup, Translator
from games.darts.fincricket import MARK_SYMBOLS, NUMBERS, FinCricket, FinCricketMatch
from games.darts.shanghai import ELEMENT_LABELS, TARGETS, ShanghaiLeg, ShanghaiMatch


@dataclass(frozen=True)
class DartsKind:
    key: str
    sectors: tuple[int, ...]  # the keypad's numbered sectors, top to bottom
    board: Callable[[Translator, Any, tuple[str, str]], list[str]]
    leg_stats: Callable[[Translator, Any, int, str], str]
    match_stats: Callable[[Translator, Any, int, str], str]


def legs_needed(settings: dict[str, Any]) -> int:
    """A best of ``legs`` ends when a player has won more than half of them
    (``Game.winning_score``)."""
    return settings.get("legs", 1) // 2 + 1


def legs_score_problem(settings: dict[str, Any], won: int, lost: int
                       ) -> tuple[str, dict] | None:
    """The winner's legs are exactly :func:`legs_needed`, the loser's fewer
    (``Game.check_score``)."""
    needed = legs_needed(settings)
    if won == needed and 0 <= lost < needed:
        return None
    return "darts.error.bad_score", {"legs": settings.get("legs", 1), "needed": needed}


def _element(done: int, preview: int, index: int) -> str:
    if index < done:
        return "✅"
    return "🟡" if index < preview else "⬜"


def _target_line(target: str, done: int, preview: int) -> str:
    elements = " ".join(label + _element(done, preview, index)
                        for index, label in enumerate(ELEMENT_LABELS[target]))
    return f"{'Bull' if target == 'BULL' else target}: {elements}"


_TARGET_LINES = {(target, done, preview): _target_line(target, done, preview)
                 for target in TARGETS for done in range(4) for preview in range(4)}
"""Every line a target can have on the board, drawn once: a board looks its 14 lines up."""


def _shanghai_player(leg: ShanghaiLeg, player: int) -> list[str]:
    done = leg.progress(player)
    live = not leg.finished and leg.current == player
    preview = leg.preview_progress if live else done
    return [_TARGET_LINES[line] for line in zip(TARGETS, done, preview, strict=True)]


def shanghai_board(tr: Translator, leg: ShanghaiLeg, names: tuple[str, str]) -> list[str]:
    lines = []
    for player in (0, 1):
        lines.append(tr("darts.board_player", name=names[player]))
        lines.extend(_shanghai_player(leg, player))
    return lines


def _mark(count: int) -> str:
    return MARK_SYMBOLS[count] or "·"


def fincricket_board(tr: Translator, leg: FinCricket, names: tuple[str, str]) -> list[str]:
    scores = leg.scores
    lines = [tr("darts.fincricket_scores", a=names[0], b=names[1], sa=scores[0],
                sb=scores[1])]
    for sector in reversed(NUMBERS):
        if sector in leg.closed:
            lines.append(f"{sector}: 🔒")
        else:
            lines.append(f"{sector}: {_mark(leg.marks(0, sector))} | "
                         f"{_mark(leg.marks(1, sector))}")
    return lines


def _basic(tr: Translator, stats, name: str, kind: str = "") -> dict[str, Any]:
    """The name and the counted words (``kind`` ".fincricket" for its turns and marks)."""
    return {"name": name, "darts": Markup(tr("darts.n_darts", count=stats.darts)),
            "visits": Markup(tr(f"darts.n_visits{kind}", count=stats.visits)),
            "marks": Markup(tr(f"darts.n_marks{kind}", count=stats.marks))}


def shanghai_leg_stats(tr: Translator, leg: ShanghaiLeg, player: int, name: str) -> str:
    params = _basic(tr, leg.stats(player), name)
    closed = leg.visits_to_close(player)
    if closed is None:
        return tr("darts.shanghai_stats", **params)
    return tr("darts.shanghai_stats_closed", closed=closed, **params)


def shanghai_match_stats(tr: Translator, match: ShanghaiMatch, player: int, name: str) -> str:
    closes = [leg.visits_to_close(player) for leg in match.legs]
    closes = [str(n) for n in closes if n is not None]
    params = _basic(tr, match.stats(player), name)
    if not closes:
        return tr("darts.shanghai_stats", **params)
    return tr("darts.shanghai_stats_closed", closed=", ".join(closes), **params)


def _fincricket_stats(tr: Translator, stats, points: int, name: str) -> str:
    return tr("darts.fincricket_stats", mpr=tr.decimal(stats.per_visit),
              points=Markup(tr("darts.n_points", count=points)),
              **_basic(tr, stats, name, ".fincricket"))


def fincricket_leg_stats(tr: Translator, leg: FinCricket, player: int, name: str) -> str:
    return _fincricket_stats(tr, leg.stats(player), leg.scores[player], name)


def fincricket_match_stats(tr: Translator, match: FinCricketMatch, player: int,
                           name: str) -> str:
    points = sum(leg.scores[player] for leg in match.legs)
    return _fincricket_stats(tr, match.stats(player), points, name)


KINDS: dict[str, DartsKind] = {
    "shanghai": DartsKind("shanghai", (20, 19, 18, 17, 16, 15), shanghai_board,
                          shanghai_leg_stats, shanghai_match_stats),
    "fincricket": DartsKind("fincricket", tuple(reversed(NUMBERS)), fincricket_board,
                            fincricket_leg_stats, fincricket_match_stats),
}


def shanghai_engine(settings: dict[str, Any]) -> Opening:
    return Opening(partial(_shanghai, settings.get("legs", 3), settings.get("bull", "visit")))


def fincricket_engine(settings: dict[str, Any]) -> Opening:
    return Opening(partial(_fincricket, settings.get("legs", 1)))


def _shanghai(legs: int, bull: str, starter: int) -> ShanghaiMatch:
    """Leg 1 of a Shanghai match started by ``starter`` (a named function, not a closure:
    an engine state is pickled into the match's snapshots)."""
    return ShanghaiMatch(legs=legs, starter=starter, bull=bull)


def _fincricket(legs: int, starter: int) -> FinCricketMatch:
    return FinCricketMatch(legs=legs, starter=starter)
