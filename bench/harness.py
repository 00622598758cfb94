"""The two targets (the real bot and a bare aiogram echo bot) and the loop that drives them.

Both targets answer Bot API calls with the same :class:`SandboxSession` over identical
worlds, so the difference between them is the bot's own work: middlewares, routers,
SQLite, the rate limiter and the handlers.
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.dispatcher.event.bases import UNHANDLED
from aiogram.methods import TelegramMethod
from aiogram.types import Message, Update

from bench.workload import UpdateFactory, populate
from bot.app import SANDBOX_TOKEN, App, build
from bot.clock import VirtualClock
from bot.config import load_settings
from bot.sandbox.runner import SANDBOX_EPOCH
from bot.sandbox.session import SandboxSession
from bot.sandbox.world import World
from bot.scheduler import VirtualScheduler
from bot.telegram_session import TelegramSession


def request_builder(wire: AiohttpSession) -> Callable[[Bot, TelegramMethod], Any]:
    """What ``wire``'s own ``make_request`` calls to build a call's request: the bot's
    session a JSON body or, for a file, a form (``build_request``), aiogram's a form."""
    return wire.build_request if isinstance(wire, TelegramSession) else wire.build_form_data


class CountingSession(SandboxSession):
    """The sandbox session, counting the Bot API calls that reach it; with ``latency``
    (seconds) each call waits that long before it is answered, as a call to Telegram waits
    for the network (0: answered at once, so the figures are the bot's own CPU work).

    ``wire`` is the session the target uses live: each call's request is built by it (what
    its ``make_request`` posts: :func:`request_builder`) and each answer is parsed by it from
    JSON text, so a call costs the client's work of a live call on top of the sandbox's own
    (checking and storing what was sent, which stands in for Telegram's)."""

    def __init__(self, world: World, latency: float = 0.0, *,
                 wire: AiohttpSession | None = None, **options: Any) -> None:
        super().__init__(world, **({"emit": lambda line: None} | options))
        self.calls = 0
        self.latency = latency
        self.wire = wire
        self.build_request = None if wire is None else request_builder(wire)
        self.on_call: Callable[[float], None] | None = None
        """When set, told the seconds of each call from the session's entry: the bot's
        request middlewares (rate limiter, sending layer), the answer and its parsing."""

    async def __call__(self, bot, method, timeout=None):
        if self.on_call is None:
            return await super().__call__(bot, method, timeout)
        started = time.perf_counter()
        try:
            return await super().__call__(bot, method, timeout)
        finally:
            self.on_call(time.perf_counter() - started)

    async def make_request(self, bot, method, timeout=None):
        self.calls += 1
        if self.build_request is not None:
            self.build_request(bot, method)
        if self.latency:
            await asyncio.sleep(self.latency)
        return await super().make_request(bot, method, timeout)

    def answer(self, bot, method, result):
        if self.wire is None:
            return super().answer(bot, method, result)
        content = json.dumps({"ok": True, "result": result}, ensure_ascii=False)
        return self.wire.check_response(bot, method, 200, content).result

    async def close(self) -> None:
        if self.wire is not None:
            await self.wire.close()


@dataclass
class Options:
    seed: int = 1
    groups: int = 50
    players: int = 400
    api_latency: float = 0.0
    """Seconds each Bot API call waits for its answer (the network to Telegram)."""


def make_world(options: Options) -> World:
    return make_factory(options).world


def make_factory(options: Options) -> UpdateFactory:
    """Updates from the users of a new populated world (each target's world is made the same
    way from the same seed, so they know the same chats and users)."""
    world = World(random.Random(options.seed), "ru")
    population = populate(world, groups=options.groups, players=options.players,
                          seed=options.seed)
    return UpdateFactory(world, population, seed=options.seed, date=SANDBOX_EPOCH)


