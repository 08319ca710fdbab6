"""The ``urnscan`` command line: argument parsing and the exit codes of
:mod:`.codes` (0 success, 1 some inputs invalid or failed or an output not
written, 2 usage errors);
each command is a module of its own (``check``, ``scan``, ``dedupe``)."""
from __future__ import annotations

import argparse
import codecs
import contextlib
import errno
import gc
import io
import os
import signal
import sys
from typing import Optional, Sequence

from .._version import __version__
from ..accel import in_use as accel_in_use
from ..errors import UrnscanError
from ..interrupts import Terminated, raise_in_main_thread

from .codes import EXIT_INTERRUPTED, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE, OutputGone, plural, say_error

__all__ = ["main", "run", "build_parser", "EXIT_OK", "EXIT_SOME_FAILED", "EXIT_USAGE", "plural"]


#: the cycle collector's thresholds for a run of the command.  A scan makes
#: a tuple or two per hit and keeps them until they are written; at
#: CPython's default (700) the young generation is collected every few
#: hundred hits and 10-15 % of a dense scan went to the collector, 1 % at
#: 10,000.  Cycles are still collected, 10,000 allocations later at most.
COLLECTOR_THRESHOLDS = (10_000, 10, 10)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors exit 2 with a clear line
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")

    def print_help(self, file=None) -> None:
        """``--help``: argparse drops a write that fails, and the help into a
        full disk exited 0; here the failure reaches :func:`main`."""
        (file or sys.stdout).write(self.format_help())


