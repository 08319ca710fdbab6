"""Grep-like output: ``path:line:column:urn``, one line per hit.

* The source ``-`` (standard input) is shown as ``(stdin)``, a hit without a
  source as ``(input)``.  A hit in a document of a container is shown as
  ``path!document:line:col:urn`` (``book.epub!OEBPS/ch1.xhtml:5:27:...``),
  line and column counting in the document.
* A candidate that is not valid under the scan's profile gets
  `` [invalid: code,code]`` appended: the codes of its error findings (all
  its finding codes if, oddly, none is an error).  Valid hits get nothing,
  so ``grep -v '\\[invalid'`` keeps the valid ones and ``cut -d: -f4-``
  the URNs.
* Undecodable bytes and control characters in a path or URN are shown as
  backslash escapes, so one hit is always one line.
"""
from __future__ import annotations

from typing import TextIO

from ..model import ERROR, Hit
from ._base import LineSink, printable

__all__ = ["TextSink", "format_hit"]

_SOURCE_NAMES = {"-": "(stdin)", None: "(input)"}


def format_hit(hit: Hit) -> str:
    """The grep-like line of one hit (without the newline)."""
    source = hit.source
    name = _SOURCE_NAMES.get(source) if source in _SOURCE_NAMES else printable(source)
    if hit.document is not None:
        name += "!" + printable(hit.document)
    line = f"{name}:{hit.line}:{hit.column}:{printable(hit.urn)}"
    if not hit.valid:
        codes = [f.code for f in hit.findings if f.severity == ERROR] or list(hit.codes)
        line += f" [invalid: {','.join(codes)}]" if codes else " [invalid]"
    return line


class TextSink(LineSink):
    """Write hits as ``path:line:col:urn`` lines to ``stream``."""

    def __init__(self, stream: TextIO):
        super().__init__(stream)

    def format_hit(self, hit: Hit) -> str:
        return format_hit(hit)
