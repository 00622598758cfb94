"""Scheduled work (reminders, automatic starts, deadlines).

The ``jobs`` table is the truth. Live, each pending job is armed in APScheduler's asyncio
scheduler as a one-off date job; at start-up every pending row is armed again, so a restart
loses nothing (a job that fell due while the bot was down runs at once). In the sandbox the
:class:`VirtualScheduler` runs the due jobs, in order, when the virtual clock is advanced.
Handlers run first and the row is marked done after, so a crash mid-job repeats it rather
than losing it; every handler is written to be safe to repeat.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from datetime import datetime

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.clock import VirtualClock
from storage.repositories.jobs import Job, JobsRepo

log = logging.getLogger(__name__)
JobHandler = Callable[[Job], Awaitable[None]]


class Scheduler(ABC):
    """Persists jobs and hands due ones to ``dispatch``; subclasses decide when."""

    def __init__(self, jobs: JobsRepo, dispatch: JobHandler) -> None:
        self.jobs = jobs
        self.dispatch = dispatch

    async def add(self, kind: str, run_at: datetime, tournament_id: int | None = None,
                  **payload) -> Job:
        job = await self.jobs.add(kind, run_at, tournament_id, **payload)
        self._arm(job)
        return job

    async def cancel(self, tournament_id: int, kinds: tuple[str, ...]) -> None:
        for job_id in await self.jobs.cancel_for(tournament_id, kinds):
            self._disarm(job_id)

    async def restore(self) -> int:
        pending = await self.jobs.pending()
        for job in pending:
            self._arm(job)
        return len(pending)

    async def run(self, job_id: int) -> None:
        job = await self.jobs.get(job_id)
        if job is None:  # cancelled or already run
            return
        try:
            await self.dispatch(job)
        except Exception:
            log.exception("job %s (%s) failed", job.id, job.kind)
            raise
        finally:
            await self.jobs.finish(job.id)

    def start(self) -> None:  # noqa: B027 - optional hook, only live scheduling needs it
        """Begin firing jobs (live only)."""

    def shutdown(self) -> None:  # noqa: B027 - optional hook
        """Stop firing jobs."""

    @abstractmethod
    def _arm(self, job: Job) -> None:
        """Make sure ``job`` fires at its time."""

    @abstractmethod
    def _disarm(self, job_id: int) -> None:
        """Make sure a cancelled job does not fire."""


class LiveScheduler(Scheduler):
    def __init__(self, jobs: JobsRepo, dispatch: JobHandler) -> None:
        super().__init__(jobs, dispatch)
        self.aps = AsyncIOScheduler(timezone="UTC")

    def start(self) -> None:  # noqa: B027 - optional hook, only live scheduling needs it
        self.aps.start()

    def shutdown(self) -> None:  # noqa: B027 - optional hook
        if self.aps.running:
            self.aps.shutdown(wait=False)

    def _arm(self, job: Job) -> None:
        self.aps.add_job(self.run, "date", run_date=job.run_at, args=[job.id],
                         id=f"job-{job.id}", replace_existing=True, misfire_grace_time=None)

    def _disarm(self, job_id: int) -> None:
        if self.aps.get_job(f"job-{job_id}"):
            self.aps.remove_job(f"job-{job_id}")


class VirtualScheduler(Scheduler):
    """Runs jobs on the sandbox's virtual clock, only when the clock is moved on."""

    def __init__(self, jobs: JobsRepo, dispatch: JobHandler, clock: VirtualClock) -> None:
        super().__init__(jobs, dispatch)
        self.clock = clock

    def _arm(self, job: Job) -> None:
        """Nothing to arm: :meth:`advance_to` reads the pending rows."""

    def _disarm(self, job_id: int) -> None:
        """Nothing to disarm: cancelled rows are no longer pending."""

    async def advance_to(self, moment: datetime) -> None:
        """Move the clock to ``moment``, running every job that falls due on the way."""
        while True:
            due = [job for job in await self.jobs.pending() if job.run_at <= moment]
            if not due:
                break
            job = due[0]
            if job.run_at > self.clock.now():
                self.clock.set(job.run_at)
            await self.run(job.id)
        if moment > self.clock.now():
            self.clock.set(moment)
