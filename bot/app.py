"""Builds the running bot: Bot with its session, Services, the Dispatcher and the scheduler.

Every run mode (polling, webhook, sandbox, benchmark, tests) goes through :func:`build`, so
they all exercise the same routers, middlewares, storage and sending layer.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.base import BaseSession
from aiogram.exceptions import TelegramAPIError, TelegramNetworkError, TelegramUnauthorizedError
from aiogram.types import ErrorEvent, User

from bot import catalogue
from bot.board_queue import BoardQueue
from bot.clock import Clock
from bot.config import Settings
from bot.features import routers
from bot.features.lifecycle import run_job
from bot.features.migration import FollowMigration
from bot.features.pause import group_lost
from bot.match_service import MatchService
from bot.middlewares.context import ContextMiddleware
from bot.middlewares.dedupe import DedupeMiddleware
from bot.middlewares.filters import run_on_loop
from bot.middlewares.scope import ScopeMiddleware
from bot.play import clock as clock_of_matches
from bot.play import hidden, refusal
from bot.polling import ConfirmingDispatcher
from bot.render.pool import Renderer
from bot.scheduler import LiveScheduler, Scheduler
from bot.sending import GROUP_LIMIT, Outbox, install, rate_limiter, unreachable_group
from bot.services import Repos, Services
from storage.db import Database
from storage.repositories.jobs import Job

log = logging.getLogger(__name__)
SANDBOX_TOKEN = "123456:SANDBOX-sandbox-sandbox-sandbox"


DRAIN_SECONDS = 30
BOARDS_AT_STOP_SECONDS = 5
"""How long a stop waits for boards queued for a busy group's window (bot.board_queue):
the rest are owed, drawn after the next start (a container is killed some seconds after
it is told to stop)."""
RETRY_FIRST, RETRY_MAX = 1.0, 60.0
"""Back-off of the start-up's first call while Telegram cannot be reached (seconds)."""
_frozen = False
"""Whether :func:`build` has frozen what start-up built (``gc.freeze``) in this process."""
YOUNG_COLLECTION = 10_000
"""Net new container objects between collections of the youngest generation (Python's
default is 700). An update leaves no cyclic garbage behind (the game mix: nothing collected
in 150 collections), so a collection only walks the survivors: at 700 one ran inside one
game action in 20 (0.5–0.7 ms, every 10th an older one of 2–4 ms), at 10,000 inside one in
400, each longer (the same survivors walked in rarer pauses: young 6–16 ms, older 16–99 ms
on a loaded machine), and whole-heap collections come about 14 times less often."""


class StartupError(Exception):
    """Why the bot cannot start, in one line (``python -m bot`` prints it, no traceback)."""


@dataclass
class App:
    bot: Bot
    dispatcher: ConfirmingDispatcher
    services: Services
    dedupe: DedupeMiddleware

    async def close(self) -> None:
        """Stop scheduling, let the updates in hand finish and tell Telegram they are done
        (after polling), then close the database."""
        self.services.scheduler.shutdown()
        await self.dedupe.drain(DRAIN_SECONDS)
        await self.dispatcher.confirm_handled(self.bot)
        if self.services.outbox.later is not None:
            await self.services.outbox.later.flush(BOARDS_AT_STOP_SECONDS)
        self.services.renderer.close()
        await self.services.db.close()
        await self.bot.session.close()


def make_bot(settings: Settings, session: BaseSession, clock: Clock,
             resumed_at: datetime | None = None) -> Bot:
    install(session, clock, resumed_at)
    return Bot(settings.bot_token or SANDBOX_TOKEN, session=session,
               default=DefaultBotProperties(parse_mode="HTML", link_preview_is_disabled=True))


def make_dispatcher(services: Services, dedupe: DedupeMiddleware) -> ConfirmingDispatcher:
    catalogue.install()
    # no handler keeps FSM state
    dispatcher = ConfirmingDispatcher(services=services, disable_fsm=True)
    dispatcher.update.outer_middleware(dedupe)
    dispatcher.update.middleware(ContextMiddleware())
    dispatcher.update.middleware(ScopeMiddleware())
    dispatcher.include_routers(*routers())
    refusal.install(dispatcher)
    dispatcher.errors.register(_group_lost_in_handler, _lost_group)
    run_on_loop(dispatcher)
    return dispatcher


def _lost_group(event: ErrorEvent) -> bool:
    return unreachable_group(event.exception) is not None


async def _group_lost_in_handler(event: ErrorEvent, services: Services) -> None:
    """A handler could not write to its group (the bot was removed or muted meanwhile)."""
    chat_id = unreachable_group(event.exception)
    log.warning("update %s: group %s is unreachable: %s", event.update.update_id, chat_id,
                event.exception)
    await group_lost(services, chat_id)


