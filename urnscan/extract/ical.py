"""iCalendar and vCard content lines folded anywhere: RFC 5545 section 3.1
("Lines of text SHOULD NOT be longer than 75 octets ... a long line can
be split between any two characters by inserting a CRLF immediately
followed by a single linear white-space character"), and RFC 6350
section 3.2 for vCard.  A URN given as a property's value
(``ATTENDEE;CUTYPE=RESOURCE:urn:uuid:...``, ``MEMBER:urn:uuid:...``) goes
on after such a break with no separator, often inside a UUID.

A content line is told by its head: a property name in capitals (both
RFCs write them so; they are case-insensitive, but prose is not written
so), its parameters, then ":" right before the URN.  The continuation
stands where its line break is, indented by exactly one blank more than
the content line (artwork in an RFC indents both).
"""
from __future__ import annotations

from typing import List, Optional, Tuple, Union

from ..lazyre import LazyPattern
from .chars import line_start
from .fold import Overflow

#: the head of a content line up to the ":" before its value (RFC 5545
#: section 3.1: name *(";" param) ":"; a parameter value may be quoted)
_HEAD = LazyPattern(rb'([ \t]*)[A-Z][A-Z0-9-]*(?:;[A-Za-z0-9-]+=(?:"[^"\r\n]*"|[^";:,\r\n]*)'
                    rb'(?:,(?:"[^"\r\n]*"|[^";:,\r\n]*))*)*:')
#: how far back the head of a content line may start (a 75-octet line and
#: the indentation of artwork)
_HEAD_REACH = 160


def content_line_indent(buf: bytes, p: int) -> Optional[bytes]:
    """The indentation of the content line whose value starts at p, or
    None when the line holding p is not a content line's head up to p."""
    if p == 0 or buf[p - 1] != 0x3A:
        return None
    ls = line_start(buf, p, _HEAD_REACH)
    if ls is None:
        return None
    head = _HEAD.fullmatch(buf, ls, p)
    return None if head is None else head.group(1)


def unfold(buf: bytes, segments: List[Tuple[int, int]], hi: int, run, max_end: int,
           indent: bytes) -> Union[List[Tuple[int, int]], Overflow]:
    """``segments`` (the URN's first line, ending at its run) joined with
    the continuation lines of its content line: each starts right after a
    line break with ``indent`` and one blank, and goes on with the run.
    An :class:`~.fold.Overflow` when it goes on past ``max_end`` (an
    over-long candidate)."""
    width = len(indent) + 1
    while True:
        start, e = segments[-1]
        if e >= hi or buf[e] not in b"\r\n":
            return segments
        nl = e + (2 if buf[e:e + 2] == b"\r\n" else 1)
        q = nl + width
        if (q >= hi or buf[nl:q - 1] != indent or buf[q - 1] not in b" \t"
                or buf[q] in b" \t\r\n"):
            return segments
        t = run.match(buf, q, hi).end()
        if t <= q:
            return segments
        if t > max_end:
            return Overflow(q)
        segments.append((q, t))
