"""Hex dumps: the text column of a dump shows bytes, not text to read.

``hexdump -C``, ``xxd``, ``od -A x -t x1z``, Wireshark and the dumps of
RFCs (RFC 5112's static dictionary) print a line as an offset, groups of
hexadecimal bytes and the same bytes as characters::

    00000010  27 75 72 6e 3a 69 65 74  66 3a 70 61 72 61 6d 73  |'urn:ietf:params|
    0550  7365 6461 726b 7572 6e3a 6f6d 613a 786d  sedarkurn:oma:xm

A ``urn:`` in that column is a slice of the bytes cut every 16 of them,
never a name a reader would cite.  ``urnscan/_accel.c`` holds a compiled
twin (``in_hexdump_column``); tests/test_accel.py holds them equal.
"""
from __future__ import annotations

from ..lazyre import LazyPattern
from .chars import line_start

#: how far after its line's start a dump's text column may begin
HEXDUMP_REACH = 128
#: from a line's start: its indentation, an offset of 2 to 8 hexadecimal
#: digits (and ":"), then four or more groups of exactly 2 or 4 digits, one
#: to three blanks apart, the last of them followed by two blanks or more
_DUMP_HEAD = LazyPattern(rb"[ \t]*+[0-9A-Fa-f]{2,8}+(?![0-9A-Fa-f]):?"
                         rb"(?:[ \t]{1,3}(?:[0-9A-Fa-f]{4}|[0-9A-Fa-f]{2})(?=[ \t])){4,}?[ \t]{2}")


def in_hexdump_column(buf: bytes, p: int) -> bool:
    """Whether ``buf[p]`` is in the text column of a hex dump line: the line
    (starting at most :data:`HEXDUMP_REACH` bytes before p) holds, before
    p, an offset, at least four groups of bytes and two blanks after one of
    them."""
    ls = line_start(buf, p, HEXDUMP_REACH + 1)
    return ls is not None and _DUMP_HEAD.match(buf, ls, p) is not None
