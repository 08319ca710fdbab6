"""Text in any encoding, as UTF-8 byte chunks.

URNs are searched as ASCII bytes, so UTF-8 and every ASCII-compatible 8-bit
text can be scanned as it is.  Text in other encodings is transcoded to
UTF-8 on the way in, in bounded steps (an incremental decoder per stream):

* a declared charset (a MIME part's or an HTTP response's ``charset``
  parameter) is used when Python knows it, unless it is UTF-8 or ASCII
  (then the bytes are kept as they are, invalid ones too); an unknown
  charset keeps the bytes as they are;
* with no declared charset, a byte-order mark decides: UTF-32 LE/BE and
  UTF-16 LE/BE (Unicode 15.0, section 23.8, table 23-4) are transcoded,
  the mark dropped; a UTF-8 mark is kept (offsets stay file offsets);
* with neither, an XML document's first character decides (XML 1.0,
  Appendix F.1, detection without a byte-order mark): ``<?`` written in
  UTF-16 LE/BE, or ``<`` in UTF-32 LE/BE, is transcoded from that
  encoding (``<?xml version="1.0" encoding="UTF-16"?>`` saved without a
  mark, as .NET's and Windows' writers can).  Other text whose bytes
  alternate with NULs stays binary.

Undecodable bytes become U+FFFD.  Offsets of hits in transcoded text count
bytes of the UTF-8 text, not of the input.
"""
from __future__ import annotations

import codecs
from typing import Iterable, Iterator, Optional

__all__ = ["bom_encoding", "transcoding", "as_utf8"]

# longest first: the UTF-32 LE mark starts with the UTF-16 LE one
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
#: XML 1.0 Appendix F.1: the first bytes of an XML document with no
#: byte-order mark, in an encoding that is not ASCII-compatible ("<" in
#: UTF-32, "<?" in UTF-16), and the codec that reads it
XML_SIGNATURES = (
    (b"\x00\x00\x00<", "utf-32-be"),
    (b"<\x00\x00\x00", "utf-32-le"),
    (b"\x00<\x00?", "utf-16-be"),
    (b"<\x00?\x00", "utf-16-le"),
)
_KEPT = frozenset({"utf-8", "ascii"})


def bom_encoding(head: bytes) -> Optional[str]:
    """``"utf-16"`` or ``"utf-32"`` when ``head`` starts with such a
    byte-order mark (the codec then reads the mark); the codec of an XML
    document without one whose first bytes say it (:data:`XML_SIGNATURES`);
    else None."""
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name
    for signature, name in XML_SIGNATURES:
        if head.startswith(signature):
            return name
    return None


def transcoding(charset: Optional[str], head: bytes) -> Optional[str]:
    """The Python codec to transcode a stream from, or None to keep its
    bytes: ``charset`` is the declared one (or None), ``head`` the first
    bytes (at least 4 when the stream has them)."""
    if charset:
        try:
            name = codecs.lookup(charset.strip().strip('"').lower()).name
        except (LookupError, ValueError):
            return None
        if name in _KEPT:
            return None
        if name.startswith(("utf-16", "utf-32")) and name[-2:] not in ("le", "be"):
            return name  # the codec reads the mark (big-endian without one)
        return name
    return bom_encoding(head)


def as_utf8(chunks: Iterable[bytes], charset: Optional[str] = None) -> Iterator[bytes]:
    """``chunks`` as UTF-8 byte chunks (see the module docstring)."""
    it = iter(chunks)
    head = b""
    for chunk in it:
        head += chunk
        if len(head) >= 4:
            break
    codec = transcoding(charset, head)
    if codec is None:
        if head:
            yield head
        yield from it
        return
    decoder = codecs.getincrementaldecoder(codec)(errors="replace")
    out = decoder.decode(head)
    if out:
        yield out.encode("utf-8", "surrogatepass")
    for chunk in it:
        out = decoder.decode(chunk)
        if out:
            yield out.encode("utf-8", "surrogatepass")
    out = decoder.decode(b"", final=True)
    if out:
        yield out.encode("utf-8", "surrogatepass")
