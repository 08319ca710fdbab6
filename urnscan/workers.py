"""Worker processes that stream their results back in order, and die with
their parent.

Each worker has its own task queue and its own *bounded* result queue: a
task sends any number of messages while it runs, and at most
``max_messages`` of them wait in the queue, so memory stays bounded by
``workers x max_messages x`` the largest message, however much a task
finds.  The reader takes the messages of one task at a time, in the order
the tasks were submitted (:meth:`WorkerPool.messages`).  A worker whose
queue is full -- the reader is still taking an earlier task's messages from
another worker -- goes on working: its messages wait, in order, in an
unlinked temporary file (:class:`_Outbox`), which vanishes with the process
however it ends.  Without that, the byte ranges of one file dense with hits
were scanned one after the other, each worker waiting for the reader.

A worker never outlives the process that started it: on Linux the kernel
kills it when its parent dies (``prctl(PR_SET_PDEATHSIG)``, so even after
``SIGKILL``), and everywhere a watchdog thread ends it once its parent is
gone.  Workers ignore ``SIGINT`` (the terminal sends it to the whole process
group): the parent decides, and :meth:`WorkerPool.close` with
``terminate=True`` ends them.

A worker that dies (killed, out of memory) fails the task it was running
and the tasks queued to it (:class:`WorkerDied`; messages it had sent but
not yet flushed to the pipe are lost with it); a fresh worker takes its
place for the tasks submitted after.
"""
from __future__ import annotations

import os
import pickle
import queue
import signal
import sys
import tempfile
import threading
from collections import deque
from typing import Any, Callable, Deque, Iterator, List, NamedTuple, Optional

#: results a worker may have waiting for the reader before it blocks
DEFAULT_MAX_MESSAGES = 8
#: tasks submitted to one worker and not yet read back
DEFAULT_MAX_TASKS = 4
_PR_SET_PDEATHSIG = 1
_WATCH_SECONDS = 0.5
_DONE = "done"
_FAILED = "failed"


class WorkerDied(Exception):
    """A worker process ended in the middle of a task (killed, out of
    memory) or the task raised; ``reason`` says which."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Ticket(NamedTuple):
    """A submitted task: its number and the worker that runs it."""

    number: int
    worker: int


def _context():
    import multiprocessing as mp  # only a run with workers loads it

    # fork starts a worker in milliseconds with urnscan already imported
    if sys.platform.startswith("linux"):
        return mp.get_context("fork")
    return mp.get_context("spawn")


def die_with_parent(parent_pid: int) -> None:
    """Make this process end when ``parent_pid`` (its parent) ends."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl
            pass
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(1)

    def watch() -> None:
        import time

        while os.getppid() == parent_pid:
            time.sleep(_WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="urnscan-parent-watch", daemon=True).start()


class _Outbox:
    """A worker's messages to the reader, in the order they were sent.

    A message goes straight into the bounded result queue while it has
    room; once it is full, messages wait in an unlinked temporary file (so
    memory holds at most one of them) and go on into the queue, oldest
    first, as room comes: before each later message (of this task or the
    next), and all of them before the worker ends.  Where the file cannot be
    written (no space), ``send`` waits for room instead, after the messages
    already waiting.
    """

    def __init__(self, results):
        self.results = results
        self.file: Optional[Any] = None
        self.waiting = 0  # messages in the file, not yet in the queue
        self.read_at = self.write_at = 0
        self.spilled = 0  # messages that went through the file (for tests)

    def send(self, message: Any) -> None:
        self._forward(block=False)
        if not self.waiting and not self.results.full():
            self.results.put(message)
        elif not self._keep(message):
            self._forward(block=True)
            self.results.put(message)

    def flush(self) -> None:
        """Every waiting message into the queue (waiting for room)."""
        self._forward(block=True)

    def _keep(self, message: Any) -> bool:
        try:
            if self.file is None:
                self.file = tempfile.TemporaryFile(prefix="urnscan-outbox-")
            self.file.seek(self.write_at)
            pickle.dump(message, self.file, pickle.HIGHEST_PROTOCOL)
            self.write_at = self.file.tell()
        except OSError:
            return False
        self.waiting += 1
        self.spilled += 1
        return True

    def _forward(self, block: bool) -> None:
        while self.waiting:
            if not block and self.results.full():
                return
            self.file.seek(self.read_at)
            message = pickle.load(self.file)
            self.read_at = self.file.tell()
            self.waiting -= 1
            self.results.put(message)
        if self.file is not None and self.write_at:
            self.file.seek(0)
            self.file.truncate()
            self.read_at = self.write_at = 0


def _next_task(tasks, outbox: _Outbox):
    """The next task: one already queued, or -- after every waiting message
    is in the result queue -- the next to come.  (A worker never waits for
    a task while messages wait in its outbox: the reader may be waiting for
    them, and send no task until it has them.)"""
    if outbox.waiting:
        try:
            return tasks.get_nowait()
        except queue.Empty:
            outbox.flush()
    return tasks.get()


