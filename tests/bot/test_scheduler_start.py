"""A start arms every pending job at its time, but runs at once the kinds that stand for work
a process does right after writing them (``bot.scheduler.AT_ONCE_AFTER_A_STOP``): one found
at a start was left by a process that stopped in between."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.features.backgammon.live.clocks import ONWARD_CLOCK, TURN_CLOCK
from bot.scheduler import LiveScheduler
from storage.repositories.jobs import Job


class _Pending:
    def __init__(self, jobs: list[Job]) -> None:
        self.jobs = jobs

    async def pending(self) -> list[Job]:
        return self.jobs


async def test_a_live_start_runs_the_bots_own_step_at_once_and_a_turn_at_its_time() -> None:
    later = datetime.now(UTC) + timedelta(seconds=25)
    jobs = [Job(1, ONWARD_CLOCK, 1, later, {"match_id": 1}),
            Job(2, TURN_CLOCK, 1, later, {"match_id": 1})]
    scheduler = LiveScheduler(_Pending(jobs), dispatch=None)  # type: ignore[arg-type]
    assert await scheduler.restore() == 2
    onward, turn = (scheduler.aps.get_job(f"job-{n}").trigger.run_date for n in (1, 2))
    assert onward <= datetime.now(UTC) < later == turn
