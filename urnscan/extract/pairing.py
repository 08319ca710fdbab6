"""Delimiter pairing: a quote or bracket right before ``urn:`` says where
the URN ends -- at its closer.

Only closers that a URN may contain need a rule: ``'`` (RFC 2141 section
2.2 and RFC 8141's sub-delims), also as the closer of a ``‘`` typed with a
straight quote, ``)``, and the emphasis of Markdown (CommonMark section
6.2), ``*`` and ``_``, and its strikethrough (GitHub Flavored Markdown's
extension, section 6.5), ``~~`` or ``~``, and Org's verbatim and code,
``=`` and ``~``, closed by the same marks after a letter or digit and
before none (``**urn:xmpp:mam:2**:``, ``_urn:x:access_token_``,
``~~urn:xmpp:mix:0~~``, ``=urn:x:y=``; a mark after a letter or digit
opens nothing: ``key=urn:x:y``), and a URL's
percent-encoding (RFC 3986 section 2.1), closed by an encoded blank,
quote or bracket (``q=asset==%22urn:ngsi-ld:Building:1%22``);
every other closer (``"``, ``>``, ``]``, ``}``, a backtick, typographic
quotes) is outside every repertoire and ends the run anyway.  Parentheses
balanced inside the NSS are kept (SICI ``...(199501)13:1...``).  With no
opener, an apostrophe inside an NSS stays (``urn:example:o'brien:1``).
"""
from __future__ import annotations

from enum import Enum
from typing import Optional, Tuple

from ..lazyre import LazyPattern
from .chars import ALNUM, after_percent
from .rules import Rule


class Opener(Enum):
    """What stands right before ``urn:``, and the closer it waits for."""

    SINGLE_QUOTE = (b"'", b"'")
    DOUBLE_QUOTE = (b'"', b'"')
    BACKTICK = (b"`", b"`")
    LEFT_SINGLE = ("\u2018".encode(), "\u2019".encode())
    LEFT_DOUBLE = ("\u201c".encode(), "\u201d".encode())
    PAREN = (b"(", b")")
    BRACKET = (b"[", b"]")
    BRACE = (b"{", b"}")
    ANGLE = (b"<", b">")
    STAR = (b"*", b"*")
    UNDERSCORE = (b"_", b"_")
    TILDE = (b"~", b"~")
    #: Org's verbatim (Org manual, "Emphasis and Monospace": ``=verbatim=``)
    EQUALS = (b"=", b"=")
    #: a URL's percent-encoding (RFC 3986 section 2.1, ``%XX``) in a URL
    #: that holds the URN as it is: ``q=asset==%22urn:ngsi-ld:Building:1%22``
    PERCENT = (b"%", b"%")

    @property
    def closer(self) -> bytes:
        return self.value[1]

    @property
    def is_quote(self) -> bool:
        return self not in _BRACKETS


_BRACKETS = frozenset({Opener.PAREN, Opener.BRACKET, Opener.BRACE, Opener.ANGLE})
_BY_BYTE = {o.value[0][0]: o for o in Opener if len(o.value[0]) == 1 and o is not Opener.PERCENT}
_TYPOGRAPHIC = {o.value[0]: o for o in Opener if len(o.value[0]) == 3}


#: a quote opened typographically and closed straight, as an editor that
#: curls only the opening quote writes it (``xmlns=‘urn:xmpp:mix:0'/>``, XEP-0369):
#: the straight quote closes it unless a letter or digit follows, an
#: apostrophe inside the name (``‘urn:example:o'brien:1’``)
_STRAIGHT_CLOSER = LazyPattern(rb"'(?![A-Za-z0-9])")
#: the marks closing Markdown's emphasis: right after a letter or digit,
#: before none (a mark inside a word, ``access_token``, stays; so does a
#: wildcard after a separator, ``urn:xmpp:mix:nodes:*``)
_EMPHASIS = {Opener.STAR: LazyPattern(rb"(?<=[A-Za-z0-9])\*+(?![A-Za-z0-9])"),
             Opener.UNDERSCORE: LazyPattern(rb"(?<=[A-Za-z0-9])_+(?![A-Za-z0-9])"),
             Opener.TILDE: LazyPattern(rb"(?<=[A-Za-z0-9])~+(?![A-Za-z0-9])"),
             Opener.EQUALS: LazyPattern(rb"(?<=[A-Za-z0-9])=+(?![A-Za-z0-9])")}
