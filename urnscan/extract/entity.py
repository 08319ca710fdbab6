"""Character references in markup end an URN: ``urn:example:a&amp;b=1``
is the URN ``urn:example:a`` followed by ``&b=1`` (HTML, XML section 4.1)."""
from __future__ import annotations

import re

_ENTITY = re.compile(rb"&(?:[A-Za-z][A-Za-z0-9]{1,7}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")


def entity_cut(text: bytes) -> int:
    """Length of the text before its first character reference (the whole
    length when there is none)."""
    if b"&" not in text:
        return len(text)
    m = _ENTITY.search(text)
    return len(text) if m is None else m.start()
