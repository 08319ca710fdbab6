"""Quoted replies in mail: every line of a quoted passage starts with
``>`` marks, one per level of quoting (``> ``, ``> > ``, ``>>``; RFC 3676
section 4.5 names the convention; ``&gt; `` in a mail archive's HTML).  A URN folded inside such a passage goes
on past the marks of its next line when they are the marks its own line
starts with."""
from __future__ import annotations

from typing import Optional, Tuple

from ..lazyre import LazyPattern
from .chars import ESCAPED_GT, EOL, blanks_end, line_break_after, line_start

#: the marks of a quoted line: ">" repeated, each followed by at most one
#: blank, after the line's indentation; "&gt;" where a page shows the mail
#: as text (a mail archive's HTML escapes them, XML section 4.6)
_MARKS = LazyPattern(rb"[ \t]*(?:(?:>|&gt;)[ \t]?)+")
#: how long the marks of one line may be
_MARKS_REACH = 32


def _depth(buf: bytes, i: int, hi: int) -> tuple:
    """(number of ">" marks, their end) of the line starting at i."""
    m = _MARKS.match(buf, i, min(hi, i + _MARKS_REACH))
    if m is None:
        return 0, i
    marks = m.group()
    return marks.count(b">") + marks.count(ESCAPED_GT), m.end()


def past_quote_marks(buf: bytes, start: int, nl: Optional[int], hi: int) -> Optional[int]:
    """Where the text of the line starting at ``nl`` starts past its quote
    marks, when it carries marks and the line holding ``start`` carries as
    many; None otherwise (and when ``nl`` is None)."""
    if nl is None:
        return None
    depth, end = _depth(buf, nl, hi)
    if not depth:
        return None
    ls = line_start(buf, start)
    if ls is None or _depth(buf, ls, start)[0] != depth:
        return None
    return end


def marks_of(buf: bytes, ls: int, hi: int) -> Tuple[int, int]:
    """(number of ">" marks, where the text starts past them) of the line
    starting at ``ls``; (0, ls) for a line that is not quoted."""
    return _depth(buf, ls, hi)


def next_text(buf: bytes, nl: int, hi: int, depth: int, limit: int) -> Tuple[int, int]:
    """(start of the line's text, its first character other than a blank)
    of the first line from ``nl`` that holds text, lines holding none (in
    a reply, its marks alone) passed over, looked for up to ``limit``;
    past ``depth`` marks when ``depth`` (the marks of the line before), and
    (-1, -1) where a line carries other marks or none holds text."""
    while nl < limit:
        text = nl
        if depth:
            marks, text = _depth(buf, nl, hi)
            if marks != depth:
                return -1, -1
        q = blanks_end(buf, text, hi)
        if q >= hi or buf[q] not in EOL:
            return text, q
        nl = line_break_after(buf, q, hi)
        if nl < 0:
            break
    return -1, -1
