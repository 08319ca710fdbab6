"""URN equivalence and display at the level of strings.

The canonical form and the equivalence key of a parsed :class:`Urn` are
derived in :mod:`urnscan.model` (seed 001 section 3.1, seed 000 section 5,
seed 002 section 5); here they are offered for strings, which are parsed
first, beside the display form for people (seed 000 section 4, seed 001
section 4.4).
"""
from __future__ import annotations

import re
from typing import Optional

from .lazyre import LazyPattern
from .model import DEFAULT_PROFILE, canonical_of, key_of, upper_percent
from .syntax import parse

__all__ = ["canonical", "equivalence_key", "display_form", "confusable_in_display",
           "canonical_of", "key_of", "upper_percent"]


def canonical(s: str, profile: str = DEFAULT_PROFILE) -> str:
    """Canonical form of ``s`` (raises :class:`urnscan.UrnError` if ``s`` is
    not a URN under ``profile``): scheme and NID lower-cased, hex digits of
    percent-encoding upper-cased, components kept.

    >>> canonical("URN:Example:a%2cb?+r#f")
    'urn:example:a%2Cb?+r#f'
    """
    return canonical_of(parse(s, profile))


def equivalence_key(s: str, profile: str = DEFAULT_PROFILE, *, resolution: bool = False) -> str:
    """URN-equivalence key of ``s``: equal keys if and only if equivalent.

    >>> equivalence_key("URN:Example:a%2cb?+r#f")
    'urn:example:a%2Cb'
    >>> equivalence_key("urn:example:A") == equivalence_key("urn:example:a")
    False
    >>> equivalence_key("urn:example:a?s=1&c=2", "draft-2012", resolution=True)
    'urn:example:a?c=2&s=1'
    """
    return key_of(parse(s, profile), resolution)


def display_form(s: str) -> str:
    """A form for people (seed 000 section 4, seed 001 section 4.4):
    percent-encoded UTF-8 sequences shown as characters.  Encodings of
    ASCII characters, of invalid UTF-8, and of characters that could
    mislead a reader (controls, invisible and bidirectional formatting
    characters) are kept encoded -- seed 001 section 3.2 shows that
    ``%D0%B0`` (Cyrillic a) and ``a`` are different URNs.

    >>> display_form("urn:example:caf%C3%A9")
    'urn:example:café'
    >>> display_form("urn:example:%41%E2%80%8B")  # ASCII, and an invisible space
    'urn:example:%41%E2%80%8B'
    """
    return _DISPLAY_RUN.sub(_display_run, s)


_DISPLAY_RUN = LazyPattern(r"(?:%[89A-Fa-f][0-9A-Fa-f])+")


def _display_run(m: "re.Match[str]") -> str:
    raw = bytes.fromhex(m.group().replace("%", ""))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return m.group()
    import unicodedata

    if any(unicodedata.category(c) in ("Cc", "Cf", "Zs", "Zl", "Zp", "Co", "Cn") for c in text):
        return m.group()
    return text


def confusable_in_display(s: str) -> Optional[str]:
    """A warning text when the display form could mislead a reader (seed
    001 section 3.2, sixth example: a URN that "might appear the same" as
    another but is not URN-equivalent to it): a display form that is not in
    Unicode NFC looks exactly like its NFC form, which is another URN
    (``a%CC%81`` shows as the ``%C3%A1`` form does); and non-ASCII letters
    a reader could take for ASCII ones."""
    shown = display_form(s)
    if shown == s:
        return None
    import unicodedata

    normal = unicodedata.normalize("NFC", shown)
    if normal != shown:
        return (f"displays like {_encode_non_ascii(normal)}, a different URN: its display form is not in "
                f"Unicode NFC")
    for c in normal:
        if c.isascii() or not c.isalpha():
            continue
        name = unicodedata.name(c, "")
        compatible = unicodedata.normalize("NFKC", c)
        if name.startswith(("CYRILLIC", "GREEK")) or (compatible.isascii() and compatible != c):
            return f"{c!r} ({name}) may be mistaken for ASCII"
    return None


def _encode_non_ascii(shown: str) -> str:
    """The URN a display form stands for: non-ASCII characters as
    percent-encoded UTF-8 (seed 001 section 2.2)."""
    return "".join(c if c.isascii() else "".join(f"%{b:02X}" for b in c.encode())
                   for c in shown)
