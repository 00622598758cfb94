"""A busy group: many darts matches in one group, their visits typed faster than the group's
20 messages a minute can redraw their boards. Measured with the board queue
(bot/board_queue.py) and without it (each visit's handler waiting for its own board edit, as
before it): when the last visit was taken, when every board showed the last visit, and how
many board edits it took.

    python -m bench.busy_group [--matches 8] [--visits 10]

Runs the real bot in the sandbox on its virtual clock, whose waits here let other work run
meanwhile (``RealWaits``: a wait takes a thousandth of its time for real), as live waits do;
times are virtual seconds from the first visit.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from dataclasses import dataclass
from pathlib import Path

from aiogram.methods import EditMessageText

from bot.board_queue import BoardQueue
from bot.method_fields import field
from bot.sandbox.runner import Sandbox
from bot.sending import rate_limiter


class RealWaits:
    """The virtual clock's waits, letting other work run for a thousandth of their time."""

    def __init__(self, box: Sandbox) -> None:
        self.sleep = box.clock.sleep

    async def __call__(self, seconds: float) -> None:
        await asyncio.sleep(seconds / 1000)
        await self.sleep(seconds)


@dataclass
class Outcome:
    taken: float
    drawn: float
    edits: int
    visits: int


async def run(matches: int, visits: int, queue: bool) -> Outcome:
    players = [f"p{n}" for n in range(1, 2 * matches + 1)]
    with tempfile.TemporaryDirectory() as folder:
        box = Sandbox(seed=1, db_path=Path(folder) / "db.sqlite3", language="en",
                      emit=lambda line: None)
        await box.start()
        try:
            await box.run_lines(["org@pub: /new shanghai Night legs=1 format=single_elim",
                                 *(f"{player}@pub: /register" for player in players),
                                 "org@pub: /begin"])
            live = [match for match in await box.app.services.repos.matches.for_tournament(1)
                    if match.status == "running"]
            throwers = [box.world.user_by_id(match.players[0]).handle for match in live]
            await box.run_lines([f"{thrower}@pub: [🪙 Coin]" for thrower in throwers])
            return await _visits(box, throwers, visits, queue)
        finally:
            await box.close()


async def _visits(box: Sandbox, throwers: list[str], visits: int, queue: bool) -> Outcome:
    group = box.world.group("pub").id
    outbox = box.app.services.outbox
    if queue:
        outbox.later = BoardQueue(rate_limiter(box.app.bot.session))
    box.clock.sleep = RealWaits(box)
    edits = 0

    async def counted(make_request, bot, method):
        nonlocal edits
        edits += isinstance(method, EditMessageText) and field(method, "chat_id") == group
        return await make_request(bot, method)

    box.app.bot.session.middleware(counted)
    start = box.clock.now()
    for _ in range(visits):
        for thrower in throwers:
            await box.run_lines([f"{thrower}@pub: S19 S18 S17"])
    taken = (box.clock.now() - start).total_seconds()
    if outbox.later is not None:
        await outbox.later.flush(3600)
    drawn = (box.clock.now() - start).total_seconds()
    [(logged,)] = await box.app.services.db.fetchall(
        "SELECT COUNT(*) FROM match_actions WHERE payload LIKE '%end_visit%'")
    return Outcome(taken, drawn, edits, logged)


async def main(args: argparse.Namespace) -> None:
    total = args.matches * args.visits
    print(f"{args.matches} darts matches in one group, {args.visits} typed visits each "
          f"({total}), all sent at once; virtual seconds from the first visit")
    for queue in (False, True):
        outcome = await run(args.matches, args.visits, queue)
        print(f"board queue {'on ' if queue else 'off'}: {outcome.visits} of {total} visits "
              f"taken by {outcome.taken:.0f} s, every board showing its last by "
              f"{outcome.drawn:.0f} s, {outcome.edits} board edits")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=8, help="matches (a power of two)")
    parser.add_argument("--visits", type=int, default=10, help="typed visits per match")
    asyncio.run(main(parser.parse_args()))
