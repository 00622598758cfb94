"""Jobs of one tournament and kind due together are taken by the first that runs
(``Scheduler.take_due``): due at the same moment, or a few seconds apart as the clocks of
matches started at once are; a job due later than that runs on its own."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.clock import VirtualClock
from bot.scheduler import TOGETHER, VirtualScheduler
from storage.db import Database
from storage.repositories.jobs import Job, JobsRepo
from storage.repositories.tournaments import TournamentsRepo
from storage.repositories.users import ChatsRepo, UsersRepo


async def test_jobs_due_within_seconds_of_each_other_run_as_one(tmp_path):
    clock = VirtualClock(datetime(2026, 10, 21, tzinfo=UTC))
    db = await Database.open(tmp_path / "together.sqlite3")
    runs: list[list[int]] = []

    async def say(job: Job) -> None:
        runs.append([job.id, *(other.id for other in await scheduler.take_due(job))])

    scheduler = VirtualScheduler(JobsRepo(db), say, clock)
    try:
        await UsersRepo(db).upsert(1, "org", "Org", "ru", clock.now())
        await ChatsRepo(db).upsert(-100, "supergroup", "cup", "ru")
        cup = await TournamentsRepo(db).create(-100, "cup", "Cup", {}, 1, clock.now())
        start = clock.now() + timedelta(minutes=5)
        ids = [(await scheduler.add("late", start + delay, cup.id)).id
               for delay in (timedelta(0), TOGETHER / 2, TOGETHER * 3)]
        await scheduler.advance_to(start + timedelta(minutes=1))
        assert runs == [ids[:2], ids[2:]]
    finally:
        await db.close()
