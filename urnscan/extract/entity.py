"""Character references in markup (HTML, XML section 4.1).

A reference ends an URN: ``&quot;urn:xmpp:sm:3&quot;`` holds the URN
``urn:xmpp:sm:3``, and ``urn:example:a&amp;b=1`` is the URN
``urn:example:a`` followed by ``&b=1`` -- with two exceptions, where the
reference stands for a character of the URN itself:

* ``&amp;`` (``&#38;``, ``&#x26;``) after a ``?``, inside a q- or
  r-component (RFC 8141 section 2.3.2: ``urn:example:weather?=op=map&amp;
  lat=39.56`` in an HTML or XML page) or RFC 2141-era parameters (NETCONF's
  ``...:with-defaults:1.0?basic-mode=explicit&amp;also-supported=...``);
* a numeric reference of a letter, a digit or one of ``-._~:/`` (an
  escaped hyphen in generated HTML: ``urn:uddi&#45;org:api_v2``);
* a soft hyphen or a zero-width space (``&shy;``, ``&#173;``, ``&#8203;``),
  where a page lets a long name break across lines: it stands for nothing
  (``urn:ietf:params:xml:ns:&shy;yang:ietf-interfaces``).

These are decoded: the URN reported is the one the markup stands for.
A reference to an entity the document declares itself (a name HTML does
not define: ``<!ENTITY NS "urn:xmpp:tmp:&SN;:0">`` in an XML DTD, XML
section 4.2) stands for text the name is built from: the name is a
template, and no URN is read from it.
A reference escaped again (``&amp;amp;``, ``&amp;lt;``: an HTML page
showing XML source, the HTML rendering of an RFC's XML example) is read
as the reference it escapes.
"""
from __future__ import annotations

import re
from typing import Optional, Tuple

from ..lazyre import LazyPattern
from .breaks import BREAK_CHARACTERS

#: a character reference (XML section 4.1), named or numeric
REFERENCE_PATTERN = rb"&(?:[A-Za-z][A-Za-z0-9]{1,7}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});"
REFERENCE = LazyPattern(REFERENCE_PATTERN)
_AMPERSAND = frozenset({b"&amp;", b"&#38;", b"&#x26;", b"&#X26;"})
_NAME_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/")


def _stands_for(reference: bytes, components: bool) -> Optional[bytes]:
    """The URN characters a reference stands for (empty for a break
    opportunity, ``&shy;``), or None when it ends the URN; ``components``:
    a "?" came before it."""
    if reference in _AMPERSAND:
        return b"&" if components else None
    if reference == b"&shy;":
        return b""
    if reference[1] != 0x23:  # "#": named references other than "&amp;" end it
        return None
    code = int(reference[3:-1], 16) if reference[2] in b"xX" else int(reference[2:-1])
    if code in BREAK_CHARACTERS:  # they stand for nothing in the name
        return b""
    return bytes([code]) if code < 128 and code in _NAME_CHARS else None


#: the names of XML's predefined entities (XML section 4.6), which are
#: also HTML's: the commonest references need no look into HTML's table
_PREDEFINED = frozenset((b"lt", b"gt", b"amp", b"quot", b"apos"))


def declared_entity(reference: bytes) -> bool:
    """Whether a named reference (``&SN;``) is to an entity the document
    declares, not one HTML defines (``&lt;``, ``&nbsp;``, ``&rsquo;``)."""
    name = reference[1:-1]
    if name[0] == 0x23 or name in _PREDEFINED:
        return False
    from html.entities import html5  # loaded only when such a reference is met

    return name.decode("ascii") + ";" not in html5


def _reference(text: bytes, m: "re.Match[bytes]") -> Tuple[bytes, int]:
    """The reference ``m`` found in ``text`` and where it ends: ``&amp;lt;``
    escaped again is read as the reference it escapes (``&lt;``)."""
    reference, stop = m.group(), m.end()
    if reference == b"&amp;":
        again = REFERENCE.match(b"&" + text[stop:stop + 16])
        if again is not None:
            reference, stop = again.group(), stop + again.end() - 1
    return reference, stop


def entity_read(text: bytes) -> Tuple[int, Optional[bytes]]:
    """``(kept, decoded)``: the length of the text before the first
    reference that ends the URN (the whole length when none does), and the
    kept text with the references standing for URN characters decoded
    (None when there were none).  ``kept`` is -1 when the first such
    reference is to an entity the document declares (a template)."""
    pieces, last = [], 0
    question = text.find(b"?")
    for m in REFERENCE.finditer(text):
        reference, stop = _reference(text, m)
        char = _stands_for(reference, 0 <= question < m.start())
        if char is None:
            kept = -1 if declared_entity(reference) else m.start()
            break
        pieces += [text[last:m.start()], char]
        last = stop
    else:
        kept = len(text)
    if not pieces or kept < 0:
        return kept, None
    return kept, b"".join(pieces) + text[last:kept]


def cut_by_reference(text: bytes, question: bool) -> bool:
    """Whether :func:`entity_read` cuts a name at a reference in ``text``
    (one that ends the URN: not a template's, which rejects the name
    whatever follows); ``question``: a "?" came before the text."""
    if b"&" not in text:
        return False
    read = b"?" + text if question else text
    kept = entity_read(read)[0]
    return 0 <= kept < len(read)


def written_length(text: bytes, length: int) -> int:
    """How many bytes of ``text`` (a name as written: what :func:`entity_read`
    kept of it) write the first ``length`` bytes of its decoded text, the
    references that stand for nothing after them left out: where a name
    that trimming cut after decoding ends."""
    question = text.find(b"?")
    written = decoded = 0
    for m in REFERENCE.finditer(text):
        if decoded + m.start() - written >= length:
            break
        decoded += m.start() - written
        reference, written = _reference(text, m)
        decoded += len(_stands_for(reference, 0 <= question < m.start()) or b"")
        if decoded >= length:
            return written
    return written + length - decoded
