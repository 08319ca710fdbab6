"""URNs percent-encoded inside a URL.

A resolver link or a search form often carries its URN percent-encoded:
the ":" of a URN is a reserved character of a URL (RFC 3986 sections 2.1
and 2.2), and a form encoder writes it ``%3A`` (``?urn=urn%3Anbn%3Ade%3A...``,
``https://nbn-resolving.org/urn%3Anbn%3Ade%3A...``, a link nested in another
one's parameter, ``%2Furn%3Aisbn%3A...``).  A reader sees the URN; a ``urn:``
finder does not.  This module finds them: a ``urn%3A`` that no letter or
digit runs into, then a NID and ``%3A``, opens a run of a URL's path or
query characters (unreserved, ``%XX``, ``:``); ``/`` (a path's next
segment: a URN's own "/" is encoded with it), ``@`` (a SIP URI's host),
``&``, ``;``, ``=``, ``+``, ``,``, ``#``, ``?``, quotes and blanks end it,
as they end a parameter's value.  With the fold rules on, a value an RFC
breaks over lines after a "-" or a ``%XX``, or before a ``%XX``, goes on on
the next line (rules ``fold:rfc`` and ``decode:percent``).  With the code
rules on, a placeholder after it (``{job_id}``) or in it (``%s``) makes it
a template's, as for a ``urn:``.  The URN reported is the run decoded once:
each ``%XX`` that stands for a character of a URN (RFC 8141 section 2's
pchar, ``/``, ``?``, ``#``) becomes that character, the others stay
encoded, so a URN that holds percent-encoding of its own (``%25C3%25A9`` in
the URL) keeps it (``%C3%A9``).  A period or colon ending the run ends the
sentence.  The hit keeps the text as written (``raw``) and the rule
``decode:percent``.

A ``urn:`` in plain text is the reading rules' (:func:`.reading.read_at`);
an encoded one inside a URN they read (XEP-0470's
``...?;node=urn%3Axmpp%3Amicroblog%3A0;item=...``) is part of that URN.
"""
from __future__ import annotations

import re
from typing import List, Tuple

from ..lazyre import LazyPattern
from .chars import ALNUM, next_prefix
from .code import has_placeholder
from .reading import Candidate
from .rules import Rule

#: the prefix, a NID (RFC 8141 section 2: 2 to 32 letters, digits and
#: hyphens) and its encoded ":" -- bounded, looked for at each prefix
_START = LazyPattern(rb"[uU][rR][nN]%3[aA][A-Za-z0-9][A-Za-z0-9-]{0,31}%3[aA][A-Za-z0-9\-._~%:]")
#: what a URL's path segment or parameter value holds of a URN (a "/" or
#: "@" of the URN is encoded with it, "%2F", "%40": a "/" ends the segment,
#: an "@" the user part of "sip:urn%3Auuid%3A...@example.com")
_RUN = LazyPattern(rb"[A-Za-z0-9\-._~%:]*")
#: blanks that indent the next line of a folded run
_INDENT = LazyPattern(rb"\r?\n[ \t]*")
#: a placeholder that the run stops before: the URN is a template's
#: (``.../urn%3Ali%3Ajob%3A{job_id}``, as :func:`.code.is_template` reads one)
_PLACEHOLDER_NEXT = frozenset(b"{<[$")
#: ``%XX`` (two hex digits)
_ESCAPE = LazyPattern(rb"%([0-9A-Fa-f]{2})")
#: the characters a ``%XX`` is decoded to: RFC 8141 section 2's pchar
#: (unreserved, sub-delims, ":" and "@"), "/", "?", "#" and "%" itself
_URN_CHARACTERS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?#%")
_HEX = frozenset(b"0123456789ABCDEFabcdef")
#: marks of the sentence around a link, not of the URN, at its end
_TRAILING = b".:"
#: the rule of every hit read here
DECODE_PERCENT = Rule.DECODE_PERCENT.value
ENCODED_RULES = (DECODE_PERCENT,)
#: ... and of one folded over lines
FOLDED_RULES = (Rule.FOLD_RFC.value, DECODE_PERCENT)
#: how far the next line of a fold is looked for
_INDENT_REACH = 80