class Target:
    name = "?"
    bot: Bot
    dispatcher: Dispatcher
    session: CountingSession

    async def start(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    def validate(self, raw: list[dict[str, Any]]) -> list[Update]:
        """Parse raw updates for this target's bot (not timed: polling does this too)."""
        return [Update.model_validate(d, context={"bot": self.bot}) for d in raw]

    async def feed(self, update: Update) -> Any:
        return await self.dispatcher.feed_update(self.bot, update)

    def virtual_seconds(self) -> float | None:
        return None


class EchoTarget(Target):
    """A bare aiogram bot: one handler that echoes the text back; no middlewares, no DB."""

    name = "echo"

    def __init__(self, options: Options) -> None:
        self.options = options

    async def start(self) -> None:
        self.session = CountingSession(make_world(self.options), self.options.api_latency,
                                       wire=AiohttpSession())  # aiogram's own
        self.bot = Bot(SANDBOX_TOKEN, session=self.session)
        self.dispatcher = Dispatcher()

        @self.dispatcher.message()
        async def echo(message: Message) -> None:
            await message.answer(message.text or "echo")

    async def close(self) -> None:
        await self.bot.session.close()


class EchoProbe:
    """The echo bot fed one plain group message right after each measured update of the game
    mix, so each game kind is compared with echo updates handled at the same moments (the
    machine's load moves between the phases of a run, and the registration phase's echo
    may have met another load than the game mix)."""

    BATCH = 500

    def __init__(self, options: Options) -> None:
        self.options = options
        self.target = EchoTarget(options)
        self.samples: list[float] = []
        self.on_update: Callable[[float, float], None] | None = None
        """Told each update's CPU seconds (and 0 for picture workers: the echo has none)."""
        self._ready: list[Update] = []

    async def start(self) -> None:
        await self.target.start()
        self._factory = make_factory(self.options)
        population = self._factory.pop
        self._speakers = [(player, group) for group in population.groups
                          for player in population.players[:4]]

    async def probe(self) -> None:
        """Feed one echo update and keep its latency (its parsing is not timed)."""
        if not self._ready:
            self._ready = self.target.validate([
                self._factory.message(user, group.id, f"echo {number}")
                for number, (user, group) in zip(range(self.BATCH), self._speakers * 3,
                                                 strict=False)])
        update = self._ready.pop()
        cpu = time.process_time()
        started = time.perf_counter()
        await self.target.feed(update)
        self.samples.append(time.perf_counter() - started)
        if self.on_update is not None:
            self.on_update(time.process_time() - cpu, 0.0)

    async def close(self) -> None:
        await self.target.close()


class BotTarget(Target):
    """The real bot from :func:`bot.app.build` on a real SQLite file in a temporary folder."""

    name = "bot"

    def __init__(self, options: Options) -> None:
        self.options = options
        self.app: App | None = None

    async def start(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="bench-")
        self.db_path = Path(self._tmp.name) / "bench.sqlite3"
        self.clock = VirtualClock(SANDBOX_EPOCH)
        self.session = CountingSession(make_world(self.options), self.options.api_latency,
                                       wire=TelegramSession())
        settings = load_settings(database_path=self.db_path, bot_token=None, webhook_url=None,
                                 admin_ids=frozenset(), default_language="ru",
                                 timezone="Europe/Moscow")
        self.app = await build(settings, self.session, clock=self.clock,
                               rng=random.Random(self.options.seed),
                               scheduler_factory=lambda jobs, run: VirtualScheduler(
                                   jobs, run, self.clock))
        self.bot, self.dispatcher = self.app.bot, self.app.dispatcher

    async def close(self) -> None:
        if self.app:
            await self.app.close()
            self.app = None
        self._tmp.cleanup()

    async def check_setup(self) -> None:
        """The stream assumes tournament N lives in the N-th group; make sure it does."""
        tournaments = self.app.services.repos.tournaments
        for number, group in enumerate(self.session.world.groups.values(), start=1):
            active = await tournaments.active_in_chat(group.id)
            if [t.id for t in active] != [number]:
                raise RuntimeError(f"setup failed: group {group.name} has tournaments "
                                   f"{[t.id for t in active]}, expected [{number}]")

    def virtual_seconds(self) -> float:
        return (self.clock.now() - SANDBOX_EPOCH).total_seconds()


@dataclass
class Result:
    name: str
    concurrency: int
    latencies: list[float]
    seconds: float
    calls: int
    errors: int
    unhandled: int
    virtual_seconds: float | None = None
    first_error: str | None = None
    rss_mb: float | None = None

    @property
    def updates(self) -> int:
        return len(self.latencies)

    @property
    def per_second(self) -> float:
        return self.updates / self.seconds if self.seconds else float("inf")

    def percentile(self, p: float) -> float:
        """Nearest-rank percentile of the latencies, in milliseconds."""
        ordered = sorted(self.latencies)
        rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
        return ordered[rank - 1] * 1000


async def drive(target: Target, updates: list[Update], concurrency: int) -> Result:
    """Feed ``updates`` from ``concurrency`` tasks; time each feed_update and the whole run."""
    latencies: list[float] = []
    errors: list[str] = []
    unhandled = 0
    pending = iter(updates)

    async def worker() -> None:
        nonlocal unhandled
        for update in pending:  # one shared iterator: tasks take the next update in turn
            started = time.perf_counter()
            try:
                if await target.feed(update) is UNHANDLED:
                    unhandled += 1
            except Exception:
                errors.append(traceback.format_exc())
            latencies.append(time.perf_counter() - started)

    calls_before = target.session.calls
    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    seconds = time.perf_counter() - started
    return Result(target.name, concurrency, latencies, seconds,
                  target.session.calls - calls_before, len(errors), unhandled,
                  first_error=errors[0] if errors else None)