def _worker_main(parent_pid: int, tasks, results) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent_pid)
    outbox = _Outbox(results)
    while True:
        item = _next_task(tasks, outbox)
        if item is None:
            break
        number, fn, args = item

        def send(message: Any, number=number) -> None:
            outbox.send((number, message))

        try:
            fn(send, *args)
        except BaseException:  # reported to the reader, who decides
            import traceback  # (loaded when needed: a third of this module's import)

            outbox.send((number, (_FAILED, traceback.format_exc(limit=20))))
        else:
            outbox.send((number, (_DONE, None)))
    outbox.flush()
    results.close()
    results.join_thread()


class _Worker:
    def __init__(self, ctx, max_messages: int):
        self.tasks = ctx.Queue()
        self.results = ctx.Queue(max_messages)
        self.process = ctx.Process(target=_worker_main, args=(os.getpid(), self.tasks, self.results),
                                   name="urnscan-worker", daemon=True)
        self.outstanding: Deque[int] = deque()


class WorkerPool:
    """``jobs`` worker processes, started on the first :meth:`submit`.

    ``fn(send, *args)`` runs in a worker; each ``send(message)`` reaches the
    reader as one item of :meth:`messages`.  ``fn`` and ``args`` must be
    picklable (a top-level function)."""

    def __init__(self, jobs: int, max_messages: int = DEFAULT_MAX_MESSAGES, max_tasks: int = DEFAULT_MAX_TASKS,
                 prepare: Optional[Callable[[], None]] = None):
        self.jobs = max(1, int(jobs))
        #: run here once, before the workers start: what every worker would
        #: otherwise load for itself (forked, they share what it loaded)
        self.prepare = prepare
        self.max_messages = max_messages
        self.max_tasks = max_tasks
        self._workers: List[_Worker] = []
        self._next = 0
        self._lost: set = set()  # tickets queued to a worker that died

    def _start(self) -> None:
        ctx = _context()
        if self.prepare is not None and ctx.get_start_method() == "fork":
            self.prepare()
        # a forked worker shares the parent's objects page by page; moving
        # them out of the collector's reach keeps its passes from touching
        # (and so copying) every one of those pages in every worker
        import gc

        gc.freeze()
        self._workers = [_Worker(ctx, self.max_messages) for _ in range(self.jobs)]
        for w in self._workers:
            w.process.start()

    def has_room(self) -> bool:
        """Whether some worker takes another task without going over
        ``max_tasks`` outstanding."""
        return not self._workers or any(len(w.outstanding) < self.max_tasks for w in self._workers)

    def submit(self, fn: Callable, *args) -> Ticket:
        if not self._workers:
            self._start()
        index = min(range(len(self._workers)), key=lambda i: len(self._workers[i].outstanding))
        worker = self._workers[index]
        number = self._next
        self._next += 1
        worker.outstanding.append(number)
        worker.tasks.put((number, fn, args))
        return Ticket(number, index)

    def messages(self, ticket: Ticket) -> Iterator[Any]:
        """The messages of ``ticket``'s task as they come; raises
        :class:`WorkerDied` when the task failed or its worker died.  Tickets
        must be read in the order they were submitted."""
        worker = self._workers[ticket.worker]
        if not worker.outstanding or worker.outstanding[0] != ticket.number:
            raise RuntimeError("tickets must be read in the order they were submitted")
        if ticket.number in self._lost:
            self._lost.discard(ticket.number)
            worker.outstanding.popleft()
            raise WorkerDied("worker process died with the task queued to it")
        try:
            while True:
                try:
                    number, message = worker.results.get(timeout=_WATCH_SECONDS)
                except queue.Empty:
                    if not worker.process.is_alive():
                        self._replace(ticket.worker)
                        raise WorkerDied(_death_reason(worker.process.exitcode)) from None
                    continue
                if isinstance(message, tuple) and len(message) == 2 and message[0] in (_DONE, _FAILED):
                    if message[0] == _FAILED:
                        raise WorkerDied(f"internal error: {message[1].strip().splitlines()[-1]}")
                    return
                yield message
        finally:
            if worker.outstanding and worker.outstanding[0] == ticket.number:
                worker.outstanding.popleft()

    def _replace(self, index: int) -> None:
        """A dead worker's queued tasks are lost: mark them, start a new one."""
        dead = self._workers[index]
        fresh = _Worker(_context(), self.max_messages)
        fresh.outstanding = dead.outstanding  # read back as failures, in order
        fresh.process.start()
        self._workers[index] = fresh
        self._lost.update(list(dead.outstanding)[1:])  # the first is the task being read
        for q in (dead.tasks, dead.results):
            q.cancel_join_thread()
            q.close()

    def close(self, terminate: bool = False) -> None:
        """Stop the workers: let them finish (``terminate=False``) or end
        them at once."""
        workers, self._workers = self._workers, []
        for w in workers:
            if terminate:
                if w.process.is_alive():
                    w.process.kill()
            else:
                w.tasks.put(None)
        for w in workers:
            w.process.join(timeout=None if not terminate else 5)
            for q in (w.tasks, w.results):
                q.cancel_join_thread()
                q.close()


def _death_reason(exitcode: Optional[int]) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"worker process killed ({name})"
    return f"worker process ended (exit status {exitcode})"