async def build(settings: Settings, session: BaseSession, *, clock: Clock | None = None,
                rng: random.Random | None = None,
                scheduler_factory: Callable[..., Scheduler] | None = None) -> App:
    """Open the database, ask Telegram who the bot is, and wire everything together."""
    clock = clock or Clock()
    db = await Database.open(settings.database_path)
    try:
        resumed_at = await _resumed_at(db, clock)
    except BaseException:
        await db.close()
        raise
    bot = make_bot(settings, session, clock, resumed_at)
    try:
        return await _wire(settings, db, bot, clock, rng or random.SystemRandom(), scheduler_factory)
    except BaseException:  # nothing half-built may keep the process alive
        await bot.session.close()
        await db.close()
        raise


async def _resumed_at(db: Database, clock: Clock) -> datetime | None:
    """Now, when the bot was busy within one group rate window before this start (an update
    claimed, a job run, a user's record written): what it sent then is not known, so the
    rate windows start full; else None (they start empty)."""
    repos, now = Repos(db), clock.now()
    busy = [t for t in (await repos.updates.latest(), await repos.jobs.latest_run(now),
                        await repos.users.latest_change()) if t]
    recent = busy and now - max(busy) < timedelta(seconds=GROUP_LIMIT[1])
    return now if recent else None


async def _wire(settings: Settings, db: Database, bot: Bot, clock: Clock, rng: random.Random,
                scheduler_factory: Callable[..., Scheduler] | None) -> App:
    me = await whoami(bot)
    services = Services(settings=settings, db=db, clock=clock, rng=rng, bot=bot,
                        bot_username=me.username, repos=Repos(db), outbox=None)
    services.outbox = Outbox(bot, services.deep_link)
    bot.session.middleware(services.outbox.forget_changed)
    bot.session.middleware(FollowMigration(services))
    services.renderer = Renderer(settings.render_processes)
    services.matches = MatchService(services)
    factory = scheduler_factory or (lambda jobs, run: LiveScheduler(jobs, run))
    services.scheduler = factory(services.repos.jobs, _job_dispatcher(services))
    dedupe = DedupeMiddleware()
    dispatcher = make_dispatcher(services, dedupe)
    await dedupe.prune(services.repos.updates, clock.now())
    limiter = rate_limiter(bot.session)
    limiter.group_waits = partial(clock_of_matches.stalled, services)  # its waits stop clocks
    if clock.waits:  # live: a board's edit waits for a busy group in a queue
        services.outbox.later = BoardQueue(limiter)
    await hidden.owe_unnoted_panels(services)  # (a job due now: armed by the restore)
    await services.scheduler.restore()
    _freeze_once()
    return App(bot, dispatcher, services, dedupe)


async def whoami(bot: Bot, sleep: Callable[[float], object] = asyncio.sleep) -> User:
    """Ask Telegram who the bot is. While Telegram cannot be reached, try again with back-off
    (1, 2, 4 … up to 60 s), saying so once (the sending layer leaves getMe to this back-off);
    a token Telegram refuses is a StartupError."""
    delay, said = RETRY_FIRST, False
    while True:
        try:
            return await bot.me()
        except TelegramUnauthorizedError:
            raise StartupError("Telegram refuses BOT_TOKEN (Unauthorized): copy the token"
                               " from @BotFather into .env again") from None
        except TelegramNetworkError as error:
            if not said:
                log.warning("Telegram cannot be reached (%s): trying again every %g–%g s"
                            " until it answers; Ctrl+C stops", error.message, RETRY_FIRST,
                            RETRY_MAX)
                said = True
        await sleep(delay)
        delay = min(delay * 2, RETRY_MAX)


def _freeze_once() -> None:
    """Keep what start-up built out of garbage collections: it lives as long as the
    process; and collect the young less often (:data:`YOUNG_COLLECTION`). Only the first
    build of a process freezes: the garbage collector never frees a frozen object, and a
    closed app (the sandbox's ``! restart``, the fuzzer's and the tests' many apps) is only
    freed by a collection (its routers point at each other), so each later freeze kept
    every app closed before it (about 1.2 MB a fuzzed transcript). A flag, not
    ``gc.get_freeze_count()``, which walks the frozen objects (about 20 ms)."""
    global _frozen
    if not _frozen:
        gc.freeze()
        gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])
        _frozen = True


def _job_dispatcher(services: Services):
    async def dispatch(job: Job) -> None:
        """Run a job; a group the bot can no longer write to ends the job (it would fail
        again) and pauses that group's tournaments."""
        try:
            await run_job(services, job)
        except TelegramAPIError as error:
            chat_id = unreachable_group(error)
            if chat_id is None:
                raise
            log.warning("job %s (%s): group %s is unreachable: %s", job.id, job.kind,
                        chat_id, error.message)
            await group_lost(services, chat_id)
    return dispatch
