"""Man pages: roff's ``\\-`` is a hyphen.

roff (groff_char(7)) prints ``\\-`` as a minus or hyphen sign, and
pod2man writes every ``-`` of a Perl manual page that way; a regular
expression escapes ``-`` the same way.  A URN written
``urn:ietf:params:oauth:token\\-type:jwt`` in a man page is
``urn:ietf:params:oauth:token-type:jwt``: the run goes on past the
backslash, which is left out of the URN (``raw`` keeps it), as a fold
leaves out its line break.
"""
from __future__ import annotations

from typing import Callable, List, Tuple

from .chars import ALNUM


def roff_hyphens(buf: bytes, e: int, limit: int,
                 run_from: Callable[[int], Tuple[int, bool]]) -> Tuple[List[int], int, bool]:
    """``(backslashes, end, cut)``: the run that ends at ``e`` carried over
    each ``\\-`` followed by a letter or digit (read no further than
    ``limit``); ``backslashes`` are the positions of the backslashes left
    out, ``run_from(i)`` is ``(end, cut)`` of the run from i, ``cut``
    whether its opener's closer ended it."""
    backslashes: List[int] = []
    cut = False
    while e + 2 < limit and buf[e] == 0x5C and buf[e + 1] == 0x2D and buf[e + 2] in ALNUM:
        backslashes.append(e)
        e, cut = run_from(e + 1)
        if cut:
            break
    return backslashes, e, cut


def segments_without(p: int, backslashes: List[int], end: int) -> List[Tuple[int, int]]:
    """The pieces of ``buf[p:end]`` between the backslashes left out."""
    segments = []
    start = p
    for b in backslashes:
        segments.append((start, b))
        start = b + 1
    segments.append((start, end))
    return segments
