"""Running a script through the sandbox in a test: one helper for every test that does."""

from __future__ import annotations

import argparse
import difflib
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.sandbox.runner import Sandbox
from bot.scheduler import Scheduler, VirtualScheduler
from storage.repositories.jobs import Job
from tests.bot.test_restart_determinism import NEW_RUN

if TYPE_CHECKING:
    import pytest

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


@asynccontextmanager
async def opened(tmp_path: Path, *, seed: int = 1, language: str = "en", files: bool = False,
                 emit: Callable[[str], None] = lambda line: None) -> AsyncIterator[Sandbox]:
    """A started sandbox on a fresh database in ``tmp_path`` (its pictures and files saved
    under ``tmp_path / "out"`` when ``files``), closed after the block."""
    sandbox = Sandbox(seed=seed, db_path=tmp_path / "db.sqlite3", language=language,
                      out_dir=tmp_path / "out" if files else None, emit=emit)
    await sandbox.start()
    try:
        yield sandbox
    finally:
        await sandbox.close()


async def run_script(tmp_path: Path, script: str, *, seed: int = 1, language: str = "en",
                     files: bool = False) -> list[str]:
    """What the bot printed for ``script`` on a fresh database in ``tmp_path`` (its pictures
    and files saved under ``tmp_path / "out"`` when ``files``)."""
    output: list[str] = []
    async with opened(tmp_path, seed=seed, language=language, files=files,
                      emit=output.append) as sandbox:
        await sandbox.run_lines(script.splitlines())
    return output


def stops_before(kind: str) -> Callable[..., Awaitable[None]]:
    """A stand-in for ``Scheduler.stand_in`` (patch it in) that does every held job's work
    but ``kind``'s: there the process stops, nothing after the write that held it done, so
    the job is left for the next start."""
    stand_in = Scheduler.stand_in

    async def stopping(scheduler: Scheduler, job: Job, work: Awaitable[None]) -> None:
        if job.kind != kind:
            await stand_in(scheduler, job, work)
        else:
            work.close()
    return stopping


async def stopped_after(sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch, output: list[str],
                        kind: str, line: str) -> int:
    """``line``, with the process stopped right after the write that holds its ``kind`` job,
    then a restart whose due jobs run as a live start runs them: how many lines were printed
    before the restart."""
    with monkeypatch.context() as patch:
        patch.setattr(Scheduler, "stand_in", stops_before(kind))
        await sandbox.line(line)
    stopped = len(output)
    await sandbox.line("! restart")
    await sandbox.app.services.scheduler.run_following()
    return stopped


class ProcessDied(BaseException):
    """The process ends here: raised where a test stages a stop, past every handler and
    job runner (none catches more than ``Exception``), as nothing outlives a process."""


async def died_in(sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch, output: list[str],
                  line: str, owner: object, name: str, dying: Callable[..., Any]) -> int:
    """``line`` handled with ``owner.name`` replaced by ``dying``, which raises
    :class:`ProcessDied` where the process is to end (it must), then a restart whose due
    jobs run as a live start runs them: how many lines were printed before the restart."""
    with monkeypatch.context() as patch:
        patch.setattr(owner, name, dying)
        try:
            await sandbox.line(line)
        except ProcessDied:
            pass
        else:
            raise AssertionError(f"the process did not die in {line!r}")
    stopped = len(output)
    await sandbox.line("! restart")
    return stopped


def dies_following(kind: str) -> Callable[..., None]:
    """A stand-in for ``VirtualScheduler.follow`` (see :func:`died_in`) that dies where a
    job of ``kind`` is to follow the update that wrote it: the job is left for the next
    start."""
    follow = VirtualScheduler.follow

    def following(scheduler: VirtualScheduler, job: Job) -> None:
        if job.kind == kind:
            raise ProcessDied
        follow(scheduler, job)
    return following


