"""The outputs of ``urnscan scan``: checked up front (an existing output
needs --force; a device, FIFO, socket or directory is never replaced; an
output is never one of the inputs named), written beside their targets
(through a symbolic link, beside the file it points to) and renamed into
place at the end, and never read back by the run that writes them
(:class:`_OwnOutputs` keeps them out of the walk)."""
from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import sys
from typing import Callable, Iterable, List, Optional, TextIO, Tuple

from ..errors import OutputRefused, SinkError
from ..sinks.status import FileStatus
from ..sources import STDIN
from ..tempfiles import TEMP_SUFFIX, PendingFile, landing, temp_name_pattern


class _OwnOutputs:
    """``skip`` for the walk: true for the run's own output files and their
    temporary files, however the walk reaches them (compared by real path).

    A test of how the name ends, then of the whole name, come first, so
    most files cost no system call and no regular expression.
    """

    def __init__(self, places: List[tuple], endings: Tuple[str, ...], identities: frozenset = frozenset()):
        # (real directory, compiled name pattern); every name a pattern
        # matches ends with one of ``endings``
        self.places = places
        self.endings = endings
        self.identities = identities  # (st_dev, st_ino) of the output files that exist
        names = re.compile("|".join(f"(?:{p.pattern})" for _, p in places)) if places else None
        self._name_matches = names.fullmatch if names is not None else None

    def __call__(self, path: str) -> bool:
        if not path.endswith(self.endings):
            return False
        name = path[path.rfind(os.sep) + 1:]
        if self._name_matches is None or not self._name_matches(name):
            return False
        home = os.path.realpath(os.path.dirname(path) or ".")
        return any(home == d and p.fullmatch(name) for d, p in self.places)

    def holds(self, path: str) -> bool:
        """Whether the file ``path`` is one of the outputs, by any name: its
        own, a symbolic link to it, a hard link.  A directory is not."""
        if os.path.isdir(path):
            return False
        if self(path) or self(os.path.realpath(path)):
            return True
        try:
            st = os.stat(path)
        except OSError:
            return False
        return (st.st_dev, st.st_ino) in self.identities

    @classmethod
    def of_files(cls, *targets: str) -> "_OwnOutputs":
        places = []
        endings = [TEMP_SUFFIX]
        identities = set()
        # a link is written through: the file it points to is an output too
        for target in dict.fromkeys(p for t in targets for p in (t, landing(t))):
            directory, name = os.path.split(os.path.abspath(target))
            escaped = re.escape(name)
            places.append((os.path.realpath(directory), re.compile(rf"{escaped}|{temp_name_pattern(name)}")))
            endings.append(name)
            with contextlib.suppress(OSError):
                st = os.stat(target)
                identities.add((st.st_dev, st.st_ino))
        return cls(places, tuple(endings), frozenset(identities))

    @classmethod
    def of_dataset(cls, directory: str) -> "_OwnOutputs":
        from ..sinks.layout import FILES_TABLE_NAME, LEGACY_FILES_TABLE_NAME

        names = "|".join(re.escape(n) for n in (FILES_TABLE_NAME, LEGACY_FILES_TABLE_NAME))
        pattern = re.compile(rf"hits-\d{{5,}}\.parquet|{names}|\..*{re.escape(TEMP_SUFFIX)}")
        endings = (".parquet", FILES_TABLE_NAME, LEGACY_FILES_TABLE_NAME, TEMP_SUFFIX)
        # the directory itself too: a walk that lists a hidden or ignored
        # directory as one row, unentered, passes over this one
        parent, name = os.path.split(os.path.abspath(directory))
        itself = (os.path.realpath(parent), re.compile(re.escape(name)))
        return cls([(os.path.realpath(directory), pattern), itself], (*endings, name))


def own_outputs(layout) -> _OwnOutputs:
    """The walk's guard for a Parquet output laid out as ``layout`` (a
    :func:`urnscan.sinks.layout.check_writable` answer)."""
    if layout.dataset:
        return _OwnOutputs.of_dataset(layout.path)
    return _OwnOutputs.of_files(layout.path, layout.files_path)


def refuse_inputs_among(paths: Iterable[str], guard: _OwnOutputs) -> None:
    """Raise :class:`OutputRefused` when a PATH named explicitly is one of
    the run's outputs: the run would replace what it reads.  (Met while
    walking, an output is passed over instead.)"""
    for path in paths:
        if path != STDIN and guard.holds(path):
            raise OutputRefused(f"{path}: is an input of this run and would be replaced by its output; "
                                "write the output elsewhere")


def open_sink(fmt: str, out: Optional[str], force: bool, params: dict, *, inputs: Iterable[str] = (),
              color: bool = False, context: bool = False):
    """A context manager giving ``(sink, skip)``.  The output is checked
    here, before anything is written: :class:`OutputRefused` for what the
    command asks (the output exists without ``force``, is no regular file,
    is one of ``inputs``), :class:`SinkError` for what the system refuses."""
    if out is None:
        return _line_sink(fmt, sys.stdout, None, color=color, context=context)
    if fmt != "parquet" and is_stream(out):
        return _stream_sink(fmt, out, color=color, context=context)
    if fmt == "parquet":
        from ..sinks.layout import check_writable

        layout = check_writable(out, force)
        guard = own_outputs(layout)
        refuse_inputs_among(inputs, guard)
        return _parquet_sink(out, force, params, guard)
    from ..sinks.layout import check_files_writable

    files_path = _files_path(out, fmt)
    check_files_writable((out, files_path), force)
    guard = _OwnOutputs.of_files(out, files_path)
    refuse_inputs_among(inputs, guard)
    return _atomic_line_sink(fmt, out, files_path, guard, color=color, context=context)


