"""What a player does in private must not show in a group beyond what the game makes public.

Checked by non-interference: the fuzzed transcript is forked just before a player's line in
private (a card of their hand, a secret choice, pressed or typed), and the two forks carry
out that line and, in its stead, another button of the same private panel, each followed by
the same probes in the group (``/board``, ``/match``). When every match's public view
(the engine's ``view(None)``, what a game shows everyone) and its number of logged actions
are the same after the two lines, the groups must have been shown the same in both forks:
anything else told the group something only the player's private line held. A fork is a
copy of the sandbox's database, the world included, started as after ``! restart``.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.sandbox.runner import Sandbox
from bot.sandbox.world import World
from tests.fuzz.generate import buttons, with_buttons

LEAKED = "leaked"
"""The kind of a finding: a group was shown what only a private line held."""
PROBES = ("{who}@{group}: /board", "{who}@{group}: /match")
"""Lines after the private one that ask the group to be shown the match again."""
_PRIVATE_LINE = re.compile(r"^([a-z0-9_]+)@dm: (.+)$")
_HEAD = re.compile(r"^(→|✎|✗|♡|⊕|⚑) ([^\s:#]+)")
"""The first line of what the sandbox prints for one message: its sign and chat."""


@dataclass(frozen=True)
class Fork:
    """A private line to check: who wrote it, and another line of theirs in its stead."""

    who: str
    line: str
    instead: str

    @property
    def signature(self) -> str:
        """A leak found by this check: by what the private line is, a press or a message."""
        pressed = self.line.split(": ", 1)[1].startswith("[")
        return f"{LEAKED}: {'a press' if pressed else 'a message'} in private"


def fork_for(world: World, line: str, choose: Callable[[list[str]], str]) -> Fork | None:
    """The check of ``line`` (before it is carried out) when it is a user's line in private
    and their newest private panel has another button than the one it presses or types
    (``choose`` picks that button's label among them), else None."""
    private = _PRIVATE_LINE.match(line)
    if private is None or (user := world.users.get(private[1])) is None:
        return None
    panels = with_buttons(world, user.id, 10)
    said = private[2].strip().removeprefix("[").removesuffix("]")
    others = [b["text"] for b in buttons(panels[-1]) if b["text"] != said] if panels else []
    if not others:
        return None
    return Fork(private[1], line, f"{private[1]}@dm: [{choose(others)}]")


async def leaked(sandbox: Sandbox, fork: Fork, group: str, folder: Path) -> str | None:
    """Carry out ``fork`` from where ``sandbox`` stands (before its line): how the groups were
    shown otherwise in the two forks while every match's public view stayed the same; ""
    when they were shown the same; None when the views differ (the game made something
    public, or one line was refused and the other taken): nothing to compare."""
    probes = [probe.format(who=fork.who, group=group) for probe in PROBES]
    one = await _forked(sandbox, folder / "one.sqlite3", [fork.line, *probes])
    other = await _forked(sandbox, folder / "other.sqlite3", [fork.instead, *probes])
    if one.public != other.public:
        return None
    if one.shown == other.shown:
        return ""
    first = next((a, b) for a, b in zip([*one.shown, ""], [*other.shown, ""], strict=False)
                 if a != b)
    return (f"with {fork.line!r} the group was shown {first[0]!r:.300},\n"
            f"with {fork.instead!r} instead {first[1]!r:.300}")


@dataclass(frozen=True)
class _Outcome:
    shown: list[str]
    """What the groups were shown, line by line, in the order the sandbox printed it."""
    public: list[Any]
    """Every match's public view and number of logged actions after the private line."""


async def _forked(sandbox: Sandbox, path: Path, lines: list[str]) -> _Outcome:
    """Carry out ``lines`` on a copy of ``sandbox``'s database and world."""
    _copy(sandbox.db_path, path)
    printed: list[str] = []
    fork = Sandbox(db_path=path, language=sandbox.world.language, emit=printed.append)
    await fork.start()
    try:
        del printed[:]  # the restart's own output
        await fork.line(lines[0])
        public = await _public(fork)
        for line in lines[1:]:
            await fork.line(line)
    finally:
        await fork.close()
    return _Outcome(_in_groups(printed), public)


def _copy(source: Path, target: Path) -> None:
    for leftover in target.parent.glob(f"{target.name}*"):
        leftover.unlink()
    original, copy = sqlite3.connect(source), sqlite3.connect(target)
    try:
        original.backup(copy)
    finally:
        copy.close()
        original.close()


async def _public(sandbox: Sandbox) -> list[Any]:
    repos, matches = sandbox.app.services.repos, sandbox.app.services.matches
    found, number = [], 1
    while await repos.tournaments.get(number):
        for match in await repos.matches.for_tournament(number):
            state = await matches.current(match)
            view = state.view(None) if hasattr(state, "view") else None
            found.append((match.id, len(await repos.matches.actions(match.id)), view))
        number += 1
    return found


def _in_groups(printed: list[str]) -> list[str]:
    """The printed lines of messages in groups: not those in private chats, nor a press's
    answer (shown to its presser only), nor the sandbox's own notes (``!!``, ``☰``)."""
    shown, public = [], False
    for line in printed:
        if not line.startswith("  "):
            head = _HEAD.match(line)
            public = head is not None and head[1] != "⚑" and not head[2].endswith("@dm")
        if public:
            shown.append(line)
    return shown
