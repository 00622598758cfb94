"""``python -m bot``: polling or webhook with a token, else the sandbox (see README)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from bot.config import SUPPORTED_LANGUAGES, Settings, SettingsError, load_settings


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot")
    parser.add_argument("--lang", choices=SUPPORTED_LANGUAGES, default="ru",
                        help="the sandbox users' language when no BOT_TOKEN is set")
    sub = parser.add_subparsers(dest="mode")
    sandbox = sub.add_parser("sandbox", help="the offline chat sandbox")
    sandbox.add_argument("--script", type=Path, help="run this transcript and exit")
    sandbox.add_argument("--seed", type=int, default=0)
    sandbox.add_argument("--db", type=Path, help="SQLite file (default: a fresh temporary one)")
    sandbox.add_argument("--lang", choices=SUPPORTED_LANGUAGES, default=argparse.SUPPRESS,
                         help="as --lang before the mode (which it overrides)")
    sandbox.add_argument("--out", type=Path, help="save pictures and files here")
    sandbox.add_argument("--resume", action="store_true",
                         help="skip the script's lines an earlier run on this --db carried out")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.mode == "sandbox" or not settings.bot_token:
        from bot.sandbox.cli import run_sandbox

        if args.mode != "sandbox":
            print("No BOT_TOKEN is set: starting the offline sandbox. To go live, put the token"
                  " from @BotFather into .env (BOT_TOKEN=...) and run `python -m bot` again.")
            args = parse_args(["sandbox", "--lang", args.lang])
        return asyncio.run(run_sandbox(args))
    try:
        return _go_live(settings)
    except KeyboardInterrupt:  # Ctrl+C before polling took over the signals
        return 130


def _go_live(settings: Settings) -> int:
    """Run against Telegram; a start-up problem is one line on stderr (README,
    "Running live")."""
    from bot.app import StartupError
    from bot.live import run_live

    try:
        return asyncio.run(run_live(settings))
    except StartupError as error:
        print(error, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
