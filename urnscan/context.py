"""The text around a hit: a bounded snippet for reading hits without the file.

Pure: bytes in, text out.  The snippet is the span itself with up to
``size`` bytes each side, cut at UTF-8 character boundaries (a character
cut by the edge of the window is dropped, never half-decoded), decoded
as UTF-8 (undecodable bytes become U+FFFD), with every run of white
space collapsed to one space and U+FEFF left out (a byte-order mark at the
start of a file, or a zero width no-break space: The Unicode Standard,
section 23.8; it has no width, and in a snippet it only showed as an
escape).  It depends on the bytes around the hit only,
so a streaming scan gives the same snippet for every chunking as long as
``size`` bytes before the span are still in its buffer: :data:`MAX_CONTEXT`
is what the scanner guarantees (its look-behind, ``extract.LOOKBACK``).
"""
from __future__ import annotations

from .accel import accelerated
from .extract import LOOKBACK

__all__ = ["MAX_CONTEXT", "DEFAULT_CONTEXT", "context_snippet"]

#: the widest context each side that every chunking keeps in the buffer
MAX_CONTEXT = LOOKBACK
#: bytes each side kept by ``urnscan scan`` for the index (``--context``)
DEFAULT_CONTEXT = 64


#: U+FEFF in UTF-8
_ZERO_WIDTH_NO_BREAK = b"\xef\xbb\xbf"


def _lead_continuations(data: bytes) -> int:
    """How many bytes at the start of ``data`` continue a character that
    began before it (at most 3, UTF-8 continuation bytes 0b10xxxxxx)."""
    n = 0
    while n < min(3, len(data)) and 0x80 <= data[n] < 0xC0:
        n += 1
    return n


def _cut_tail(data: bytes) -> int:
    """Length of ``data`` without a character cut short at its end."""
    n = len(data)
    for back in range(1, min(4, n) + 1):
        b = data[n - back]
        if b < 0x80:
            return n  # ASCII: nothing cut
        if b >= 0xC0:  # the lead byte of the last character
            width = 2 if b < 0xE0 else 3 if b < 0xF0 else 4
            return n if back >= width else n - back
    return n


def context_snippet(buf: bytes, start: int, stop: int, size: int, lo: int = 0) -> str:
    """``buf[start:stop]`` with up to ``size`` bytes each side (never before
    ``lo``), white space collapsed (see the module docs).

    ``urnscan/_accel.c`` holds a compiled version for integers that fit a
    machine word (:mod:`urnscan.accel`); ``context_snippet_py`` stays this
    one.  Raises :class:`ValueError` unless ``0 <= lo <= start <= stop``
    and ``size >= 0`` (``stop`` may lie past the end of ``buf``)."""
    if not 0 <= lo <= start <= stop or size < 0:
        raise ValueError(f"not a span: lo={lo}, start={start}, stop={stop}, size={size}")
    a = max(lo, start - size)
    if a > 0:  # cut into the text: drop a character cut by the window
        a += _lead_continuations(buf[a:min(a + 3, start)])
    end = min(len(buf), stop + size)
    tail = max(stop, end - 4)  # a character cut at the end is in the last 4 bytes
    end = tail + _cut_tail(buf[tail:end])
    # bytes.split() splits at runs of the ASCII white space " \t\n\r\f\v"
    text = b" ".join(buf[a:end].replace(_ZERO_WIDTH_NO_BREAK, b"").split())
    try:
        return text.decode("ascii")
    except UnicodeDecodeError:
        return text.decode("utf-8", "replace")


context_snippet_py = context_snippet
context_snippet = accelerated(context_snippet_py)