def _prefix_at(buf: bytes, at: int) -> bool:
    """Whether the ``%3`` at ``at`` ends a ``urn%3A`` (any case)."""
    return buf[at - 3:at].lower() == b"urn" and buf[at + 2:at + 3] in (b"A", b"a")


def may_hold_encoded(buf: bytes, lo: int, hi: int) -> bool:
    """Whether an encoded URN may start in ``buf[lo:hi]``: a ``%3`` after
    ``urn`` in any case.  Most text holds no ``%3`` at all, which one
    search tells."""
    return next_prefix(buf, b"%3", lo + 3, hi + 4, _prefix_at) >= 0


def _runs_into_word(buf: bytes, p: int) -> bool:
    """Whether ``buf[p]`` continues a word: after a letter or digit that is
    not the last of a ``%XX`` (``%2Furn%3A...`` starts a URN)."""
    if p == 0 or buf[p - 1] not in ALNUM:
        return False
    return not (p >= 3 and buf[p - 3] == 0x25 and buf[p - 2] in _HEX)


def _decoded(text: bytes) -> str:
    """``text`` with each ``%XX`` that stands for a URN character decoded."""
    def one(m: "re.Match[bytes]") -> bytes:
        code = int(m.group(1), 16)
        return bytes((code,)) if code in _URN_CHARACTERS else m.group().upper()
    return _ESCAPE.sub(one, text).decode("ascii")


def _run(buf: bytes, p: int, limit: int, fold: bool) -> List[Tuple[int, int]]:
    """The pieces of the run from ``p``: one, or with ``fold`` the lines of
    a value an RFC breaks for display (an HTTP form body in an example),
    after a "-" or a ``%XX``, or before a ``%XX``: ``...grant-type%3Asaml2-``
    over ``bearer&...``, ``...%3Aoauth%3A`` over ``client-assertion-type...``,
    ``...%3Aoauth`` over ``%3Aclient-assertion-type...``."""
    e = _RUN.match(buf, p, limit).end()
    pieces = [(p, e)]
    while fold and e < limit and buf[e] in b"\r\n":
        m = _INDENT.match(buf, e, min(limit, e + _INDENT_REACH))
        if m is None or m.end() >= limit:
            break
        if not (buf[e - 1] == 0x2D or buf[e - 3] == 0x25 or buf[m.end()] == 0x25):
            break  # after "-" or "%XX", or before "%XX"
        q = m.end()
        e = _RUN.match(buf, q, limit).end()
        if e == q:
            break
        pieces.append((q, e))
    return pieces


def encoded_urns(buf: bytes, lo: int, hi: int, cap: int, code: bool = True,
                 fold: bool = True) -> List[Candidate]:
    """The percent-encoded URNs starting in ``buf[lo:hi]``, each read at
    most ``cap`` bytes on.  Where one starts and ends depends on the text
    from there on alone, so whatever ``lo`` and ``hi`` cut, the same are
    found: a prefix that a NID and an NSS follow starts one, the run of
    characters from there ends it, and a prefix inside it is part of it."""
    found: List[Candidate] = []
    size = len(buf)
    at = buf.find(b"%3", lo + 3, hi + 4)
    while at >= 0:
        p = at - 3
        limit = min(size, p + cap)
        if _prefix_at(buf, at) and not _runs_into_word(buf, p) and _START.match(buf, p, limit) is not None:
            pieces = _run(buf, p, limit, fold)
            e = pieces[-1][1]
            joined = b"".join(buf[a:b] for a, b in pieces)
            name = joined.rstrip(_TRAILING)
            end = e - (len(joined) - len(name))
            urn = _decoded(name)
            if not (code and (buf[e:e + 1] and buf[e] in _PLACEHOLDER_NEXT
                              or has_placeholder(urn.encode("ascii")))):
                folded = len(pieces) > 1
                literal = urn + joined[len(name):].decode("ascii")  # (the marks trimmed are no "%XX")
                found.append(Candidate(p, end, "bare", folded, True, urn, literal, buf[p:end].decode("ascii"),
                                       FOLDED_RULES if folded else ENCODED_RULES))
            at = buf.find(b"%3", e + 3, hi + 4)
        else:
            at = buf.find(b"%3", at + 1, hi + 4)
    return found
