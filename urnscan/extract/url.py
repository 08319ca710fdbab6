"""URL context: a URN inside a URL or form-encoded parameters ends at the
URL's ``&`` and is marked embedded.

Whether it is inside one depends on the whole token before ``urn:`` (from
the last white space, quote or bracket), however long: a resolver link
``http://host/urn:nbn:...``, a query ``/uri-res/N2L?urn:...``,
``...?id=urn:...``, ``magnet:?xt=urn:...``, or parameters
``grant_type=urn:...&scope=...``.  :class:`TokenContext` keeps a summary of
the token read so far, so a streaming reader decides it without keeping the
token: every byte is read once, and the answer does not depend on how the
input was cut.
"""
from __future__ import annotations

import re
from typing import Optional

from ..lazyre import LazyPattern
from .chars import ALPHA, LOOKBACK, TOKEN_STOP
from .rules import Rule

#: RFC 3986 section 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ),
#: read from the first SCHEME_LIMIT bytes of a token
SCHEME_LIMIT = 64
_SCHEME = LazyPattern(rb"[A-Za-z][A-Za-z0-9+.-]*:")
#: form-encoded parameters (WHATWG URL section 5): name=value&name=value
_NAME = LazyPattern(rb"[A-Za-z0-9_.~%+-]*")
_VALUE = LazyPattern(rb"[A-Za-z0-9_.~%+:-]*")
#: the last token stop in a span: the token starts after it
_TOKEN_TAIL = LazyPattern(rb"(?:.*[" + re.escape(bytes(sorted(TOKEN_STOP))) + rb"])?", re.S)
#: a "," or ";" right before "urn:" after a URL with no query ends the URL's
#: path and starts the next item of a list, as lists.py reads the same
#: separators after a URN (cut:list): 'value=[http://opcfoundation.org/UA/,
#: urn:host:UaServerCpp]', JavaScript's Array.prototype.join with its default
#: separator (ECMA-262 section 23.1.3.18) printing a server's namespace URIs.
#: RFC 3986 section 3.3 leaves "," and ";" in a path to the scheme, and no
#: http path names a URN after one; in a query ('?ids=urn:a,urn:b') the list
#: is the URL's own, and its items stay embedded
_LIST_SEPARATORS = b",;"
_TOKEN_STOP_BYTE = LazyPattern(rb"[" + re.escape(bytes(sorted(TOKEN_STOP))) + rb"]")


