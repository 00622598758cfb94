"""Where each kind of update spends its time: its Bot API calls, its write transactions and
the rest (aiogram's dispatch, the middlewares, the engine, texts and keyboards).

``python -m bench.run --beside --anatomy`` times, during the game mix's measured updates at
concurrency 1, every Bot API call from the session's entry (the bot's rate limiter and sending
layer, the sandbox's answer and aiogram's parsing of it) and every write transaction
(``Database.write``: BEGIN, the statements, COMMIT), and files them under the kind of update
being handled; the echo bot fed beside the mix is timed the same way. Calls and writes do
not overlap in these runs: the sandbox answers at once and nothing else runs meanwhile.

It also counts the CPU each update costs, which a latency does not show where work is done in
another process: the bot's own process (``time.process_time``: the event loop and the
database's thread) and its picture workers (their run time from the kernel, ``/proc/<pid>/
schedstat``, read before and after each update: each picture is drawn within its update).
"""

from __future__ import annotations

import multiprocessing
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from storage.db import Database


@dataclass
class Part:
    """How many times a part ran and how long it took in all."""

    count: int = 0
    seconds: float = 0.0

    def add(self, seconds: float) -> None:
        self.count += 1
        self.seconds += seconds


@dataclass
class Anatomy:
    """Bot API calls and write transactions, by kind of update."""

    kind: Callable[[], str]
    """The kind of update being handled now."""
    calls: dict[str, Part] = field(default_factory=lambda: defaultdict(Part))
    writes: dict[str, Part] = field(default_factory=lambda: defaultdict(Part))
    cpu: dict[str, Part] = field(default_factory=lambda: defaultdict(Part))
    """CPU seconds of the bot's (or the echo's) own process per update."""
    workers: dict[str, Part] = field(default_factory=lambda: defaultdict(Part))
    """CPU seconds of the picture workers per update."""
    measuring: bool = False

    def update_done(self, own_cpu: float, workers_cpu: float, kind: str | None = None) -> None:
        if self.measuring:
            self.cpu[kind or self.kind()].add(own_cpu)
            self.workers[kind or self.kind()].add(workers_cpu)

    def call_done(self, seconds: float, kind: str | None = None) -> None:
        if self.measuring:
            self.calls[kind or self.kind()].add(seconds)

    def watch_writes(self, db: Database) -> None:
        """Time ``db``'s write transactions (an attribute on this one database object)."""
        write = db.write

        async def timed(work, touches=()):
            started = time.perf_counter()
            try:
                return await write(work, touches)
            finally:
                if self.measuring:
                    self.writes[self.kind()].add(time.perf_counter() - started)
        db.write = timed  # type: ignore[method-assign]


def workers_cpu() -> float:
    """CPU seconds the child processes (the picture workers) have run so far; 0 where the
    kernel does not say (no ``/proc``)."""
    nanoseconds = 0
    for child in multiprocessing.active_children():
        try:
            nanoseconds += int(Path(f"/proc/{child.pid}/schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue
    return nanoseconds / 1e9


def print_anatomy(anatomy: Anatomy, samples: dict[str, list[float]],
                  echo: list[float]) -> None:
    """One line per kind (means per update): total, calls and their time, writes and their
    time, the rest, the CPU of the bot's process and of its picture workers; the echo beside
    the mix first, the rest and the CPU of each kind against the echo's."""
    rows = {"echo (beside)": (echo, anatomy.calls.get("echo", Part()), Part())} if echo else {}
    rows |= {kind: (values, anatomy.calls.get(kind, Part()), anatomy.writes.get(kind, Part()))
             for kind, values in sorted(samples.items()) if kind != "scheduled_start"}
    echo_rest = _rest(*rows["echo (beside)"]) if echo else None
    echo_cpu = _mean(anatomy.cpu.get("echo")) if echo else None
    print("\nwhere the time goes (concurrency 1, means per update, ms): a Bot API call from the"
          " bot's rate limiter\nto aiogram's parsed answer; a write = BEGIN … COMMIT; the rest ="
          " dispatch, middlewares, engine, texts, keyboards;\ncpu = CPU of the bot's own process"
          " (event loop and database thread); workers = CPU of its picture workers")
    head = (f"{'kind':<16}{'ms':>8}{'calls':>7}{'in calls':>10}{'writes':>8}{'in writes':>11}"
            f"{'rest':>8}" + (f"{'rest/echo':>11}" if echo_rest else "")
            + f"{'cpu':>8}" + (f"{'cpu/echo':>10}" if echo_cpu else "") + f"{'workers':>9}")
    print(head)
    print("-" * len(head))
    for kind, (values, calls, writes) in rows.items():
        n = max(len(values), 1)
        rest = _rest(values, calls, writes)
        key = "echo" if kind == "echo (beside)" else kind
        cpu = _mean(anatomy.cpu.get(key))
        print(f"{kind:<16}{sum(values) / n * 1000:>8.3f}{calls.count / n:>7.2f}"
              f"{calls.seconds / n * 1000:>10.3f}{writes.count / n:>8.2f}"
              f"{writes.seconds / n * 1000:>11.3f}{rest * 1000:>8.3f}"
              + (f"{rest / echo_rest:>11.1f}" if echo_rest else "")
              + f"{cpu * 1000:>8.3f}" + (f"{cpu / echo_cpu:>10.1f}" if echo_cpu else "")
              + f"{_mean(anatomy.workers.get(key)) * 1000:>9.3f}")


def _mean(part: Part | None) -> float:
    """Mean seconds per count of ``part`` (0 when it never ran)."""
    return part.seconds / part.count if part and part.count else 0.0


def _rest(values: list[float], calls: Part, writes: Part) -> float:
    """Mean seconds per update spent outside calls and writes."""
    n = max(len(values), 1)
    return (sum(values) - calls.seconds - writes.seconds) / n
