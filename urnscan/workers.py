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

try:
    import fcntl
except ImportError:  # (Windows)
    fcntl = None

#: results a worker may have waiting for the reader before it blocks
DEFAULT_MAX_MESSAGES = 8
#: tasks submitted to one worker and not yet read back (done or not: the
#: messages of a done task wait in its queue and outbox)
DEFAULT_MAX_TASKS = 16
#: tasks given to one worker and not yet done: the one it runs and the one
#: it takes next.  A task is given to a worker only when it is this close to
#: idle, so that a slow task (a file of PDFs) holds up one task behind it,
#: not a queue of them, while the other worker runs out of work
DEFAULT_QUEUED = 2
#: how often a reader waiting for a task's messages lets the caller give
#: the workers more (:meth:`WorkerPool.messages`' ``idle``)
_IDLE_SECONDS = 0.002
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

    def forward(self) -> None:
        """The waiting messages the queue has room for into it."""
        self._forward(block=False)

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
    """The next task, forwarding the messages waiting in the outbox as room
    comes while it waits: the reader may be waiting for them, or for this
    worker to be idle before it sends the next task."""
    while outbox.waiting:
        try:
            return tasks.get(timeout=_IDLE_SECONDS)
        except queue.Empty:
            outbox.forward()
    return tasks.get()


def _worker_main(parent_pid: int, tasks, results, done) -> None:
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
        done.value += 1
    outbox.flush()
    results.close()
    results.join_thread()


#: the capacity asked for the pipe a worker's results come through (Linux:
#: ``fcntl(F_SETPIPE_SZ)``, up to /proc/sys/fs/pipe-max-size, 1 MiB by
#: default): a piece of a few MB crosses a 64 KiB pipe in as many reads and
#: switches between writer and reader; 48 MB of pieces cost the reader
#: 0.10-0.13 s of CPU through 64 KiB and 0.07 s through 1 MiB
RESULT_PIPE_BYTES = 1 << 20


def _enlarge_pipe(connection) -> None:
    """Ask for :data:`RESULT_PIPE_BYTES` of capacity for the pipe of
    ``connection``; where that cannot be (another system, a user over
    the kernel's limits), the pipe stays as it is."""
    setting = getattr(fcntl, "F_SETPIPE_SZ", None)  # (None without fcntl, or off Linux)
    if setting is None:
        return
    try:
        fcntl.fcntl(connection.fileno(), setting, RESULT_PIPE_BYTES)
    except (OSError, ValueError, AttributeError):
        pass


class _Worker:
    def __init__(self, ctx, max_messages: int):
        self.tasks = ctx.Queue()
        self.results = ctx.Queue(max_messages)
        _enlarge_pipe(getattr(self.results, "_writer", None))
        #: tasks this worker has done (it counts them; the reader only reads)
        self.done = ctx.RawValue("q", 0)
        self.process = ctx.Process(target=_worker_main, args=(os.getpid(), self.tasks, self.results, self.done),
                                   name="urnscan-worker", daemon=True)
        #: the tickets given to it and not yet read back, oldest first
        self.outstanding: Deque[int] = deque()
        self.given = 0  # tasks given to it

    def unfinished(self) -> int:
        """Tasks given to it and not yet done."""
        return self.given - self.done.value

    def has_room(self, max_tasks: int, max_queued: int) -> bool:
        return len(self.outstanding) < max_tasks and self.unfinished() < max_queued


class WorkerPool:
    """``jobs`` worker processes, started on the first :meth:`submit`.

    ``fn(send, *args)`` runs in a worker; each ``send(message)`` reaches the
    reader as one item of :meth:`messages`.  ``fn`` and ``args`` must be
    picklable (a top-level function)."""

    def __init__(self, jobs: int, max_messages: int = DEFAULT_MAX_MESSAGES, max_tasks: int = DEFAULT_MAX_TASKS,
                 prepare: Optional[Callable[[], None]] = None, max_queued: int = DEFAULT_QUEUED):
        self.jobs = max(1, int(jobs))
        #: run here once, before the workers start: what every worker would
        #: otherwise load for itself (forked, they share what it loaded)
        self.prepare = prepare
        self.max_messages = max_messages
        self.max_tasks = max_tasks
        self.max_queued = max_queued
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
        ``max_tasks`` not read back or ``max_queued`` not done."""
        return not self._workers or any(w.has_room(self.max_tasks, self.max_queued) for w in self._workers)

    def submit(self, fn: Callable, *args) -> Ticket:
        """Give a task to the worker closest to idle (a task goes to one
        even when none has room)."""
        if not self._workers:
            self._start()
        workers = self._workers
        index = min(range(len(workers)), key=lambda i: (workers[i].unfinished(), len(workers[i].outstanding)))
        worker = workers[index]
        number = self._next
        self._next += 1
        worker.outstanding.append(number)
        worker.given += 1
        worker.tasks.put((number, fn, args))
        return Ticket(number, index)

    def messages(self, ticket: Ticket, idle: Optional[Callable[[], None]] = None) -> Iterator[Any]:
        """The messages of ``ticket``'s task as they come; raises
        :class:`WorkerDied` when the task failed or its worker died.  Tickets
        must be read in the order they were submitted.  While no message
        has come, ``idle`` is called every few milliseconds: the caller may
        submit more tasks from it (the workers done with theirs would wait
        for the one read here otherwise), but not read another ticket."""
        worker = self._workers[ticket.worker]
        if not worker.outstanding or worker.outstanding[0] != ticket.number:
            raise RuntimeError("tickets must be read in the order they were submitted")
        if ticket.number in self._lost:
            self._lost.discard(ticket.number)
            worker.outstanding.popleft()
            raise WorkerDied("worker process died with the task queued to it")
        wait = _WATCH_SECONDS if idle is None else _IDLE_SECONDS
        waited = 0.0  # since a message came or the worker was last seen alive
        try:
            while True:
                try:
                    number, message = worker.results.get(timeout=wait)
                except queue.Empty:
                    waited += wait
                    if idle is not None:
                        idle()
                    if waited < _WATCH_SECONDS:
                        continue
                    waited = 0.0
                    if not worker.process.is_alive():
                        self._replace(ticket.worker)
                        raise WorkerDied(_death_reason(worker.process.exitcode)) from None
                    continue
                waited = 0.0
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
