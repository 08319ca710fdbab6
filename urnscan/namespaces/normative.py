"""The namespace-aware equivalence key: the RFC 8141 key plus the
equivalences each namespace *registers* (marked N in namespaces.md).

RFC 8141 §3.1 lets a namespace add equivalences such as case-insensitivity
of (parts of) the NSS; they may only merge, never split.  ``ns_key`` is a
function of the RFC 8141 key alone, so it cannot split what that key merges.
Every rule below is idempotent and keeps the NID, so ``ns_key`` is too.

Each rule takes the NSS of a key and returns a :class:`Rewrite`: the new NSS
and the names of the rules that changed it.  A rule leaves an NSS that is
malformed for its namespace unchanged.  Namespaces not listed here follow the
RFC 8141 baseline only (octet-by-octet comparison of the NSS), among them:
oid (RFC 3061 §2, "exact string match"), oasis (RFC 3121 §2), xmlorg
(RFC 3120 §2), epc and epcglobal (RFC 5134 §2, §3: "The entire URN is
case-sensitive", the urn token and NID excepted), ogc (RFC 5165 §2), xmpp
(RFC 4854 §2), publicid (RFC 3151 §2), mace (RFC 3613 §2), dev (RFC 9039
§3.2.1), ucode (RFC 6588), lei, itu, meta and pwid (IANA templates; meta and
pwid state a case-insensitive part but the structure that bounds it is not
transcribed here, so they are left exact: never a false merge).
"""
from __future__ import annotations

import re
from typing import Callable, Dict, NamedTuple, Optional, Tuple

from ._text import (
    PCT_RUN,
    ascii_lower,
    ascii_upper,
    join_key,
    lower_keeping_pct,
    pct_decode,
    pct_encode,
    split_key,
)
from .checkdigits import isbn10_check, isbn13_check


class Rewrite(NamedTuple):
    """An NSS after a namespace rule, and the names of the steps that changed it."""

    nss: str
    rules: Tuple[str, ...] = ()


NamespaceRule = Callable[[str], Rewrite]


def _fold(nss: str, folded: str, rule: str) -> Rewrite:
    return Rewrite(folded, (rule,) if folded != nss else ())


def _lower_leading_segments(nss: str, count: int, rule: str) -> Rewrite:
    """Lower-case the first ``count`` colon-separated segments of ``nss``."""
    parts = nss.split(":", count)
    head = [lower_keeping_pct(p) for p in parts[:count]]
    return _fold(nss, ":".join(head + parts[count:]), rule)


# --- uuid -------------------------------------------------------------------

