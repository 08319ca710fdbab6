"""The namespace part of a name's judgement -- its namespace findings, its
keys, the rules that reached them and its checksum verdict -- in a few steps
for the commonest shape of a name in a few namespaces: a catalogue lists
its ISBN-13s as thirteen digits and its ISSNs as NNNN-NNNC, a data set its
UUIDs in the 8-4-4-4-12 form, a directory its OIDs as decimal arcs.  Through the rules of :mod:`.findings`, :mod:`.normative` and
:mod:`.heuristic` such a name takes some fifty calls, and a scan of a
catalogue judges every name afresh.

Those rules stay the reference: each function here gives what they give
for the names it takes (``tests/test_namespace_shapes.py`` compares both on
generated names, the samples and the conformance cases), and None for any
other name, which they then judge.
"""
from __future__ import annotations

from typing import Callable, Dict, Optional, Tuple

from ..model import Finding
from ._text import join_key
from .findings import OID_STRICT, check_issn, check_uuid, isbn13_findings
from .normative import ISSN_PATTERN, UUID_PATTERN
from .registry import Registry

#: (namespace findings, ns_key, dedup_key, the rules of the keys joined
#: with ",", checksum verdict): the fields of a judgement after its
#: namespace status, its namespace findings to be added to its own
NamespaceTail = Tuple[Tuple[Finding, ...], str, str, str, Optional[bool]]
#: (equivalence key, its NSS, the offset of the NSS in it, registry) -> the
#: namespace tail of the name, or None when it is not of the shape
Shape = Callable[[str, str, int, Registry], Optional[NamespaceTail]]

_ISBN13_LENGTH = 13
_ISSN_LENGTH = 9
_UUID_LENGTH = 36


def _checksum(found: Tuple[Finding, ...], code: str) -> bool:
    """:func:`.findings.checksum_verdict` of a name whose namespace check
    found ``found``, none of them a ``-malformed`` one."""
    return all(f.code != code for f in found)


def isbn13_digits(key: str, nss: str, at: int, registry: Registry) -> Optional[NamespaceTail]:
    """An ISBN-13 written as its 13 digits (IANA isbn template v2,
    "Syntax"): no hyphen to remove and no ISBN-10 to convert ("Rules for
    Lexical Equivalence"), no separator for a heuristic to read, so the key
    is both keys; the findings are :func:`.findings.check_isbn`'s, and the
    checksum holds unless the check digit is wrong."""
    if len(nss) != _ISBN13_LENGTH or not nss.isascii() or not nss.isdigit():
        return None
    found = tuple(isbn13_findings(nss, at, len(key) - 1))
    return found, key, key, "", _checksum(found, "isbn-check-digit")


def issn_hyphenated(key: str, nss: str, at: int, registry: Registry) -> Optional[NamespaceTail]:
    """An ISSN in its canonical form NNNN-NNNC (IANA issn template,
    "Syntax"): the hyphen is there and a check character "X" is upper-case,
    so the "Rules for Lexical Equivalence" change nothing, and no heuristic
    reads an ISSN; the findings are :func:`.findings.check_issn`'s."""
    if len(nss) != _ISSN_LENGTH or nss[4] != "-" or nss[8] == "x" or ISSN_PATTERN.fullmatch(nss) is None:
        return None
    found = tuple(check_issn(key, at, nss, registry))
    return found, key, key, "", _checksum(found, "issn-check-digit")


def oid_arcs(key: str, nss: str, at: int, registry: Registry) -> Optional[NamespaceTail]:
    """An OID as RFC 3061 section 2 writes it, decimal arcs with no leading
    zero: :func:`.findings.check_oid` finds nothing, no rule of the
    namespace changes it (``h:oid-leading-zeros`` strips zeros it has
    none of), and an OID has no check character."""
    if OID_STRICT.fullmatch(nss) is None:
        return None
    return (), key, key, "", None


def uuid_hex(key: str, nss: str, at: int, registry: Registry) -> Optional[NamespaceTail]:
    """A UUID in the 8-4-4-4-12 hex form of RFC 9562 section 4: its keys
    are the name with the hex digits lower-cased (RFC 4122 section 3, the
    ``uuid-case`` rule, when that changes it), which no heuristic changes
    further (``h:uuid-repair`` reads other forms); the findings are
    :func:`.findings.check_uuid`'s (the Nil and Max UUIDs); a UUID has no
    check character."""
    if len(nss) != _UUID_LENGTH or UUID_PATTERN.fullmatch(nss) is None:
        return None
    found = tuple(check_uuid(key, at, nss, registry))
    folded = nss.lower()
    if folded == nss:
        return found, key, key, "", None
    keyed = join_key("uuid", folded)
    return found, keyed, keyed, "uuid-case", None


#: the shapes by NID (lower-cased)
NAMESPACE_SHAPES: Dict[str, Shape] = {
    "isbn": isbn13_digits,
    "issn": issn_hyphenated,
    "oid": oid_arcs,
    "uuid": uuid_hex,
}