class TokenContext:
    """What is known of the token being read: its first bytes, whether it
    holds "//", "?" or "/", its last byte, and whether it is so far a run of
    ``name=value&`` form parameters."""

    __slots__ = ("head", "dslash", "query", "slash", "last", "form", "name_len", "name_alpha", "in_value",
                 "value_len")

    def __init__(self):
        self.reset()

    def reset(self) -> None:
        self.head = b""
        self.dslash = self.query = self.slash = False
        self.last = -1  # nothing read yet
        self.form = True  # the token so far fits (name=value&)* name[=value]
        self.name_len = self.value_len = 0
        self.name_alpha = self.in_value = False

    def _segment(self) -> None:
        self.name_len = 0
        self.name_alpha = False
        self.in_value = False
        self.value_len = 0

    def feed(self, data: bytes) -> None:
        """Read more of the token (no token stop inside ``data``)."""
        if not data:
            return
        if len(self.head) < SCHEME_LIMIT:
            self.head += data[:SCHEME_LIMIT - len(self.head)]
        if not self.dslash:
            self.dslash = b"//" in data or (self.last == 0x2F and data[0] == 0x2F)
        self.query = self.query or b"?" in data
        self.slash = self.slash or b"/" in data
        self.last = data[-1]
        if self.form:
            self._feed_form(data)

    def _feed_form(self, data: bytes) -> None:
        for i, piece in enumerate(data.split(b"&")):
            if i:
                if not (self.in_value and self.name_len):
                    self.form = False  # a parameter without "name="
                    return
                self._segment()
            if not self.in_value:
                k = piece.find(b"=")
                name = piece if k < 0 else piece[:k]
                if _NAME.fullmatch(name) is None:
                    self.form = False
                    return
                if name and not self.name_len:
                    self.name_alpha = name[0] in ALPHA
                self.name_len += len(name)
                if k < 0:
                    continue
                self.in_value = True
                piece = piece[k + 1:]
            if _VALUE.fullmatch(piece) is None:
                self.form = False
                return
            self.value_len += len(piece)

    @property
    def embedded(self) -> Optional[Rule]:
        """The rule that makes a ``urn:`` right after the token read so far
        part of a URL or of form parameters, or ``None``."""
        if self.last < 0:
            return None
        scheme = _SCHEME.match(self.head)
        if scheme is not None and (self.dslash or self.query or self.head[:7].lower() == b"magnet:"):
            if self.last in _LIST_SEPARATORS and not self.query:
                return None  # the next item of a list after a URL's path (a list, not the URL's own name)
            return Rule.EMBEDDED_URL
        if self.last in b"/?=" and (self.slash or self.query):
            return Rule.EMBEDDED_URL
        if self.form and self.in_value and not self.value_len and self.name_alpha:
            return Rule.EMBEDDED_FORM
        return None

    def advance(self, buf: bytes, a: int, b: int) -> None:
        """Read ``buf[a:b]``: the token restarts after its last token stop."""
        if b <= a:
            return
        stop = _TOKEN_TAIL.match(buf, a, b).end()
        if stop > a:
            self.reset()
        self.feed(buf[stop:b])


def url_context(prefix: bytes) -> Optional[Rule]:
    """Whether a ``urn:`` right after ``prefix`` (the token before it) is
    inside a URL or form parameters."""
    ctx = TokenContext()
    ctx.advance(prefix, 0, len(prefix))
    return ctx.embedded


class StreamContext:
    """A :class:`TokenContext` that follows a stream: ``at(buf, base, p)``
    tells whether the ``urn:`` at buffer index p is embedded, reading the
    bytes since the last call once."""

    __slots__ = ("token", "pos")

    def __init__(self, pos: int = 0):
        self.token = TokenContext()
        self.pos = pos  # absolute offset read up to

    def skip_to(self, buf: bytes, base: int, target: int) -> None:
        """Read the stream up to absolute offset ``target``."""
        if target > self.pos:
            self.token.advance(buf, max(0, self.pos - base), target - base)
            self.pos = target

    def restart(self, pos: int) -> None:
        """A token starts at absolute offset ``pos`` (after a token stop)."""
        if pos > self.pos:
            if self.token.last >= 0:  # (a token with nothing read is already fresh)
                self.token.reset()
            self.pos = pos

    def at(self, buf: bytes, base: int, p: int) -> Optional[Rule]:
        if p and buf[p - 1] in TOKEN_STOP:
            self.restart(base + p)  # a token starts at p: nothing before it counts
            return None
        self.skip_to(buf, base, base + p)
        return self.token.embedded


def token_start_in(data: bytes) -> int:
    """The index just after the last token stop in ``data``, or -1 when it
    holds none (the token started before it)."""
    end = _TOKEN_TAIL.match(data).end()
    return end if end else -1


def token_stop_in(data: bytes, end: int) -> int:
    """The index of the first token stop in ``data[:end]``, or -1 when it
    holds none (the token goes on past it)."""
    m = _TOKEN_STOP_BYTE.search(data, 0, end)
    return m.start() if m else -1


def url_quoted(buf: bytes, p: int) -> bool:
    """Whether the URL token holding p (within the lookback) starts right
    after a single quote, which then closes it: RFC 3986 allows "'" in a
    URL, but ``'http://urn.fi/URN:NBN:fi:au:finaf:': x`` quotes one."""
    floor = max(0, p - LOOKBACK)
    start = token_start_in(buf[floor:p])
    return start > 0 and buf[floor + start - 1] == 0x27
