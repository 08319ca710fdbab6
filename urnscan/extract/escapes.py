"""Escaped characters that go on with a name: left out, as a fold leaves
out its line break (``raw`` keeps them).

* Man pages: roff (groff_char(7)) prints ``\\-`` as a minus or hyphen
  sign, and pod2man writes every ``-`` of a Perl manual page that way; a
  URN written ``urn:ietf:params:oauth:token\\-type:jwt`` in a man page is
  ``urn:ietf:params:oauth:token-type:jwt``.
* JSON: ``\\/`` in a string is ``/`` (RFC 8259 section 7), and encoders
  write every ``/`` that way (PHP's ``json_encode`` by default):
  ``"urn:doi:10.1000\\/182"`` is ``urn:doi:10.1000/182``.  Only inside
  double quotes, where a JSON string is.
* Markdown and TeX: ``\\_`` is ``_``.  CommonMark lets a backslash escape
  any ASCII punctuation (CommonMark 0.31, section 2.4, "Backslash
  escapes"), and editors that export Markdown (a word processor's "download
  as Markdown") escape every ``_`` so that none opens emphasis; TeX prints
  ``\\_`` as an underscore (``\\texttt{...access\\_token}``).  A URN in a
  Markdown table reads ``urn:ietf:params:oauth:token-type:access\\_token``
  for ``urn:ietf:params:oauth:token-type:access_token``.  No format gives
  ``\\_`` another meaning (a regular expression's ``\\_`` is ``_`` too).
"""
from __future__ import annotations

from typing import Callable, List, Tuple

from .chars import ALNUM

#: what roff, JSON, Markdown and TeX escape, read as the character after the backslash
ROFF_HYPHEN = 0x2D
JSON_SLASH = 0x2F
ESCAPED_UNDERSCORE = 0x5F


def escaped_run(buf: bytes, e: int, limit: int, run_from: Callable[[int], Tuple[int, bool]],
                escaped: bytes) -> Tuple[List[int], int, bool]:
    """``(backslashes, end, cut)``: the run that ends at ``e`` carried over
    each backslash before one of ``escaped`` followed by a letter or digit
    (read no further than ``limit``); ``backslashes`` are the positions of
    the backslashes left out, ``run_from(i)`` is ``(end, cut)`` of the run
    from i, ``cut`` whether its opener's closer ended it."""
    backslashes: List[int] = []
    cut = False
    while e + 2 < limit and buf[e] == 0x5C and buf[e + 1] in escaped and buf[e + 2] in ALNUM:
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
