"""Kill the sandbox at a seeded line of every transcript and compare where the tournament ends.

    python -m tests.kills [--salt S] [--only WORD]

For each transcript of ``tests/scenarios/`` a first run (in this process) counts the lines
the bot prints and exports every tournament. Then ``python -m bot sandbox --script …
--resume`` runs it on a new database and is killed (SIGKILL) once it has printed a seeded
one of those lines (by the transcript's name and ``--salt``, between a fifth and four
fifths of the way): wherever the process is, between two lines or inside one, between two
writes or two sends. The same command then resumes it to the end, and its exports (times
left out) are compared with the first run's. Printed: each transcript whose exports differ,
or whose resumed run failed, with the line it was killed at, the first lines of the
difference and the resumed run's errors; and each transcript where the two runs together
posted a group message more often than the uninterrupted run (``said again``; but for
the message the kill landed after, which may not yet have been noted as said).

A difference is a place to look, not always a defect: the bot's own random draws made
before the kill and never written are drawn again (backgammon's dice, the armchair toss);
a relative time (``/schedule in 60m``) counts from the resumed clock; a question lost with
the process that the transcript then answers is lost as a live bot loses it; a transcript
that names a message or a topic by id meets other ids. What it found is in the README's
reliability paragraph (``tests/bot/test_crash.py`` runs one transcript this way in the
suite)."""

from __future__ import annotations

import asyncio
import random
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

from tests.bot.sandbox_run import (
    differences,
    print_each,
    run_and_kill,
    sandbox_command,
    tool_arguments,
)
from tests.bot.test_crash import final_exports
from tests.bot.test_restart_determinism import run_and_export
from tests.bot.test_scenarios import options_of

RESUME_SECONDS = 300


async def one(script: Path, salt: str) -> list[str]:
    """What :func:`main` prints of transcript ``script`` (nothing when the runs agree)."""
    text = script.read_text(encoding="utf-8")
    options = options_of(text)
    with tempfile.TemporaryDirectory() as folder:
        output, expected = await run_and_export(text, text.splitlines(),
                                                Path(folder) / "whole.sqlite3")
        if len(output) < 10:
            return []
        kill_at = random.Random(script.stem + salt).randint(len(output) // 5,
                                                            len(output) * 4 // 5)
        command = sandbox_command(Path(folder) / "killed.sqlite3", script,
                                  options.get("seed", 0), options.get("lang"))
        killed: list[str] = []
        run_and_kill(command, kill_at, killed)
        resumed = subprocess.run(command, capture_output=True, text=True, check=False,
                                 timeout=RESUME_SECONDS)
        changed = differences(expected, await final_exports(Path(folder) / "killed.sqlite3"))
    errors = [line for line in resumed.stdout.splitlines() if line.startswith("!!")]
    again = said_again("\n".join(output).splitlines(), killed, resumed.stdout.splitlines())
    if not changed and not again and resumed.returncode == 0:
        return []
    return [f"{script.stem}: killed at line {kill_at} of {len(output)},"
            f" resumed with exit code {resumed.returncode}",
            *(f"    {d[:100]}" for d in changed[:8]), *(f"    {e}" for e in errors[:3]),
            *(f"    said again: {head[:100]}" for head in again[:3])]


def said_again(whole: list[str], killed: list[str], resumed: list[str]) -> list[str]:
    """The group messages (their first lines) the killed and the resumed run posted more
    often between them than the uninterrupted run did, but for the last one the killed
    run posted: a message goes out before it is noted as said, so the kill that lands
    right after it (where this tool kills: once a line is printed) may see it again."""
    def posted(lines: list[str]) -> list[str]:
        return [line for line in lines
                if line.startswith("→ ") and "@dm:" not in line.split(" ", 2)[1]]
    last = posted(killed)[-1:]
    more = Counter(posted(killed) + posted(resumed)) - Counter(posted(whole)) - Counter(last)
    return sorted(more.elements())


async def main(salt: str, only: str) -> None:
    await print_each(only, lambda script: one(script, salt))


if __name__ == "__main__":
    arguments = tool_arguments("kills", __doc__, salt="picks other lines to kill at").parse_args()
    asyncio.run(main(arguments.salt, arguments.only))
