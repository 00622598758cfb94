"""Do other updates wait while a big bracket is drawn?

    python -m bench.bracket [--players 128] [--repeat 5] [--others 400] [--processes 1]

A single-elimination tournament of ``--players`` (reported results) and Shanghai matches in
the same sandbox bot. One task asks ``/bracket`` at least ``--repeat`` times, and again until
the other task has handled ``--others`` updates: it plays darts keypad presses and Cup rolls
without pause. Prints how long each /bracket took and the p50/p99 of the other updates
handled while brackets were being drawn, then the drawing alone (``bracket_png`` of the same
size, in this process): its time and PNG bytes. The p99 is taken over at least ``--others``
updates whatever the bracket's speed: over the ~150 that five quick brackets leave, it would
be their second slowest.
``--processes 0`` draws in a thread instead of worker processes (``RENDER_PROCESSES``).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from bench.games import KINDS, ONWARD, SETUPS, GameBench, Setup, _plain_open, open_tables, step
from bot.render import bracket_png


async def main(args: argparse.Namespace) -> None:
    SETUPS["big"] = Setup("armchair", args.players, _plain_open("armchair Большая format=single_elim"))
    with tempfile.TemporaryDirectory(prefix="bench-bracket-") as folder:
        bench = GameBench(seed=1, db_path=Path(folder) / "bracket.sqlite3",
                          render_processes=args.processes)
        await bench.start()
        try:
            await open_tables(bench, {"big": 1, "shanghai": 12, "cup": 12})
            big = next(t for t in bench.tables if t.setup == "big")
            others = [t for t in bench.tables if t is not big]
            playing = [k for k in KINDS if k.name in ("darts_keypad", "cup_roll")]
            drawing = True

            async def play() -> None:
                while drawing:
                    played = [await step(bench, kind, others) for kind in playing]
                    # with every match over, wait instead of spinning: a loop that never
                    # idles would hold the interpreter and slow the picture's hand-back
                    await asyncio.sleep(0 if any(played) else 0.01)

            # The first picture starts the worker process(es): not measured, and before the
            # other task plays (it would play its matches to the end meanwhile).
            await bench.run("warm", [f"{big.organiser}@{big.group}: /bracket"])
            player = asyncio.create_task(play())
            for _ in range(2):  # warm: states cached, models built
                await asyncio.sleep(0.05)
            bench.samples.clear()
            asked = 0
            while asked < args.repeat or len(_meanwhile(bench)) < args.others:
                # each drawn: an unchanged bracket posted before would be sent again by its
                # file ids
                bench.app.services.posted.ids.clear()
                await bench.run("bracket", [f"{big.organiser}@{big.group}: /bracket"])
                asked += 1
            drawing = False
            await player
        finally:
            await bench.close()
    brackets = sorted(bench.samples["bracket"])
    during = sorted(_meanwhile(bench))
    print(f"/bracket of {args.players}: {len(brackets)} times, median "
          f"{brackets[len(brackets) // 2] * 1000:.0f} ms, max {brackets[-1] * 1000:.0f} ms")
    if during:
        p99 = during[min(len(during) - 1, round(0.99 * len(during)))]
        print(f"other updates meanwhile: {len(during)}, p50 {during[len(during) // 2] * 1000:.2f}"
              f" ms, p99 {p99 * 1000:.2f} ms, max {during[-1] * 1000:.2f} ms")
    draw_alone(args.players)


def _meanwhile(bench: GameBench) -> list[float]:
    """The latencies of the other task's updates (not the brackets, not the warm-up)."""
    return [s for kind, samples in bench.samples.items() if kind not in ("bracket", "warm", ONWARD)
            for s in samples]


def draw_alone(players: int) -> None:
    """The drawing alone: the fastest of three ``bracket_png`` calls, its parts and bytes."""
    names = [f"Игрок {n}" for n in range(1, players + 1)]
    rounds = []
    while len(names) > 1:
        matches = [(names[i], names[i + 1], names[i]) for i in range(0, len(names), 2)]
        rounds.append((f"Раунд {len(rounds) + 1}", matches))
        names = [a for a, _, _ in matches]
    times = []
    for _ in range(3):
        started = time.perf_counter()
        pngs = bracket_png("Большая", rounds)
        times.append(time.perf_counter() - started)
    print(f"bracket_png of {players}: {min(times) * 1000:.0f} ms, {len(pngs)} pictures, "
          f"{sum(map(len, pngs)) / 1e6:.2f} MB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.bracket", description=__doc__)
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--others", type=int, default=400)
    parser.add_argument("--processes", type=int, default=1)
    asyncio.run(main(parser.parse_args()))
