"""Elided examples: ``urn:ietf:...:x`` and ``urn:ietf:params:...`` are not
URNs; dots after a whole name are sentence punctuation (trimmed)."""
from __future__ import annotations

ELLIPSIS = "\u2026".encode()


def elided(text: bytes, buf: bytes, end: int) -> bool:
    """"..." inside the text, or after a cut-off name ("urn:ietf:params:...",
    "urn:ietf:params:\u2026", "urn:oid:1.3.6.1.\u2026")."""
    body = text.rstrip(b".")
    if b"..." in body:
        return True
    if buf.startswith(ELLIPSIS, end):
        return text[-1:] in b":/-."
    return body[-1:] in (b":", b"/", b"-") and len(text) - len(body) >= 3