class _Version(argparse.Action):
    """``-V``: the version and which code runs, on one line (argparse's own
    version action wraps it at the terminal's width)."""

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(f"urnscan {__version__} ({accel_in_use()})\n")
        parser.exit(EXIT_OK)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="urnscan",
        description="Find Uniform Resource Names in text, validate them against RFC 8141, RFC 2141 "
                    "and their drafts, and index them to Parquet.")
    parser.add_argument("-V", "--version", action=_Version, nargs=0,
                        help="show the version, and whether the compiled accelerator runs, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    from .check import add_check
    from .dedupe import add_dedupe
    from .scan import add_scan

    add_check(sub)
    add_scan(sub)
    add_dedupe(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except OSError as exc:  # --help and --version write to standard output
        return _output_failed(exc, EXIT_OK)
    try:
        with raise_in_main_thread():  # workers ended, temporary files removed
            return args.run(args)
    except Terminated:
        sys.stderr.write("urnscan: terminated\n")
        return 128 + signal.SIGTERM
    except UrnscanError as exc:
        return say_error("", str(exc), EXIT_SOME_FAILED)
    except BrokenPipeError as exc:
        # the reader went away (e.g. `| head`): not an error of ours.  The
        # exit status is that of what was done before (OutputGone).
        return _output_failed(exc, exc.code if isinstance(exc, OutputGone) else EXIT_OK)
    except OSError as exc:
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        return say_error("", f"{where}{exc.strerror or exc}", EXIT_SOME_FAILED)
    except KeyboardInterrupt:
        sys.stderr.write("urnscan: interrupted\n")
        return EXIT_INTERRUPTED


def _output_failed(exc: OSError, code: int) -> int:
    """The exit status of a run whose standard output failed with ``exc``
    after the run earned ``code``: a reader gone away (``| head``) is no
    error of ours and is quiet, any other failure (a full disk:
    ``> /dev/full``) is said and makes it 1.  Standard output is pointed at
    the null device, so that what is still buffered fails no second time."""
    if not isinstance(exc, BrokenPipeError):
        why = exc.strerror or str(exc)
        where = "" if why.startswith("standard output") else "standard output: "
        say_error("", f"{where}{why}", code)
        code = code or EXIT_SOME_FAILED
    with contextlib.suppress(OSError, ValueError):  # no descriptor: nothing buffered for it either
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return code


_NAME_ESCAPES = "urnscan-name-escapes"


def _escaped_names(exc: UnicodeError):
    """A codec error handler: an undecodable byte of a file name (a lone
    surrogate, as ``os.fsdecode`` gives it) as ``\\xNN``, as the index
    and the text output show names; any other character the stream cannot
    encode as ``backslashreplace`` writes it."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return "".join(_escaped(c) for c in exc.object[exc.start:exc.end]), exc.end


def _escaped(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # the byte code - 0xDC00 (PEP 383)
        return f"\\x{code - 0xDC00:02x}"
    return char.encode("ascii", "backslashreplace").decode("ascii")


def _name_escapes(stream) -> None:
    """Make ``stream`` (standard error) write names as :func:`_escaped_names` does."""
    try:
        codecs.lookup_error(_NAME_ESCAPES)
    except LookupError:
        codecs.register_error(_NAME_ESCAPES, _escaped_names)
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors=_NAME_ESCAPES)
        except (ValueError, OSError):  # a stream that cannot change its error handler
            pass


class _ClosedOutput(io.TextIOBase):
    """Standard output when the command was started with it closed
    (``>&-``): a scan to a file needs none, one that prints fails as a write
    to it fails (:func:`main`: exit status 1), never in silence."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


class _Messages(io.TextIOBase):
    """Standard error as the run writes to it: once the reader of a pipe
    has gone away (``2>&1 | head -1``), what it no longer reads is dropped
    and the run goes on -- its output and its exit status never depend on
    who reads its messages (a broken standard output ends the run quietly
    instead: :func:`main`)."""

    def __init__(self, stream):
        self._stream = stream
        self._gone = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not self._gone:
            try:
                self._stream.write(text)
            except BrokenPipeError:
                self._gone = True
        return len(text)

    def flush(self) -> None:
        if not self._gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._gone = True

    def isatty(self) -> bool:
        return not self._gone and self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self):
        return self._stream.encoding

    @property
    def errors(self):
        return self._stream.errors


def _closed_standard_streams() -> None:
    """A standard stream the command was started without (``>&-``,
    ``2>&-``) gets the null device in its place, so that no file the run
    opens takes its number and receives what was meant for it; standard
    output, closed, still fails the writes to it (:class:`_ClosedOutput`),
    standard error drops what it is told (as a terminal gone away)."""
    closed = [fd for fd in (0, 1, 2) if _closed(fd)]
    for fd in closed:
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    if 1 in closed or sys.stdout is None:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
    if sys.stdin is None:  # read as an empty input
        sys.stdin = open(0, encoding="utf-8", closefd=False)


def _closed(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


def run() -> None:
    """The ``urnscan`` command (and ``python -m urnscan``): :func:`main`,
    then the process ends at once with its exit code.  Every output is
    closed by then and the standard streams are flushed here; what is left
    out is the interpreter's teardown -- freeing every object of a large
    run and stopping pyarrow's thread pools -- which costs about 5 % of a
    scan of a real corpus.

    The command owns its process, so it also sets the cycle collector's
    thresholds (:data:`COLLECTOR_THRESHOLDS`), which forked workers inherit."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    _closed_standard_streams()
    _name_escapes(sys.stderr)
    sys.stderr = _Messages(sys.stderr)
    try:
        code = main()
    except SystemExit as exc:  # --help, --version and usage errors, from argparse
        code = exc.code if isinstance(exc.code, int) else EXIT_OK if exc.code is None else EXIT_SOME_FAILED
    except KeyboardInterrupt:  # before the run began (while the parser was built and read)
        sys.stderr.write("urnscan: interrupted\n")
        code = EXIT_INTERRUPTED
    except Exception as exc:  # a bug of ours: a line to report, not a traceback
        if os.environ.get("URNSCAN_TRACEBACK"):
            raise
        sys.stderr.write(f"urnscan: internal error: {type(exc).__name__}: {exc}\n"
                         "urnscan: please report it with the command that led to it "
                         "(URNSCAN_TRACEBACK=1 shows where it arose)\n")
        code = EXIT_SOME_FAILED
    try:
        sys.stdout.flush()
    except OSError as exc:
        code = _output_failed(exc, code)
    try:
        sys.stderr.flush()
    except OSError:
        pass
    os._exit(code)