#: what ends a URN that a percent-encoding opens: a URL's encoded blank,
#: quote or bracket (``%20``, ``%22``, ``%3E``...; hex digits in either
#: case), the URL encoding the text around the URN, not the URN
_ENCODED_CLOSER = LazyPattern(rb"%(?:0[9ADad]|2[0278]|29|3[CEce]|5[BDbd]|7[BDbd])")
#: the openers whose closer is looked for in the run, and its pattern
_CLOSER_IN_RUN = {Opener.LEFT_SINGLE: _STRAIGHT_CLOSER, Opener.PERCENT: _ENCODED_CLOSER, **_EMPHASIS}


def opener_before(buf: bytes, p: int, lo: int) -> Optional[Opener]:
    """The opener right before the ``urn:`` at p, if any."""
    if p <= lo:
        return None
    found = _BY_BYTE.get(buf[p - 1])
    if found is None and p - 3 >= lo and buf[p - 1] in (0x98, 0x9C):
        found = _TYPOGRAPHIC.get(buf[p - 3:p])
    elif found is None and p - 3 >= lo and after_percent(buf, p):
        found = Opener.PERCENT
    elif found in _EMPHASIS:
        k = p - 1
        while k > lo and buf[k - 1] == buf[p - 1] and p - k < 3:
            k -= 1
        if k > lo and buf[k - 1] in ALNUM:
            return None  # a mark inside a word ("NS_urn:...") opens no emphasis
        if found is Opener.TILDE and k == p - 1 and k > lo and buf[k - 1] in b"'\"":
            return None  # a regular expression's delimiter in a string ("'~urn:...~'": delimiter_closer)
    return found


def paired_run(buf: bytes, start: int, limit: int, run, opener: Optional[Opener]) -> Tuple[int, bool]:
    """``(end, cut)``: where the run of URN characters from ``start``
    (read up to ``limit``) ends when its opener is honoured -- at the first
    closer (for ``(``, the first ``)`` not balanced by a ``(`` inside the
    run), ``cut`` telling whether the closer ended it.  Reads no further
    than the run, so the work is linear in what is read."""
    if opener is Opener.SINGLE_QUOTE:
        c = buf.find(b"'", start, limit)
        stop = limit if c < 0 else c
        e = run.match(buf, start, stop).end()
        return e, e == c
    closer = _CLOSER_IN_RUN.get(opener)
    if closer is not None:
        # looked for in the run only (for a "‘", a letter outside ASCII
        # ends the run, and the caller reads on from there)
        e = run.match(buf, start, limit).end()
        m = closer.search(buf, start, e)
        return (e, False) if m is None else (m.start(), True)
    if opener is not Opener.PAREN:
        return run.match(buf, start, limit).end(), False
    depth = 0
    at = start
    while True:
        c = buf.find(b")", at, limit)
        stop = limit if c < 0 else c
        e = run.match(buf, at, stop).end()
        if e != c:
            return e, False  # the run ends before any closer
        depth += buf.count(b"(", at, c)
        if depth == 0:
            return c, True
        depth -= 1
        at = c + 1


def closed_at(opener: Opener, buf: bytes, e: int, hi: int) -> bool:
    """Whether the opener's closer stands at ``buf[e:hi]``."""
    if opener is Opener.PERCENT:
        return _ENCODED_CLOSER.match(buf, e, hi) is not None
    return buf.startswith(opener.closer, e, hi)


def pair_rule(opener: Optional[Opener]) -> Rule:
    """The rule that cut a run at its closer (no opener: a delimiter's)."""
    if opener is None:
        return Rule.PAIR_DELIMITER
    if opener in _EMPHASIS:
        return Rule.PAIR_EMPHASIS
    if opener is Opener.PERCENT:
        return Rule.PAIR_ENCODED
    return Rule.PAIR_PAREN if opener is Opener.PAREN else Rule.PAIR_QUOTE


#: the delimiters of a regular expression written as a string of code
#: (PHP's ``preg_match('#...#', ...)``, Perl's ``m!...!``) that URN
#: characters are made of; "/" is left out (a path's separator), "%" too
#: (a SQL ``LIKE`` wildcard, see :mod:`.code`)
REGEX_DELIMITERS = frozenset(b"#@!|~")


def delimiter_closer(buf: bytes, p: int, nss_start: int, e: int) -> int:
    """Where a URN whose run ends at ``e`` ends when a delimiter of a
    regular expression stands between a quote and its ``urn:`` and closes
    it before the same quote (``'#urn:example:a#'``: the pattern matches
    ``urn:example:a`` and nothing else): at that delimiter; -1 otherwise.
    Looks no further than the run and the byte after it."""
    if p < 2 or buf[p - 1] not in REGEX_DELIMITERS or buf[p - 2] not in b"'\"":
        return -1
    return buf.find(bytes((buf[p - 1], buf[p - 2])), nss_start, e + 1)
