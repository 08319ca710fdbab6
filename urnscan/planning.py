"""How the inputs of a run are cut into tasks: one rule for the local
worker processes (:mod:`urnscan.runner`) and for a Dask cluster
(:mod:`urnscan.distributed`).

* A regular file is scanned whole, unless it is a plain (uncompressed, text,
  not a container) file of at least twice ``split_bytes``: then it is cut
  into byte ranges of about ``split_bytes`` (:func:`urnscan.ranges.plan_ranges`),
  scanned apart and stitched.  An uncompressed mbox archive that large is
  split into its messages by the process that plans, and batches of them
  are parsed and scanned apart (``Layout.MESSAGES``: the local runner;
  a cluster scans it whole).  A compressed file is never cut (a stream
  cannot be entered in the middle).
* Consecutive files scanned whole go to one task until it holds
  ``max_bytes`` (a file counts for at least :data:`MIN_FILE_COST`: opening
  it costs too; a compressed one for :data:`COMPRESSED_FACTOR` times its
  size, its text being larger) or ``max_files``.

Planning reads at most the first 64 KiB of a file, and only of a file
large enough to be cut or streamed, and then at most 64 KiB after each cut
(:data:`urnscan.ranges.CUT_SEARCH`: a range starts where a token does); it
never consumes anything else.
"""
from __future__ import annotations

import enum
from typing import List, NamedTuple, Optional, Tuple

from .ranges import Range, plan_ranges
from .sources import InputRef, looks_binary
from .sources.codecs import detect_compression
from .sources.documents import ContainerKind, container_kind

#: a file counts for at least this many bytes in a task
MIN_FILE_COST = 4096
#: a compressed file counts for this many times its size in a task
COMPRESSED_FACTOR = 4
#: a file at least this large is peeked at: it may be cut, or streamed
PEEK_ABOVE = 16 << 20
_PEEK_BYTES = 65536


class Layout(enum.StrEnum):
    """How one regular file is scanned."""

    WHOLE = "whole"  # by one task, from its start
    COMPRESSED = "compressed"  # whole, a compressed stream
    RANGES = "ranges"  # in byte ranges, stitched
    MESSAGES = "messages"  # an mbox archive split into its messages here, batches of them scanned by tasks


class FilePlan(NamedTuple):
    layout: Layout
    ranges: Tuple[Range, ...] = ()


_WHOLE = FilePlan(Layout.WHOLE)


def planned_whole(size: int, split_bytes: int) -> bool:
    """Whether a regular file of ``size`` bytes is scanned whole without
    looking at it: too small to be cut or streamed."""
    return size < 2 * split_bytes and size <= PEEK_ABOVE


def plan_file(path: str, size: int, split_bytes: int) -> FilePlan:
    """How to scan the regular file at ``path`` of ``size`` bytes (an
    unreadable one is planned whole: its scan reports the error, as it
    does for one removed or replaced while it is planned)."""
    if planned_whole(size, split_bytes):
        return _WHOLE
    try:
        with open(path, "rb") as fh:
            head = fh.read(_PEEK_BYTES)
        if detect_compression(head) is not None:
            return FilePlan(Layout.COMPRESSED)
        if size >= 2 * split_bytes and not looks_binary(head):
            kind = container_kind(head, path)
            if kind is None:
                return FilePlan(Layout.RANGES, tuple(plan_ranges(path, size, max(2, size // split_bytes),
                                                                 split_bytes)))
            if kind is ContainerKind.MBOX:
                return FilePlan(Layout.MESSAGES)
    except OSError:
        return _WHOLE
    return _WHOLE


class Batch:
    """Consecutive files scanned whole by one task."""

    def __init__(self, max_bytes: int, max_files: Optional[int] = None):
        self.max_bytes, self.max_files = max_bytes, max_files
        self.refs: List[InputRef] = []
        self.cost = 0

    def add(self, ref: InputRef, layout: Layout = Layout.WHOLE) -> bool:
        """Add a file; whether the batch is now full."""
        self.refs.append(ref)
        size = ref.size or 0
        if layout is Layout.COMPRESSED:
            size *= COMPRESSED_FACTOR
        self.cost += max(size, MIN_FILE_COST)
        return self.cost >= self.max_bytes or (self.max_files is not None and len(self.refs) >= self.max_files)


__all__ = ["Batch", "FilePlan", "Layout", "plan_file", "planned_whole", "MIN_FILE_COST", "COMPRESSED_FACTOR"]
