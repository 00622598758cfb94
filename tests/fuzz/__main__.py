"""``python -m tests.fuzz --minutes N [--game G] [--seed S] [--out DIR]``."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import time
from pathlib import Path

from tests.fuzz.engine import Fuzzer, Report, write_findings
from tests.fuzz.generate import GAMES


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz")
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--game", choices=GAMES, help="only this game (default: all in turn)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=150, help="lines of play per transcript")
    parser.add_argument("--out", type=Path, default=Path("fuzz-out"),
                        help="where minimal transcripts of the findings are written")
    return parser.parse_args(argv)


def summary(report: Report, files: list[Path]) -> list[str]:
    lines = [f"lines fed: {report.lines_fed} in {report.transcripts} transcripts",
             "tournaments started: " + ", ".join(f"{g} {n}" for g, n in report.started.items()),
             "match actions logged: " + ", ".join(f"{g} {n}" for g, n in report.actions.items()),
             f"unhandled errors: {len(report.of_kind('unhandled'))}",
             f"broken limits: {len(report.of_kind('refused'))}",
             f"slow lines: {len(report.of_kind('slow'))}",
             f"changed what it must not: {len(report.of_kind('changed'))}",
             f"private lines forked: {report.forked} ({report.compared} compared),"
             f" shown where they must not: {len(report.of_kind('leaked'))}"]
    for finding, path in zip(report.findings.values(), files, strict=True):
        lines.append(f"  {finding.signature} ×{finding.count}: {path} "
                     f"({len(finding.lines)} lines)")
    return lines


async def main(args: argparse.Namespace) -> int:
    logging.getLogger().setLevel(logging.CRITICAL)  # failures are collected, not printed...
    logging.getLogger("bot").setLevel(logging.ERROR)  # ...but the bot's errors reach them
    deadline = time.monotonic() + args.minutes * 60
    fuzzer = Fuzzer(args.seed, (args.game,) if args.game else GAMES, args.steps)
    report = await fuzzer.run(lambda: time.monotonic() < deadline)
    for line in summary(report, write_findings(report, args.out)):
        print(line)
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse_args(sys.argv[1:]))))
