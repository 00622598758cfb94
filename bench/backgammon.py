"""Time ``games.backgammon.legal_plays`` against GNU Backgammon's move generator.

    python -m bench.backgammon [--pairs N] [--seed S] [--repeat R]

Both generators get the same seeded (position, roll) pairs from random games (see
:func:`sample_pairs`); the output gives pairs per CPU second for each and their ratio. CPU
time (``time.process_time``) rather than wall time keeps the figures steady on a busy
machine. ``gnubg-nn`` (a development dependency) is needed for its half of the run.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from games.backgammon import Position, legal_plays
from games.backgammon.keys import decode_key
from games.backgammon.movegen import generate
from games.backgammon.plays import after

Pair = tuple[str, tuple[int, int]]


def sample_pairs(count: int, seed: int = 2026) -> list[Pair]:
    """``count`` (Position ID, roll) pairs met in seeded random games from the start.

    A quarter of the plays are chosen at random, which hits often (bar positions); the rest
    race (:func:`_racing`), so games reach the bear-off often.
    A finished game starts a new one.
    """
    rng = random.Random(seed)
    pairs: list[Pair] = []
    position = Position.start()
    while len(pairs) < count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        pairs.append((position.id, dice))
        found = generate(position.player, position.opponent, *dice)
        if rng.random() < 1 / 4:
            key = rng.choice(list(found))
        else:
            key = min(found, key=lambda candidate: _racing(candidate, rng))
        position = after(position, key)
        if not any(position.opponent):
            position = Position.start()
    return pairs


def _racing(key: int, rng: random.Random) -> tuple[int, int, float]:
    """Prefer plays that hit nothing, then the fewest pips left: games reach the bear-off."""
    side, hits = decode_key(key)
    pips = sum((index + 1) * count for index, count in enumerate(side))
    return hits.bit_count(), pips, rng.random()


def time_ours(pairs: list[Pair]) -> float:
    """CPU seconds of this process for ``legal_plays`` over every pair."""
    start = time.process_time()
    for position_id, dice in pairs:
        legal_plays(position_id, dice)
    return time.process_time() - start


def gnubg_timer() -> Callable[[list[Pair]], float] | None:
    """A timer for gnubg-nn's generator on the same input (an ID and a roll), or None."""
    try:
        import gnubg_nn
    except ImportError:
        return None

    def run(pairs: list[Pair]) -> float:
        start = time.process_time()
        for position_id, (die1, die2) in pairs:
            gnubg_nn.moves(gnubg_nn.board_from_position_id(position_id), die1, die2)
        return time.process_time() - start

    return run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.backgammon",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=10_000, help="pairs to time (default 10000)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3,
                        help="rounds, each on new pairs (seed, seed+1, ...); the fastest "
                             "round of each generator counts (default 3)")
    args = parser.parse_args(argv)
    if args.pairs < 1 or args.repeat < 1:
        parser.error("--pairs and --repeat must be at least 1")
    timer = gnubg_timer()
    ours: list[float] = []
    theirs: list[float] = []
    for round_ in range(args.repeat):
        pairs = sample_pairs(args.pairs, args.seed + round_)
        if round_ == 0:
            _describe(pairs, args.seed)
        ours.append(time_ours(pairs))
        if timer is not None:
            theirs.append(timer(pairs))
    print(f"games.backgammon.legal_plays  {args.pairs / min(ours):10.0f} pairs/s")
    if timer is None:
        print("gnubg-nn is not installed (pip install -e '.[dev]'): no comparison")
        return
    print(f"gnubg-nn moves                {args.pairs / min(theirs):10.0f} pairs/s")
    print(f"ours / gnubg-nn               {min(theirs) / min(ours):10.3f}")


def _describe(pairs: list[Pair], seed: int) -> None:
    positions = [Position.from_id(position_id) for position_id, _ in pairs]
    bar = sum(position.player[24] > 0 for position in positions)
    home = sum(not any(position.player[6:]) for position in positions)
    doubles = sum(die1 == die2 for _, (die1, die2) in pairs)
    print(f"{len(pairs)} pairs a round (first seed {seed}): {bar} with the roller on the bar, "
          f"{home} with all its checkers home, {doubles} doubles")


if __name__ == "__main__":
    main()
