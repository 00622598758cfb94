"""Builds the running bot: Bot with its session, Services, the Dispatcher and the scheduler.

Every run mode (polling, webhook, sandbox, benchmark, tests) goes through :func:`build`, so
they all exercise the same routers, middlewares, storage and sending layer.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from aiogram import Bot, Dispatcher
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.base import BaseSession

from bot import catalogue
from bot.clock import Clock
from bot.config import Settings
from bot.features import routers
from bot.features.lifecycle import run_job
from bot.match_service import MatchService
from bot.middlewares.context import ContextMiddleware
from bot.middlewares.dedupe import DedupeMiddleware
from bot.middlewares.scope import ScopeMiddleware
from bot.play import refusal
from bot.scheduler import LiveScheduler, Scheduler
from bot.sending import Outbox, PlainToastMiddleware, RateLimitMiddleware
from bot.services import Repos, Services
from storage.db import Database

SANDBOX_TOKEN = "123456:SANDBOX-sandbox-sandbox-sandbox"


DRAIN_SECONDS = 30
UPDATE_MEMORY = timedelta(days=2)  # Telegram redelivers an update for 24 h at most


@dataclass
class App:
    bot: Bot
    dispatcher: Dispatcher
    services: Services
    dedupe: DedupeMiddleware

    async def close(self) -> None:
        """Stop scheduling, let the updates in hand finish, then close the database."""
        self.services.scheduler.shutdown()
        await self.dedupe.drain(DRAIN_SECONDS)
        await self.services.db.close()
        await self.bot.session.close()


def make_bot(settings: Settings, session: BaseSession, clock: Clock) -> Bot:
    session.middleware(RateLimitMiddleware(clock))
    session.middleware(PlainToastMiddleware())
    return Bot(settings.bot_token or SANDBOX_TOKEN, session=session,
               default=DefaultBotProperties(parse_mode="HTML", link_preview_is_disabled=True))


def make_dispatcher(services: Services, dedupe: DedupeMiddleware) -> Dispatcher:
    catalogue.install()
    dispatcher = Dispatcher(services=services)
    dispatcher.update.outer_middleware(dedupe)
    dispatcher.update.middleware(ContextMiddleware())
    dispatcher.update.middleware(ScopeMiddleware())
    dispatcher.include_routers(*routers())
    refusal.install(dispatcher)
    return dispatcher


async def build(settings: Settings, session: BaseSession, *, clock: Clock | None = None,
                rng: random.Random | None = None,
                scheduler_factory: Callable[..., Scheduler] | None = None) -> App:
    """Open the database, ask Telegram who the bot is, and wire everything together."""
    clock = clock or Clock()
    db = await Database.open(settings.database_path)
    bot = make_bot(settings, session, clock)
    try:
        return await _wire(settings, db, bot, clock, rng or random.Random(), scheduler_factory)
    except BaseException:  # nothing half-built may keep the process alive
        await bot.session.close()
        await db.close()
        raise


async def _wire(settings: Settings, db: Database, bot: Bot, clock: Clock, rng: random.Random,
                scheduler_factory: Callable[..., Scheduler] | None) -> App:
    me = await bot.me()
    services = Services(settings=settings, db=db, clock=clock, rng=rng, bot=bot,
                        bot_username=me.username, repos=Repos(db), outbox=None)
    services.outbox = Outbox(bot, services.deep_link)
    services.matches = MatchService(services)
    factory = scheduler_factory or (lambda jobs, run: LiveScheduler(jobs, run))
    services.scheduler = factory(services.repos.jobs, _job_dispatcher(services))
    dedupe = DedupeMiddleware()
    dispatcher = make_dispatcher(services, dedupe)
    await services.repos.updates.forget_before(clock.now() - UPDATE_MEMORY)
    await services.scheduler.restore()
    return App(bot, dispatcher, services, dedupe)


def _job_dispatcher(services: Services):
    async def dispatch(job) -> None:
        await run_job(services, job)
    return dispatch
