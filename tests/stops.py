"""Stop the sandbox right after a seeded write of every transcript and list what it never said.

    python -m tests.stops [--salt S] [--only WORD] [--midway] [--each]

For each transcript of ``tests/scenarios/``, ``python -m tests.stopping_sandbox`` (the
sandbox, ``--resume``) runs it once whole, counting the write transactions its updates
commit; then on a new database, where it stops dead right after a seeded one of those
writes (by the transcript's name and ``--salt``), and the same command resumes it to the
end, as a bot restarted after a crash (the update in hand delivered again). Printed: each
transcript where the stopped and the resumed run between them posted fewer messages than
the whole run (``never said``: the first line of each message missing; a message edited
counts as one posted) or whose tournaments end otherwise (their exports, times left out, as
``python -m tests.kills`` compares them), with the write stopped at and the last line
printed before the stop. ``--midway`` stops only after a write the same update (or the
job it runs) follows with another: where what it has written is half of what it means to
write (a round's matches without their bye's win); ``--each`` stops at every write that
qualifies, one run each, instead of one seeded write per transcript.

That gap is what :meth:`bot.scheduler.Scheduler.stand_in` closes: a job written with the
action and run at the next start says what the action owes the others. A message missing
is a place to look, not always a defect: a command's answer to its own sender is not held
(they ask again and are told what stands); the bot's own random draws made again differ;
a message that waited for a group's window when the process stopped may be said in one
with the next. ``python -m tests.kills`` kills at a printed line instead, wherever the
process is, and compares where the tournaments end.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

from tests.bot.sandbox_run import (
    differences,
    print_each,
    said,
    sandbox_command,
    tool_arguments,
)
from tests.bot.test_crash import final_exports
from tests.bot.test_scenarios import options_of

RUN_SECONDS = 300
_EDITED_ID = re.compile(r"^✎( [^#:]+)#\d+:")
_CLOCK = re.compile(r"\b\d\d:\d\d\b")
"""A time of day said: a resumed sandbox's clock may run a minute on from the stopped one's,
which moves a deadline said after it, as ``python -m tests.kills`` says."""
_WRITE = re.compile(r"^write: (\d+) (\d+)$", re.MULTILINE)


def _run(db_path: Path, script: Path, stop_at: int) -> subprocess.CompletedProcess:
    options = options_of(script.read_text(encoding="utf-8"))
    command = sandbox_command(db_path, script, options.get("seed", 0), options.get("lang"),
                              module="tests.stopping_sandbox")
    return subprocess.run(command, capture_output=True, text=True, encoding="utf-8",
                          check=False, timeout=RUN_SECONDS,
                          env={**os.environ, "STOP_AT_WRITE": str(stop_at)})


def posted(output: str) -> Counter[str]:
    """What the bot showed, each as said: a message posted or edited alike (a bot
    restarted may edit into an earlier message what the stopped one would have posted
    anew), without the message's id, times of day left out (:data:`_CLOCK`)."""
    return Counter(_CLOCK.sub("hh:mm", _EDITED_ID.sub(r"→\1:", message))
                   for message in said(output.splitlines()) if message.startswith(("→ ", "✎ ")))


async def one(script: Path, salt: str, midway: bool = False, each: bool = False
              ) -> list[str]:
    """What :func:`main` prints of transcript ``script`` (nothing when nothing is missing)."""
    with tempfile.TemporaryDirectory() as folder:
        whole = _run(Path(folder) / "whole.sqlite3", script, 0)
        writers = [writer for _, writer in _WRITE.findall(whole.stderr)]
        candidates = [number for number in range(1, len(writers) + 1)  # counted from 1
                      if not midway or writers[number:number + 1] == [writers[number - 1]]]
        if not candidates:
            return []
        expected = await final_exports(Path(folder) / "whole.sqlite3")
        chosen = candidates if each else [random.Random(script.stem + salt).choice(candidates)]
        found = []
        for stop_at in chosen:
            found += await _stopped_at(script, Path(folder) / f"stopped{stop_at}.sqlite3",
                                       stop_at, len(writers), whole.stdout, expected)
    return found


async def _stopped_at(script: Path, db_path: Path, stop_at: int, writes: int, whole: str,
                      expected: list[dict]) -> list[str]:
    """The transcript stopped after write ``stop_at``, then resumed: what it never said,
    where it ends otherwise than ``whole`` (the output) and ``expected`` (the exports)."""
    stopped = _run(db_path, script, stop_at)
    resumed = _run(db_path, script, 0)
    changed = differences(expected, await final_exports(db_path))
    missing = posted(whole) - posted(stopped.stdout) - posted(resumed.stdout)
    if not missing and not changed and resumed.returncode == 0:
        return []
    last = stopped.stdout.rstrip("\n").rsplit("\n", 1)[-1]
    errors = [line for line in resumed.stdout.splitlines() if line.startswith("!!")]
    return [f"{script.stem}: stopped after write {stop_at} of {writes}, resumed with exit"
            f" code {resumed.returncode}; the last line before the stop: {last[:80]}",
            *(f"    never said: {message.splitlines()[0][:100]}"
              for message in sorted(missing.elements())[:4]),
            *(f"    {difference[:100]}" for difference in changed[:6]),
            *(f"    {error}" for error in errors[:3])]


async def main(arguments: argparse.Namespace) -> None:
    await print_each(arguments.only, lambda script: one(
        script, arguments.salt, arguments.midway, arguments.each))


if __name__ == "__main__":
    parser = tool_arguments("stops", __doc__, salt="picks other writes to stop at")
    parser.add_argument("--midway", action="store_true",
                        help="only after a write its update follows with another")
    parser.add_argument("--each", action="store_true",
                        help="at every write that qualifies, not one seeded write")
    asyncio.run(main(parser.parse_args()))
