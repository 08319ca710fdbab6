"""String helpers for equivalence keys: splitting a key into NID and NSS,
ASCII case folding that leaves percent-encoding canonical, and the canonical
percent-encoding used where a namespace decodes (DOI).

Everything here is total: no function raises on any ``str``.
"""
from __future__ import annotations

import re
import string
from typing import NamedTuple, Optional

from .. import _abnf

#: Every key starts with this (RFC 8141 §3.1: "urn" is lower-cased).
KEY_PREFIX = "urn:"

_TO_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_TO_UPPER = str.maketrans(string.ascii_lowercase, string.ascii_uppercase)
_PCT_TRIPLET = re.compile(_abnf.PCT_ENCODED)
#: a run of percent-encoded octets in a key's NSS (its hex upper case)
PCT_RUN = re.compile(r"(?:%[0-9A-F]{2})+")

# RFC 8141 §2: NSS = pchar *(pchar / "/"); pchar = unreserved / pct-encoded /
# sub-delims / ":" / "@" (RFC 3986 §3.3).  These octets never need encoding.
_NSS_SAFE_OCTETS = frozenset("".join(_abnf.char_set(_abnf.PCHAR_CHARS) | {"/"}).encode())


class KeyParts(NamedTuple):
    """A key split at its second colon; ``nss_offset`` locates the NSS in the key."""

    nid: str
    nss: str
    nss_offset: int


def split_key(key: object) -> Optional[KeyParts]:
    """Split ``urn:<nid>:<nss>``; ``None`` for anything not of that shape.

    The NID is returned exactly as written: a proper key has it lower-cased
    already (RFC 8141 §3.1), and the namespace tables are keyed in lower case,
    so an upper-case NID simply matches no namespace rule.
    """
    if not isinstance(key, str) or not key.startswith(KEY_PREFIX):
        return None
    colon = key.find(":", len(KEY_PREFIX))
    if colon <= len(KEY_PREFIX):
        return None
    return KeyParts(key[len(KEY_PREFIX):colon], key[colon + 1:], colon + 1)


def join_key(nid: str, nss: str) -> str:
    return f"{KEY_PREFIX}{nid}:{nss}"


def ascii_lower(text: str) -> str:
    """Lower-case A-Z only (namespaces fold ASCII letters, never other scripts)."""
    return text.translate(_TO_LOWER)


def ascii_upper(text: str) -> str:
    """Upper-case a-z only; percent-encoding hex digits end up upper-case too."""
    return text.translate(_TO_UPPER)


def lower_keeping_pct(text: str) -> str:
    """ASCII-lower-case ``text`` but keep ``%HH`` hex digits upper-case.

    A case-insensitive NSS still has its percent-encoding in canonical form
    (RFC 8141 §3.1 upper-cases the hex digits; folding must not undo that).
    """
    if "%" not in text:
        return text.translate(_TO_LOWER)
    return _PCT_TRIPLET.sub(_upper_match, text.translate(_TO_LOWER))


def _upper_match(m: "re.Match[str]") -> str:
    return m.group().upper()


# a well-formed key NSS: printable ASCII, every "%" starting a triplet (two
# flat scans: an alternation under "*" keeps a backtracking stack as long
# as the NSS)
_PRINTABLE = re.compile(r"[\x21-\x7e]*")
_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")


def pct_decode(text: str) -> Optional[bytes]:
    """Decode ``%HH`` triplets of a key's NSS into octets.

    Returns ``None`` when ``text`` is not a well-formed key NSS: a ``%`` not
    followed by two hex digits, or a character outside printable ASCII
    (a key never holds those raw).
    """
    if _PRINTABLE.fullmatch(text) is None or _BAD_PERCENT.search(text) is not None:
        return None
    if "%" not in text:
        return text.encode("ascii")
    parts = text.split("%")
    out = bytearray(parts[0].encode("ascii"))
    for part in parts[1:]:
        out.append(int(part[:2], 16))
        out += part[2:].encode("ascii")
    return bytes(out)


def pct_encode(octets: bytes) -> str:
    """Canonical NSS text for ``octets``: every octet that is not allowed
    unencoded in an RFC 8141 NSS (including ``%`` itself) becomes ``%HH``
    with upper-case hex.  ``pct_decode(pct_encode(b)) == b`` for every ``b``,
    which is what makes decode-then-encode idempotent.
    """
    if _SAFE_RUN.fullmatch(octets) is not None:
        return octets.decode("ascii")
    return "".join(map(_ENCODED.__getitem__, octets))


_ENCODED = tuple(chr(o) if o in _NSS_SAFE_OCTETS else f"%{o:02X}" for o in range(256))
_SAFE_RUN = re.compile(b"[" + re.escape(bytes(sorted(_NSS_SAFE_OCTETS))) + b"]*")