def dies_holding(kind: str) -> Callable[..., Awaitable[None]]:
    """A stand-in for ``Scheduler.stand_in`` (see :func:`died_in`) that dies where the work
    of a held job of ``kind`` is to be done: nothing after the write that held it is done,
    and the job is left for the next start."""
    stopping = stops_before(kind)

    async def dying(scheduler: Scheduler, job: Job, work: Awaitable[None]) -> None:
        await stopping(scheduler, job, work)
        if job.kind == kind:
            raise ProcessDied
    return dying


def said(output: list[str]) -> list[str]:
    """Each printed line that is not a message's continuation (``→``/``✎`` messages, ``✗``,
    ``!!`` …), with its indented continuation lines joined to it: one string per message."""
    joined: list[str] = []
    for line in output:
        if line.startswith("  ") and joined:
            joined[-1] += "\n" + line
        else:
            joined.append(line)
    return joined


def scenario_until(name: str, line: str) -> list[str]:
    """Transcript ``name``'s lines before ``line``, comments left out: the set-up of a test
    that goes on from that point its own way."""
    lines = (SCENARIOS / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return [kept for kept in lines[:lines.index(line)] if not kept.startswith("#")]


def timeless(value: Any) -> Any:
    """An export without its times: a restarted process forgets the rate limiter's last
    minute and a fault's retries take seconds (see tests/bot/test_restart_determinism.py),
    which move times, not results."""
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items() if k not in {"time", "created_at"}}
    if isinstance(value, list):
        return [timeless(item) for item in value]
    return value


def differences(expected: Any, got: Any) -> list[str]:
    """The lines that differ between two exports, times left out (:func:`timeless`), as
    ``-``/``+`` lines of a unified diff of their indented JSON."""
    a, b = (json.dumps(timeless(e), indent=1, ensure_ascii=False, default=str).splitlines()
            for e in (expected, got))
    return [d for d in difflib.unified_diff(a, b, lineterm="", n=0)
            if d[:1] in "+-" and d[:3] not in ("+++", "---")]


def sandbox_command(db_path: Path, script: Path, seed: int | str,
                    language: str | None = None, module: str = "bot") -> list[str]:
    """``python -m bot sandbox`` (or ``module``'s, which runs it) running ``script`` on
    ``db_path``, resuming it from the last whole line a killed process wrote
    (``--resume``)."""
    return [sys.executable, "-m", module, "sandbox", "--db", str(db_path), "--seed", str(seed),
            *(["--lang", language] if language else []), "--script", str(script), "--resume"]


def run_and_kill(command: list[str], after_lines: int,
                 printed_lines: list[str] | None = None) -> int:
    """Run ``command`` until it has printed ``after_lines`` lines (kept in
    ``printed_lines``, when given), then SIGKILL it; return how many lines it printed (fewer
    when it finished first). The kill lands wherever the process is: between two lines or
    in the middle of one."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, encoding="utf-8")
    printed = 0
    for line in process.stdout:
        printed += 1
        if printed_lines is not None:
            printed_lines.append(line.rstrip("\n"))
        if printed == after_lines:
            os.kill(process.pid, signal.SIGKILL)
            break
    process.stdout.close()
    process.wait(timeout=120)
    return printed


async def print_each(only: str, found: Callable[[Path], Awaitable[list[str]]]) -> None:
    """What ``found`` says of each transcript whose name has ``only``, printed as it comes
    (the tools' ``main``); a transcript that starts a second run of the sandbox (``! new
    run``) is left out: the tools run one."""
    for script in sorted(SCENARIOS.glob("*.txt")):
        if only in script.stem and NEW_RUN not in script.read_text(encoding="utf-8"):
            for line in await found(script):
                print(line, flush=True)


def tool_arguments(module: str, doc: str, salt: str | None = None) -> argparse.ArgumentParser:
    """The command line of a tool that runs every transcript (``python -m tests.<module>``,
    described by the first line of its ``doc``): ``--only``, and ``--salt`` (helped by
    ``salt``) for a tool that picks its lines at random."""
    parser = argparse.ArgumentParser(prog=f"python -m tests.{module}",
                                     description=doc.split("\n")[0])
    if salt is not None:
        parser.add_argument("--salt", default="", help=salt)
    parser.add_argument("--only", default="", help="only transcripts whose name has this")
    return parser
