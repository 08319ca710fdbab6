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

from .chars import HSPACE, line_start

#: how far after its line's start a dump's text column may begin
HEXDUMP_REACH = 128
#: groups of bytes before the text column (a short last line has a few)
_MIN_GROUPS = 4
_HEX = frozenset(b"0123456789abcdefABCDEF")


def _hex_run(buf: bytes, i: int, stop: int) -> int:
    """The end of the run of hexadecimal digits at i (before stop)."""
    while i < stop and buf[i] in _HEX:
        i += 1
    return i


def _blank_run(buf: bytes, i: int, stop: int) -> int:
    while i < stop and buf[i] in HSPACE:
        i += 1
    return i


def in_hexdump_column(buf: bytes, p: int) -> bool:
    """Whether ``buf[p]`` is in the text column of a hex dump line: the line
    (starting at most :data:`HEXDUMP_REACH` bytes before p) holds, after
    its indentation, an offset of 2 to 8 hexadecimal digits (and ":"), then
    at least four groups of 2 or 4 hexadecimal digits, one to three blanks
    apart, and p is past two or more blanks after such a group."""
    ls = line_start(buf, p)
    if ls is None or p - ls > HEXDUMP_REACH:
        return False
    i = _blank_run(buf, ls, p)
    j = _hex_run(buf, i, p)
    if not 2 <= j - i <= 8:
        return False
    i = j + 1 if j < p and buf[j] == 0x3A else j
    groups, column = 0, -1
    while i < p:
        b = _blank_run(buf, i, p)
        if b == i:
            break
        if groups >= _MIN_GROUPS and b - i >= 2:
            column = b  # the text column may start here
        if b - i > 3:
            break
        j = _hex_run(buf, b, p)
        if j - b not in (2, 4) or j >= p or buf[j] not in HSPACE:
            break
        groups, i = groups + 1, j
    return 0 <= column <= p
