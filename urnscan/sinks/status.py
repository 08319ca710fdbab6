"""The per-input status of a run: one row of the files table.

Kept apart from :mod:`urnscan.sinks.schema` so that code that only needs
the statuses does not import pyarrow.
"""
from __future__ import annotations

from typing import NamedTuple, Optional

__all__ = ["SCANNED", "SKIPPED_BINARY", "SKIPPED", "ERROR", "FILE_STATUSES", "FileStatus", "stored_status",
           "stored_compressed_bytes"]

#: The input was scanned to the end.
SCANNED = "scanned"
#: The input is binary (see :func:`urnscan.sources.looks_binary`): not scanned.
SKIPPED_BINARY = "skipped-binary"
#: Met while walking and passed over, not an error: hidden, ignored by an
#: ignore file, a symbolic link not followed, a link loop or a dangling link
#: (``reason`` says which).
SKIPPED = "skipped"
#: The input could not be read, or not to the end (``reason`` says why).
ERROR = "error"
FILE_STATUSES = (SCANNED, SKIPPED_BINARY, SKIPPED, ERROR)


class FileStatus(NamedTuple):
    """One row of the files table (see :data:`urnscan.sinks.schema.FILES_SCHEMA`)."""

    source: str
    status: str
    reason: Optional[str] = None
    bytes: int = 0
    compressed_bytes: Optional[int] = None
    compression: Optional[str] = None
    hits: int = 0
    valid_hits: int = 0
    #: container inputs: what they held (see urnscan.sources.documents)
    container: Optional[str] = None
    documents: int = 0
    skipped_documents: int = 0


def stored_status(row: FileStatus) -> FileStatus:
    """``row`` as the files table stores it: ``compressed_bytes`` is the
    bytes read from the input itself, so equal to ``bytes`` when the input
    was not compressed (an integer column in every engine, never null)."""
    if row.compressed_bytes is None:
        return row._replace(compressed_bytes=stored_compressed_bytes(None, row.bytes))
    return row


def stored_compressed_bytes(compressed: Optional[int], read: int) -> int:
    """The ``compressed_bytes`` the files table stores for a row: the bytes
    read from the input itself, ``read`` when it was not compressed."""
    return read if compressed is None else compressed
