"""Runs generated transcripts through the sandbox and collects what went wrong.

A failure is told by its kind (``bot.sandbox.failures``): ``line`` failures are the
fuzzer's own odd lines and count for nothing; ``unhandled`` errors are deduplicated by
exception type and the innermost frames of the project's code; ``refused`` sends (broken
limits) by the method and Telegram's message; ``changed``, a line after which tournaments
export otherwise than they must (:mod:`tests.fuzz.unchanged`), by the line; ``leaked``, a
private line that showed another chat more than the game shows it (:mod:`tests.fuzz.secret`),
by the line. Each but a slow line and a leak is shrunk to a minimal transcript.
"""

from __future__ import annotations

import random
import re
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from bot.sandbox.failures import REFUSED, UNHANDLED, Failure
from bot.sandbox.runner import Sandbox
from tests.fuzz.generate import GAMES, Plan, new_plan, setup, step
from tests.fuzz.secret import LEAKED, Fork, fork_for, leaked
from tests.fuzz.unchanged import CHANGED, carried_out, change_signature

PROJECT_DIRS = ("bot/", "games/", "storage/")
SHRINK_SECONDS = 30.0
SLOW_SECONDS = 5.0
"""A line the bot takes longer than this to answer is a finding (kind ``slow``): every line
is one update (and the jobs it leaves), which a live bot answers in milliseconds."""
SLOW = "slow"
FORKS_A_TRANSCRIPT = 2
"""How many private lines of a transcript are checked for leaks (each costs two forks)."""
FORK_SHARE = 0.25
"""The share of private lines with another button to press that are checked, until then."""
UNSHRUNK = (SLOW, LEAKED)
"""Kinds kept whole: a slow line is slow to replay too, a leak needs its forks."""


@dataclass
class Finding:
    kind: str
    signature: str
    message: str
    trace: str
    seed: int
    language: str
    lines: list[str]
    count: int = 1


@dataclass
class Report:
    lines_fed: int = 0
    transcripts: int = 0
    forked: int = 0
    """Private lines checked for leaks (:mod:`tests.fuzz.secret`)."""
    compared: int = 0
    """Those whose two forks left every match alike to everyone else, so were compared."""
    started: dict[str, int] = field(default_factory=dict)
    actions: dict[str, int] = field(default_factory=dict)
    findings: dict[str, Finding] = field(default_factory=dict)

    def of_kind(self, kind: str) -> list[Finding]:
        return [f for f in self.findings.values() if f.kind == kind]


def signature(failure: Failure) -> str:
    if failure.kind == REFUSED:
        text = re.sub(r"^Telegram refuses (\w+)(?: to \S+)?:", r"\1:", failure.message)
        return "refused: " + re.sub(r"\d+", "N", text)
    frames = [f"{frame.filename.split('/')[-1]}:{frame.name}"
              for frame in _frames(failure.trace)
              if any(part in frame.filename for part in PROJECT_DIRS)]
    error_type = failure.message.split(":")[0]
    return f"unhandled: {error_type} at {' < '.join(reversed(frames[-3:]))}"


def _frames(trace: str) -> list[traceback.FrameSummary]:
    found = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', trace)
    return [traceback.FrameSummary(path, int(line), name) for path, line, name in found]


