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

Each worker is one process and a socket pair: the event loop writes the pickled calls
(multiprocessing's framing: a 4-byte length, then the bytes, read by a plain
:class:`multiprocessing.connection.Connection` in the worker) and the worker sends each answer
back with an 8-byte length in one write, read by the worker's protocol on the loop as it
arrives. A ``ProcessPoolExecutor`` took about 0.57 ms to hand a picture over and back (its
queue feeder and manager threads contend for the GIL with the loop); the socket pair 0.2–0.27
ms, with no thread in the bot. Read through a stream reader and a task, an answer took the
loop 7 turns and 221 function calls; read by the protocol, 4 turns and 123 calls.
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
    answers = socket.socket(fileno=os.dup(connection.fileno()))
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
            answers.sendall(_SIZE.pack(len(answer)) + answer)
        except OSError:  # the bot gave up on this picture and closed its end
            return


_SIZE = struct.Struct("!Q")
"""An answer's header: its length. Written with the answer in one send, so the bot's loop
is woken once for a picture, not once for the header and again for the bytes."""


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


class _Worker(asyncio.Protocol):
    """One drawing process and the bot's end of its socket pair. A picture's request is
    written as soon as it is asked for, so the worker finds the next one waiting when it
    finishes a picture (a busy event loop would otherwise leave it idle between two); the
    answers come back in the order of the requests and are read as they arrive, each handed
    to its request's future (no task, no stream reader in between). A request given up
    meanwhile still takes its answer: the stream stays in step."""

    def __init__(self, process: multiprocessing.process.BaseProcess) -> None:
        self.process = process
        self.transport: asyncio.Transport | None = None
        self.waiting: deque[asyncio.Future[tuple[bool, Any]]] = deque()
        self.lost = False
        self._received = bytearray()

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
        _, worker = await asyncio.get_running_loop().create_unix_connection(
            lambda: cls(process), sock=sock)
        return worker

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def request(self, message: bytes) -> asyncio.Future[tuple[bool, Any]]:
        """Write pickled calls to the worker now; the future of its answer (failed with
        :class:`_WorkerLost` when the worker ends first)."""
        answer: asyncio.Future[tuple[bool, Any]] = asyncio.get_running_loop().create_future()
        if self.lost or self.transport is None:
            answer.set_exception(_WorkerLost())
        else:
            self.waiting.append(answer)
            self.transport.write(struct.pack("!i", len(message)) + message)
        return answer

    def data_received(self, data: bytes) -> None:
        """Hand each whole answer received to the oldest request waiting."""
        self._received += data
        while len(self._received) >= _SIZE.size:
            end = _SIZE.size + _SIZE.unpack_from(self._received)[0]
            if len(self._received) < end:
                return
            try:
                answer = pickle.loads(self._received[_SIZE.size:end])
            except Exception:  # noqa: BLE001 - a garbled answer ends this worker like a death
                log.exception("a picture worker's answer could not be read")
                self.transport.abort()  # type: ignore[union-attr]
                return
            del self._received[:end]
            if not (request := self.waiting.popleft()).done():
                request.set_result(answer)

    def connection_lost(self, exc: Exception | None) -> None:
        """The worker ended (or its socket broke): the requests waiting are told."""
        self.lost = True
        while self.waiting:
            if not (request := self.waiting.popleft()).done():
                request.set_exception(_WorkerLost())

    def stop(self) -> None:
        """End the socket (the worker then ends) and wait a moment for the process. The
        transport's close only takes effect on the loop's next turn, so the socket is shut
        now."""
        if self.transport is not None:
            with contextlib.suppress(OSError):
                self.transport.get_extra_info("socket").shutdown(socket.SHUT_RDWR)
            self.transport.abort()
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
        return await self._answer(worker, calls, worker.request(message))

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
