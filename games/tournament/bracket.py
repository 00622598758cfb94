"""The shared model of elimination brackets, driven by results.

A bracket is a fixed list of matches with stable ids ("W1-1", "L2-3", "3P", "GF", "GF2").
Each match has two sources: a player, None (a bye), :data:`OPEN` (a first-round place a
knocked-out player may re-enter) or a :class:`Ref` to the winner or loser of an earlier
match. Everything else (who plays whom, walkovers, who is out, placings) is derived from
the events applied so far, so the bot rebuilds a bracket by creating it again with the
same builder arguments and applying the stored events in order::

    bracket = single_elimination(seeds, third_place=True)
    for event in stored_events:          # JSON dicts taken from bracket.log
        bracket.apply(event)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from games.common.errors import IllegalAction
from games.tournament.results import Pair, Player


@dataclass(frozen=True)
class Ref:
    """A slot filled later by the winner or the loser of another match."""

    kind: Literal["winner", "loser"]
    match: str

    def __str__(self) -> str:
        return f"{self.kind} of {self.match}"


class _Open:
    def __repr__(self) -> str:
        return "OPEN"


OPEN = _Open()
"""A first-round place left open for re-entry; it becomes a bye when entries close."""

Slot: TypeAlias = Player | None | Ref | _Open
Status: TypeAlias = Literal["waiting", "ready", "done", "walkover", "void"]


@dataclass(frozen=True)
class MatchSpec:
    """The fixed shape of a match.

    ``winner_place``/``loser_place``: the final place of a player who wins/loses here and
    plays no further match. ``reset_of``: this match is a grand-final reset, played only
    when the second-slot player of that match won it.
    """

    id: str
    section: str
    round: int
    sources: tuple[Slot, Slot]
    winner_place: int | None = None
    loser_place: int | None = None
    reset_of: str | None = None


@dataclass(frozen=True)
class MatchView:
    """A match as it stands.

    ``slots`` hold players, None for a bye, or the still-unresolved :class:`Ref` or
    :data:`OPEN`. ``status``: ``waiting`` (a slot is unresolved), ``ready`` (to be played),
    ``done`` (decided by a result or a forfeit), ``walkover`` (a bye advanced the player),
    ``void`` (nothing to play: two byes, or a reset that was not needed).
    """

    id: str
    section: str
    round: int
    slots: tuple[Slot, Slot]
    status: Status
    winner: Player | None = None
    loser: Player | None = None
    forfeit: bool = False

    @property
    def unfilled(self) -> tuple[bool, bool]:
        """Which of the two places hold no player yet: one still to come, or a bye."""
        first, second = (_player_or_bye(slot) is None for slot in self.slots)
        return first, second


_SETTLED = ("done", "walkover", "void")


def _player_or_bye(slot: Slot) -> Player | None:
    return None if isinstance(slot, Ref | _Open) else slot


class Bracket:
    """An elimination bracket; build it with the format functions, not directly."""

    def __init__(
        self,
        kind: str,
        players: Sequence[Player],
        specs: Sequence[MatchSpec],
        *,
        reentry: bool = False,
    ) -> None:
        self.kind = kind
        self.players: tuple[Player, ...] = tuple(players)
        self.reentry = reentry
        self._specs = {spec.id: spec for spec in specs}
        self._results: dict[str, tuple[Player, bool]] = {}
        self._out: dict[Player, str] = {}
        self._entries: dict[tuple[str, int], Player] = {}
        self._reentered: dict[Player, str] = {}
        self._closed = not reentry
        self.log: list[dict[str, Any]] = []
        self._cache: dict[str, MatchView] | None = None

    # -- reading -------------------------------------------------------------------------

    @property
    def matches(self) -> list[MatchView]:
        return list(self._views().values())

    def match(self, match_id: str) -> MatchView:
        views = self._views()
        if match_id not in views:
            raise IllegalAction("unknown_match", match=match_id)
        return views[match_id]

    def feeders(self, match_id: str) -> list[str]:
        """The matches whose winner or loser takes a place in ``match_id``."""
        return [source.match for source in self._specs[match_id].sources
                if isinstance(source, Ref)]

    def fed_by(self, match_id: str) -> list[str]:
        """The matches whose places the winner or the loser of ``match_id`` takes, or that
        it decides whether they are played (a grand final's reset)."""
        return [spec.id for spec in self._specs.values() if spec.reset_of == match_id
                or any(isinstance(s, Ref) and s.match == match_id for s in spec.sources)]

    def winners_into(self, match_id: str) -> tuple[str | None, str | None]:
        """For each place of ``match_id``, the earlier match whose winner takes it; None for
        a place filled otherwise (a player, a bye, a loser dropping in). A grand-final
        reset's two players both come from the grand final."""
        spec = self._specs[match_id]
        if spec.reset_of is not None:
            return spec.reset_of, spec.reset_of
        first, second = (source.match if isinstance(source, Ref) and source.kind == "winner"
                         else None for source in spec.sources)
        return first, second

    def ready(self) -> list[MatchView]:
        """The matches that can be played now, in bracket order."""
        return [view for view in self._views().values() if view.status == "ready"]

    @property
    def first_round(self) -> list[Pair]:
        """Round one of the (winners') bracket; None marks a bye or an open place."""
        return [
            (_player_or_bye(view.slots[0]), _player_or_bye(view.slots[1]))
            for view in self._views().values()
            if view.section == "W" and view.round == 1
        ]

    @property
    def rounds(self) -> int:
        """The number of rounds of the (winners') bracket; its last round is the final."""
        return max(spec.round for spec in self._specs.values() if spec.section == "W")

    @property
    def finished(self) -> bool:
        return all(view.status in _SETTLED for view in self._views().values())

    @property
    def champion(self) -> Player | None:
        if not self.finished:
            return None
        return next((p for p, place in self.placings().items() if place == 1), None)

    def placings(self) -> dict[Player, int]:
        """Final places known so far (shared numbers for shared places, e.g. two 3rds).

        Disqualified players get no place.
        """
        views = self._views()
        superseded = {
            spec.reset_of
            for spec in self._specs.values()
            if spec.reset_of and views[spec.id].status != "void"
        }
        places: dict[Player, int] = {}
        for view in views.values():
            if view.status not in ("done", "walkover") or view.id in superseded:
                continue
            spec = self._specs[view.id]
            for player, place in ((view.winner, spec.winner_place), (view.loser, spec.loser_place)):
                if player is None or place is None or self._reentered.get(player) == view.id:
                    continue
                places[player] = place
        return {p: place for p, place in places.items() if self._out.get(p) != "disqualify"}

    def reentry_candidates(self) -> list[Player]:
        """Knocked-out players who may still re-enter an open first-round place."""
        if self._closed or not self._open_places():
            return []
        placed = self.placings()
        return [
            p
            for p in self.players
            if p in placed and p not in self._reentered and p not in self._out
        ]

    # -- events --------------------------------------------------------------------------

    def record(self, match_id: str, winner: Player, *, forfeit: bool = False) -> None:
        """Record who won a ready match (``forfeit``: won by "+" without play)."""
        view = self.match(match_id)
        if view.status in _SETTLED:
            raise IllegalAction("match_decided", match=match_id)
        if view.status == "waiting":
            raise IllegalAction("match_waiting", match=match_id)
        if winner is None or winner not in view.slots:
            raise IllegalAction("not_in_match", match=match_id, player=winner)
        self._results[match_id] = (winner, forfeit)
        self._changed({"type": "result", "match": match_id, "winner": winner, "forfeit": forfeit})

    def correctable(self, match_id: str) -> bool:
        """Whether a decided match's winner may still be changed: no later match was
        decided from it (each match its players go on to still waits for its other player,
        or has both and no result yet: the corrected winner or loser takes the place; a
        grand final that decides whether its reset is played is not). Whether such a match
        has begun (a move made in it) is for its players' side to judge."""
        views = self._views()
        return match_id in self._results and all(
            self._specs[fed].reset_of is None and views[fed].status in ("waiting", "ready")
            for fed in self.fed_by(match_id))

    def correct(self, match_id: str, winner: Player, *, forfeit: bool = False) -> None:
        """Change the winner of a decided match that is :meth:`correctable`."""
        if not self.correctable(match_id):
            raise IllegalAction("match_decided", match=match_id)
        if winner not in self.match(match_id).slots:
            raise IllegalAction("not_in_match", match=match_id, player=winner)
        self._results[match_id] = (winner, forfeit)
        self._changed({"type": "correct", "match": match_id, "winner": winner,
                       "forfeit": forfeit})

    def withdraw(self, player: Player) -> None:
        """The player leaves: every match of theirs still to play is lost by forfeit."""
        self._remove(player, "withdraw")

    def disqualify(self, player: Player) -> None:
        """Like :meth:`withdraw`, and the player gets no place (played results cannot be
        annulled in a bracket: the opponents they beat are already out)."""
        self._remove(player, "disqualify")

    def reenter(self, player: Player, match_id: str | None = None) -> str:
        """Put a knocked-out player into an open first-round place; returns its match id.

        Each player may re-enter once. Without ``match_id`` the open place whose path meets
        the match the player lost in as late as it can is taken (they do not meet the player
        who knocked them out at once); of those, the one facing the highest seed.
        """
        if not self.reentry:
            raise IllegalAction("reentry_not_allowed")
        if self._closed:
            raise IllegalAction("entries_closed")
        if player not in self.reentry_candidates():
            raise IllegalAction("cannot_reenter", player=player)
        places = [place for place in self._open_places() if match_id in (None, place[0])]
        if not places:
            raise IllegalAction("no_open_place", match=match_id)
        lost_in = next(
            view.id
            for view in self._views().values()
            if view.loser == player and self._specs[view.id].loser_place is not None
        )
        place = max(places, key=lambda place: self._meeting_round(place[0], lost_in))
        self._entries[place] = player
        self._reentered[player] = lost_in
        self._changed({"type": "reenter", "player": player, "match": place[0]})
        return place[0]

    def _meeting_round(self, first: str, second: str) -> int:
        """The round of the first match the winners of ``first`` and ``second`` would both
        reach (how late their players could meet); past the last round when none."""
        above = {ref.match: spec.id for spec in self._specs.values() for ref in spec.sources
                 if isinstance(ref, Ref) and ref.kind == "winner"}

        def path(match: str | None) -> list[str]:
            found = []
            while match is not None:
                found.append(match)
                match = above.get(match)
            return found
        reached = set(path(second))
        common = next((match for match in path(first) if match in reached), None)
        return self._specs[common].round if common else len(self._specs) + 1

    def close_entries(self) -> None:
        """No more re-entries: the open places become byes."""
        if self._closed:
            raise IllegalAction("entries_closed")
        self._closed = True
        self._changed({"type": "close_entries"})

    def apply(self, event: Mapping[str, Any]) -> None:
        """Apply one event from :attr:`log` (as stored by the bot)."""
        kind = event.get("type")
        if kind == "result":
            self.record(event["match"], event["winner"], forfeit=bool(event.get("forfeit", False)))
        elif kind == "correct":
            self.correct(event["match"], event["winner"], forfeit=bool(event.get("forfeit")))
        elif kind in ("withdraw", "disqualify"):
            self._remove(event["player"], kind)
        elif kind == "reenter":
            self.reenter(event["player"], event.get("match"))
        elif kind == "close_entries":
            self.close_entries()
        else:
            raise IllegalAction("unknown_event", type=kind)

    # -- internals -----------------------------------------------------------------------

    def _remove(self, player: Player, how: str) -> None:
        if player not in self.players:
            raise IllegalAction("unknown_player", player=player)
        if self._out.get(player) in (how, "disqualify"):
            raise IllegalAction("already_out", player=player)
        self._out[player] = how
        self._changed({"type": how, "player": player})

    def _changed(self, event: dict[str, Any]) -> None:
        self.log.append(event)
        self._cache = None

    def _open_places(self) -> list[tuple[str, int]]:
        return [
            (spec.id, i)
            for spec in self._specs.values()
            for i, source in enumerate(spec.sources)
            if source is OPEN and (spec.id, i) not in self._entries
        ]

    def _views(self) -> dict[str, MatchView]:
        if self._cache is None:
            views: dict[str, MatchView] = {}
            for spec in self._specs.values():
                views[spec.id] = self._resolve(spec, views)
            self._cache = views
        return self._cache

    def _slot(self, spec: MatchSpec, index: int, views: Mapping[str, MatchView]) -> Slot:
        source = spec.sources[index]
        if source is OPEN:
            entered = self._entries.get((spec.id, index))
            if entered is not None:
                return entered
            return None if self._closed else OPEN
        if isinstance(source, Ref):
            earlier = views[source.match]
            if earlier.status not in _SETTLED:
                return source
            return earlier.winner if source.kind == "winner" else earlier.loser
        return source

    def _resolve(self, spec: MatchSpec, views: Mapping[str, MatchView]) -> MatchView:
        slots = (self._slot(spec, 0, views), self._slot(spec, 1, views))

        def view(status: Status, winner: Player | None = None, forfeit: bool = False) -> MatchView:
            loser = None
            if winner is not None:
                loser = slots[1] if winner == slots[0] else slots[0]
            return MatchView(
                spec.id, spec.section, spec.round, slots, status, winner, loser, forfeit
            )

        if spec.reset_of is not None:
            first = views[spec.reset_of]
            if first.status not in _SETTLED:
                return view("waiting")
            if first.winner == first.slots[0]:
                return view("void")
        if any(isinstance(s, Ref | _Open) for s in slots):
            return view("waiting")
        a, b = slots
        if a is None or b is None:
            return (
                view("void") if a is None and b is None else view("walkover", a if b is None else b)
            )
        if spec.id in self._results:
            winner, forfeit = self._results[spec.id]
            return view("done", winner, forfeit)
        if a in self._out or b in self._out:
            return view("done", b if self._left_first(a, b) == a else a, forfeit=True)
        return view("ready")

    def _left_first(self, a: Player, b: Player) -> Player:
        """Of two players one or both of whom left, the one who left first: they lost the
        match between them, whatever the other does later (a finalist who withdraws does
        not hand the semi-final back to the opponent who had left before)."""
        if b not in self._out:
            return a
        if a not in self._out:
            return b
        order = list(self._out)  # in the order they left
        return a if order.index(a) < order.index(b) else b
