"""Jobs of one tournament and kind due together are taken by the first that runs
(``Scheduler.take_due``): due at the same moment, or a few seconds apart as the clocks of
matches started at once are; a job due later than that runs on its own. Reminders and
check-in openings are taken for every tournament of the chat (``take_due(job, chat_id=…,
kinds=…)``), never another chat's, and only of the kinds named; a job retried after a
failed send takes the jobs it took again."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from aiogram.exceptions import TelegramServerError
from aiogram.methods import SendMessage

from bot.clock import VirtualClock
from bot.play.clock import Alert, _under_their_notes
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


async def test_a_chats_jobs_due_together_are_taken_across_its_tournaments(tmp_path):
    clock = VirtualClock(datetime(2026, 10, 21, tzinfo=UTC))
    db = await Database.open(tmp_path / "chat.sqlite3")
    runs: list[list[int]] = []

    async def say(job: Job) -> None:
        taken = await scheduler.take_due(job, chat_id=-100)
        runs.append([job.id, *(other.id for other in taken)])

    scheduler = VirtualScheduler(JobsRepo(db), say, clock)
    try:
        await UsersRepo(db).upsert(1, "org", "Org", "ru", clock.now())
        for chat in (-100, -200):
            await ChatsRepo(db).upsert(chat, "supergroup", f"g{-chat}", "ru")
        tournaments = [await TournamentsRepo(db).create(chat, "cup", title, {}, 1, clock.now())
                       for chat, title in ((-100, "A"), (-100, "B"), (-200, "C"))]
        due = clock.now() + timedelta(minutes=5)
        ids = [(await scheduler.add("reminder", due, t.id, minutes=10)).id for t in tournaments]
        await scheduler.advance_to(due)
        assert runs == [ids[:2], ids[2:]]  # C's chat is another: its reminder runs alone
    finally:
        await db.close()


async def test_a_chats_jobs_of_the_kinds_named_are_taken_together(tmp_path):
    clock = VirtualClock(datetime(2026, 10, 21, tzinfo=UTC))
    db = await Database.open(tmp_path / "kinds.sqlite3")
    runs: list[list[int]] = []

    async def say(job: Job) -> None:
        taken = await scheduler.take_due(job, chat_id=-100, kinds=("reminder", "checkin"))
        runs.append([job.id, *(other.id for other in taken)])

    scheduler = VirtualScheduler(JobsRepo(db), say, clock)
    try:
        await UsersRepo(db).upsert(1, "org", "Org", "ru", clock.now())
        await ChatsRepo(db).upsert(-100, "supergroup", "g100", "ru")
        a, b, c = [await TournamentsRepo(db).create(-100, "cup", title, {}, 1, clock.now())
                   for title in "ABC"]
        due = clock.now() + timedelta(minutes=5)
        ids = [(await scheduler.add(kind, due, t.id, minutes=60)).id
               for kind, t in (("reminder", a), ("checkin", b), ("start", c))]
        await scheduler.advance_to(due)
        assert runs == [ids[:2], ids[2:]]  # the start is of another kind: it runs alone
    finally:
        await db.close()


async def test_the_retry_of_a_job_takes_again_the_jobs_it_took(tmp_path):
    clock = VirtualClock(datetime(2026, 10, 21, tzinfo=UTC))
    db = await Database.open(tmp_path / "retry.sqlite3")
    runs: list[list[int]] = []

    async def say(job: Job) -> None:
        runs.append([job.id, *(other.id for other in await scheduler.take_due(job))])
        if len(runs) == 1:  # the first send fails: the job is retried
            raise TelegramServerError(method=SendMessage(chat_id=-1, text="x"), message="Down")

    scheduler = VirtualScheduler(JobsRepo(db), say, clock)
    try:
        await UsersRepo(db).upsert(1, "org", "Org", "ru", clock.now())
        await ChatsRepo(db).upsert(-100, "supergroup", "cup", "ru")
        cup = await TournamentsRepo(db).create(-100, "cup", "Cup", {}, 1, clock.now())
        due = clock.now() + timedelta(minutes=5)
        ids = [(await scheduler.add("late", due, cup.id)).id for _ in range(2)]
        await scheduler.advance_to(due + timedelta(hours=1))
        assert runs == [ids, ids]
    finally:
        await db.close()


def test_alerts_said_together_keep_each_note_under_the_lines_it_is_about():
    toss = "Organisers may press it for them."
    said = _under_their_notes([Alert("⏰ Vika, match #2: bat or bowl first?", toss),
                               Alert("⏰ Gosha has not moved in match #1.", "Organisers: /enter"),
                               Alert("⏰ Anya, match #3: bat or bowl first?", toss),
                               Alert("⏰ Match #4 waits for the coin.")])
    assert said == ["⏰ Match #4 waits for the coin.",
                    "⏰ Vika, match #2: bat or bowl first?", "⏰ Anya, match #3: bat or bowl first?",
                    toss, "⏰ Gosha has not moved in match #1.", "Organisers: /enter"]
