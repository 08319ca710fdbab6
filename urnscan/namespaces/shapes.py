"""The namespace part of a name's judgement -- its namespace findings, its
keys, the rules that reached them and its checksum verdict -- in a few steps
for the commonest shapes of a name in a few namespaces: a catalogue lists
its ISBNs in the syntax of their template and its national bibliography
numbers as RFC 8458 writes them, a data set its UUIDs in the 8-4-4-4-12
form, a directory its OIDs as decimal arcs.  (An ISSN, whose
rules take few steps already, gained nothing measurable: it has no shape
here.)  Through the rules of :mod:`.findings`, :mod:`.normative` and
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
from .findings import (
    OID_STRICT, check_isbn, check_uuid, checksum_verdict, dnb_check_digit, german_nbn, isbn13_findings)
from .normative import PREFIXED_NSS_PATTERN, isbn_compact, rewrite_parts
from .registry import Registry

#: (namespace findings, ns_key, dedup_key, the rules of the keys joined
#: with ",", checksum verdict): the fields of a judgement after its
#: namespace status, its namespace findings to be added to its own
NamespaceTail = Tuple[Tuple[Finding, ...], str, str, str, Optional[bool]]
#: (equivalence key, its NSS, the offset of the NSS in it, registry) -> the
#: namespace tail of the name, or None when it is not of the shape
Shape = Callable[[str, str, int, Registry], Optional[NamespaceTail]]

_ISBN13_LENGTH = 13
_UUID_LENGTH = 36


def _keyed(key: str, nid: str, nss: str, found: Tuple[Finding, ...]) -> NamespaceTail:
    """The tail of a name whose namespace check found ``found`` and whose
    heuristics leave its namespace key as it is: the key and rules of
    :func:`.normative.rewrite_parts` (each rule named once, as
    :mod:`urnscan.judge` names them), and the checksum verdict of
    :func:`.findings.checksum_verdict`."""
    keyed, rules = rewrite_parts(key, nid, nss)
    return found, keyed, keyed, ",".join(dict.fromkeys(rules)), checksum_verdict(key, nid, nss, found)


def isbn_name(key: str, nss: str, at: int, registry: Registry) -> Optional[NamespaceTail]:
    """An ISBN in the syntax of the IANA isbn template v2 (10 or 13 digits,
    hyphens between its parts, an ISBN-10's final "X"): its findings are
    :func:`.findings.check_isbn`'s and its namespace key
    :func:`.normative.isbn_rule`'s ("Rules for Lexical Equivalence"), digits
    in which the namespace's one heuristic (``h:isbn-separators``, reading
    spaces and typographic hyphens) finds nothing to read: the namespace key
    is the deduplication key too."""
    if len(nss) == _ISBN13_LENGTH and nss.isascii() and nss.isdigit():
        # the commonest of all, a catalogue's: a key of its own at every level
        found = tuple(isbn13_findings(nss, at, len(key) - 1))
        return found, key, key, "", checksum_verdict(key, "isbn", nss, found)
    if isbn_compact(nss) is None:
        return None
    return _keyed(key, "isbn", nss, tuple(check_isbn(key, at, nss, registry)))


def oid_arcs(key: str, nss: str, at: int, registry: Registry) -> Optional[NamespaceTail]:
    """An OID as RFC 3061 section 2 writes it, decimal arcs with no leading
    zero: :func:`.findings.check_oid` finds nothing, no rule of the
    namespace changes it (``h:oid-leading-zeros`` strips zeros it has
    none of), and an OID has no check character."""
    if OID_STRICT.fullmatch(nss) is None:
        return None
    return (), key, key, "", None


def uuid_hex(key: str, nss: str, at: int, registry: Registry) -> Optional[NamespaceTail]:
    """A UUID in the 8-4-4-4-12 hex form of RFC 9562 section 4: its
    findings are :func:`.findings.check_uuid`'s (the Nil and Max UUIDs),
    its namespace key :func:`.normative.uuid_rule`'s (the hex digits
    lower-cased, RFC 4122 section 3), which no heuristic changes further
    (``h:uuid-repair`` reads other forms); a UUID has no check character."""
    if len(nss) != _UUID_LENGTH:
        return None
    found = tuple(check_uuid(key, at, nss, registry))
    if found and found[0].code == "uuid-malformed":
        return None
    return _keyed(key, "uuid", nss, found)


def nbn_name(key: str, nss: str, at: int, registry: Registry) -> Optional[NamespaceTail]:
    """An NBN as RFC 8458 section 4.2 writes it, ``<prefix>-<NBN string>``:
    its findings are :func:`.findings.check_nbn`'s (with the DNB check digit
    of a German one), its namespace key :func:`.normative.nbn_rule`'s (the
    prefix lower-cased), which no heuristic changes further (the namespace
    has none; ``h:trailing-slash`` reads a name ending in "/", left to the
    rules)."""
    match = PREFIXED_NSS_PATTERN.fullmatch(nss)
    if match is None or nss.endswith("/"):
        return None  # (nbn-malformed, or h:trailing-slash)
    found, verdict = dnb_check_digit(key) if german_nbn(nss) else ((), None)
    if match.group(1).islower():  # (an ASCII prefix) already as nbn_rule writes it: the key
        return tuple(found), key, key, "", verdict
    keyed, rules = rewrite_parts(key, "nbn", nss)
    return tuple(found), keyed, keyed, ",".join(rules), verdict


#: the shapes by NID (lower-cased)
NAMESPACE_SHAPES: Dict[str, Shape] = {
    "isbn": isbn_name,
    "nbn": nbn_name,
    "oid": oid_arcs,
    "uuid": uuid_hex,
}
