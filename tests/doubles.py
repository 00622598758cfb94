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
button already pressed (applied once); the same update's second delivery is not
answered at all. A press that only shows something (a bracket picked from the list of one's
tournaments) showed it twice; the second tap is answered that it is shown above now
(``Services.second_tap``)."""

from __future__ import annotations

import asyncio
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bot.sandbox.runner import Sandbox
from tests.bot.sandbox_run import differences, print_each, tool_arguments
from tests.bot.test_restart_determinism import exports
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


Run = tuple[list[str], list, list]
"""What a run printed, every tournament's export and what each bot message shows at the end."""


async def run(text: str, db_path: Path, sandbox_kind: type[Sandbox] = Sandbox, *,
              together: int | None = None, **kind_options: Any) -> Run:
    """The transcript's lines (line ``together``, counted from 0, handed in with the next
    at the same moment), then :func:`settle`."""
    options, output = options_of(text), []
    sandbox = sandbox_kind(seed=int(options.get("seed", 0)), db_path=db_path,
                           language=options.get("lang", "ru"), emit=output.append,
                           **kind_options)
    await sandbox.start()
    try:
        lines, number = text.splitlines(), 0
        while number < len(lines):
            if number == together:
                await lines_at_once(sandbox, lines[number], lines[number + 1])
                number += 2
                continue
            await sandbox.line(lines[number])
            number += 1
        await settle(sandbox)
        return output, await exports(sandbox), _shown(sandbox)
    finally:
        await sandbox.close()


async def lines_at_once(sandbox: Sandbox, first: str, second: str) -> None:
    """Two lines of users handed to the bot together, as two updates that arrive at once."""
    await asyncio.gather(*(sandbox._carry_out(sandbox._event(line.strip()))
                           for line in (first, second)))
    for _ in range(2):
        await sandbox._line_done()


async def one(name: str, copies: bool) -> list[str]:
    """What :func:`main` prints of transcript ``name`` (nothing when the runs agree)."""
    text = (SCENARIOS / f"{name}.txt").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder:
        plain = await run(text, Path(folder) / "plain.sqlite3")
        doubled = await run(text, Path(folder) / "doubled.sqlite3", Doubling, copies=copies)
    return compared(f"{name}:", plain, doubled)


def compared(title: str, plain: Run, other: Run) -> list[str]:
    """``title`` and where ``other`` ends otherwise than ``plain``: what the chats were told
    more or less, the exports' and the messages' differences, the errors it printed more;
    nothing when they agree."""
    errors = [line for line in other[0] if line.startswith("!! error") and line not in plain[0]]
    said = differences(_said(plain[0]), _said(other[0]))
    changed = differences(plain[1], other[1]) + differences(plain[2], other[2])
    if not changed and not said and not errors:
        return []
    return [title, *(f"    said {d[:100]}" for d in said[:6]),
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
    await print_each(only, lambda script: one(script.stem, copies))


if __name__ == "__main__":
    parser = tool_arguments("doubles", __doc__)
    parser.add_argument("--copies", action="store_true",
                        help="every update twice, with one update id, instead of each press")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.only, arguments.copies))