def is_stream(path: str) -> bool:
    """Whether ``path`` is a character device or a FIFO (``/dev/null``,
    ``/dev/stdout``, a named pipe): lines are written into it as into
    standard output, never a file put in its place."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


@contextlib.contextmanager
def _stream_sink(fmt: str, out: str, *, color: bool, context: bool):
    """Text or JSON lines written into a device or FIFO as they come, with
    no files table beside it (as on standard output)."""
    try:
        # a FIFO nobody reads would block the open: ENXIO says so at once
        fd = os.open(out, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        os.set_blocking(fd, True)
    except OSError as exc:
        why = "no process reads it" if exc.errno == errno.ENXIO else exc.strerror or exc
        raise SinkError(f"{out}: cannot write: {why}") from exc
    stream = _NamedStream(os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape", newline="\n"), out)
    try:
        with _line_sink(fmt, stream, None, color=color, context=context) as opened:
            yield opened
    finally:
        stream.close()


class _NamedStream:
    """A text stream into the device or FIFO ``name`` whose write errors
    (a full device: ``/dev/full``) name it; a reader gone away stays a
    :class:`BrokenPipeError`, as on standard output."""

    def __init__(self, stream: TextIO, name: str):
        self._stream = stream
        self._name = name

    def write(self, text: str) -> int:
        return self._guarded(self._stream.write, text)

    def flush(self) -> None:
        self._guarded(self._stream.flush)

    def close(self) -> None:
        self._guarded(self._stream.close)

    def _guarded(self, call, *args):
        try:
            return call(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise SinkError(f"{self._name}: write failed: {exc.strerror or exc}") from exc


@contextlib.contextmanager
def _parquet_sink(out: str, force: bool, params: dict, guard: _OwnOutputs):
    from ..sinks.loading import load_pyarrow_for_writing

    load_pyarrow_for_writing()
    from ..sinks.parquet import ParquetSink

    with ParquetSink(out, params=params, force=force) as sink:
        yield sink, guard


def _files_path(out: str, fmt: str) -> str:
    stem, ext = os.path.splitext(out)
    return f"{stem}.files{ext or ('.jsonl' if fmt == 'jsonl' else '.txt')}"


@contextlib.contextmanager
def _line_sink(fmt: str, stream: TextIO, files_stream: Optional[TextIO], *, color: bool = False,
               context: bool = False, guard: Optional[Callable[[str], bool]] = None):
    from ..sinks.jsonl import JsonlSink

    if fmt == "jsonl":
        sink = JsonlSink(stream, files_stream=files_stream)
    else:
        sink = _TextWithFiles(stream, files_stream, color=color, context=context)
    try:
        yield sink, guard
    finally:
        sink.close()


class _TextWithFiles:
    """The text sink, plus a 'path<TAB>status<TAB>reason<TAB>hits' files list
    (the path escaped like the hit lines, so one input is one line)."""

    def __init__(self, stream: TextIO, files_stream: Optional[TextIO], *, color: bool, context: bool):
        from ..sinks.text import TextSink

        self.sink = TextSink(stream, color=color, context=context)
        self.files_stream = files_stream
        self.write_hits = self.sink.write_hits

    def add_file_status(self, status: FileStatus) -> None:
        from ..sinks._base import printable

        self.sink.add_file_status(status)
        if self.files_stream is not None:
            self.files_stream.write(f"{printable(status.source)}\t{status.status}\t"
                                    f"{printable(status.reason)}\t{status.hits}\n")

    def close(self) -> None:
        self.sink.close()
        if self.files_stream is not None:
            self.files_stream.flush()


def _pending(target: str) -> PendingFile:
    """A file for ``target``, pending until committed, beside the file a
    write to ``target`` lands on (through a link, the file it points to:
    the link stays); an OS error names ``target``."""
    final = os.path.abspath(landing(target))
    try:
        os.makedirs(os.path.dirname(final), exist_ok=True)  # as the Parquet sink does
        return PendingFile(final)
    except OSError as exc:
        raise SinkError(f"{target}: cannot write: {exc.strerror or exc}") from exc


@contextlib.contextmanager
def _atomic_line_sink(fmt: str, out: str, files_path: str, guard: _OwnOutputs, **style):
    """Write beside the targets, move into place only on success.  An OS
    error names the output, never the pending file."""
    pending_out = _pending(out)
    try:
        pending_files = _pending(files_path)
    except BaseException:
        pending_out.discard()
        raise
    target = out
    try:
        with open(pending_out.path, "w", encoding="utf-8") as fh, \
                open(pending_files.path, "w", encoding="utf-8") as ffh:
            with _line_sink(fmt, fh, ffh, guard=guard, **style) as opened:
                yield opened
            for f in (fh, ffh):
                f.flush()
                os.fsync(f.fileno())
        pending_out.commit()
        target = files_path
        pending_files.commit()
    except BaseException as exc:
        pending_out.discard()
        pending_files.discard()
        if isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError):
            raise SinkError(f"{target}: cannot write: {exc.strerror or exc}") from exc
        raise
