"""The bot's only source of time.

Live, it is the wall clock and ``asyncio.sleep``. In the sandbox it is a virtual clock:
``sleep`` moves time on without waiting, so a transcript never sleeps in real time and the
same script always prints the same output.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta


class Clock:
    waits = True
    """A wait takes real time: other work runs meanwhile (not so on the virtual clock)."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class VirtualClock(Clock):
    waits = False

    def __init__(self, start: datetime) -> None:
        self._now = start.astimezone(UTC)

    def now(self) -> datetime:
        return self._now

    async def sleep(self, seconds: float) -> None:
        """Move time on, without letting other work run meanwhile: what the sandbox prints
        then never depends on where a send waited for the rate limiter (whose windows start
        full after a restart), even while an action writes to several chats at once."""
        self._now += timedelta(seconds=seconds)

    def set(self, moment: datetime) -> None:
        """Move the clock to ``moment``; the virtual clock only goes forward."""
        moment = moment.astimezone(UTC)
        if moment < self._now:
            raise ValueError(f"the clock only goes forward (it is {self._now.isoformat()})")
        self._now = moment
