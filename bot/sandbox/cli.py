"""The sandbox from the command line: a transcript file, or lines typed one by one."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.sandbox.runner import Sandbox

PROMPT = "> "
INTRO = ("Sandbox: type lines such as `alice@cup: /new cup Test Cup` or `! advance 1h`"
         " (see README, 'The sandbox'). Language: {lang}; start with --lang ru|en|fi for"
         " another, or type `alice@cup: /lang` to switch a group. Ctrl-D to quit.")


async def run_sandbox(args: argparse.Namespace) -> int:
    logging.getLogger().setLevel(logging.WARNING)
    sandbox = Sandbox(seed=args.seed, db_path=args.db, language=args.lang, out_dir=args.out,
                      emit=lambda line: print(line, flush=True))
    await sandbox.start()
    try:
        if args.script:
            with args.script.open(encoding="utf-8") as handle:
                errors = await sandbox.run_lines(handle, resume=args.resume)
            return 1 if errors else 0
        print(INTRO.format(lang=args.lang), flush=True)
        while True:
            line = await asyncio.to_thread(_read_line)
            if line is None:
                return 0
            await sandbox.line(line)
    finally:
        await sandbox.close()


def _read_line() -> str | None:
    try:
        return input(PROMPT if sys.stdin.isatty() else "")
    except EOFError:
        return None