class Fuzzer:
    def __init__(self, seed: int, games: tuple[str, ...] = GAMES, steps: int = 150) -> None:
        self.rng = random.Random(seed)
        self.games = games
        self.steps = steps
        self.report = Report()
        self._tmp = tempfile.TemporaryDirectory(prefix="fuzz-")

    async def run(self, keep_going: Callable[[], bool]) -> Report:
        number = 0
        while keep_going():
            game = self.games[number % len(self.games)]
            await self.transcript(game, number)
            number += 1
        for finding in self.report.findings.values():
            if finding.kind not in UNSHRUNK:
                finding.lines = await shrink(finding, Path(self._tmp.name))
        return self.report

    async def transcript(self, game: str, number: int) -> None:
        seed, language = self.rng.randrange(10**6), self.rng.choice(("ru", "en", "fi"))
        plan = new_plan(self.rng, game, number)
        sandbox = Sandbox(seed=seed, db_path=Path(self._tmp.name) / f"t{number}.sqlite3",
                          language=language, emit=lambda line: None)
        await sandbox.start()
        forks = 0
        try:
            pending = setup(self.rng, plan)
            for index in range(len(pending) + self.steps):
                line = pending[index] if index < len(pending) else step(self.rng, plan,
                                                                       sandbox.world)
                if forks < FORKS_A_TRANSCRIPT \
                        and (fork := fork_for(sandbox.world, line, self.rng.choice)) \
                        and self.rng.random() < FORK_SHARE:
                    forks += 1
                    await self._fork(sandbox, fork, plan, seed, language)
                plan.lines.append(line)
                await self._feed(sandbox, line, seed, language, plan.lines)
            await self._count_play(sandbox, game)
        finally:
            await sandbox.close()
        self.report.transcripts += 1

    async def _fork(self, sandbox: Sandbox, fork: Fork, plan: Plan, seed: int,
                    language: str) -> None:
        """Check ``fork``'s private line for a leak before ``sandbox`` carries it out."""
        said = await leaked(sandbox, fork, plan.group, Path(self._tmp.name))
        self.report.forked += 1
        self.report.compared += said is not None
        if said:
            self._found(LEAKED, fork.signature, said, seed=seed, language=language,
                        lines=[*plan.lines, fork.line])

    async def _feed(self, sandbox: Sandbox, line: str, seed: int, language: str,
                    lines: list[str]) -> None:
        before, started = len(sandbox.failures), time.monotonic()
        changed = await carried_out(sandbox, line)
        self.report.lines_fed += 1
        found = partial(self._found, seed=seed, language=language, lines=lines)
        if (seconds := time.monotonic() - started) > SLOW_SECONDS:
            word = line.split(": ", 1)[-1].split(" ")[0]  # the command or word
            found(SLOW, f"{SLOW}: {word}", f"{seconds:.1f} s: {line}")
        if changed:
            found(CHANGED, change_signature(lines), changed)
        new = sandbox.failures[before:]
        refused = any(failure.kind == REFUSED for failure in new)
        for failure in new:
            if failure.kind not in (UNHANDLED, REFUSED) or (refused and _seen_by_bot(failure)):
                continue  # the fuzzer's own odd line, or the refusal seen from the bot
            found(failure.kind, signature(failure), failure.message, failure.trace)

    def _found(self, kind: str, key: str, message: str, trace: str = "", *, seed: int,
               language: str, lines: list[str]) -> None:
        """Keep a finding by its signature ``key``, or count it again when it is known."""
        if key in self.report.findings:
            self.report.findings[key].count += 1
        else:
            self.report.findings[key] = Finding(kind, key, message, trace, seed, language,
                                                list(lines))

    async def _count_play(self, sandbox: Sandbox, game: str) -> None:
        repos = sandbox.app.services.repos
        number = 1
        while tournament := await repos.tournaments.get(number):
            if tournament.started:
                self.report.started[game] = self.report.started.get(game, 0) + 1
            for match in await repos.matches.for_tournament(tournament.id):
                played = len(await repos.matches.actions(match.id))
                self.report.actions[game] = self.report.actions.get(game, 0) + played
            number += 1


async def reproduces(finding: Finding, lines: list[str], folder: Path) -> bool:
    path = folder / "shrink.sqlite3"
    for leftover in folder.glob("shrink.sqlite3*"):
        leftover.unlink()
    sandbox = Sandbox(seed=finding.seed, db_path=path, language=finding.language,
                      emit=lambda line: None)
    await sandbox.start()
    try:
        for number, line in enumerate(lines, start=1):
            changed = await carried_out(sandbox, line)
            if finding.kind == CHANGED:
                if changed and change_signature(lines[:number]) == finding.signature:
                    return True
            elif any(signature(f) == finding.signature for f in sandbox.failures):
                return True
        return False
    finally:
        await sandbox.close()


async def shrink(finding: Finding, folder: Path, budget: float = SHRINK_SECONDS) -> list[str]:
    """Drop chunks of lines (halves, then quarters, ... single lines) while the same failure
    still happens, until nothing more can go or the time budget is spent."""
    lines, deadline = list(finding.lines), time.monotonic() + budget
    chunk = max(1, len(lines) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        start, removed = 0, False
        while start < len(lines) and time.monotonic() < deadline:
            candidate = lines[:start] + lines[start + chunk:]
            if candidate and await reproduces(finding, candidate, folder):
                lines, removed = candidate, True
            else:
                start += chunk
        if not removed:
            chunk //= 2
    return lines


def write_findings(report: Report, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for number, finding in enumerate(report.findings.values(), start=1):
        path = out_dir / f"{finding.kind}-{number}.txt"
        header = [f"# seed: {finding.seed}", f"# lang: {finding.language}",
                  f"# {finding.signature} (seen {finding.count}×)",
                  *(f"# {line}" for line in finding.message.splitlines()),
                  f"# python -m bot sandbox --seed {finding.seed} --lang {finding.language}"
                  f" --script {path.name}",
                  *(f"#   {line}" for line in finding.trace.splitlines())]
        path.write_text("\n".join(header + finding.lines) + "\n", encoding="utf-8")
        written.append(path)
    return written


def _seen_by_bot(failure: Failure) -> bool:
    """Whether ``failure`` is the bot's side of a refusal Telegram made in the same line:
    the TelegramBadRequest a handler raised, or a job that failed with it (logged)."""
    return failure.message.startswith("TelegramBadRequest") \
        or ": TelegramBadRequest: " in failure.message
