"""Where a Parquet index goes, and the checks made before a scan starts
(the layouts are described in :mod:`urnscan.sinks.parquet`).

Kept apart from the writer so that a run checks its output, and starts its
workers, before it loads pyarrow.
"""
from __future__ import annotations

import os
import stat
from typing import List, NamedTuple, Union

from ..errors import OutputExists, OutputIsSpecial, OutputRefused, SinkError
from ..lazyre import LazyPattern
from ..tempfiles import landing

__all__ = ["OutputLayout", "plan_output", "check_writable", "check_dir_writable", "check_file_target",
           "check_files_writable", "check_name_length", "PART_GLOB", "FILES_TABLE_NAME", "LEGACY_FILES_TABLE_NAME"]

#: Glob of the hit parts of a dataset directory.
PART_GLOB = "hits-*.parquet"
#: Name of the files table inside a dataset directory (a Parquet file that
#: no ``*.parquet`` glob picks up).
FILES_TABLE_NAME = "_files.pq"
#: Its name before schema version 2 (matched by ``**/*.parquet`` globs).
LEGACY_FILES_TABLE_NAME = "_files.parquet"

_PART_RE = LazyPattern(r"hits-\d{5,}\.parquet\Z")


def _part_name(i: int) -> str:
    return f"hits-{i:05d}.parquet"


class OutputLayout(NamedTuple):
    """Where a run's output goes.

    ``dataset`` tells the layout; ``path`` is the output file (single-file
    layout) or the directory (dataset); ``files_path`` is the files table.
    """

    dataset: bool
    path: str
    files_path: str


def plan_output(out_path: Union[str, os.PathLike]) -> OutputLayout:
    """The layout ``out_path`` asks for (see the module docs)."""
    path = os.fspath(out_path)
    if not path:
        raise SinkError("empty output path")
    if path.endswith(("/", os.sep)) or os.path.isdir(path):
        directory = path.rstrip("/" + os.sep) or path
        return OutputLayout(True, directory, os.path.join(directory, FILES_TABLE_NAME))
    head, name = os.path.split(path)
    stem = name[:-len(".parquet")] if name.endswith(".parquet") and name != ".parquet" else name
    return OutputLayout(False, path, os.path.join(head, stem + ".files.parquet"))


def _existing_ancestor(path: str) -> str:
    path = os.path.abspath(path)
    while not os.path.exists(path):
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    return path


def check_dir_writable(directory: str) -> None:
    """Raise :class:`SinkError` unless files can be created in ``directory``
    (or, when it does not exist yet, in its nearest existing ancestor)."""
    anc = _existing_ancestor(directory)
    if not os.path.isdir(anc):
        why = "" if anc == os.path.abspath(directory) else f" ({anc} is a file)"
        raise SinkError(f"{directory}: not a directory{why}")
    if not os.access(anc, os.W_OK | os.X_OK):
        raise SinkError(f"{anc}: {_why_not_writable(anc)} (cannot write the output)")


def _why_not_writable(directory: str) -> str:
    """Why files cannot be created in ``directory``: its file system is
    mounted read-only (``os.access`` says so for root too), or permission."""
    try:
        read_only = bool(os.statvfs(directory).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # (no statvfs where the platform has none)
        read_only = False
    return "read-only file system" if read_only else "permission denied"


#: what an output path is when it is no regular file (stat's test, its name)
_SPECIAL_KINDS = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                  (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"))


def check_file_target(path: str, force: bool) -> None:
    """Raise :class:`OutputRefused` unless a file may be written at ``path``:
    nothing is there, or (with ``force``) a regular file or a link to one,
    which is written through.  A device, FIFO or socket is never replaced,
    with or without ``force``: :class:`OutputIsSpecial`.  A dangling link
    counts as existing (writing through it creates its target)."""
    if not os.path.lexists(path):
        return
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:  # a dangling link
        mode = stat.S_IFREG
    except OSError as exc:  # a link loop, a parent not searchable...
        raise OutputRefused(f"{path}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise OutputRefused(f"{path}: is a directory")
    for test, kind in _SPECIAL_KINDS:
        if test(mode):
            raise OutputIsSpecial(f"{path}: is {kind}, not a regular file; it is never replaced")
    if not force:
        raise OutputExists(path)


def check_files_writable(paths, force: bool) -> None:
    """:func:`check_file_target` for each of ``paths``, then
    :func:`check_dir_writable` for the directory each lands in, and
    :func:`check_name_length` of the name each lands on."""
    for path in paths:
        check_file_target(path, force)
    lands = [landing(path) for path in paths]
    for directory in dict.fromkeys(os.path.dirname(os.path.abspath(p)) for p in lands):
        check_dir_writable(directory)
    for path, landed in zip(paths, lands):
        check_name_length(path, landed)


def check_name_length(path: str, lands: str) -> None:
    """Raise :class:`SinkError` when the name of the file ``path`` lands on
    (``lands``) is longer than its file system takes: the file is written
    under a temporary name and given this one at the end, so the end is
    where it would fail, after the whole scan."""
    name = os.fsencode(os.path.basename(lands))
    try:
        limit = os.pathconf(_existing_ancestor(os.path.dirname(os.path.abspath(lands))), "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # (no limit to ask for)
        return
    if limit is not None and 0 < limit < len(name):
        raise SinkError(f"{path}: file name too long ({len(name)} bytes; the file system takes {limit})")


def _our_dataset_files(directory: str) -> List[str]:
    try:
        names = os.listdir(directory)
    except OSError as exc:
        raise SinkError(f"{directory}: {exc.strerror or exc}") from exc
    return sorted(n for n in names if _PART_RE.match(n) or n in (FILES_TABLE_NAME, LEGACY_FILES_TABLE_NAME))


def check_writable(out_path: Union[str, os.PathLike], force: bool = False) -> OutputLayout:
    """Check, before anything is scanned, that the output can be written.

    Raises :class:`OutputRefused` when the output is refused whatever the
    place allows (see :func:`check_file_target`): it exists and ``force``
    is false (:class:`OutputExists`; a dataset directory "exists" when it
    holds ``hits-*.parquet`` parts or a files table; an empty directory is
    fine), or it is a directory, device, FIFO or socket where a file goes.
    Raises :class:`SinkError` when a parent is not a directory or the place
    is not writable.  Returns the layout.
    """
    layout = plan_output(out_path)
    if layout.dataset:
        if os.path.exists(layout.path):
            if not os.path.isdir(layout.path):
                raise OutputRefused(f"{layout.path}: exists and is not a directory")
            ours = _our_dataset_files(layout.path)
            for name in ours:  # replaced or removed by a forced run: files only
                check_file_target(os.path.join(layout.path, name), True)
            if ours and not force:
                raise OutputExists(layout.path, f"already holds an urnscan dataset ({ours[0]}...)")
            check_dir_writable(layout.path)
        else:
            check_dir_writable(os.path.dirname(os.path.abspath(layout.path)))
        return layout
    check_files_writable((layout.path, layout.files_path), force)
    return layout
