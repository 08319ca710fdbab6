"""Elided examples: ``urn:ietf:...:x`` and ``urn:ietf:params:...`` are not
URNs, nor is a name cut off by an ellipsis inside its quotes
(``"urn:isbn:978..."``); dots after a whole name are sentence punctuation
(trimmed)."""
from __future__ import annotations

from ..lazyre import LazyPattern

ELLIPSIS = "\u2026".encode()
#: a name whose NSS is dotted numbers: an OID's arcs (RFC 3061 section 2,
#: ``urn:oid:2.16.840``), which an ellipsis after it goes on with -- the
#: name written is cut off (``OIDs like urn:oid:2.16.840...``), not a
#: whole name before a sentence's ellipsis
_DOTTED_NUMBERS = LazyPattern(rb"[Uu][Rr][Nn]:[A-Za-z0-9-]{1,32}:[0-9]+(?:\.[0-9]+)+")


def elided(text: bytes, buf: bytes, end: int) -> bool:
    """"..." inside the text, or after a cut-off name ("urn:ietf:params:...",
    "urn:ietf:params:\u2026", "urn:oid:1.3.6.1.\u2026", "urn:oid:2.16.840...")."""
    body = text.rstrip(b".")
    if b"..." in body:
        return True
    if buf.startswith(ELLIPSIS, end):
        return text[-1:] in b":/-." or _DOTTED_NUMBERS.fullmatch(text) is not None
    return len(text) - len(body) >= 3 and (body[-1:] in (b":", b"/", b"-")
                                            or _DOTTED_NUMBERS.fullmatch(body) is not None)


def elided_before_closer(text: bytes, buf: bytes, end: int, closed) -> bool:
    """An ellipsis ending the text, or right after it, that the closer of
    the quote before the name follows (``closed(at)``): the ellipsis is
    the quoted text's, not a sentence's -- the name written there is cut
    off (```urn:cts:greekLit:tlg\u2026```, ``'urn:isbn:978...'``)."""
    if text.endswith(b"..."):
        return closed(end)
    return buf.startswith(ELLIPSIS, end) and closed(end + len(ELLIPSIS))
