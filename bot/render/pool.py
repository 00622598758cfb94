"""Where pictures are drawn: in worker processes, so drawing never holds up other updates.

Pillow keeps the GIL through much of its drawing and PNG encoding, so a picture drawn in a
thread still slows every update handled meanwhile (a 128-player bracket takes about a
second). A :class:`Renderer` with ``processes > 0`` draws in up to that many worker processes
("spawn": nothing of the running bot is inherited), each started when a picture finds no idle
one and stopped with the app; with ``processes == 0`` it draws in a worker thread (the sandbox
and the tests: no process to start). Both give the same bytes.

What is drawn is a list of :data:`Call`: a module-level drawing function (which a worker
imports by name) and its plain arguments (texts, numbers, lists, tuples, frozen dataclasses),
so the call pickles into the worker and the PNG bytes pickle back.

Each worker is one process and a socket pair: the event loop writes the pickled calls and
reads the answer as a stream (multiprocessing's framing: a 4-byte length, then the bytes; the
worker uses a plain :class:`multiprocessing.connection.Connection`). A ``ProcessPoolExecutor``
took about 0.57 ms to hand a picture over and back (its queue feeder and manager threads
contend for the GIL with the loop); the socket pair 0.2–0.27 ms, with no thread in the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import socket
import struct
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from multiprocessing.connection import Connection
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


def _serve(connection: Connection) -> None:
    """A worker's life: draw each list of calls it is sent, answer ``(True, pictures)`` or
    ``(False, the error)``, until the bot closes its end."""
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    _keep_freed_memory()
    while True:
        try:
            calls = pickle.loads(connection.recv_bytes())
        except EOFError:
            return
        try:
            answer = pickle.dumps((True, draw(calls)))
        except Exception as error:  # noqa: BLE001 - raised again in the bot
            answer = _pickled_error(error)
        try:
            connection.send_bytes(answer)
        except OSError:  # the bot gave up on this picture and closed its end
            return


_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters
_KEPT_BYTES = 64 << 20


def _keep_freed_memory() -> None:
    """Let the worker keep the memory a picture frees for the next one. glibc hands every
    block over 128 KB back to the system when it is freed, so each picture's full-size
    buffers (a board's rows are ~800 KB, several times over) came back as new pages to be
    faulted in: about 1 ms of a 3 ms board. Blocks up to 64 MB now come from the heap, and
    up to 64 MB freed at its top stays there. Elsewhere than glibc nothing changes."""
    import ctypes  # in the worker only: the bot's own process need not carry ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        libc.mallopt(_M_MMAP_THRESHOLD, _KEPT_BYTES)
        libc.mallopt(_M_TRIM_THRESHOLD, _KEPT_BYTES)
    except (OSError, AttributeError, TypeError):
        log.info("picture worker: mallopt is not available, freed memory is given back")


def _pickled_error(error: Exception) -> bytes:
    try:
        return pickle.dumps((False, error))
    except Exception:  # noqa: BLE001 - an error that does not pickle is told by its text
        return pickle.dumps((False, RuntimeError(f"{type(error).__name__}: {error}")))


class _WorkerLost(Exception):
    """The worker ended (or its socket broke) before it answered."""


class _Worker:
    """One drawing process and the bot's end of its socket pair. A picture's request is
    written as soon as it is asked for, so the worker finds the next one waiting when it
    finishes a picture (a busy event loop would otherwise leave it idle between two); the
    answers come back in the order of the requests and one task reads them, handing each to
    its request's future. A request given up meanwhile still takes its answer: the stream
    stays in step."""

    def __init__(self, process: multiprocessing.process.BaseProcess,
                 reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.process = process
        self.reader = reader
        self.writer = writer
        self.waiting: deque[asyncio.Future[tuple[bool, Any]]] = deque()
        self.lost = False
        self._answers = asyncio.get_running_loop().create_task(self._read_answers())

    @classmethod
    async def start(cls) -> _Worker:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()  # a socket pair
        process = context.Process(target=_serve, args=(theirs,), name="picture-worker",
                                  daemon=True)
        process.start()
        theirs.close()
        with ours:
            sock = socket.socket(fileno=os.dup(ours.fileno()))
        reader, writer = await asyncio.open_unix_connection(sock=sock)
        return cls(process, reader, writer)

    def request(self, message: bytes) -> asyncio.Future[tuple[bool, Any]]:
        """Write pickled calls to the worker now; the future of its answer. Raises
        :class:`_WorkerLost`."""
        if self.lost:
            raise _WorkerLost
        answer: asyncio.Future[tuple[bool, Any]] = asyncio.get_running_loop().create_future()
        self.waiting.append(answer)
        try:
            self.writer.write(struct.pack("!i", len(message)) + message)
        except OSError as error:
            answer.cancel()  # no answer is coming: the reader sees the broken stream too
            raise _WorkerLost from error
        return answer

    async def draw(self, message: bytes) -> tuple[bool, Any]:
        """Send pickled calls; the worker's answer. Raises :class:`_WorkerLost`."""
        answer = self.request(message)
        try:
            await self.writer.drain()
        except OSError as error:
            answer.cancel()
            raise _WorkerLost from error
        return await answer

    async def _read_answers(self) -> None:
        try:
            while True:
                (size,) = struct.unpack("!i", await self.reader.readexactly(4))
                if size == -1:  # multiprocessing's header of a message over 2 GB
                    (size,) = struct.unpack("!Q", await self.reader.readexactly(8))
                answer = pickle.loads(await self.reader.readexactly(size))
                request = self.waiting.popleft()
                if not request.done():
                    request.set_result(answer)
        except (OSError, EOFError, asyncio.IncompleteReadError):
            pass  # the worker ended: said by the requests that were waiting
        except Exception:  # noqa: BLE001 - a garbled answer ends this worker like a death
            log.exception("a picture worker's answer could not be read")
        finally:
            self.lost = True
            while self.waiting:
                if not (request := self.waiting.popleft()).done():
                    request.set_exception(_WorkerLost())

    def stop(self) -> None:
        """End the socket (the worker then ends) and wait a moment for the process. The
        stream's close only takes effect on the loop's next turn, so the socket is shut now."""
        self._answers.cancel()
        with contextlib.suppress(OSError):
            self.writer.get_extra_info("socket").shutdown(socket.SHUT_RDWR)
        self.writer.close()
        self.process.join(timeout=1)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


class Renderer:
    """Draws :data:`Call` lists off the event loop: in ``processes`` worker processes, or in
    a thread when ``processes`` is 0."""

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._workers: list[_Worker] = []
        self._starting = asyncio.Lock()

    async def draw(self, calls: Sequence[Call]) -> list[bytes]:
        """The PNGs of ``calls``, in order. A drawing error (``OSError``: no font;
        ``ValueError``: an impossible size) is raised here as it was raised there."""
        calls = list(calls)
        if not self.processes:
            return await asyncio.to_thread(draw, calls)
        message = pickle.dumps(calls)
        worker = await self._worker()
        return await self._answer(worker, calls, worker.draw(message))

    async def picture(self, function: Callable[..., bytes], *args: Any) -> bytes:
        """The one PNG ``function(*args)`` draws."""
        (png,) = await self.draw([(function, args)])
        return png

    def begin(self, function: Callable[..., bytes], *args: Any) -> asyncio.Future[bytes]:
        """:meth:`picture`, started now: with a worker running, the calls are written to it
        before this returns, so the drawing goes on while the caller does what comes next,
        even work that keeps the event loop busy (an action's write). Otherwise (no worker
        yet, or all busy while another may start; the thread) it starts on the loop's next
        turn."""
        calls = [(function, args)]
        if self._workers and not self._may_start():
            worker = min(self._workers, key=lambda w: len(w.waiting))
            with contextlib.suppress(_WorkerLost):  # a dead worker: drawn the usual way
                answer = worker.request(pickle.dumps(calls))
                return asyncio.ensure_future(self._begun(worker, calls, answer))
        return asyncio.ensure_future(self.picture(function, *args))

    async def _begun(self, worker: _Worker, calls: list[Call],
                     answer: Awaitable[tuple[bool, Any]]) -> bytes:
        (png,) = await self._answer(worker, calls, answer)
        return png

    async def _answer(self, worker: _Worker, calls: list[Call],
                      answer: Awaitable[tuple[bool, Any]]) -> list[bytes]:
        """What ``worker`` answers to ``calls``: the PNGs, or the drawing's error raised; a
        worker that died meanwhile is stopped and the calls drawn in a thread."""
        try:
            drawn, value = await answer
        except _WorkerLost:
            log.warning("a picture worker died: this picture is drawn in a thread, the next"
                        " ones in a new worker")
            self._stop(worker)
            return await asyncio.to_thread(draw, calls)
        if not drawn:
            raise value
        return value

    @property
    def running(self) -> bool:
        """Whether worker processes have been started (and not shut down)."""
        return bool(self._workers)

    def close(self) -> None:
        """Stop the workers (the pictures they were drawing are then drawn in a thread); the
        next picture starts a new one."""
        for worker in list(self._workers):
            self._stop(worker)

    async def _worker(self) -> _Worker:
        """An idle worker; else a new one while fewer than ``processes`` run; else the one
        with the fewest pictures waiting."""
        async with self._starting:
            if self._may_start():
                self._workers.append(await _Worker.start())
        return min(self._workers, key=lambda worker: len(worker.waiting))

    def _may_start(self) -> bool:
        """Whether a picture now would start a worker: none idle, and room for another."""
        return len(self._workers) < self.processes and all(w.waiting for w in self._workers)

    def _stop(self, worker: _Worker) -> None:
        if worker in self._workers:  # once, whoever notices first
            self._workers.remove(worker)
            worker.stop()
