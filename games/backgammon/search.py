"""The search behind :func:`games.backgammon.movegen.generate`, on one mutable board.

The board is the mover's, ``board[1..24]`` its points and ``board[25]`` its bar; a move to 0
or below bears a checker off. Opponent points are two bit masks (``blocked``: two or more
checkers; ``blots``: exactly one) and the mover's occupied points a third, so a die's legal
sources are found by walking set bits.
"""

from __future__ import annotations

from games.backgammon.keys import BAR, HITS_SHIFT, WEIGHT, Move


class Search:
    """The board being searched, changed in place by :meth:`move` and restored by :meth:`back`."""

    __slots__ = ("board", "blocked", "blots", "occupied", "outside", "path", "found", "best")

    def __init__(self, player: tuple[int, ...], blocked: int, blots: int) -> None:
        self.board = [0, *player]
        self.blocked = blocked
        self.blots = blots
        self.occupied = sum([2 << index for index, count in enumerate(player) if count])
        self.outside = sum(self.board[7:26])
        self.path: list[Move] = []
        self.found: dict[int, tuple[Move, ...]] = {}
        self.best = 0

    def sources(self, die: int, ceiling: int = BAR) -> list[int]:
        """Points a checker may legally leave with ``die`` (highest first)."""
        board = self.board
        occupied = self.occupied
        candidates = occupied & ((2 << ceiling) - 1)
        if board[BAR]:
            candidates &= 1 << BAR
        legal = []
        while candidates:
            source = candidates.bit_length() - 1
            candidates ^= 1 << source
            target = source - die
            if target > 0:
                if not (self.blocked >> target) & 1:
                    legal.append(source)
            elif not self.outside and (target == 0 or not occupied >> (source + 1)):
                legal.append(source)
        return legal

    def move(self, source: int, die: int, code: int, hits: int) -> tuple[int, int]:
        """Play one checker; returns the new (code, hits)."""
        board = self.board
        target = source - die
        board[source] -= 1
        if not board[source]:
            self.occupied ^= 1 << source
        hit = False
        if target > 0:
            if not board[target]:
                self.occupied |= 1 << target
                hit = bool((self.blots >> target) & 1) and not (hits >> target) & 1
                if hit:
                    hits |= 1 << target
            board[target] += 1
            if source >= 7 > target:
                self.outside -= 1
            code += WEIGHT[target]
        else:
            target = 0
        self.path.append((source, target, hit))
        return code - WEIGHT[source], hits

    def back(self) -> None:
        """Undo the newest :meth:`move`."""
        source, target, _ = self.path.pop()
        board = self.board
        if target:
            board[target] -= 1
            if not board[target]:
                self.occupied ^= 1 << target
            if source >= 7 > target:
                self.outside += 1
        if not board[source]:
            self.occupied |= 1 << source
        board[source] += 1

    def last(self, die: int, ceiling: int, code: int, hits: int, depth: int) -> None:
        """Record every play that ends with one more ``die``.

        The final move is not played on the board: its key is computed directly, which is
        where most of the search's time goes.
        """
        board = self.board
        occupied = self.occupied
        blocked = self.blocked
        blots = self.blots
        outside = self.outside
        candidates = occupied & ((2 << ceiling) - 1)
        if board[BAR]:
            candidates &= 1 << BAR
        found = None
        path = self.path
        while candidates:
            source = candidates.bit_length() - 1
            candidates ^= 1 << source
            target = source - die
            hit = False
            if target > 0:
                if (blocked >> target) & 1:
                    continue
                key = code - WEIGHT[source] + WEIGHT[target]
                if not board[target] and (blots >> target) & 1 and not (hits >> target) & 1:
                    hit = True
                    key |= (hits | (1 << target)) << HITS_SHIFT
                else:
                    key |= hits << HITS_SHIFT
            elif outside or (target < 0 and occupied >> (source + 1)):
                continue
            else:
                target = 0
                key = (code - WEIGHT[source]) | (hits << HITS_SHIFT)
            if found is None:
                if depth + 1 < self.best:
                    return
                if depth + 1 > self.best:
                    self.best = depth + 1
                    self.found = {}
                found = self.found
            if key not in found:
                found[key] = (*path, (source, target, hit))
        if found is None:
            self.record(depth, code, hits)

    def record(self, depth: int, code: int, hits: int) -> None:
        """Keep the current path if it uses as many dice as the best play so far."""
        if depth < self.best:
            return
        if depth > self.best:
            self.best = depth
            self.found = {}
        key = code | (hits << HITS_SHIFT)
        if key not in self.found:
            self.found[key] = tuple(self.path)

    def doubles(self, die: int, depth: int, ceiling: int, code: int, hits: int) -> None:
        """Up to four moves of ``die``, each from a point no higher than ``ceiling``."""
        if depth == 3:
            self.last(die, ceiling, code, hits, depth)
            return
        sources = self.sources(die, ceiling)
        if not sources:
            self.record(depth, code, hits)
            return
        for source in sources:
            next_code, next_hits = self.move(source, die, code, hits)
            self.doubles(die, depth + 1, source, next_code, next_hits)
            self.back()

    def non_doubles(self, high: int, low: int, code: int) -> None:
        """Both dice if possible, else the larger one if it can be played, else the smaller."""
        if not self.board[BAR] and self.outside >= 2:
            self._free(high, low, code)
            if self.found:
                return
        self._two_dice(high, low, code)
        with_high = set(self.found) if self.best == 1 else set()
        self._two_dice(low, high, code)
        if self.best == 1 and with_high:
            self.found = {key: self.found[key] for key in with_high}

    def _free(self, high: int, low: int, code: int) -> None:
        """Both dice when no checker is on the bar and none can be borne off.

        Then a move's legality never depends on the other die's move, so a play is a legal
        move of each die from the position as it is (two checkers, or two from one point),
        or one checker moving both dice through an open point. No board is changed.
        """
        board = self.board
        found = self.found
        highs = self._singles(high)
        lows = self._singles(low)
        for source1, target1, delta1, hit1 in highs:
            for source2, target2, delta2, hit2 in lows:
                if source1 == source2 and board[source1] < 2:
                    continue
                key = (code + delta1 + delta2) | ((hit1 | hit2) << HITS_SHIFT)
                if key not in found:
                    second_hits = bool(hit2) and not (hit1 and target1 == target2)
                    found[key] = ((source1, target1, bool(hit1)), (source2, target2, second_hits))
        for firsts, second in ((highs, low), (lows, high)):
            for source, middle, delta, hit in firsts:
                if board[middle]:
                    continue  # a checker already there: the pairs above cover it
                target = middle - second
                if target <= 0 or (self.blocked >> target) & 1:
                    continue
                hit2 = (self.blots >> target) & 1
                key = code + delta - WEIGHT[middle] + WEIGHT[target]
                key |= (hit | (hit2 << target)) << HITS_SHIFT
                if key not in found:
                    found[key] = ((source, middle, bool(hit)), (middle, target, bool(hit2)))
        if found:
            self.best = 2

    def _singles(self, die: int) -> list[tuple[int, int, int, int]]:
        """(source, target, key change, hit mask) of each move of ``die`` landing on the board
        (no checker is on the bar and none can bear off when this is used)."""
        singles = []
        blocked = self.blocked
        blots = self.blots
        candidates = self.occupied >> (die + 1) << (die + 1)
        while candidates:
            source = candidates.bit_length() - 1
            candidates ^= 1 << source
            target = source - die
            if not (blocked >> target) & 1:
                singles.append((source, target, WEIGHT[target] - WEIGHT[source],
                                blots & (1 << target)))
        return singles

    def _two_dice(self, first: int, second: int, code: int) -> None:
        """Every play of ``first`` then ``second``, moving checkers on the board."""
        for source in self.sources(first):
            code1, hits1 = self.move(source, first, code, 0)
            self.last(second, BAR, code1, hits1, 1)
            self.back()
        if self.best == 0:
            self.record(0, code, 0)
