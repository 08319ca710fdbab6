"""What every line-oriented sink shares."""
from __future__ import annotations

from typing import Iterable, Optional, TextIO

from ..errors import SinkError
from ..model import Hit
from .status import FILE_STATUSES, FileStatus


def printable(text: Optional[str]) -> str:
    """``text`` safe for one line of a text stream.

    Lone surrogates (undecodable bytes of a file name or of the input)
    become ``\\xNN`` escapes; line breaks and other control characters
    become backslash escapes, so one hit stays one line.
    """
    if text is None:
        return ""
    if text.isascii() and text.isprintable():
        return text
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


class LineSink:
    """A sink writing one line per hit to a text stream given by the caller.

    The stream is flushed, never closed, by :meth:`close`.  Subclasses
    define :meth:`format_hit`.
    """

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.rows_written = 0
        self.files_rows = 0
        self._closed = False

    def format_hit(self, hit: Hit) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def write_hit(self, hit: Hit) -> None:
        self.stream.write(self.format_hit(hit) + "\n")
        self.rows_written += 1

    def write_hits(self, hits: Iterable[Hit]) -> int:
        """Write hits from any iterable; returns how many."""
        write = self.stream.write
        fmt = self.format_hit
        n = 0
        for hit in hits:
            write(fmt(hit) + "\n")
            n += 1
        self.rows_written += n
        return n

    def add_file_status(self, source, status: Optional[str] = None,
                        reason: Optional[str] = None, **counts) -> None:
        """Accepted for a uniform sink interface; line sinks only count them."""
        if isinstance(source, FileStatus):
            status = source.status
        if status not in FILE_STATUSES:
            raise SinkError(f"unknown file status {status!r}")
        self.files_rows += 1

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.stream.flush()

    def abort(self) -> None:
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        self.close()
        return False
