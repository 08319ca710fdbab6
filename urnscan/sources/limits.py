"""How far decompression may go: the ratio limit against decompression bombs.

A gzip file of 10 MB can hold 10 GB of spaces, a bzip2 or xz file far more,
and a zip archive can point many members at the same compressed bytes.
Reading such an input to the end costs time for nothing, so every decoding
step is checked against one limit: the bytes it has produced may exceed
``ratio`` times the bytes it has consumed only while they are fewer than
``min_bytes``.  Real text compresses about 3 to 20 times (repetitive logs
about 100 times); deflate cannot exceed about 1032 times, bzip2, xz and zstd
can go far beyond.  The default, 1000 times beyond 16 MiB, stops a bomb
early and never a real corpus.  A ratio of 0 turns the check off.
"""
from __future__ import annotations

from typing import NamedTuple

#: The default ratio of decoded to encoded bytes (``urnscan scan --max-ratio``).
DEFAULT_MAX_RATIO = 1000.0
#: Output below this size is never stopped, whatever the ratio.
DEFAULT_RATIO_MIN_BYTES = 16 << 20


class DecompressionLimit(NamedTuple):
    """At most ``ratio`` decoded bytes per encoded byte, beyond ``min_bytes``."""

    ratio: float = DEFAULT_MAX_RATIO
    min_bytes: int = DEFAULT_RATIO_MIN_BYTES

    def allows(self, decoded: int, encoded: int) -> bool:
        """Whether ``decoded`` bytes out of ``encoded`` bytes are within the limit."""
        return self.ratio <= 0 or decoded <= max(self.min_bytes, self.ratio * encoded)

    def reason(self, what: str, decoded: int, encoded: int) -> str:
        """The message when :meth:`allows` said no (``what`` names the stream)."""
        return (f"{what} stopped: {decoded} bytes decoded from {encoded}, over the limit of "
                f"{self.ratio:g} times (decompression bomb?  --max-ratio changes the limit)")


NO_LIMIT = DecompressionLimit(0.0)
