"""Grep-like output: ``path:line:col:urn``, one line per hit.

* Exactly four ``:``-separated fields before the URN, nothing after it, so
  ``cut -d: -f4-`` gives the URN (a URN holds ``:`` itself).  Whether a
  hit is valid is not written on the line: ``--valid-only`` keeps the valid
  ones, ``--format jsonl`` (or the index) has the findings, and colour
  output dims the invalid ones.
* The source is written as the index stores it: the path as listed, ``-``
  for standard input; a hit without a source (from the library) as
  ``(input)``.  A hit in a document of a container is shown as
  ``path!document:line:col:urn`` (``book.epub!OEBPS/ch1.xhtml:5:27:...``),
  line and column counting in the document.
* With ``context=True`` each hit line is followed by a context line in
  ripgrep's context style, ``path-line-col-text`` (``-`` instead of ``:``),
  holding the hit's ``context``.
* With ``color=True`` the path, the position and the URN are coloured with
  ANSI escapes (the URN bold red, an invalid one dim instead).
* Undecodable bytes and control characters in a path or URN are shown as
  backslash escapes, so one hit is always one line.
"""
from __future__ import annotations

from typing import Optional, TextIO

from ..model import Hit
from ._base import LineSink, printable

__all__ = ["TextSink", "format_hit", "shown_source"]

# ANSI SGR sequences (ECMA-48 section 8.3.117)
PATH_STYLE = "\033[35m"      # magenta, as ripgrep's paths
POSITION_STYLE = "\033[32m"  # green, as ripgrep's line numbers
URN_STYLE = "\033[1;31m"     # bold red, as ripgrep's matches
INVALID_STYLE = "\033[2m"    # dim
RESET = "\033[0m"


def shown_source(source: Optional[str], document: Optional[str] = None) -> str:
    """A source (and the document inside it, after ``!``) as text output
    writes it (one line, never empty)."""
    name = "(input)" if source is None else printable(source)
    return name if document is None else f"{name}!{printable(document)}"


def format_hit(hit: Hit, color: bool = False) -> str:
    """The grep-like line of one hit (without the newline)."""
    name = shown_source(hit.source, hit.document)
    urn = printable(hit.urn)
    if not color:
        return f"{name}:{hit.line}:{hit.column}:{urn}"
    style = URN_STYLE if hit.valid else INVALID_STYLE
    return (f"{PATH_STYLE}{name}{RESET}:{POSITION_STYLE}{hit.line}{RESET}:"
            f"{POSITION_STYLE}{hit.column}{RESET}:{style}{urn}{RESET}")


def format_context(hit: Hit) -> str:
    """The context line of one hit: ``path-line-col-text``."""
    return f"{shown_source(hit.source, hit.document)}-{hit.line}-{hit.column}-{printable(hit.context)}"


class TextSink(LineSink):
    """Write hits as ``path:line:col:urn`` lines to ``stream``."""

    def __init__(self, stream: TextIO, *, color: bool = False, context: bool = False):
        super().__init__(stream)
        self.color = color
        self.context = context

    def format_hit(self, hit: Hit) -> str:
        line = format_hit(hit, self.color)
        if self.context and hit.context is not None:
            line += "\n" + format_context(hit)
        return line
