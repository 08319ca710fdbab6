"""Namespace-level findings on an RFC 8141 equivalence key: an NSS that
breaks a namespace's strict syntax, and wrong check characters.  All are
warnings (the string may still be a syntactically valid URN).  Positions are
0-based offsets into the key.  The codes are listed in :data:`FINDING_CODES`.
"""
from __future__ import annotations

import re
from typing import Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

from ..model import WARNING, Finding
from ._text import ascii_lower, ascii_upper, pct_decode, split_key
from .checkdigits import (
    dnb_checkable,
    dnb_urn_check,
    isbn10_check,
    isbn13_check,
    iso7064_mod11_2,
    iso7064_mod37_36,
    issn_check,
)
from .normative import (
    ISAN_PATTERN,
    ISNI_PATTERN,
    ISSN_PATTERN,
    PREFIXED_NSS_PATTERN,
    UUID_PATTERN,
    isbn_compact,
)
from .registry import Registry, default_registry

#: Every code :func:`ns_findings` can report.
FINDING_CODES: Tuple[str, ...] = (
    "uuid-malformed", "uuid-nil", "uuid-max",
    "isbn-malformed", "isbn-prefix", "isbn-check-digit",
    "issn-malformed", "issn-check-digit",
    "isni-malformed", "isni-check-digit",
    "isan-malformed", "isan-check-digit",
    "eidr-malformed", "eidr-check-digit",
    "nbn-malformed", "nbn-check-digit", "nan-malformed",
    "oid-malformed", "oid-leading-zeros",
    "ietf-malformed", "ietf-subnamespace-unregistered", "ietf-params-unregistered",
    "doi-malformed", "lex-malformed", "s1000d-malformed", "example-namespace",
)

#: A namespace check: (key, offset of the NSS in the key, NSS, registry).
NamespaceCheck = Callable[[str, int, str, Registry], Sequence[Finding]]


def _warn(code: str, message: str, position: Optional[int]) -> Finding:
    return Finding(code, WARNING, message, position)


def _check_character(code: str, what: str, expected: str, found: str,
                     position: int) -> List[Finding]:
    if expected == found:
        return []
    return [_warn(code, f"{what} check character is {found!r}, expected {expected!r}",
                  position)]


# --- uuid: RFC 9562 §4 syntax; Nil and Max UUIDs (§5.9, §5.10) -------------------


def check_uuid(key: str, at: int, nss: str, registry: Registry) -> List[Finding]:
    if not UUID_PATTERN.fullmatch(nss):
        return [_warn("uuid-malformed",
                      "NSS is not a UUID in the 8-4-4-4-12 hex form of RFC 9562 §4", at)]
    digits = nss.replace("-", "").lower()
    if digits == "0" * 32:
        return [_warn("uuid-nil", "the Nil UUID (RFC 9562 §5.9) identifies nothing", at)]
    if digits == "f" * 32:
        return [_warn("uuid-max", "the Max UUID (RFC 9562 §5.10) identifies nothing", at)]
    return []


# --- isbn: IANA isbn template v2 -------------------------------------------------


def check_isbn(key: str, at: int, nss: str, registry: Registry) -> List[Finding]:
    compact = isbn_compact(nss)
    if compact is None:
        return [_warn("isbn-malformed",
                      "NSS is not an ISBN-10 or ISBN-13 (digits with optional hyphens)", at)]
    last = len(key) - 1
    if len(compact) == 10:
        return _check_character("isbn-check-digit", "ISBN-10",
                                isbn10_check(compact[:9]), compact[9].upper(), last)
    return isbn13_findings(compact, at, last)


def isbn13_findings(digits: str, at: int, last: int) -> List[Finding]:
    """The findings of an ISBN-13's 13 digits (hyphens removed) whose NSS
    starts at ``at`` of the key and whose check digit is at ``last``."""
    findings = []
    if digits[:3] not in ("978", "979"):
        findings.append(_warn(
            "isbn-prefix", f"ISBN-13 prefix {digits[:3]} is not 978 or 979", at))
    return findings + _check_character("isbn-check-digit", "ISBN-13",
                                       isbn13_check(digits[:12]), digits[12], last)


