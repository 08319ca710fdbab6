"""Formal public identifiers (ISO 8879) and their ``urn:publicid:`` names.

RFC 3151 section 1.1 transcribes an FPI into a URN so fully that the one
is the other written another way (namespaces.md §1, publicid: "a
deterministic, normative cross-form mapping"): a DOCTYPE's
``"-//OASIS//DTD DocBook XML V4.1.2//EN"`` is
``urn:publicid:-:OASIS:DTD+DocBook+XML+V4.1.2:EN``, and equal names are
lexically identical after the transcription (RFC 3151 section 2).
"""
from __future__ import annotations

from typing import Optional

from ._text import KEY_PREFIX, pct_decode

#: RFC 3151 section 1.1: the characters an FPI writes that a name encodes
_ESCAPES = {"+": "%2B", ":": "%3A", "/": "%2F", ";": "%3B", "'": "%27", "?": "%3F", "#": "%23", "%": "%25"}
_NID = "publicid"


def publicid_urn(fpi: str) -> str:
    """The ``urn:publicid:`` name of a formal public identifier (RFC 3151
    section 1.1): white space collapsed and trimmed, then ``//`` -> ``:``,
    ``::`` -> ``;``, a space -> ``+``, and ``+ : / ; ' ? # %`` written
    percent-encoded; a character outside ASCII percent-encoded as UTF-8
    (an FPI holds none: ISO 8879's minimum data).

    >>> publicid_urn("-//OASIS//DTD DocBook XML V4.1.2//EN")
    'urn:publicid:-:OASIS:DTD+DocBook+XML+V4.1.2:EN'
    >>> publicid_urn("ISO/IEC 10179:1996//DTD DSSSL Architecture//EN")
    'urn:publicid:ISO%2FIEC+10179%3A1996:DTD+DSSSL+Architecture:EN'
    """
    text = " ".join(fpi.split())
    out = []
    i, n = 0, len(text)
    while i < n:
        pair = text[i:i + 2]
        if pair == "//":
            out.append(":")
            i += 2
            continue
        if pair == "::":
            out.append(";")
            i += 2
            continue
        c = text[i]
        if c == " ":
            out.append("+")
        elif c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif c.isascii() and c.isprintable():
            out.append(c)
        else:
            out.append("".join(f"%{b:02X}" for b in c.encode("utf-8")))
        i += 1
    return f"{KEY_PREFIX}{_NID}:{''.join(out)}"


def publicid_fpi(urn: str) -> Optional[str]:
    """The formal public identifier a ``urn:publicid:`` name transcribes
    (RFC 3151 section 1.1 read back); None when ``urn`` is no such name or
    its percent-encoding is not UTF-8.

    >>> publicid_fpi("urn:publicid:-:OASIS:DTD+DocBook+XML+V4.1.2:EN")
    '-//OASIS//DTD DocBook XML V4.1.2//EN'
    """
    head = urn[:len(KEY_PREFIX) + len(_NID) + 1]
    if head.lower() != f"{KEY_PREFIX}{_NID}:":
        return None
    nss = urn[len(head):]
    octets = bytearray()
    i, n = 0, len(nss)
    while i < n:
        c = nss[i]
        if c == "%":
            byte = pct_decode(nss[i:i + 3])
            if byte is None or len(byte) != 1:
                return None
            octets += byte
            i += 3
            continue
        if not (c.isascii() and c.isprintable()) or c == " ":
            return None
        octets += _READ_BACK.get(c, c).encode("ascii")
        i += 1
    try:
        return octets.decode("utf-8")
    except UnicodeDecodeError:
        return None


#: RFC 3151 section 1.1 read back: what a name writes for "//", "::" and a space
_READ_BACK = {":": "//", ";": "::", "+": " "}
