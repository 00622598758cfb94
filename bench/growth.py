"""Does an action cost more as a match gets longer?

    python -m bench.growth [--sizes 10,500,5000] [--samples 20]

One Shanghai match in the sandbox (the real bot, a real SQLite file), played with typed
all-miss visits (``miss miss miss``: 3 darts and the end of the visit, 4 logged actions),
a leg that never ends. At each size (logged actions) it times ``--samples`` typed visits
(warm: the state is cached) and prints their median and p99, then, at the largest size,
the first visit after the cached state is dropped (a cold start: the log is replayed).
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


async def main(args: argparse.Namespace) -> None:
    sizes = sorted(int(s) for s in args.sizes.split(","))
    with tempfile.TemporaryDirectory(prefix="bench-growth-") as folder:
        bench = GameBench(seed=args.seed, db_path=Path(folder) / "growth.sqlite3")
        await bench.start()
        try:
            await open_tables(bench, {"two": 1})
            table = bench.tables[0]
            match = (await live_matches(bench, table))[0]
            starter = next(b for b in board_buttons(bench, table, match) if b.startswith("🎯"))
            await bench.run("setup", [f"{table.organiser}@{table.group}: [{starter}]"])
            for size in sizes:
                while await _logged(bench, table) < size:
                    await _visit(bench, table, "setup")
                for _ in range(args.samples):
                    await _visit(bench, table, f"at {size}")
            line = await _line(bench, table)
            bench.app.services.matches.forget(match.id)  # as after a restart
            await bench.run("cold", [line])
        finally:
            await bench.close()
    print(f"a typed Shanghai visit (miss miss miss), {args.samples} visits per size, warm:")
    for size in sizes:
        times = sorted(bench.samples[f"at {size}"])
        print(f"  at {size:>5} logged actions: median {statistics.median(times) * 1000:.2f} ms,"
              f" max {times[-1] * 1000:.2f} ms")
    base = statistics.median(bench.samples[f"at {sizes[0]}"])
    top = statistics.median(bench.samples[f"at {sizes[-1]}"])
    print(f"  ratio {sizes[-1]} / {sizes[0]}: {top / base:.2f}x")
    print(f"cold start (cached state dropped as by a restart; the update replays the log of "
          f"{sizes[-1]}+ actions, then applies the visit): {bench.samples['cold'][0] * 1000:.1f} ms")


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
