"""What a player does in private must not show to anyone else beyond what the game shows them.

Checked by non-interference: the fuzzed transcript is forked just before a player's line in
private (a card of their hand, a secret choice, pressed or typed), and the two forks carry
out that line and, in its stead, another button of the same private panel, each followed by
the same probes in the group (``/board``, ``/match``). When every match looks the same to
everyone but that player after the two lines — its number of logged actions, its public
view (the engine's ``view(None)``, what a game shows everyone) and the view of every other
seat (``view(seat)``: the opponent's hand) — every chat but the player's own private one
(and the organisers' who asked for copies of hidden choices, ``/hostcopy``) must have been
shown the same in both forks: anything else told a group, or the opponent, something only
the player's private line held. A fork is a copy of the sandbox's database, the world
included, started as after ``! restart``.
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
from tests.fuzz.generate import panel_labels

LEAKED = "leaked"
"""The kind of a finding: a chat was shown what only a private line held."""
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
    if private is None:
        return None
    said = private[2].strip().removeprefix("[").removesuffix("]")
    others = [label for label in panel_labels(world, private[1]) if label != said]
    if not others:
        return None
    return Fork(private[1], line, f"{private[1]}@dm: [{choose(others)}]")


async def leaked(sandbox: Sandbox, fork: Fork, group: str, folder: Path) -> str | None:
    """Carry out ``fork`` from where ``sandbox`` stands (before its line): the first chat
    shown otherwise in the two forks while every match looked the same to everyone else
    (:func:`_seen`); "" when every chat was shown the same; None when something differs
    that they may see (the game made something public, one line was refused and the other
    taken): nothing to compare."""
    probes = [probe.format(who=fork.who, group=group) for probe in PROBES]
    one = await _forked(sandbox, folder / "one.sqlite3", fork.who, [fork.line, *probes])
    other = await _forked(sandbox, folder / "other.sqlite3", fork.who,
                          [fork.instead, *probes])
    if one.seen != other.seen:
        return None
    mine = {f"{fork.who}@dm", *one.copies}
    for chat in sorted((one.shown.keys() | other.shown.keys()) - mine):
        told, instead = one.shown.get(chat, []), other.shown.get(chat, [])
        if told != instead:
            first = next((a, b) for a, b in zip([*told, ""], [*instead, ""], strict=False)
                         if a != b)
            return (f"with {fork.line!r} {chat} was shown {first[0]!r:.300},\n"
                    f"with {fork.instead!r} instead {first[1]!r:.300}")
    return ""


@dataclass(frozen=True)
class _Outcome:
    shown: dict[str, list[str]]
    """What each chat was shown, line by line, in the order the sandbox printed it."""
    seen: list[Any]
    """How every match looked to everyone but the writer after their line (:func:`_seen`)."""
    copies: set[str]
    """The private chats of organisers who get copies of hidden choices (/hostcopy)."""


async def _forked(sandbox: Sandbox, path: Path, who: str, lines: list[str]) -> _Outcome:
    """Carry out ``lines`` (the first of them ``who``'s line in private) on a copy of
    ``sandbox``'s database and world."""
    _copy(sandbox.db_path, path)
    printed: list[str] = []
    fork = Sandbox(db_path=path, language=sandbox.world.language, emit=printed.append)
    await fork.start()
    try:
        del printed[:]  # the restart's own output
        await fork.line(lines[0])
        seen, copies = await _seen(fork, fork.world.users[who].id)
        for line in lines[1:]:
            await fork.line(line)
    finally:
        await fork.close()
    return _Outcome(_by_chat(printed), seen, copies)


def _copy(source: Path, target: Path) -> None:
    for leftover in target.parent.glob(f"{target.name}*"):
        leftover.unlink()
    original, copy = sqlite3.connect(source), sqlite3.connect(target)
    try:
        original.backup(copy)
    finally:
        copy.close()
        original.close()


async def _seen(sandbox: Sandbox, writer: int) -> tuple[list[Any], set[str]]:
    """Every match as everyone but ``writer`` sees it: its number of logged actions, its
    public view (``view(None)``) and the view of each seat not the writer's; and the
    private chats of the organisers who asked for copies of hidden choices."""
    repos, matches = sandbox.app.services.repos, sandbox.app.services.matches
    seen, copies, number = [], set(), 1
    while tournament := await repos.tournaments.get(number):
        copies |= {sandbox.world.chat_label(host) for host in tournament.state.get(
            "host_copy", [])}
        for match in await repos.matches.for_tournament(number):
            state = await matches.current(match)
            views = [state.view(seat) for seat in (None, *(
                seat for seat, player in enumerate(match.players) if player != writer))
            ] if hasattr(state, "view") else []
            seen.append((match.id, len(await repos.matches.actions(match.id)), views))
        number += 1
    return seen, copies


def _by_chat(printed: list[str]) -> dict[str, list[str]]:
    """The printed lines by the chat they were shown in (a press's answer: its presser's
    private chat), but for the sandbox's own notes (``!!``, ``☰``)."""
    shown: dict[str, list[str]] = {}
    chat = None
    for line in printed:
        if not line.startswith("  "):
            head = _HEAD.match(line)
            chat = None if head is None else f"{head[2]}@dm" if head[1] == "⚑" else head[2]
        if chat is not None:
            shown.setdefault(chat, []).append(line)
    return shown