# --- issn: IANA issn template (ISO 3297) ------------------------------------------


def check_issn(key: str, at: int, nss: str, registry: Registry) -> List[Finding]:
    match = ISSN_PATTERN.fullmatch(nss)
    if not match:
        return [_warn("issn-malformed", "NSS is not an ISSN (NNNN-NNNC)", at)]
    digits = match.group(1) + match.group(3)
    return _check_character("issn-check-digit", "ISSN", issn_check(digits[:7]),
                            digits[7].upper(), len(key) - 1)


# --- isni: IANA isni template (ISO 27729) ------------------------------------------


def check_isni(key: str, at: int, nss: str, registry: Registry) -> List[Finding]:
    if not ISNI_PATTERN.fullmatch(nss):
        return [_warn("isni-malformed", "NSS is not an ISNI (15 digits and a check character)",
                      at)]
    return _check_character("isni-check-digit", "ISNI", iso7064_mod11_2(nss[:15]),
                            nss[15].upper(), len(key) - 1)


# --- isan: RFC 4246 §3 ------------------------------------------------------------------


def check_isan(key: str, at: int, nss: str, registry: Registry) -> List[Finding]:
    match = ISAN_PATTERN.fullmatch(nss)
    if not match:
        return [_warn("isan-malformed", "NSS is not an ISAN as in RFC 4246 §3", at)]
    root_episode, check1, version, check2 = (
        ascii_upper(g) if g else g for g in match.groups())
    work = root_episode.replace("-", "")
    findings = _check_character("isan-check-digit", "ISAN", iso7064_mod37_36(work),
                                check1, at + match.start(2))
    if version:
        findings += _check_character(
            "isan-check-digit", "ISAN version", iso7064_mod37_36(work + version.replace("-", "")),
            check2, at + match.start(4))
    return findings


# --- eidr: RFC 7972 §2 --------------------------------------------------------------------

#: RFC 7972 §2: the DOI prefix of EIDR content IDs, the names with a check character
_EIDR_CONTENT_PREFIX = "10.5240"
_EIDR_CONTENT_SUFFIX = re.compile(r"((?:[0-9A-Fa-f]{4}-){4}[0-9A-Fa-f]{4})-([0-9A-Za-z])")


def check_eidr(key: str, at: int, nss: str, registry: Registry) -> List[Finding]:
    prefix, colon, suffix = nss.partition(":")
    if not colon or not prefix or not suffix:
        return [_warn("eidr-malformed", "NSS is not <DOI prefix>:<suffix> (RFC 7972 §2)", at)]
    if prefix != _EIDR_CONTENT_PREFIX:
        return []  # only the content-ID prefix has a defined check character
    match = _EIDR_CONTENT_SUFFIX.fullmatch(suffix)
    if not match:
        return [_warn("eidr-malformed",
                      "10.5240 suffix is not 5 groups of 4 hex digits and a check character",
                      at + len(prefix) + 1)]
    return _check_character("eidr-check-digit", "EIDR",
                            iso7064_mod37_36(ascii_upper(match.group(1).replace("-", ""))),
                            ascii_upper(match.group(2)), len(key) - 1)


# --- nbn (RFC 8458 §4.2) with the DNB check digit (namespaces.md §4), nan ------------


def _check_prefixed(code: str, what: str, at: int, nss: str) -> List[Finding]:
    if PREFIXED_NSS_PATTERN.fullmatch(nss):
        return []
    return [_warn(code, f"NSS is not <country code>[:<sub-namespace>...]-<{what} string>",
                  at)]


def german_nbn(nss: str) -> bool:
    """Whether an NBN's prefix is Germany's, whose names end in the DNB
    check digit."""
    return ascii_lower(nss[:3]) in ("de:", "de-")


def check_nbn(key: str, at: int, nss: str, registry: Registry) -> List[Finding]:
    findings = _check_prefixed("nbn-malformed", "NBN", at, nss)
    if findings or not german_nbn(nss):
        return findings
    return dnb_check_digit(key)[0]


