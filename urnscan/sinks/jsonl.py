"""JSON lines output: one JSON object per hit.

Each object has the columns of the hits table (same names, same order, see
:mod:`urnscan.sinks.schema`), except that ``findings`` is a list of
objects ``{"code", "severity", "message", "position"}`` (so the
``finding_messages`` column is not repeated).  Text is written
as UTF-8 characters (not ``\\u`` escapes); a string holding undecodable
bytes (lone surrogates) falls back to ASCII escapes for that line, so every
line is valid JSON.

With ``files_stream``, the rows of the files table are written there as
JSON lines too (the columns of the files table).
"""
from __future__ import annotations

import json
from typing import Any, Dict, Optional, TextIO

from ..model import Hit
from ._base import LineSink
from .names import HIT_FIELD_COLUMNS
from .status import FileStatus, stored_status

__all__ = ["JsonlSink", "hit_to_json_obj", "json_line"]

_FIELDS = HIT_FIELD_COLUMNS
_FINDINGS = _FIELDS.index("findings")


def hit_to_json_obj(hit: Hit) -> Dict[str, Any]:
    """The JSON object of one hit."""
    obj = dict(zip(_FIELDS, hit))
    obj["findings"] = [
        {"code": f.code, "severity": f.severity, "message": f.message, "position": f.position}
        for f in hit[_FINDINGS]
    ]
    return obj


def json_line(obj: Any) -> str:
    """``obj`` as one line of JSON, valid UTF-8: its text as characters,
    unless a string holds undecodable bytes (lone surrogates), when the
    whole line falls back to ASCII escapes."""
    line = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    if not line.isascii():
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates: escape them
            line = json.dumps(obj, ensure_ascii=True, separators=(",", ":"))
    return line


class JsonlSink(LineSink):
    """Write hits as JSON lines to ``stream`` (flushed, not closed, at the end)."""

    def __init__(self, stream: TextIO, *, files_stream: Optional[TextIO] = None):
        super().__init__(stream)
        self.files_stream = files_stream

    def format_hit(self, hit: Hit) -> str:
        return json_line(hit_to_json_obj(hit))

    def add_file_status(self, source, status: Optional[str] = None,
                        reason: Optional[str] = None, **counts) -> None:
        super().add_file_status(source, status, reason, **counts)
        if self.files_stream is None:
            return
        row = source if isinstance(source, FileStatus) else FileStatus(
            source, status, reason, **counts)
        self.files_stream.write(json_line(stored_status(row)._asdict()) + "\n")

    def close(self) -> None:
        if not self._closed and self.files_stream is not None:
            self.files_stream.flush()
        super().close()
