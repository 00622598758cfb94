"""Where pictures are drawn: in worker processes, so drawing never holds up other updates.

Pillow keeps the GIL through much of its drawing and PNG encoding, so a picture drawn in a
thread still slows every update handled meanwhile (a 128-player bracket takes about a
second). A :class:`Renderer` with ``processes > 0`` draws in a process pool of that many
workers ("spawn": nothing of the running bot is inherited), started by the first picture and
shut down with the app; with ``processes == 0`` it draws in a worker thread (the sandbox and
the tests: no process to start). Both give the same bytes.

What is drawn is a list of :data:`Call`: a module-level drawing function (which a worker
imports by name) and its plain arguments (texts, numbers, lists, tuples, frozen dataclasses),
so the call pickles into the worker and the PNG bytes pickle back.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)

Call = tuple[Callable[..., bytes | list[bytes]], tuple[Any, ...]]
"""A drawing function and its arguments; the function returns one PNG or a list of them."""


def draw(calls: Sequence[Call]) -> list[bytes]:
    """Every call's PNG(s), in order: what a worker runs."""
    pictures: list[bytes] = []
    for function, args in calls:
        drawn = function(*args)
        pictures.extend([drawn] if isinstance(drawn, bytes) else drawn)
    return pictures


WORKER_NICENESS = 10
"""Workers yield the CPU to the bot's own process: on a busy machine the event loop is
served first and a picture waits instead."""


def _worker_start() -> None:
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)


class Renderer:
    """Draws :data:`Call` lists off the event loop: in ``processes`` worker processes, or in
    a thread when ``processes`` is 0."""

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    async def draw(self, calls: Sequence[Call]) -> list[bytes]:
        """The PNGs of ``calls``, in order. A drawing error (``OSError``: no font;
        ``ValueError``: an impossible size) is raised here as it was raised there."""
        calls = list(calls)
        if not self.processes:
            return await asyncio.to_thread(draw, calls)
        pool = self._started()
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, draw, calls)
        except BrokenProcessPool:
            log.warning("a picture worker died: this picture is drawn in a thread, the next"
                        " ones in new workers")
            self._stop(pool)
            return await asyncio.to_thread(draw, calls)

    async def picture(self, function: Callable[..., bytes], *args: Any) -> bytes:
        """The one PNG ``function(*args)`` draws."""
        (png,) = await self.draw([(function, args)])
        return png

    @property
    def running(self) -> bool:
        """Whether worker processes have been started (and not shut down)."""
        return self._pool is not None

    def close(self) -> None:
        """Shut the workers down (waiting for a picture being drawn); the next picture
        would start new ones."""
        if self._pool is not None:
            self._stop(self._pool)

    def _started(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.processes,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_worker_start)
        return self._pool

    def _stop(self, pool: ProcessPoolExecutor) -> None:
        if self._pool is pool:
            self._pool = None
        pool.shutdown(wait=True, cancel_futures=True)
