"""Fail one Telegram call in every transcript and compare where the tournament ends.

    python -m tests.faults [--salt S] [--only WORD] [--method sendMessage]

For each transcript of ``tests/scenarios/`` a first run counts the messages the bot sends
(``sendMessage``, or the Bot API method ``--method`` names: ``editMessageText``,
``sendPhoto`` …); in a second run a seeded one of them (by the transcript's name and
``--salt``) fails as a Telegram out of reach fails it, a Bad Gateway to the call and to
each of the sending layer's retries. Two minutes pass after that line (a job's first
retry is due) and the transcript goes on; a third run has the same two minutes without
the fault. Both go on until no job is due (:func:`settle`), then their exports (times
left out) are compared. Printed: each transcript whose exports differ, or whose faulted
run printed an error besides the fault's that the run without it did not, with the call
that failed and the first lines of the difference.

A difference is a place to look, not always a defect. A lost answer with buttons that the
transcript then presses (a ``/withdraw`` question, a challenge's invitation) is lost as a
live bot loses it: the player asks again. So is a command or press that met the fault
before it changed anything (an organiser's whose administrator check failed): the sender
is told to try again, which the transcript does not. A board that failed holds its
match's clocks until it is drawn again: a player the run without the fault lost on time
may play on. A transcript that names a message or a topic by id meets other ids. A start said late by
its job's retry starts the clocks later. What it found is in the
README's reliability paragraph."""

from __future__ import annotations

import asyncio
import random
import tempfile
from datetime import timedelta
from pathlib import Path

from aiogram.methods import TelegramMethod

from bot.sandbox.runner import Sandbox
from bot.sending import fault_delays
from tests.bot.conftest import Faults
from tests.bot.sandbox_run import differences, print_each, tool_arguments
from tests.bot.test_restart_determinism import exports
from tests.bot.test_scenarios import SCENARIOS, options_of

SETTLE_HOURS = 24  # at most a day of jobs after the transcript (:func:`settle`)


class Sends:
    """The sandbox's calls of Bot API method ``kind`` counted, with the line each came from;
    the ``fail``-th fails with its retries (:class:`~tests.bot.conftest.Faults`)."""

    def __init__(self, kind: str, fail: int = 0) -> None:
        self.kind, self.fail, self.line, self.lines, self.failed = kind, fail, 0, [], ""
        self.faults = Faults()
        self.faults.seen = self._seen

    def _of_kind(self, method: TelegramMethod) -> bool:
        return method.__api_method__ == self.kind

    def _seen(self, method: TelegramMethod) -> None:
        if not self._of_kind(method) or self.faults.left:  # (a retry)
            return
        self.lines.append(self.line)
        if len(self.lines) == self.fail:
            self.failed = getattr(method, "text", None) or getattr(method, "caption", None) \
                or method.__api_method__
            # the call and the sending layer's retries of it
            self.faults.fail(1 + len(fault_delays(method)), self._of_kind)


async def settle(sandbox: Sandbox) -> None:
    """Ten minutes on, then an hour at a time while a job is due within the hour (the clocks
    of matches still playing, the rounds their ends open), a day at most. A fault's
    back-off moves a group's match clocks on by its seconds: both runs end once nothing is
    due, so no clock of the faulted run is left a few seconds past the end of its run."""
    await sandbox.line("! advance 10m")
    for _ in range(SETTLE_HOURS):
        soon = sandbox.clock.now() + timedelta(hours=1)
        if not any(job.run_at <= soon for job in await sandbox.app.services.repos.jobs.pending()):
            return
        await sandbox.line("! advance 1h")


async def run(text: str, db_path: Path, sends: Sends, wait_after: int) -> tuple[list, list]:
    """The transcript's lines (two minutes more after line ``wait_after``, then
    :func:`settle`): what was printed and every tournament's export."""
    options, output = options_of(text), []
    sandbox = Sandbox(seed=int(options.get("seed", 0)), db_path=db_path,
                      language=options.get("lang", "ru"), emit=output.append)
    await sandbox.start()
    try:
        with sends.faults.installed():
            for number, line in enumerate(text.splitlines()):
                sends.line = number
                await sandbox.line(line)
                if number == wait_after:
                    await sandbox.line("! advance 2m")
            await settle(sandbox)
        return output, await exports(sandbox)
    finally:
        await sandbox.close()


async def one(name: str, salt: str, kind: str) -> list[str]:
    """What :func:`main` prints of transcript ``name`` (nothing when the runs agree)."""
    text = (SCENARIOS / f"{name}.txt").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder:
        counting = Sends(kind)
        await run(text, Path(folder) / "count.sqlite3", counting, -1)
        if len(counting.lines) < 2:
            return []
        fail = random.Random(name + salt).randint(1, len(counting.lines))
        after = counting.lines[fail - 1]
        whole, expected = await run(text, Path(folder) / "whole.sqlite3", Sends(kind), after)
        faulted = Sends(kind, fail=fail)
        output, got = await run(text, Path(folder) / "faulted.sqlite3", faulted, after)
    errors = [line for line in output if line.startswith("!! error")
              and "Bad Gateway" not in line and line not in whole]
    changed = differences(expected, got)
    if not changed and not errors:
        return []
    failed = faulted.failed[:70].replace("\n", " | ")
    return [f"{name}: {kind} {fail} of {len(counting.lines)}, line {after + 1}: {failed}",
            *(f"    {d[:100]}" for d in changed[:8]), *(f"    {e}" for e in errors[:3])]


async def main(salt: str, only: str, kind: str) -> None:
    await print_each(only, lambda script: one(script.stem, salt, kind))


if __name__ == "__main__":
    parser = tool_arguments("faults", __doc__, salt="picks other messages to fail")
    parser.add_argument("--method", default="sendMessage",
                        help="the Bot API method whose calls are counted and one failed")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.salt, arguments.only, arguments.method))