def dnb_check_digit(key: str) -> Tuple[List[Finding], Optional[bool]]:
    """The finding of the DNB check digit that ends the key of a German NBN
    (namespaces.md section 4), and whether the digit matches, as
    :func:`checksum_verdict` says it of those findings (None where a
    character outside the DNB table leaves the check undefined)."""
    last = len(key) - 1
    if not key[last].isdigit() or not key[last].isascii():
        return [_warn("nbn-check-digit", "a urn:nbn:de name does not end in its DNB check digit", last)], False
    expected = dnb_urn_check(key[:last])
    if expected is None:
        return [], None
    found = _check_character("nbn-check-digit", "DNB URN", expected, key[last], last)
    return found, not found


def check_nan(key: str, at: int, nss: str, registry: Registry) -> List[Finding]:
    return _check_prefixed("nan-malformed", "NAN", at, nss)


# --- oid: RFC 3061 §2 --------------------------------------------------------------------

_OID_SHAPE = re.compile(r"[0-9]+(?:\.[0-9]+)*")
#: an OID as RFC 3061 section 2 writes it: decimal arcs, no leading zero
OID_STRICT = re.compile(r"(?:0|[1-9][0-9]*)(?:\.(?:0|[1-9][0-9]*))*")


def check_oid(key: str, at: int, nss: str, registry: Registry) -> List[Finding]:
    if not _OID_SHAPE.fullmatch(nss):
        return [_warn("oid-malformed", "NSS is not dot-separated decimal arcs (RFC 3061 §2)",
                      at)]
    if not OID_STRICT.fullmatch(nss):
        return [_warn("oid-leading-zeros",
                      "an OID arc has a leading zero, which RFC 3061 §2 forbids", at)]
    return []


# --- ietf: RFC 2648 §2, RFC 3553 §3, IETF URN Sub-namespaces registry -------------------

_IETF_SYNTAX = {
    "rfc": re.compile(r"[0-9]+"), "fyi": re.compile(r"[0-9]+"),
    "std": re.compile(r"[0-9]+"), "bcp": re.compile(r"[0-9]+"),
    "id": re.compile(r"[0-9A-Za-z-]+"), "mtg": re.compile(r"[0-9A-Za-z-]+"),
}


def check_ietf(key: str, at: int, nss: str, registry: Registry) -> List[Finding]:
    name, colon, rest = nss.partition(":")
    folded = ascii_lower(name)
    rest_at = at + len(name) + 1 if colon else at
    if registry.ietf_subnamespaces and folded not in registry.ietf_subnamespaces:
        return [_warn("ietf-subnamespace-unregistered",
                      f"{name!r} is not in the IETF URN Sub-namespaces registry", at)]
    syntax = _IETF_SYNTAX.get(folded)
    if syntax is not None and not (colon and syntax.fullmatch(rest)):
        return [_warn("ietf-malformed", f"urn:ietf:{folded}: does not follow RFC 2648 §2",
                      rest_at)]
    if folded == "params" and registry.ietf_params:
        if not _under_registered(ascii_lower(rest), registry.ietf_params):
            return [_warn("ietf-params-unregistered",
                          "not under a name registered in the urn:ietf:params registry "
                          "(RFC 3553)", rest_at)]
    return []


def _under_registered(name: str, registered: FrozenSet[str]) -> bool:
    """Whether ``name`` is one of ``registered`` or under one (``"xml:ns:x"``
    under ``"xml"``): each colon-delimited prefix is looked up, so the cost
    grows with the name, not with the registry."""
    at = name.find(":")
    while at >= 0:
        if name[:at] in registered:
            return True
        at = name.find(":", at + 1)
    return name in registered


# --- doi: IANA doi template -------------------------------------------------------------


def check_doi(key: str, at: int, nss: str, registry: Registry) -> List[Finding]:
    octets = pct_decode(nss)
    if octets is None or octets.find(b"/") <= 0:
        return [_warn("doi-malformed", "NSS is not <DOI prefix>/<DOI suffix>", at)]
    return []


