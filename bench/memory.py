"""The bot's memory on top of a bare aiogram bot, with N live matches.

    python -m bench.memory [--matches 1000]

Runs two fresh interpreters and prints the resident memory (VmRSS) of each after a
collection: a bare aiogram bot (aiogram imported, one update handled), and the bot (sandbox, real
SQLite file) with ``--matches`` live Shanghai matches whose states are loaded, one
darts visit into each. The difference is what the bot itself costs.

Part of that difference is not the bot: the sandbox's stand-in for Telegram
(:class:`bot.sandbox.world.World`) keeps every message the bot sent, with its buttons, in the
same process. Its size (by ``sys.getsizeof``, of the objects only it reaches, none that
the bot holds too: a slight underestimate, allocator overhead is not counted) is printed
beside the total, and the bot's own figure without it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import subprocess
import sys
import tempfile
import types
from pathlib import Path


async def _echo() -> float:
    """aiogram alone: a Bot, a Dispatcher with one handler, one update handled."""
    from aiogram import Bot, Dispatcher
    from aiogram.types import Message, Update

    bot = Bot("123456:bare-bare-bare-bare-bare-bare-bare")
    dispatcher = Dispatcher()

    @dispatcher.message()
    async def echo(message: Message) -> None:
        return None

    update = Update.model_validate({"update_id": 1, "message": {
        "message_id": 1, "date": 0, "chat": {"id": 1, "type": "private"},
        "from": {"id": 1, "is_bot": False, "first_name": "A"}, "text": "hi"}})
    await dispatcher.feed_update(bot, update)
    await bot.session.close()
    gc.collect()
    return _rss_mb()


async def _bot(matches: int) -> tuple[float, float]:
    """The bot with ``matches`` live matches: its VmRSS and the sandbox world's size (MB)."""
    from bench.games import GameBench, darts_keypad, live_matches, open_tables

    with tempfile.TemporaryDirectory(prefix="bench-memory-") as folder:
        bench = GameBench(seed=1, db_path=Path(folder) / "memory.sqlite3")
        await bench.start()
        try:
            await open_tables(bench, {"shanghai": -(-matches // 4)})
            for table in bench.tables:
                for match in await live_matches(bench, table):
                    state = await bench.app.services.matches.current(match)
                    await bench.run("setup", darts_keypad(bench, table, match, state) or [])
            gc.collect()
            return _rss_mb(), _alone_mb(bench.world, bench.app)
        finally:
            await bench.close()


def _alone_mb(root: object, besides: object) -> float:
    """The size of the objects ``root`` reaches that ``besides`` does not reach without going
    through ``root`` (modules, classes and functions left out: code is not data)."""
    shared = _reached(besides, {id(root)})
    return sum(sys.getsizeof(thing) for thing in _reached(root, shared).values()) / 2**20


def _reached(root: object, seen: set[int] | dict[int, object]) -> dict[int, object]:
    """The objects ``root`` reaches, not through those whose ids are in ``seen``."""
    found: dict[int, object] = {}
    stack = [root]
    while stack:
        thing = stack.pop()
        if id(thing) in seen or id(thing) in found or isinstance(thing, _CODE):
            continue
        found[id(thing)] = thing
        stack.extend(gc.get_referents(thing))
    return found


_CODE = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.CodeType)


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.memory", description=__doc__)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--only", choices=("echo", "bot"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.only == "echo":
        print(f"{asyncio.run(_echo()):.1f}")
        return
    if args.only == "bot":
        print("{:.1f} {:.1f}".format(*asyncio.run(_bot(args.matches))))
        return
    (echo,), (bot, world) = (_measure(which, args.matches) for which in ("echo", "bot"))
    print(f"bare aiogram echo bot: {echo:.1f} MB; the bot with {args.matches} live matches: "
          f"{bot:.1f} MB; the bot's own: {bot - echo:+.1f} MB, of which the sandbox's Telegram "
          f"(its messages) holds about {world:.1f} MB: {bot - echo - world:+.1f} MB without it")


def _measure(which: str, matches: int) -> list[float]:
    """The figures one fresh interpreter prints for ``--only which``."""
    out = subprocess.run([sys.executable, "-m", "bench.memory", "--only", which,
                          "--matches", str(matches)], capture_output=True, text=True,
                         check=True).stdout
    return [float(mb) for mb in out.strip().splitlines()[-1].split()]


if __name__ == "__main__":
    main()