UUID_PATTERN = re.compile(
    r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")


def uuid_rule(nss: str) -> Rewrite:
    """RFC 4122 §3 "Rules for Lexical Equivalence": hex digits are "case
    insensitive on input" and output in lower case; RFC 9562 §4 (cited by
    IANA today): "may be all uppercase, all lowercase, or mixed case"."""
    if not UUID_PATTERN.fullmatch(nss):
        return Rewrite(nss)
    return _fold(nss, nss.lower(), "uuid-case")


# --- isbn -------------------------------------------------------------------

# IANA isbn template v2 (2017-06-12), "Syntax": 10 or 13 digits, the 10-digit
# form may end in "X"; either may carry hyphens between its parts.
# Both in one pattern: nine digits, then a tenth (or "X") or four more.
_ISBN_PATTERN = re.compile(r"[0-9](?:-?[0-9]){8}(?:-?[0-9Xx]|(?:-?[0-9]){4})")
#: the last NSS isbn_compact was asked about, and its answer: the rules and
#: the findings of a URN ask about the same NSS one after the other
_LAST_ISBN: Tuple[str, Optional[str]] = ("", None)


def isbn_compact(nss: str) -> Optional[str]:
    """The digits (and a final "X" or "x") of an NSS in the syntax of the
    IANA isbn template v2, hyphens removed; None for any other NSS."""
    global _LAST_ISBN
    last = _LAST_ISBN
    if last[0] == nss:
        return last[1]
    compact = nss.replace("-", "") if _ISBN_PATTERN.fullmatch(nss) else None
    _LAST_ISBN = (nss, compact)
    return compact


def isbn_rule(nss: str) -> Rewrite:
    """IANA isbn template v2, "Rules for Lexical Equivalence": convert an
    ISBN-10 to ISBN-13 (prefix 978, recompute the mod-10 check digit), remove
    all hyphens, then compare character by character.  The "X" check
    character is upper-case ("Syntax"; RFC 3187 §3.2 before it).

    An ISBN-10 whose own check digit is wrong is not converted: it is not an
    ISBN, and converting it would merge a typo with the correct ISBN.
    """
    compact = isbn_compact(nss)
    if compact is None:
        return Rewrite(nss)
    rules = []
    if compact != nss:
        rules.append("isbn-hyphens")
    if len(compact) == 10:
        if compact.endswith("x"):
            compact = compact[:9] + "X"
            rules.append("isbn-x-case")
        if isbn10_check(compact[:9]) == compact[9]:
            body = "978" + compact[:9]
            compact = body + isbn13_check(body)
            rules.append("isbn-10-to-13")
    return Rewrite(compact, tuple(rules))


# --- issn -------------------------------------------------------------------

# IANA issn template (ISO 3297:2007): issn-urn = "urn:ISSN:" 4DIGIT ["-"] 3DIGIT check
ISSN_PATTERN = re.compile(r"([0-9]{4})(-?)([0-9]{3}[0-9Xx])")


def issn_rule(nss: str) -> Rewrite:
    """IANA issn template, "Rules for Lexical Equivalence": a check digit
    "x" "must be translated to "X""; "The hyphen between the 4th and the 5th
    digit can be omitted".  The canonical form is NNNN-NNNC ("Syntax"; a
    missing hyphen "SHOULD be programmatically inserted", "Resolution")."""
    match = ISSN_PATTERN.fullmatch(nss)
    if not match:
        return Rewrite(nss)
    first, hyphen, rest = match.groups()
    rules = []
    if not hyphen:
        rules.append("issn-hyphen")
    if rest.endswith("x"):
        rules.append("issn-x-case")
    return Rewrite(f"{first}-{rest.upper()}", tuple(rules))


# --- isni -------------------------------------------------------------------

# IANA isni template (2025): ISNI-NSS = 15DIGIT ISNI-CHECK-DIGIT ("X" allowed)
ISNI_PATTERN = re.compile(r"[0-9]{15}[0-9Xx]")


def isni_rule(nss: str) -> Rewrite:
    """IANA isni template, "Rules for lexical equivalence": identical
    characters; "a strictly non-conformant lower case "x" as the check-digit
    [should] be converted to an upper-case "X" before comparison"."""
    if not ISNI_PATTERN.fullmatch(nss):
        return Rewrite(nss)
    return _fold(nss, nss.upper(), "isni-x-case")


# --- isan -------------------------------------------------------------------

# RFC 4246 §3: root (3 x 4 hex) episode (4 hex) check [version (2 x 4 hex) check]
ISAN_PATTERN = re.compile(
    r"((?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{4})-([0-9A-Za-z])"
    r"(?:-([0-9A-Fa-f]{4}-[0-9A-Fa-f]{4})-([0-9A-Za-z]))?")


def isan_rule(nss: str) -> Rewrite:
    """RFC 4246 §2 "Rules for Lexical Equivalence": "The ISAN-NSS is
    case-insensitive."  Upper case is canonical (the RFC's examples)."""
    if not ISAN_PATTERN.fullmatch(nss):
        return Rewrite(nss)
    return _fold(nss, nss.upper(), "isan-case")


# --- nbn, nan -----------------------------------------------------------------

# RFC 8458 §4.2 (nbn) and the IANA nan template: nss = prefix "-" string,
# prefix = 2ALPHA *(":" 1*(ALPHA / DIGIT)).  Sub-namespace IDs hold no colon
# or hyphen, so the first hyphen ends the prefix.
PREFIXED_NSS_PATTERN = re.compile(r"([A-Za-z]{2}(?::[A-Za-z0-9]+)*)-(.+)", re.DOTALL)


def _prefix_rule(nss: str, rule: str) -> Rewrite:
    match = PREFIXED_NSS_PATTERN.fullmatch(nss)
    if not match:
        return Rewrite(nss)
    prefix, rest = match.groups()
    return _fold(nss, f"{ascii_lower(prefix)}-{rest}", rule)


def nbn_rule(nss: str) -> Rewrite:
    """RFC 8458 §4.2/§4.3: "The entire prefix is case insensitive"; NBN
    strings "MUST [be treated] as case sensitive"; "Different delimiting
    characters are not semantically equivalent"."""
    return _prefix_rule(nss, "nbn-prefix-case")


def nan_rule(nss: str) -> Rewrite:
    """IANA nan template (2023): the NBN model — "The entire prefix is case
    insensitive", NAN strings are case-sensitive."""
    return _prefix_rule(nss, "nan-prefix-case")


# --- ietf ---------------------------------------------------------------------


def ietf_rule(nss: str) -> Rewrite:
    """RFC 2648 §2: "The entire URN is case-insensitive." — except the
    ``params`` sub-namespace, where RFC 3553 §3 requires "exact string match"
    (the more specific rule wins, namespaces.md §3 trap 1).  ``params`` is
    recognised in any case, so a case variant of it is never folded into
    the exact one."""
    subnamespace = nss.split(":", 1)[0]
    if ascii_lower(subnamespace) == "params":
        return Rewrite(nss)
    return _fold(nss, lower_keeping_pct(nss), "ietf-case")


# --- doi ----------------------------------------------------------------------


def doi_rule(nss: str) -> Rewrite:
    """IANA doi template (2023-03-14): percent-encoding "SHALL be removed"
    before comparing DOI representations, and "the DOI-NSS is case
    insensitive with respect to printable ASCII characters".

    Decoding is represented canonically: decode every ``%HH`` once, fold
    ASCII case, and re-encode exactly the octets an NSS cannot hold raw.
    Two NSSs get the same result iff their decoded, case-folded octets are
    equal.  The template's example ``urn:doi:10.1000/456%23789`` keeps its
    ``%23`` (``#`` cannot stand raw in an NSS).  An NSS without the
    ``prefix "/" suffix`` shape is malformed and left alone.
    """
    octets = pct_decode(nss)
    if octets is None or octets.find(b"/") <= 0:
        return Rewrite(nss)
    decoded = pct_encode(octets)
    folded = pct_encode(octets.lower())  # bytes.lower() folds ASCII only
    rules = []
    if decoded != nss:
        rules.append("doi-percent-decode")
    if folded != decoded:
        rules.append("doi-case")
    return Rewrite(folded, tuple(rules))


# --- structured namespaces with one case-insensitive part ---------------------


def mpeg_rule(nss: str) -> Rewrite:
    """RFC 3614 §2: only the {standard name} segment is case-insensitive;
    "The remainder ... must be considered case-sensitive"."""
    return _lower_leading_segments(nss, 1, "mpeg-standard-case")


def ccsds_rule(nss: str) -> Rewrite:
    """RFC 7738 §3.10: the <SNID> is case-insensitive and "MUST be case
    normalized"."""
    return _lower_leading_segments(nss, 1, "ccsds-snid-case")


def ogf_rule(nss: str) -> Rewrite:
    """RFC 6453 §2.10: the <SNID> is case-insensitive; the rest is defined
    per SNID."""
    return _lower_leading_segments(nss, 1, "ogf-snid-case")


def ddi_rule(nss: str) -> Rewrite:
    """RFC 9517 §3.7: ``urn:ddi:<agency-id>:`` is case-insensitive (domain-name
    rules); "The remainder ... MUST be considered case sensitive"."""
    return _lower_leading_segments(nss, 1, "ddi-agency-case")


def ebu_rule(nss: str) -> Rewrite:
    """RFC 5174: the {category} is case-insensitive; the rest is case-sensitive."""
    return _lower_leading_segments(nss, 1, "ebu-category-case")


def tva_rule(nss: str) -> Rewrite:
    """RFC 4195: the {category} is case-insensitive; the rest is case-sensitive."""
    return _lower_leading_segments(nss, 1, "tva-category-case")


def fdc_rule(nss: str) -> Rewrite:
    """RFC 4198: lower-case the ProviderId before comparing."""
    return _lower_leading_segments(nss, 1, "fdc-provider-case")


def uci_rule(nss: str) -> Rewrite:
    """RFC 4179: ``urn:uci:{prefix}:`` is case-insensitive; the remainder is
    case-sensitive."""
    return _lower_leading_segments(nss, 1, "uci-prefix-case")


def mrn_rule(nss: str) -> Rewrite:
    """IANA mrn template v2 (2024-08-26): "Case normalization must be applied
    to both the OID and OSNID part"; the OSNS follows its organisation."""
    return _lower_leading_segments(nss, 2, "mrn-oid-osnid-case")


def newsml_rule(nss: str) -> Rewrite:
    """RFC 3085: ProviderId, DateId, NewsItemId and RevisionId compare
    case-insensitively; the RevisionId carries its update flag ("A" or "U",
    ``...:IIC3BRF:1A``)."""
    return _lower_leading_segments(nss, 4, "newsml-id-case")


def gdst_rule(nss: str) -> Rewrite:
    """IANA gdst template (2020): "[prefix]", "[serial]" and "[secondary_id]"
    are "not case sensitive"; they make up the last segment
    ``[prefix].[serial][.[secondary_id]]``."""
    head, colon, last = nss.rpartition(":")
    if not colon:
        return Rewrite(nss)
    return _fold(nss, f"{head}:{lower_keeping_pct(last)}", "gdst-id-case")


_GS1_LITERALS = frozenset({"gdd", "bie", "bdt", "cl", "std"})


#: the literals that may follow "gdd": the kind of the name assigned after it
_GS1_GDD_KINDS = frozenset({"bie", "bdt", "cl"})


def gs1_rule(nss: str) -> Rewrite:
    """IANA gs1 template (lines 74, 138-140): the literals urn, gs1, gdd, bie,
    bdt, cl and std are case-insensitive and canonically lower case; assigned
    values are case-sensitive.  The literals lead the NSS: "gdd" or "std"
    first, then after "gdd" the kind of name (bie, bdt, cl); what follows is
    an assigned name, folded by no rule even where it spells a literal
    (``urn:gs1:gdd:bdt:Std``)."""
    parts = nss.split(":")
    first = ascii_lower(parts[0])
    if first not in _GS1_LITERALS:
        return Rewrite(nss)
    parts[0] = first
    if first == "gdd" and len(parts) > 1 and ascii_lower(parts[1]) in _GS1_GDD_KINDS:
        parts[1] = ascii_lower(parts[1])
    return _fold(nss, ":".join(parts), "gs1-literal-case")


def _lower_encoded_letters(match: "re.Match[str]") -> str:
    """A run of percent-encoded UTF-8, its letters lower-cased and every
    octet encoded again (``%C3%9C`` "Ü" -> ``%C3%BC`` "ü"); a run that is no
    UTF-8 stays as it is."""
    run = match.group()
    try:
        text = bytes.fromhex(run.replace("%", "")).decode("utf-8")
    except UnicodeDecodeError:
        return run
    lowered = text.lower()
    if lowered == text:
        return run
    return "".join(f"%{octet:02X}" for octet in lowered.encode("utf-8"))


def lex_rule(nss: str) -> Rewrite:
    """RFC 9676 §3.3: names in the LEX namespace are case-insensitive (lower
    case recommended), whatever their letters: a non-ASCII one, which a
    name holds percent-encoded, folds too; §3.2: "/" is always converted to
    "-" (a document number "2/2003" is written "2-2003"), so a name holding
    "/" is its converted form."""
    lowered = lower_keeping_pct(nss)
    if "%" in lowered:
        lowered = PCT_RUN.sub(_lower_encoded_letters, lowered)
    folded = _fold(nss, lowered, "lex-case")
    if "/" not in folded.nss:
        return folded
    return Rewrite(folded.nss.replace("/", "-"), folded.rules + ("lex-slash",))


#: IANA meta template: meta-nss = prefix "-" meta-string, prefix =
#: format-code *(":" sub-namespace), each 1*(ALPHA / DIGIT); the template's
#: own example writes a "." in a sub-namespace (``dc:elements1.1-title``)
_META_PREFIX = re.compile(r"[A-Za-z0-9.]+(?::[A-Za-z0-9.]+)*(?=-)")


def meta_rule(nss: str) -> Rewrite:
    """IANA meta template: "The entire prefix is case insensitive"; the
    meta-string after its "-" SHALL be treated as case-sensitive."""
    match = _META_PREFIX.match(nss)
    if match is None:
        return Rewrite(nss)
    end = match.end()
    return _fold(nss, nss[:end].lower() + nss[end:], "meta-prefix-case")


#: IANA pwid template: archive-id ":" archival-time ":" precision-spec ":"
#: archived-item; the time is ISO 8601 UTC and holds ":" itself
_PWID = re.compile(r"([^:]+):([0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}[Zz]):([A-Za-z]+):")
#: an archived item that is a URI: its scheme, and the host of its
#: authority (after any userinfo), RFC 3986 §6.2.2.1
_ARCHIVED_URI_HOST = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?[^/?#@]*")


def pwid_rule(nss: str) -> Rewrite:
    """IANA pwid template: case-insensitive, except where the archived URI
    is case-sensitive: the archive, time and precision are folded, and of
    an archived URI its scheme and host (RFC 3986 §6.2.2.1), the rest of it
    kept."""
    match = _PWID.match(nss)
    if match is None:
        return Rewrite(nss)
    end = match.end()
    item = nss[end:]
    uri = _ARCHIVED_URI_HOST.match(item)
    if uri is not None:
        scheme_end = item.index("://") + 3
        at = item.rfind("@", 0, uri.end())
        host_start = at + 1 if at >= 0 else scheme_end
        item = (item[:scheme_end].lower() + item[scheme_end:host_start] + item[host_start:uri.end()].lower()
                + item[uri.end():])
    return _fold(nss, nss[:end].lower() + item, "pwid-case")


def smpte_rule(nss: str) -> Rewrite:
    """RFC 5119: ``urn:smpte:ul`` is case-insensitive; other sub-namespaces
    are exact unless SMPTE says otherwise."""
    if ascii_lower(nss.split(":", 1)[0]) != "ul":
        return Rewrite(nss)
    return _fold(nss, lower_keeping_pct(nss), "smpte-ul-case")


def gsma_rule(nss: str) -> Rewrite:
    """RFC 7254 (namespaces.md §2): comparisons are case-insensitive, and
    two GSMA URNs are equal when the ``imeival`` and the parameters match in
    the same order, a ``vers=0`` parameter (the version a URN without one
    has) aside."""
    folded = _fold(nss, lower_keeping_pct(nss), "gsma-case")
    head, *params = folded.nss.split(";")
    kept = [param for param in params if param != "vers=0"]
    if len(kept) == len(params):
        return folded
    return Rewrite(";".join([head, *kept]), folded.rules + ("gsma-vers-0",))


# --- namespaces whose whole NSS is case-insensitive ---------------------------


def _whole_nss_lower(rule: str, source: str) -> NamespaceRule:
    def fold(nss: str) -> Rewrite:
        return _fold(nss, lower_keeping_pct(nss), rule)

    fold.__doc__ = source
    return fold


def s1000d_rule(nss: str) -> Rewrite:
    """RFC 4688 §2: "All generated identifiers are to be considered
    case-insensitive."  Upper case is canonical (the RFC's examples)."""
    return _fold(nss, ascii_upper(nss), "s1000d-case")


# NID -> the registration text that makes its whole NSS case-insensitive
# (namespaces.md §1-§2).  Lower case is canonical.
_WHOLE_NSS_CASE_INSENSITIVE = {
    "adid": "RFC 8107: the whole URN-ADID is case-insensitive",
    "alert": "RFC 7462: compared by case-insensitive string equality",
    "service": "RFC 5031: compared by case-insensitive string equality",
    "clei": "RFC 4152: exact match, case-insensitive",
    "dvb": "RFC 5328: the <NSS> is case insensitive",
    "hbbtv": "RFC 7528: the <NSS> is case insensitive",
    "oipf": "RFC 6893: the <NSS> is case insensitive",
    "etsi": "IANA etsi template: the entire URN is case-insensitive",
    "onem2m": "IANA onem2m template: the entire URN is case-insensitive",
    "ieee": "RFC 8069: IEEEresource and ResourceSpecificString are case-insensitive",
    "ivis": "RFC 4617: the entire URN is case-insensitive",
    "mef": "RFC 7818: the entire URN is case-insensitive",
    "pin": "RFC 3043: the entire URN is case-insensitive",
    "nzl": "RFC 4350: exact, but not case-sensitive",
    "onf": "IANA onf template: the NSS is case-insensitive",
    "stalwart": "IANA stalwart template: comparison of the NSS is case-insensitive",
    "trivore": "IANA trivore template: the NSS is case-insensitive",
    "eidr": "RFC 7972 §2: case-insensitive string match of the whole URN-EIDR",
    "iso": "RFC 5141 §2.9: normalize the case of all elements",
}

#: NID -> the rule it registers.  Each entry cites its registration.
NAMESPACE_RULES: Dict[str, NamespaceRule] = {
    "uuid": uuid_rule,
    "isbn": isbn_rule,
    "issn": issn_rule,
    "isni": isni_rule,
    "isan": isan_rule,
    "nbn": nbn_rule,
    "nan": nan_rule,
    "ietf": ietf_rule,
    "doi": doi_rule,
    "mpeg": mpeg_rule,
    "ccsds": ccsds_rule,
    "ogf": ogf_rule,
    "ddi": ddi_rule,
    "ebu": ebu_rule,
    "tva": tva_rule,
    "fdc": fdc_rule,
    "uci": uci_rule,
    "mrn": mrn_rule,
    "newsml": newsml_rule,
    "gdst": gdst_rule,
    "gs1": gs1_rule,
    "smpte": smpte_rule,
    "gsma": gsma_rule,
    "lex": lex_rule,
    "meta": meta_rule,
    "pwid": pwid_rule,
    "s1000d": s1000d_rule,
    **{nid: _whole_nss_lower(f"{nid}-case", source)
       for nid, source in _WHOLE_NSS_CASE_INSENSITIVE.items()},
}


def rewrite_key(key: str) -> Tuple[str, Tuple[str, ...]]:
    """``(ns_key, rule names)`` for ``key``; the key itself when no rule applies."""
    parts = split_key(key)
    if parts is None:
        return key, ()
    return rewrite_parts(key, parts.nid, parts.nss)


def rewrite_parts(key: str, nid: str, nss: str) -> Tuple[str, Tuple[str, ...]]:
    """:func:`rewrite_key` of a key already split by ``split_key``."""
    rule = NAMESPACE_RULES.get(nid)
    if rule is None:
        return key, ()
    new, rules = rule(nss)
    if new == nss:
        return key, ()
    return join_key(nid, new), rules


def ns_key(key: str) -> str:
    """The namespace-aware key of an RFC 8141 equivalence key.

    ``key`` is ``urn:<nid lower-cased>:<nss with %HH upper-cased>`` with the
    components removed; the result adds the equivalences the namespace
    registers (e.g. ``urn:isbn:0-451-45052-3`` -> ``urn:isbn:9780451450524``).
    Never raises; returns ``key`` unchanged when no rule applies.

    >>> ns_key("urn:isbn:0-451-45052-3")
    'urn:isbn:9780451450524'
    >>> ns_key("urn:example:A")
    'urn:example:A'
    """
    return rewrite_key(key)[0]


def ns_key_rules(key: str) -> Tuple[str, ...]:
    """The names of the normative rules that ``ns_key(key)`` applied (those
    that changed something), in the order they applied.

    >>> ns_key_rules("urn:isbn:0-451-45052-3")
    ('isbn-hyphens', 'isbn-10-to-13')
    >>> ns_key_rules("urn:isbn:9780451450524")
    ()
    """
    return rewrite_key(key)[1]
