"""Delimiter pairing: a quote or bracket right before ``urn:`` says where
the URN ends -- at its closer.

Only closers that an URN may contain need a rule: ``'`` (RFC 2141 section
2.2 and RFC 8141's sub-delims) and ``)``; every other closer (``"``, ``>``,
``]``, ``}``, a backtick, typographic quotes) is outside every repertoire
and ends the run anyway.  Parentheses balanced inside the NSS are kept
(SICI ``...(199501)13:1...``).  With no opener, an apostrophe inside an NSS
stays (``urn:example:o'brien:1``).
"""
from __future__ import annotations

from enum import Enum
from typing import Optional

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

    @property
    def closer(self) -> bytes:
        return self.value[1]

    @property
    def is_quote(self) -> bool:
        return self not in _BRACKETS


_BRACKETS = frozenset({Opener.PAREN, Opener.BRACKET, Opener.BRACE, Opener.ANGLE})
_BY_BYTE = {o.value[0][0]: o for o in Opener if len(o.value[0]) == 1}
_TYPOGRAPHIC = {o.value[0]: o for o in Opener if len(o.value[0]) == 3}


def opener_before(buf: bytes, p: int, lo: int) -> Optional[Opener]:
    """The opener right before the ``urn:`` at p, if any."""
    if p <= lo:
        return None
    found = _BY_BYTE.get(buf[p - 1])
    if found is None and p - 3 >= lo and buf[p - 1] in (0x98, 0x9C):
        found = _TYPOGRAPHIC.get(buf[p - 3:p])
    return found


def closer_cut(buf: bytes, start: int, end: int, opener: Optional[Opener]) -> int:
    """Where the run ``buf[start:end]`` ends when its opener is honoured:
    at the first closer (for ``(``, the first ``)`` that is not balanced
    by a ``(`` inside the run).  ``end`` when the closer is not in it."""
    if opener is Opener.SINGLE_QUOTE:
        i = buf.find(b"'", start, end)
        return end if i < 0 else i
    if opener is Opener.PAREN:
        i = buf.find(b")", start, end)
        if i < 0:
            return end
        depth = 0
        while i >= 0:
            # parentheses opened since start, up to this ")"
            depth += buf.count(b"(", start, i)
            if depth == 0:
                return i
            depth -= 1
            start = i + 1
            i = buf.find(b")", start, end)
        return end
    return end


def pair_rule(opener: Opener) -> Rule:
    return Rule.PAIR_PAREN if opener is Opener.PAREN else Rule.PAIR_QUOTE
