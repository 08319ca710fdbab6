"""Canonical form and URN-equivalence keys.

Seed 001 (RFC 8141) section 3.1: two URNs are URN-equivalent when their
assigned-names are octet-by-octet equal after (1) lower-casing the scheme
"urn", (2) lower-casing the NID, (3) upper-casing the hex digits of
percent-encoded octets in the NSS.  Percent-encoding MUST NOT be decoded;
r-, q- and f-components MUST be ignored.  Seed 000 (RFC 2141) section 5 is
the same procedure over the whole NSS; seed 002 section 5 adds step 4
(remove the fragment) and step 5a (remove the query) or 5b (reorder its
directives).
"""
from __future__ import annotations

import re
from typing import Optional, Tuple

from . import _abnf
from .model import DEFAULT_PROFILE, Profile, Urn

_PCT = re.compile(_abnf.PCT_ENCODED)


def upper_percent(s: str) -> str:
    """Upper-case the hex digits of every ``%HH`` triplet; decode nothing."""
    if "%" not in s:
        return s
    return _PCT.sub(lambda m: m.group().upper(), s)


def canonical_of(urn: Urn) -> str:
    """The canonical form of a parsed URN: steps 1-3 of section 3.1 applied,
    components kept as written."""
    nss = upper_percent(urn.nss)
    out = f"urn:{urn.nid.lower()}:{nss}"
    if urn.profile == Profile.DRAFT2012:
        # seed 002 section 5 step 3 normalises percent-encoding everywhere
        if urn.q_component is not None:
            out += "?" + upper_percent(urn.q_component)
        if urn.f_component is not None:
            out += "#" + upper_percent(urn.f_component)
        return out
    if urn.r_component is not None:
        out += "?+" + urn.r_component
    if urn.q_component is not None:
        out += "?=" + urn.q_component
    if urn.f_component is not None:
        out += "#" + urn.f_component
    return out


def key_of(urn: Urn, resolution: bool = False) -> str:
    """The URN-equivalence key: the canonical assigned-name, components
    removed (seed 001 section 3.1; seed 000 section 5; seed 002 section 5
    steps 4 and 5a).  With ``resolution=True`` under draft-2012, step 5b
    instead: the query is kept with its directives sorted by keyword."""
    key = f"urn:{urn.nid.lower()}:{upper_percent(urn.nss)}"
    if resolution and urn.profile == Profile.DRAFT2012 and urn.q_component is not None:
        key += "?" + "&".join(sorted(upper_percent(urn.q_component).split("&"), key=_directive_order))
    return key


def _directive_order(directive: str) -> Tuple[str, str]:
    """Seed 002 section 5 step 5b: "Reorder the directives ... bringing
    them into a preferred <keywd> order" -- by keyword, then (for a keyword
    that is not registered and so may repeat, section 2.3) by the whole
    directive, so that no order of the same directives gives another key."""
    return directive.partition("=")[0], directive


def canonical(s: str, profile: str = DEFAULT_PROFILE) -> str:
    """Canonical form of ``s`` (raises :class:`urnscan.UrnError` if ``s`` is
    not a URN under ``profile``): scheme and NID lower-cased, hex digits of
    percent-encoding upper-cased, components kept.

    >>> canonical("URN:Example:a%2cb?+r#f")
    'urn:example:a%2Cb?+r#f'
    """
    from .syntax import parse

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
    from .syntax import parse

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


_DISPLAY_RUN = re.compile(r"(?:%[89A-Fa-f][0-9A-Fa-f])+")


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
