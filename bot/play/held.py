"""What an update does right after a match's action, held as a job written with the action
(a piece of its transaction, as ``logged`` is): done by the update, and by the job when the
update could not (a bot that stopped right after the write, a send that met Telegram out
of reach): :meth:`~bot.scheduler.Scheduler.stand_in`."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.services import Services
from storage.repositories.jobs import Job, insert_job


@dataclass
class Held:
    """A job of ``kind`` with ``payload``, written by :meth:`write` in the action's
    transaction (``job`` once written)."""
    kind: str
    tournament_id: int
    now: datetime
    payload: dict[str, Any]
    job: Job | None = None

    async def write(self, tx) -> None:
        self.job = await insert_job(tx, self.kind, self.now, self.tournament_id, self.payload)

    async def done_by(self, services: Services, work: Awaitable[None]) -> None:
        """``work`` done now in the job's stead (the job done with it; should it fail, the
        job does it once the update is done, and the error is raised); only ``work`` when
        the job was not written (the action refused)."""
        if self.job is None:
            await work
        else:
            await services.scheduler.stand_in(self.job, work)
