"""Does an action cost more as a match gets longer?

    python -m bench.growth [--sizes 10,500,5000] [--samples 20]

One Shanghai match per size in the sandbox (the real bot, a real SQLite file), played with
typed all-miss visits (``miss miss miss``: 3 darts and the end of the visit, 4 logged
actions), legs that never end. Each match is first grown to its size (logged actions);
then visits are timed (warm: the state is cached) in turns, one in each match, so a change
of load on the machine falls on every size alike; the median and max per size are printed.
Last, the first visit after the cached state of the largest match is dropped (a cold start:
its snapshot is loaded and the log after it replayed).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
from pathlib import Path

from bench.games import GameBench, Table, board_buttons, live_matches, open_tables


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.growth", description=__doc__)
    parser.add_argument("--sizes", default="10,500,5000",
                        help="logged actions at which visits are timed (default 10,500,5000)")
    parser.add_argument("--samples", type=int, default=20, help="visits timed per size")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


async def _line(bench: GameBench, table: Table) -> str:
    """The next visit, typed by whoever's turn it is."""
    match = (await live_matches(bench, table))[0]
    state = await bench.app.services.matches.current(match)
    who = table.players[0] if match.players[state.current] == bench.world.user(
        table.players[0]).id else table.players[1]
    return f"{who}@{table.group}: miss miss miss"


async def _visit(bench: GameBench, table: Table, kind: str) -> None:
    await bench.run(kind, [await _line(bench, table)])


async def _logged(bench: GameBench, table: Table) -> int:
    match = (await live_matches(bench, table))[0]
    return len(await bench.app.services.repos.matches.actions(match.id))


async def measure(sizes: list[int], samples: int, seed: int = 1) -> GameBench:
    """Time ``samples`` visits at each size, in turns, and a cold start at the largest;
    the bench's samples are filed as ``at <size>`` and ``cold``."""
    with tempfile.TemporaryDirectory(prefix="bench-growth-") as folder:
        bench = GameBench(seed=seed, db_path=Path(folder) / "growth.sqlite3")
        await bench.start()
        try:
            await open_tables(bench, {"two": len(sizes)})
            for table, size in zip(bench.tables, sizes, strict=True):
                match = (await live_matches(bench, table))[0]
                starter = next(b for b in board_buttons(bench, table, match)
                               if b.startswith("🎯"))
                await bench.run("setup", [f"{table.organiser}@{table.group}: [{starter}]"])
                while await _logged(bench, table) < size:
                    await _visit(bench, table, "setup")
            for _ in range(samples):
                for table, size in zip(bench.tables, sizes, strict=True):
                    await _visit(bench, table, f"at {size}")
            table = bench.tables[-1]
            line = await _line(bench, table)
            bench.app.services.matches.forget((await live_matches(bench, table))[0].id)
            await bench.run("cold", [line])  # as after a restart
        finally:
            await bench.close()
    return bench


def ratio(bench: GameBench, sizes: list[int]) -> float:
    """The median visit at the largest size over the median at the smallest."""
    return (statistics.median(bench.samples[f"at {sizes[-1]}"])
            / statistics.median(bench.samples[f"at {sizes[0]}"]))


async def main(args: argparse.Namespace) -> None:
    sizes = sorted(int(s) for s in args.sizes.split(","))
    bench = await measure(sizes, args.samples, args.seed)
    print(f"a typed Shanghai visit (miss miss miss), {args.samples} visits per size, warm:")
    for size in sizes:
        times = sorted(bench.samples[f"at {size}"])
        print(f"  at {size:>5} logged actions: median {statistics.median(times) * 1000:.2f} ms,"
              f" max {times[-1] * 1000:.2f} ms")
    print(f"  ratio {sizes[-1]} / {sizes[0]}: {ratio(bench, sizes):.2f}x")
    print(f"cold start (cached state dropped as by a restart; the update loads the snapshot of "
          f"a {sizes[-1]}+ action log, replays its tail, then applies the visit): "
          f"{bench.samples['cold'][0] * 1000:.1f} ms")


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
