"""SIGINT and SIGTERM end a run from the main thread, whichever thread the
kernel hands them to.

Python runs signal handlers in the main thread only, and only once it
executes bytecode again: when the kernel delivers the signal to another
thread (a queue feeder, an Arrow pool thread) while the main thread waits in
``read()`` on a pipe or FIFO, the handler would wait as long as the pipe.
A relay thread learns of every signal through :func:`signal.set_wakeup_fd`
and sends it on to the main thread itself, whose ``read()`` is then
interrupted.  SIGINT raises :class:`KeyboardInterrupt`, SIGTERM
:class:`Terminated`, once: the unwinding that follows (workers ended,
temporary files removed) is not interrupted again.
"""
from __future__ import annotations

import contextlib
import os
import signal
import threading
import time

_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Terminated(BaseException):
    """SIGTERM arrived; unwinds like :class:`KeyboardInterrupt`."""


@contextlib.contextmanager
def raise_in_main_thread():
    """Within the block, SIGINT and SIGTERM raise in the main thread (a
    no-op outside the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    raised = threading.Event()

    def handler(signum, frame):
        if raised.is_set():
            return
        raised.set()
        raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

    r, w = os.pipe()
    os.set_blocking(w, False)
    previous = {s: signal.signal(s, handler) for s in _SIGNALS}
    old_fd = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    main = threading.main_thread().ident

    def relay() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
        with open(r, "rb", buffering=0) as pipe:
            while True:
                data = pipe.read(64)
                if not data:
                    return
                for signum in set(data):
                    if signum in _SIGNALS and not raised.is_set():
                        signal.pthread_kill(main, signum)
                time.sleep(0.05)

    threading.Thread(target=relay, name="urnscan-signal-relay", daemon=True).start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(old_fd)
        for s, h in previous.items():
            signal.signal(s, h)
        os.close(w)  # the relay sees the end of the pipe and returns
