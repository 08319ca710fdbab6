"""Where a Parquet index goes, and the checks made before a scan starts
(the layouts are described in :mod:`urnscan.sinks.parquet`).

Kept apart from the writer so that a run checks its output, and starts its
workers, before it loads pyarrow.
"""
from __future__ import annotations

import os
import re
from typing import List, NamedTuple, Union

from ..errors import SinkError

__all__ = ["OutputLayout", "plan_output", "check_writable", "check_dir_writable", "PART_GLOB",
           "FILES_TABLE_NAME", "LEGACY_FILES_TABLE_NAME"]

#: Glob of the hit parts of a dataset directory.
PART_GLOB = "hits-*.parquet"
#: Name of the files table inside a dataset directory (a Parquet file that
#: no ``*.parquet`` glob picks up).
FILES_TABLE_NAME = "_files.pq"
#: Its name before schema version 2 (matched by ``**/*.parquet`` globs).
LEGACY_FILES_TABLE_NAME = "_files.parquet"

_PART_RE = re.compile(r"hits-\d{5,}\.parquet\Z")


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
        raise SinkError(f"{directory}: not a directory ({anc} is a file)")
    if not os.access(anc, os.W_OK | os.X_OK):
        raise SinkError(f"{anc}: permission denied (cannot write the output)")


def _our_dataset_files(directory: str) -> List[str]:
    try:
        names = os.listdir(directory)
    except OSError as exc:
        raise SinkError(f"{directory}: {exc.strerror or exc}") from exc
    return sorted(n for n in names if _PART_RE.match(n) or n in (FILES_TABLE_NAME, LEGACY_FILES_TABLE_NAME))


def check_writable(out_path: Union[str, os.PathLike], force: bool = False) -> OutputLayout:
    """Check, before anything is scanned, that the output can be written.

    Raises :class:`SinkError` when the output exists and ``force`` is false
    (a dataset directory "exists" when it holds ``hits-*.parquet`` parts or
    a files table; an empty directory is fine), when a parent is not a
    directory or when the place is not writable.  Returns the layout.
    """
    layout = plan_output(out_path)
    if layout.dataset:
        if os.path.exists(layout.path):
            if not os.path.isdir(layout.path):
                raise SinkError(f"{layout.path}: exists and is not a directory")
            ours = _our_dataset_files(layout.path)
            if ours and not force:
                raise SinkError(
                    f"{layout.path}: already holds an urnscan dataset ({ours[0]}...); "
                    "use --force (force=True) to overwrite")
            check_dir_writable(layout.path)
        else:
            check_dir_writable(os.path.dirname(os.path.abspath(layout.path)))
        return layout
    for p in (layout.path, layout.files_path):
        if os.path.lexists(p):
            if os.path.isdir(p):
                raise SinkError(f"{p}: is a directory")
            if not force:
                raise SinkError(f"{p}: already exists; use --force (force=True) to overwrite")
    check_dir_writable(os.path.dirname(os.path.abspath(layout.path)))
    return layout
