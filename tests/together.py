"""Hand two lines of every transcript in at the same moment and compare the runs.

    python -m tests.together [--salt S] [--only WORD]

For each transcript of ``tests/scenarios/``, a seeded pair of consecutive lines written by two
different users (by the transcript's name and ``--salt``) is handed to the bot together, as
two updates that arrive at once, and the run is compared with the plain one as
``python -m tests.doubles`` compares (:func:`tests.doubles.compared`): where the tournaments
end, what the chats were told, what every message shows at the end, the errors printed.

A difference is a place to look, and mostly no defect: the second line often waits for the
first (a move after the opponent's, a card answering a ball, a ``/result`` in the match the
first line's ``/confirm`` opens, a move after ``/begin``); handed in first, it is answered
as that moment is (not your turn, no match yet), and the transcript then presses buttons
that are not there. What it found is in the README's reliability paragraph."""

from __future__ import annotations

import asyncio
import random
import re
import tempfile
from pathlib import Path

from tests.bot.sandbox_run import print_each, tool_arguments
from tests.bot.test_scenarios import SCENARIOS
from tests.doubles import compared, run

_WRITER = re.compile(r"^([a-z0-9_]+)@")
"""The user who writes a line of a transcript (a directive has none)."""


def pairs(lines: list[str]) -> list[int]:
    """Where a line is followed by one of another user (each pair's first line, from 0)."""
    writers = [found.group(1) if (found := _WRITER.match(line)) else None for line in lines]
    return [number for number in range(len(lines) - 1)
            if writers[number] and writers[number + 1]
            and writers[number] != writers[number + 1]]


async def one(name: str, salt: str) -> list[str]:
    """What :func:`main` prints of transcript ``name`` (nothing when the runs agree)."""
    text = (SCENARIOS / f"{name}.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    if not (candidates := pairs(lines)):
        return []
    number = random.Random(name + salt).choice(candidates)
    with tempfile.TemporaryDirectory() as folder:
        plain = await run(text, Path(folder) / "plain.sqlite3")
        together = await run(text, Path(folder) / "together.sqlite3", together=number)
    return compared(f"{name}: lines {number + 1}-{number + 2}: {lines[number]} || "
                    f"{lines[number + 1]}", plain, together)


async def main(salt: str, only: str) -> None:
    await print_each(only, lambda script: one(script.stem, salt))


if __name__ == "__main__":
    arguments = tool_arguments("together", __doc__, salt="picks other pairs of lines").parse_args()
    asyncio.run(main(arguments.salt, arguments.only))