# --- lex: RFC 9676 §2.1 -------------------------------------------------------------------


def check_lex(key: str, at: int, nss: str, registry: Registry) -> List[Finding]:
    jurisdiction, colon, local_name = nss.partition(":")
    if colon and jurisdiction and local_name:
        return []
    return [_warn("lex-malformed", "NSS is not <jurisdiction>:<local name> (RFC 9676 §2.1)",
                  at)]


# --- s1000d: RFC 4688 §2 ------------------------------------------------------------------

_S1000D_CODES = ("DMC-", "PMC-", "CSN-", "ICN-", "COM-", "DDN-", "DML-")


def check_s1000d(key: str, at: int, nss: str, registry: Registry) -> List[Finding]:
    if ascii_upper(nss).startswith(_S1000D_CODES) and len(nss) > 4:
        return []
    return [_warn("s1000d-malformed",
                  "NSS does not start with DMC-, PMC-, CSN-, ICN-, COM-, DDN- or DML-", at)]


# --- example: RFC 6963 §3 ------------------------------------------------------------------


def check_example(key: str, at: int, nss: str, registry: Registry) -> Sequence[Finding]:
    """namespaces.md §1: "tag these as examples" (``urnscan dedupe`` leaves
    them out unless asked)."""
    return _EXAMPLE_FINDINGS


_EXAMPLE_FINDINGS = (_warn("example-namespace", "urn:example: is reserved for documentation (RFC 6963 §3): it names "
                           "nothing", 4),)


NAMESPACE_CHECKS: Dict[str, NamespaceCheck] = {
    "example": check_example,
    "uuid": check_uuid,
    "isbn": check_isbn,
    "issn": check_issn,
    "isni": check_isni,
    "isan": check_isan,
    "eidr": check_eidr,
    "nbn": check_nbn,
    "nan": check_nan,
    "oid": check_oid,
    "ietf": check_ietf,
    "doi": check_doi,
    "lex": check_lex,
    "s1000d": check_s1000d,
}


#: the namespaces whose names carry a check character (namespaces.md §5,
#: ``valid_checksum``), and those of them where only some names do
CHECKSUM_NIDS = frozenset({"isbn", "issn", "isni", "isan", "eidr", "nbn"})


def checksum_verdict(key: str, nid: str, nss: str, findings: Iterable[Finding]) -> Optional[bool]:
    """Whether the check character(s) of the name match, from the findings
    the namespace check made of ``key`` (split into ``nid`` and ``nss``):
    False for a ``<nid>-check-digit`` finding, True when the name was
    checked and none came, None when it carries no check character (another
    namespace; a malformed name; an EIDR outside the 10.5240 content IDs; an
    NBN outside Germany's, or with a character the DNB table lacks)."""
    if nid not in CHECKSUM_NIDS:
        return None
    for f in findings:
        if f.code.endswith("-check-digit"):
            return False
        if f.code.endswith("-malformed"):
            return None
    if nid == "eidr" and nss.partition(":")[0] != _EIDR_CONTENT_PREFIX:
        return None
    if nid == "nbn" and (not german_nbn(nss) or not dnb_checkable(key[:-1])):
        return None
    return True


def ns_findings(key: str, registry: Optional[Registry] = None) -> Tuple[Finding, ...]:
    """Namespace-level warnings for an RFC 8141 equivalence key (see the
    module docstring for the codes).  Never raises; ``()`` for anything that
    is not a key of a checked namespace."""
    parts = split_key(key)
    if parts is None:
        return ()
    return findings_of_parts(key, parts.nid, parts.nss, parts.nss_offset, registry)


def findings_of_parts(key: str, nid: str, nss: str, nss_offset: int,
                      registry: Optional[Registry] = None) -> Tuple[Finding, ...]:
    """:func:`ns_findings` of a key already split by ``split_key``."""
    check = NAMESPACE_CHECKS.get(nid)
    if check is None:
        return ()
    registry = registry if registry is not None else default_registry()
    return tuple(check(key, nss_offset, nss, registry))
