"""Deliver every press (or every update) twice at the same moment and compare the runs.

    python -m tests.doubles [--only WORD] [--copies]

Each transcript of ``tests/scenarios/`` runs once as it is and once with each button press
made twice at once: two callback queries of one button, as a double tap sends them, handed
to the dispatcher together. With ``--copies`` every update of the transcript is handed to
it twice at once, with one update id (Telegram delivering an update again while its first
delivery is still being handled). Both runs go on until no job is due
(:func:`tests.faults.settle`); printed: each transcript whose tournaments end otherwise
(their exports, times left out), whose chats were told anything more or less than in the
plain run but for the answers to the second presses (a message sent or edited once more;
the order aside, as two presses handled at once may say their parts in another order), whose
messages show anything else at the end, or whose doubled run printed an error the plain
one did not.

A double tap's second press is answered as a press on a board that has moved on, or as a
button already pressed (SPEC §8: applied once); the same update's second delivery is not
answered at all. Found and kept: a press that only shows something (a bracket picked from
the list of one's tournaments) shows it twice, as two presses a second apart would."""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bot.sandbox.runner import Sandbox
from tests.bot.sandbox_run import differences
from tests.bot.test_restart_determinism import NEW_RUN, exports
from tests.bot.test_scenarios import SCENARIOS, options_of
from tests.faults import settle

ANSWER = "⚑"
"""How the sandbox prints the answer to a press (a second press is answered too)."""


class Doubling(Sandbox):
    """A sandbox that hands each press (``copies``: each update) to the dispatcher twice at
    the same moment."""

    def __init__(self, *, copies: bool, **options: Any) -> None:
        super().__init__(**options)
        self.copies = copies

    async def _feed(self, update: dict[str, Any]) -> None:
        if self.copies:
            second = update
        elif (query := update.get("callback_query")) is not None \
                and (presser := self.world.pending_callbacks.get(query["id"])) is not None:
            second = {**update, "update_id": self.world.next_update_id(),
                      "callback_query": {**query, "id": f"{query['id']}-2"}}
            self.world.pending_callbacks[f"{query['id']}-2"] = presser
        else:  # not a press, or a press answered already that ``! replay`` delivers again
            await super()._feed(update)
            return
        outcomes = await asyncio.gather(super()._feed(update), super()._feed(second),
                                        return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome


async def run(text: str, db_path: Path, sandbox_kind: type[Sandbox] = Sandbox,
              **kind_options: Any) -> tuple[list[str], list, list]:
    """The transcript's lines, then :func:`settle`: what was printed, every tournament's
    export and what every message of the bot shows at the end."""
    options, output = options_of(text), []
    sandbox = sandbox_kind(seed=int(options.get("seed", 0)), db_path=db_path,
                           language=options.get("lang", "ru"), emit=output.append,
                           **kind_options)
    await sandbox.start()
    try:
        for line in text.splitlines():
            await sandbox.line(line)
        await settle(sandbox)
        return output, await exports(sandbox), _shown(sandbox)
    finally:
        await sandbox.close()


async def one(name: str, copies: bool) -> list[str]:
    """What :func:`main` prints of transcript ``name`` (nothing when the runs agree)."""
    text = (SCENARIOS / f"{name}.txt").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder:
        plain, expected, shown = await run(text, Path(folder) / "plain.sqlite3")
        doubled, got, now_shown = await run(text, Path(folder) / "doubled.sqlite3", Doubling,
                                            copies=copies)
    errors = [line for line in doubled if line.startswith("!! error") and line not in plain]
    said = differences(_said(plain), _said(doubled))
    changed = differences(expected, got) + differences(shown, now_shown)
    if not changed and not said and not errors:
        return []
    return [f"{name}:", *(f"    said {d[:100]}" for d in said[:6]),
            *(f"    {d[:100]}" for d in changed[:8]), *(f"    {e}" for e in errors[:3])]


def _said(output: list[str]) -> list[str]:
    """What the chats were told, each thing said with how many times, in no order; but the
    answers to presses (a second press has its own)."""
    told = Counter(line for line in output if not line.startswith((ANSWER, "!! error")))
    return sorted(f"{count}× {line}" for line, count in told.items())


def _shown(sandbox: Sandbox) -> list:
    """Every message of the bot's as it shows at the end: its chat, id, text and buttons."""
    return [[message.chat_id, message.message_id, message.payload.get("text"),
             message.payload.get("caption"), message.payload.get("reply_markup")]
            for chat in sandbox.world.messages.values() for message in chat
            if message.from_bot]


async def main(only: str, copies: bool) -> None:
    for script in sorted(SCENARIOS.glob("*.txt")):
        if only in script.stem and NEW_RUN not in script.read_text(encoding="utf-8"):
            for line in await one(script.stem, copies):
                print(line, flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m tests.doubles",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="", help="only transcripts whose name has this")
    parser.add_argument("--copies", action="store_true",
                        help="every update twice, with one update id, instead of each press")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.only, arguments.copies))
