"""The 1995 wrapper ``<urn:...>`` (seed 004 section 2): white space (space,
tab, CR, LF) inside is allowed and not significant; ``>`` closes it, but
for the quote marks starting the lines of a quoted reply (:mod:`.quoting`)."""
from __future__ import annotations

from typing import Optional, Tuple

from ..lazyre import LazyPattern
from .chars import ESCAPED_GT, ESCAPED_LT, LITERAL_RUN, NID_TOKEN, WRAPPED_RUNS, line_start
from .quoting import past_quote_marks

WRAPPER_LIMIT = 2048  # characters between "<urn:" and ">" for a wrapper


def escaped_wrapper_at(buf: bytes, p: int) -> bool:
    """Whether the ``urn:`` at p follows an escaped ``<`` (``&lt;``)."""
    return p >= 4 and buf[p - 4:p] == ESCAPED_LT


def wrapped(buf: bytes, p: int, hi: int, profile: str,
            escaped: bool = False) -> Optional[Tuple[int, bytes, bool]]:
    """``(end, urn, folded)`` for the wrapper whose ``urn:`` is at p, or
    ``None``.  White space in a wrapper folds it over lines, or follows a
    ":" (``<URN: Schemeid: Authorityid:Elementid>`` in the minutes of the
    time); a blank after anything else inside a line (``'<urn:uuid:' +
    uuid() + '>'``) is code or prose, not a wrapper.  ``escaped``: the
    wrapper is written ``&lt;...&gt;``, and its first ``&gt;`` closes it."""
    limit = min(hi, p + WRAPPER_LIMIT)
    if escaped:
        close = buf.find(ESCAPED_GT, p, limit)
        if close < 0:
            return None
        limit = close
    run = WRAPPED_RUNS[profile]
    e = run.match(buf, p, limit).end()
    pieces = []
    at = p
    if escaped:
        if e != limit:
            return None  # a character no wrapper holds before the "&gt;"
        return _as_wrapped(buf[p:e], e)
    while e < limit and buf[e] == 0x3E:
        # a ">" starting a line inside a quoted reply is the line's quote
        # mark, as on the wrapper's own line, not the wrapper's end
        ls = line_start(buf, e)
        if ls is None or ls <= at or buf[ls:e].strip(b" \t"):
            break
        past = past_quote_marks(buf, p, ls, limit)
        if past is None:
            break
        pieces.append(buf[at:ls])
        at = past
        e = run.match(buf, at, limit).end()
    if e >= limit or buf[e] != 0x3E:  # no ">" before an excluded character
        return None
    return _as_wrapped(b"".join(pieces) + buf[at:e] if pieces else buf[p:e], e)


def _as_wrapped(raw: bytes, e: int) -> Optional[Tuple[int, bytes, bool]]:
    """``(e, urn, folded)`` for a wrapper holding ``raw`` and closed at
    ``e``, or None when white space is where no wrapper has it, or it
    holds no name."""
    joined = raw.translate(None, b" \t\r\n")
    if len(joined) != len(raw) and not _white_space_allowed(raw):
        return None
    m = NID_TOKEN.match(joined, 4)
    if m is None or m.end() >= len(joined):
        return None  # "<urn:spppAddRequest>" is an XML QName, not a URN
    if empty_element_name(joined):
        return None
    return e, joined, len(joined) != len(raw)


def empty_element_name(name: bytes) -> bool:
    """Whether ``name``, written between "<" and ">", is the QName of an
    empty XML element: its one "/" ends it (``<urn:ietf:params:xml:ns:
    caldav:calendar/>``; ``<URN:path:/ietf/uri/>`` names a directory)."""
    return name.endswith(b"/") and name.count(b"/") == 1


def _white_space_allowed(raw: bytes) -> bool:
    """Every run of white space in ``raw`` holds a line break or follows a
    ":" (seed 004 section 2: white space is not significant in a URN)."""
    return all(raw[m.start() - 1] == 0x3A for m in _BLANKS_IN_LINE.finditer(raw))


#: a run of blanks with no line break before or after it
_BLANKS_IN_LINE = LazyPattern(rb"(?<![ \t\r\n])[ \t]+(?![ \t\r\n])")


def literal_of(buf: bytes, p: int, e: int) -> bytes:
    """The literal RFC 2141 extent from p, within ``buf[:e]``."""
    return buf[p:LITERAL_RUN.match(buf, p + 4, e).end()]
