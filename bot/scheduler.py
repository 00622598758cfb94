"""Scheduled work (reminders, automatic starts, deadlines).

The ``jobs`` table is the truth. Live, each pending job is armed in APScheduler's asyncio
scheduler as a one-off date job; at start-up every pending row is armed again, so a restart
loses nothing (a job that fell due while the bot was down runs at once). In the sandbox the
:class:`VirtualScheduler` runs the due jobs, in order, when the virtual clock is advanced.
Handlers run first and the row is marked done after, so a crash mid-job repeats it rather
than losing it; every handler is written to be safe to repeat.

A job that meets a passing fault (Telegram's 5xx or a lost connection, after the sending
layer's own quick retries) stays pending and runs again later, ``RETRY_DELAYS`` apart; a
job can also be held (stored without being armed) and run at once by the caller
(:meth:`Scheduler.run`), as the opening of a tournament is: stored in the transaction that
starts the tournament, so a crash before it ran runs it at start-up; or stand in for work
the update does itself (:meth:`Scheduler.stand_in`: a match's result, a report said).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta

from aiogram.exceptions import TelegramNetworkError, TelegramRetryAfter, TelegramServerError
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.clock import VirtualClock
from storage.repositories.jobs import Job, JobsRepo, NewJob

log = logging.getLogger(__name__)
JobHandler = Callable[[Job], Awaitable[None]]
RETRY_DELAYS = tuple(timedelta(minutes=m) for m in (1, 5, 15, 60, 180, 720))
PASSING_FAULTS = (TelegramServerError, TelegramNetworkError, TelegramRetryAfter)
TOGETHER = timedelta(seconds=10)
AT_ONCE_AFTER_A_STOP: set[str] = set()
"""Kinds of job a start runs at once, whatever their time: each stands for work a running
process does right after writing it (and then replaces it), so one found at a start was
left by a process that stopped in between (a backgammon match's clock of the bot's own
step: its players would wait out its seconds for nothing)."""
"""Jobs due this close to each other are due together (:meth:`Scheduler.take_due`): matches
launched at once set their clocks a few sends apart."""


def retry_delay(job: Job) -> timedelta | None:
    """How long after a passing fault ``job`` is tried again; None once its retries are
    used up (it is then given up)."""
    attempt = job.payload.get("attempt", 0)
    return RETRY_DELAYS[attempt] if attempt < len(RETRY_DELAYS) else None


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

    async def replace(self, kind: str, run_at: datetime, tournament_id: int, key: str,
                      **payload) -> Job:
        """:meth:`add` in place of the tournament's pending (or frozen) jobs of ``kind`` with
        the same ``key`` in the payload: a step run again (a retried or resumed job) sets
        its job once."""
        cancelled, job = await self.jobs.replace_keyed(kind, run_at, tournament_id, key,
                                                       payload)
        self.settle(cancelled, [job])
        return job

    async def replace_for_match(self, match_id: int, kinds: tuple[str, ...],
                                new: Sequence[NewJob], tournament_id: int | None = None,
                                paused_at: datetime | None = None) -> list[Job]:
        """Cancel the match's jobs of ``kinds`` and add the ``new`` ones (its clocks set
        again), in one write; ``paused_at``: now, the match being paused, so they wait
        frozen for /resume."""
        cancelled, jobs = await self.jobs.replace_for_match(match_id, kinds, new,
                                                            tournament_id, paused_at)
        self.settle(cancelled, jobs)
        return jobs

    async def cancel(self, tournament_id: int, kinds: tuple[str, ...]) -> None:
        for job_id in await self.jobs.cancel_for(tournament_id, kinds):
            self._disarm(job_id)

    async def cancel_for_match(self, match_id: int, kinds: tuple[str, ...]) -> None:
        """Cancel the jobs of ``kinds`` that belong to one match (its clocks)."""
        self.settle(await self.jobs.cancel_for_match(match_id, kinds))

    def follow(self, job: Job) -> None:
        """Run ``job`` (stored due now, in the transaction of the change that calls for it)
        once the update in hand is done: live in a task of its own at once, in the sandbox
        right after the line (:meth:`VirtualScheduler.run_following`). A restart before it
        ran runs it at start-up, as any job that fell due."""
        self._arm(job)

    @contextlib.contextmanager
    def owing(self, *jobs: Job | None) -> Iterator[None]:
        """Around what an update does between writing held ``jobs`` and standing in for them
        (:meth:`stand_in`): should that fail (Telegram out of reach), each job runs once the
        update is done, retried as any job, instead of waiting for the next start."""
        try:
            yield
        except Exception:
            for job in jobs:
                if job is not None:
                    self.follow(job)
            raise

    async def stand_in(self, job: Job, work: Awaitable[None]) -> None:
        """Do ``work`` now, in the update, for a ``job`` held in its stead (stored, not
        armed, in the transaction that calls for the work): the job is done once the work
        is, and runs once the update is done when the work failed (then again after a
        passing fault); a process that stops in between runs it at its next start."""
        try:
            await work
        except Exception:
            self.follow(job)
            raise
        await self.jobs.finish(job.id)

    def settle(self, cancelled: Sequence[int], added: Sequence[Job] = ()) -> None:
        """Drop the jobs cancelled and arm the jobs added in a transaction written elsewhere
        (an action's, with its clocks), once it has committed."""
        for job_id in cancelled:
            self._disarm(job_id)
        for job in added:
            self._arm(job)

    async def take_due(self, job: Job, chat_id: int | None = None,
                       kinds: tuple[str, ...] = ()) -> list[Job]:
        """The other jobs of ``job``'s tournament (with ``chat_id``: of every tournament of
        that chat) and kind (with ``kinds``: of any of them) due by now (or within
        :data:`TOGETHER`), taken off: the running one says what they would have said, in
        one go. They are noted in it (``taken``, in the same write), so its retry (a send
        that failed) takes them again."""
        due, kinds = self.now() + TOGETHER, kinds or (job.kind,)
        taken = await (self.jobs.take_due(job.tournament_id, kinds, due, job.id)
                       if chat_id is None
                       else self.jobs.take_due_in_chat(chat_id, kinds, due, job.id))
        self.settle([other.id for other in taken])
        return await self.jobs.of_ids(job.payload.get("taken", [])) + taken

    async def freeze(self, tournament_id: int, kinds: tuple[str, ...]) -> None:
        """Stop a tournament's pending jobs of ``kinds``, keeping the time each had left."""
        for job_id in await self.jobs.freeze(tournament_id, kinds, self.now()):
            self._disarm(job_id)

    async def delay_in_chat(self, chat_id: int, kinds: tuple[str, ...],
                            seconds: float) -> None:
        """Move the pending jobs of ``kinds`` of a chat's tournaments ``seconds`` later."""
        for job in await self.jobs.delay_in_chat(chat_id, kinds, seconds):
            self._arm(job)

    async def delay_for_match(self, match_id: int, kinds: tuple[str, ...],
                              seconds: float) -> None:
        """Move a match's pending jobs of ``kinds`` ``seconds`` later."""
        for job in await self.jobs.delay_for_match(match_id, kinds, seconds):
            self._arm(job)

    async def thaw(self, tournament_id: int) -> list[Job]:
        """Restart a tournament's frozen jobs with the time each had left; returns them."""
        jobs = await self.jobs.thaw(tournament_id, self.now())
        for job in jobs:
            self._arm(job)
        return jobs

    async def restore(self) -> int:
        pending = await self.jobs.pending()
        now = self.now()
        for job in pending:
            self._arm(_at_start(job, now))
        return len(pending)

    async def run(self, job_id: int) -> None:
        """Run a stored job now; if it meets a passing fault, it is armed for a retry like
        any other."""
        job = await self.jobs.get(job_id)
        if job is None:  # cancelled or already run
            return
        try:
            await self.dispatch(job)
        except PASSING_FAULTS as error:
            if await self._retry_later(job, error):
                return
            await self.jobs.finish(job.id)
        except Exception:
            log.exception("job %s (%s) failed", job.id, job.kind)
            await self.jobs.finish(job.id)
            raise
        else:
            await self.jobs.finish(job.id)

    async def _retry_later(self, job: Job, error: Exception) -> bool:
        """Put ``job`` off after a passing fault; False once its retries are used up."""
        delay = retry_delay(job)
        if delay is None:
            log.error("job %s (%s) given up after %s tries: %s", job.id, job.kind,
                      len(RETRY_DELAYS) + 1, error)
            return False
        attempt = job.payload.get("attempt", 0)
        run_at = max(job.run_at, self.now()) + delay
        retry = await self.jobs.postpone(job.id, run_at, attempt=attempt + 1)
        if retry is None:  # cancelled meanwhile
            return True
        log.warning("job %s (%s) failed (%s); again at %s", job.id, job.kind, error,
                    run_at.isoformat())
        self._arm(retry)
        return True

    @abstractmethod
    def now(self) -> datetime:
        """The scheduler's present moment."""

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

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def _fire(self, job_id: int) -> None:
        """APScheduler's entry: :meth:`run` has logged a failure already, and APScheduler
        would only log it a second time."""
        with contextlib.suppress(Exception):
            await self.run(job_id)

    def _arm(self, job: Job) -> None:
        self.aps.add_job(self._fire, "date", run_date=job.run_at, args=[job.id],
                         id=f"job-{job.id}", replace_existing=True, misfire_grace_time=None)

    def _disarm(self, job_id: int) -> None:
        if self.aps.get_job(f"job-{job_id}"):
            self.aps.remove_job(f"job-{job_id}")


class VirtualScheduler(Scheduler):
    """Runs jobs on the sandbox's virtual clock when the clock is moved on, and the jobs an
    update leaves to follow it (:meth:`Scheduler.follow`) once the update is done."""

    def __init__(self, jobs: JobsRepo, dispatch: JobHandler, clock: VirtualClock) -> None:
        super().__init__(jobs, dispatch)
        self.clock = clock
        self.following: list[int] = []
        """Jobs to run after the update in hand, in order (ids of pending rows)."""
        self.armed: set[int] = set()
        """Jobs that run when the clock reaches them (a held job is pending, not armed)."""

    def follow(self, job: Job) -> None:
        """After the line, or sooner when a clock move reaches it first (armed, as live)."""
        self.armed.add(job.id)
        self.following.append(job.id)

    async def restore(self) -> int:
        """As live, every pending job is armed, and one that fell due before the restart
        runs at once: after the line."""
        pending, now = await self.jobs.pending(), self.now()
        self.armed.update(job.id for job in pending)
        self.following.extend(job.id for job in pending if _at_start(job, now).run_at <= now)
        return len(pending)

    async def thaw(self, tournament_id: int) -> list[Job]:
        """As live, a job thawed with no time left (set in a pause to run at once) runs at
        once: after the line."""
        jobs = await super().thaw(tournament_id)
        self.following.extend(job.id for job in jobs if job.run_at <= self.now())
        return jobs

    async def run_following(self) -> None:
        """Run the jobs left to follow the update just handled (and any they leave)."""
        while self.following:
            await self.run(self.following.pop(0))

    def now(self) -> datetime:
        return self.clock.now()

    def _arm(self, job: Job) -> None:
        self.armed.add(job.id)

    def _disarm(self, job_id: int) -> None:
        self.armed.discard(job_id)

    async def advance_to(self, moment: datetime) -> None:
        """Move the clock to ``moment``, running every armed job that falls due on the way."""
        while True:
            due = [job for job in await self.jobs.pending()
                   if job.run_at <= moment and job.id in self.armed]
            if not due:
                break
            job = due[0]
            if job.run_at > self.clock.now():
                self.clock.set(job.run_at)
            await self.run(job.id)
        if moment > self.clock.now():
            self.clock.set(moment)


def _at_start(job: Job, now: datetime) -> Job:
    """``job`` as a start arms it: due now when its kind runs at once after a stop
    (:data:`AT_ONCE_AFTER_A_STOP`)."""
    if job.kind in AT_ONCE_AFTER_A_STOP and job.run_at > now:
        return dataclasses.replace(job, run_at=now)
    return job
