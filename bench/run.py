"""Drive N synthetic updates through the real dispatcher and through a bare echo bot, then
the game mix (match actions, pictures, reports, a scheduled start) through the sandbox.

    python -m bench.run [--updates N] [--games N] [--matches N] [--concurrency C[,C...]]
                        [--warmup W] [--api-ms MS] [--beside] [--anatomy] [--profile]

Prints updates/s, p50 and p99 latency per run and per kind of game update, the ratios to
the echo bot of the same run and the peak RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import os
import pstats
import resource
import sys
import time
import traceback
from pathlib import Path

from bench.anatomy import print_anatomy
from bench.games import ONWARD, GameRun, run_games
from bench.harness import BotTarget, EchoTarget, Options, Result, Target, drive, make_factory
from bench.workload import MIX
from bot.sending import GLOBAL_LIMIT, GROUP_LIMIT


def _concurrency(text: str) -> list[int]:
    try:
        levels = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError("give whole numbers, e.g. 1,16") from None
    if not levels or any(level < 1 for level in levels):
        raise argparse.ArgumentTypeError("every concurrency level must be at least 1")
    return levels


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n")[0])
    parser.add_argument("--updates", type=int, default=2000,
                        help="measured updates per run (default 2000)")
    parser.add_argument("--concurrency", type=_concurrency, default=[1, 16],
                        help="tasks feeding updates at once; a comma list runs each level "
                             "(default 1,16)")
    parser.add_argument("--warmup", type=int, default=None,
                        help="unmeasured updates fed first (default: updates/10, at least 100)")
    parser.add_argument("--groups", type=int, default=50, help="sandbox groups (default 50)")
    parser.add_argument("--players", type=int, default=400, help="sandbox users (default 400)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1000,
                        help="measured updates of the game mix per concurrency level "
                             "(default 1000; 0 skips it)")
    parser.add_argument("--matches", type=int, default=40,
                        help="darts matches kept live during the game mix (default 40)")
    parser.add_argument("--api-ms", type=float, default=0.0,
                        help="milliseconds each Bot API call waits for its answer, as a call "
                             "to Telegram waits for the network (default 0: the bot's own "
                             "work only; with a wait, concurrency overlaps the waits)")
    parser.add_argument("--beside", action="store_true",
                        help="at concurrency 1, also feed the echo bot one update after each "
                             "update of the game mix and give each kind's p50 against it")
    parser.add_argument("--anatomy", action="store_true",
                        help="at concurrency 1, also say where each kind of the game mix spends"
                             " its time: Bot API calls, write transactions, the rest")
    parser.add_argument("--profile", action="store_true",
                        help="profile the bot's measured run at the first concurrency level "
                             "and print the top functions")
    args = parser.parse_args(argv)
    if args.updates < 1 or args.groups < 1 or args.players < 1:
        parser.error("--updates, --groups and --players must be at least 1")
    if args.warmup is None:
        args.warmup = max(100, args.updates // 10)
    return args


def peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024  # bytes vs KiB


def current_rss_mb() -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


async def run_target(target: Target, streams: dict[str, list], concurrency: int,
                     profile: bool) -> Result:
    await target.start()
    try:
        for update in target.validate(streams["setup"]):
            await target.feed(update)
        if isinstance(target, BotTarget):
            await target.check_setup()
        await drive(target, target.validate(streams["warmup"]), concurrency)
        measured = target.validate(streams["measured"])
        gc.collect()
        virtual_before = target.virtual_seconds()
        profiler = cProfile.Profile() if profile else None
        if profiler:
            profiler.enable()
        result = await drive(target, measured, concurrency)
        if profiler:
            profiler.disable()
            _print_profile(profiler)
        if virtual_before is not None:
            result.virtual_seconds = target.virtual_seconds() - virtual_before
        result.rss_mb = current_rss_mb()
        return result
    finally:
        await target.close()


def _print_profile(profiler: cProfile.Profile) -> None:
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(25)
    print("\nprofile of the bot's measured run (main thread, sorted by own time):")
    print("\n".join(out.getvalue().splitlines()[:45]))


async def _games(args: argparse.Namespace, level: int, profile: bool) -> GameRun:
    profiler = cProfile.Profile() if profile else None
    run = await run_games(seed=args.seed, updates=args.games, warmup=max(100, args.games // 5),
                          concurrency=level, matches=args.matches,
                          api_latency=args.api_ms / 1000, profiler=profiler,
                          echo=args.beside, anatomy=args.anatomy and level == 1)
    if profiler:
        print("\n(the game mix's measured updates)")
        _print_profile(profiler)
    return run


def print_games(run: GameRun, echo: Result) -> None:
    """Per kind of game update: throughput (one after the other), p50, p99 and their ratios
    to the echo run of the same level; at concurrency 1 also the p50 ratio to the echo fed
    beside the mix (:class:`bench.harness.EchoProbe`)."""
    total = sum(len(v) for k, v in run.samples.items() if k not in ("scheduled_start", ONWARD))
    print(f"\ngame mix at concurrency {run.concurrency}: {total} measured updates in "
          f"{run.seconds:.2f} s wall ({total / run.seconds:.0f} updates/s, bench driver "
          f"included), {run.live} matches live at the end; echo run p50 "
          f"{echo.percentile(50):.3f} ms, p99 {echo.percentile(99):.3f} ms")
    beside = Result("echo", run.concurrency, run.echo, sum(run.echo), 0, 0, 0) \
        if run.echo else None
    if beside is not None:
        print(f"echo beside the mix (one echo update after each of the mix's, {len(run.echo)}):"
              f" p50 {beside.percentile(50):.3f} ms, p99 {beside.percentile(99):.3f} ms "
              f"(column p50/beside)")
    head = (f"{'kind':<16}{'updates':>8}{'upd/s':>9}{'p50 ms':>9}{'p99 ms':>9}"
            f"{'p50/echo':>10}{'p99/echo':>10}" + (f"{'p50/beside':>12}" if beside else "")
            + f"{'refused':>9}{'unchanged':>11}")
    print(head)
    print("-" * len(head))
    for kind, samples in sorted(run.samples.items()):
        as_result = Result(kind, run.concurrency, samples, sum(samples), 0, 0, 0)
        p50 = as_result.percentile(50)
        print(f"{kind:<16}{len(samples):>8}{as_result.per_second:>9.0f}"
              f"{p50:>9.3f}{as_result.percentile(99):>9.3f}"
              f"{p50 / echo.percentile(50):>10.1f}"
              f"{as_result.percentile(99) / echo.percentile(99):>10.1f}"
              + (f"{p50 / beside.percentile(50):>12.1f}" if beside else "")
              + f"{run.failed.get(kind, 0):>9}{run.unchanged.get(kind, 0):>11}")


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def print_table(results: list[Result]) -> None:
    head = (f"{'name':<6}{'conc':>5}{'updates':>9}{'seconds':>9}{'updates/s':>11}"
            f"{'p50 ms':>9}{'p99 ms':>9}{'API calls':>11}{'unhandled':>11}{'errors':>8}"
            f"{'RSS MB':>8}")
    print(head)
    print("-" * len(head))
    for r in results:
        print(f"{r.name:<6}{r.concurrency:>5}{r.updates:>9}{r.seconds:>9.3f}"
              f"{r.per_second:>11.1f}{r.percentile(50):>9.3f}{r.percentile(99):>9.3f}"
              f"{r.calls:>11}{r.unhandled:>11}{r.errors:>8}{_fmt(r.rss_mb, '.1f'):>8}")


def print_ratios(results: list[Result]) -> None:
    by_level: dict[int, dict[str, Result]] = {}
    for r in results:
        by_level.setdefault(r.concurrency, {})[r.name] = r
    print()
    for level, pair in by_level.items():
        bot, echo = pair.get("bot"), pair.get("echo")
        if not bot or not echo:
            continue
        print(f"bot/echo at concurrency {level}: throughput {bot.per_second / echo.per_second:.3f}x"
              f" ({echo.per_second / bot.per_second:.1f}x slower), p50 "
              f"{bot.percentile(50) / echo.percentile(50):.1f}x, p99 "
              f"{bot.percentile(99) / echo.percentile(99):.1f}x")


async def main(args: argparse.Namespace) -> int:
    rss_at_start = current_rss_mb()
    options = Options(seed=args.seed, groups=args.groups, players=args.players,
                      api_latency=args.api_ms / 1000)
    factory = make_factory(options)
    streams = {"setup": factory.setup(), "warmup": factory.mixed(args.warmup),
               "measured": factory.mixed(args.updates)}

    mix = ", ".join(f"{kind} {share}%" for kind, share in MIX)
    print(f"bench: {args.updates} measured updates per run after {args.warmup} warm-up "
          f"(and {len(streams['setup'])} /new to set up), {args.groups} groups, "
          f"{args.players} players, seed {args.seed}")
    print(f"mix: {mix}")
    print("bot: bot.app.build() with SandboxSession, a real SQLite file (WAL) in a temp dir; "
          "echo: bare aiogram Dispatcher, one handler message.answer(text), same session")
    if args.api_ms:
        print(f"each Bot API call waits {args.api_ms:g} ms for its answer (the network)")
    print(f"rate limits ({GROUP_LIMIT[0]}/{GROUP_LIMIT[1]:.0f}s per group, {GLOBAL_LIMIT[0]}/"
          f"{GLOBAL_LIMIT[1]:.0f}s overall) wait on a VirtualClock: their waits advance virtual "
          "time instead of sleeping,\nso these figures are the bot's own handling cost, not "
          "Telegram's limits. Latency = one feed_update, perf_counter.\n")

    results: list[Result] = []
    games: list[GameRun] = []
    started = time.perf_counter()
    for i, level in enumerate(args.concurrency):
        for target in (EchoTarget(options), BotTarget(options)):
            profile = args.profile and i == 0 and isinstance(target, BotTarget)
            results.append(await run_target(target, streams, level, profile))
        if args.games:
            games.append(await _games(args, level, args.profile and i == 0))
    print_table(results)
    print_ratios(results)
    echo = {r.concurrency: r for r in results if r.name == "echo"}
    for run in games:
        print_games(run, echo[run.concurrency])
        if run.anatomy is not None:
            print_anatomy(run.anatomy, run.samples, run.echo)
    for r in results:
        if r.virtual_seconds is not None:
            print(f"{r.name} at concurrency {r.concurrency}: the rate limiter would have spread "
                  f"these sends over {r.virtual_seconds:.0f} s of Telegram time (virtual, not slept)")
    print(f"\npeak RSS of the process (ru_maxrss): {peak_rss_mb():.1f} MB "
          f"(RSS {_fmt(rss_at_start, '.1f')} MB after the imports, before any run); "
          f"whole benchmark took {time.perf_counter() - started:.1f} s")
    failed = [r for r in results if r.errors]
    for r in failed:
        print(f"\n{r.name} at concurrency {r.concurrency}: {r.errors} updates raised; "
              f"the first:\n{r.first_error}", file=sys.stderr)
    return 1 if failed else 0


def cli() -> None:
    args = parse_args()
    try:
        code = asyncio.run(main(args))
    except Exception:
        # A failure inside bot.app.build() after the database opened leaves aiosqlite's
        # non-daemon thread running, and the interpreter would wait for it forever.
        traceback.print_exc()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(2)
    sys.exit(code)


if __name__ == "__main__":
    cli()
