"""URI parameters: a URN given as the value of a ``;name=`` parameter ends
where the next parameter starts.

SIP URIs carry parameters as ``;name=value`` or ``;name`` (RFC 3261
section 19.1.1), and a GRUU is such a value (``;gr=urn:uuid:...``, RFC
5627 section 3.1); an XMPP URI's query does the same (``?;node=...;item=``,
RFC 5122 section 2.2).  A ``;`` is an URN character (RFC 8141 section 2),
but after a ``;name=`` the next ``;name`` is the URI's next parameter, as a
reader sees it.  A ``;`` inside the URN that starts no parameter name
(``urn:lex:ch;glarus:...``) stays.

An OPC UA ExpandedNodeId in its string form names its namespace the same
way: ``nsu=<uri>;<type>=<value>`` (``nsu=urn:example:server;i=2253``, OPC
10000-6 section 5.3.1.11, where a ";" inside the URI is percent-encoded),
so a URN right after an ``nsu=`` that starts a word ends before the
``;i=``, ``;s=``, ``;g=`` or ``;b=`` of its identifier, as after a
``;nsu=`` behind a server index (``svr=1;nsu=...``).  After any other
``name=`` that starts a word (``a=urn:example:y;b=1``) the ``;`` stays.
"""
from __future__ import annotations

from ..lazyre import LazyPattern
from .chars import ALNUM

#: ";name=" right before the URN (the name of a SIP or XMPP URI parameter)
_PARAMETER_BEFORE = LazyPattern(rb";[A-Za-z][A-Za-z0-9.+-]{0,31}=\Z")
_BEFORE_SPAN = 34
#: "nsu=" starting a word right before the URN: the namespace of an OPC UA
#: ExpandedNodeId
_NODE_ID_NAMESPACE = b"nsu="
#: what a word may hold before "nsu=" (a name's own letters, "xnsu=")
_WORD = ALNUM | frozenset(b"_.+-")
#: the next parameter: ";name" then "=", ";", the end of the URI or of the run
_NEXT_PARAMETER = LazyPattern(rb";[A-Za-z][A-Za-z0-9.+-]{0,31}(?=[=;>\s\"']|\Z)")


def may_end_at_parameter(buf: bytes, p: int, e: int) -> bool:
    """The quick test before :func:`parameter_end`: "=" right before the
    URN at p and a ";" in its run up to ``e`` (the fast paths hand such a
    candidate to the reading rules)."""
    return p > 0 and buf[p - 1] == 0x3D and buf.find(b";", p + 4, e) >= 0


def _parameter_value(buf: bytes, p: int) -> bool:
    """Whether the URN at p is the value of a ``;name=`` parameter."""
    if p <= 0 or buf[p - 1] != 0x3D:
        return False
    if buf[max(0, p - 4):p] == _NODE_ID_NAMESPACE and (p == 4 or buf[p - 5] not in _WORD):
        return True
    return _PARAMETER_BEFORE.search(buf, max(0, p - _BEFORE_SPAN), p) is not None


def parameter_end(buf: bytes, p: int, nss_start: int, e: int) -> int:
    """Where the URN at p whose run ends at ``e`` ends when it is the value
    of a ``;name=`` parameter: before the ``;`` of the next parameter in
    ``buf[nss_start:e]``; ``e`` when it is no parameter's value or no
    parameter follows."""
    if not may_end_at_parameter(buf, p, e) or not _parameter_value(buf, p):
        return e
    m = _NEXT_PARAMETER.search(buf, nss_start, e)
    return m.start() if m else e


def folded_parameter_end(buf: bytes, p: int, segments: list) -> list:
    """``segments`` of a URN at p folded over lines, cut before the ``;`` of
    the next parameter in a continuation when the URN is the value of a
    ``;name=`` parameter (``;gr=urn:uuid:...-`` then ``00a0c91e6bf6;lr>``
    on the next line); ``segments`` itself when nothing is cut."""
    if len(segments) < 2 or not _parameter_value(buf, p):
        return segments
    for i in range(1, len(segments)):
        a, b = segments[i]
        m = _NEXT_PARAMETER.search(buf, a, b)
        if m is not None:
            return segments[:i] + [(a, m.start())] if m.start() > a else segments[:i]
    return segments
