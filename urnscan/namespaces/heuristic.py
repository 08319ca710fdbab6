"""The deduplication key: ``ns_key`` plus heuristic rules (marked H in
namespaces.md) that go beyond what namespaces register — repairs of common
malformations, cross-form mappings and "same work" keys for citation
deduplication.  Every heuristic rule name starts with ``h:``.

``dedup_key`` is a function of ``ns_key``'s output, so it never splits what
``ns_key`` merges; its rule tuple makes every grouping auditable.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from ._text import PCT_RUN, KeyParts, ascii_lower, join_key, pct_decode, pct_encode, split_key
from .normative import ISNI_PATTERN, NAMESPACE_RULES, isbn_compact, rewrite_key, rewrite_parts

#: A heuristic: an NSS in, a whole key out (it may move to another NID), or
#: ``None`` when it does not apply.
Heuristic = Callable[[str], Optional[str]]

# Bound on heuristic rounds; a key settles in at most a few (see _apply_heuristics).
_MAX_ROUNDS = 8


# --- uuid ---------------------------------------------------------------------

_LOOSE_UUID = re.compile(
    r"(\{|%7B)?([0-9A-Fa-f]{8})-?([0-9A-Fa-f]{4})-?([0-9A-Fa-f]{4})-?"
    r"([0-9A-Fa-f]{4})-?([0-9A-Fa-f]{12})(\}|%7D)?")


def uuid_repair(nss: str) -> Optional[str]:
    """A brace-wrapped or hyphen-less UUID (RFC 9562 §4 mentions such
    outputs) is not a valid NSS; namespaces.md allows a flagged repair to
    the canonical lower-case 8-4-4-4-12 form."""
    match = _LOOSE_UUID.fullmatch(nss)
    if not match or bool(match.group(1)) != bool(match.group(7)):
        return None
    return join_key("uuid", "-".join(match.group(2, 3, 4, 5, 6)).lower())


# --- oid, ietf: leading zeros ---------------------------------------------------

_DOTTED_DIGITS = re.compile(r"[0-9]+(?:\.[0-9]+)*")


def _strip_zeros(number: str) -> str:
    return number.lstrip("0") or "0"


def oid_leading_zeros(nss: str) -> Optional[str]:
    """RFC 3061 §2 forbids leading zeros in arcs; stripping them is a repair."""
    if not _DOTTED_DIGITS.fullmatch(nss):
        return None
    return join_key("oid", ".".join(_strip_zeros(arc) for arc in nss.split(".")))


_IETF_NUMBERED = re.compile(r"(rfc|fyi|std|bcp):([0-9]+)")


def ietf_leading_zeros(nss: str) -> Optional[str]:
    """``rfc:0822`` -> ``rfc:822``: RFC 2648 says nothing about zeros."""
    match = _IETF_NUMBERED.fullmatch(nss)
    if not match:
        return None
    return join_key("ietf", f"{match.group(1)}:{_strip_zeros(match.group(2))}")


# --- doi, eidr: cross-form --------------------------------------------------------

_RFC_DOI = re.compile(r"10\.17487/rfc([0-9]+)")  # ns_key has lower-cased the DOI


def doi_rfc_to_ietf(nss: str) -> Optional[str]:
    """The RFC Editor's DOIs ``10.17487/RFCn`` name the same RFCs as
    ``urn:ietf:rfc:n`` (namespaces.md, ietf row)."""
    match = _RFC_DOI.fullmatch(nss)
    if not match:
        return None
    return join_key("ietf", f"rfc:{_strip_zeros(match.group(1))}")


def eidr_to_doi(nss: str) -> Optional[str]:
    """A ``urn:eidr:`` name is the DOI with its first ``:`` replaced by
    ``/`` (RFC 7972; IANA doi template)."""
    prefix, colon, suffix = nss.partition(":")
    if not colon or not prefix or not suffix:
        return None
    return join_key("doi", f"{prefix}/{suffix}")


# --- isbn, isni: presentation separators ---------------------------------------

# A space or U+2010 HYPHEN, percent-encoded in a key (or raw, in a key made
# from an invalid URN), used where the template uses "-".
_ISBN_SEPARATORS = re.compile(r"%20|%E2%80%90| |\u2010")


def isbn_separators(nss: str) -> Optional[str]:
    """Spaces and typographic hyphens between ISBN parts read as hyphens;
    None when the NSS holds none (the key is then left as it is)."""
    if "%" not in nss and " " not in nss and "\u2010" not in nss:
        return None
    candidate = _ISBN_SEPARATORS.sub("-", nss)
    if isbn_compact(candidate) is not None:
        return join_key("isbn", candidate)
    return None


_SPACES = re.compile(r"%20| ")


def isni_spaces(nss: str) -> Optional[str]:
    """The ISNI presentation form groups digits by four with spaces (IANA
    isni template: spaces "shall be removed before comparison")."""
    candidate = _SPACES.sub("", nss)
    return join_key("isni", candidate) if ISNI_PATTERN.fullmatch(candidate) else None


# --- lex ------------------------------------------------------------------------

_GERMAN_LETTERS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss",
                   "Ä": "ae", "Ö": "oe", "Ü": "ue"}
_GERMAN_JURISDICTIONS = frozenset({"de", "at", "ch", "li", "lu"})


def _transliterate_char(ch: str, german: bool) -> str:
    if german and ch in _GERMAN_LETTERS:
        return _GERMAN_LETTERS[ch]
    base = "".join(c for c in unicodedata.normalize("NFKD", ch)
                   if not unicodedata.combining(c))
    if base and base.isascii() and base.isalnum():
        return ascii_lower(base)
    return pct_encode(ch.encode("utf-8"))


_JURISDICTION_END = re.compile(r"[:;]")


def lex_transliterate(nss: str) -> Optional[str]:
    """RFC 9676 §3.4 RECOMMENDS transliterating non-ASCII letters to ASCII
    ("sanità" -> "sanita", "München" -> "muenchen"), the mapping chosen by
    each jurisdiction; names differing "in the spelling of the same word"
    are equivalent (§3.3).  Approximation: German umlauts and ß expanded for
    German-speaking jurisdictions, diacritics dropped elsewhere."""
    if "%" not in nss:
        return None  # no percent-encoded letter to transliterate
    german = _JURISDICTION_END.split(nss, 1)[0] in _GERMAN_JURISDICTIONS

    def replace(match: "re.Match[str]") -> str:
        octets = pct_decode(match.group())
        try:
            text = octets.decode("utf-8") if octets is not None else None
        except UnicodeDecodeError:
            text = None
        if text is None:
            return match.group()
        return "".join(_transliterate_char(ch, german) for ch in text)

    return join_key("lex", PCT_RUN.sub(replace, nss))


def lex_work(nss: str) -> Optional[str]:
    """RFC 9676 §3.2: ``@`` introduces the expression (version, language),
    ``$`` the manifestation; dropping them gives a work-level key."""
    cut = min((i for i in (nss.find("@"), nss.find("$")) if i >= 0), default=-1)
    return join_key("lex", nss[:cut]) if cut > 0 else None


# --- iso ------------------------------------------------------------------------


def iso_same_standard(nss: str) -> Optional[str]:
    """RFC 5141 §2.4: ``std:`` originator [type] docnumber [partnumber],
    then status, edition, version, language, supplements and document
    elements.  Keeping only the first four gives a "same standard" key
    (``urn:iso:std:iso:9999:-1:ed-1:en`` -> ``urn:iso:std:iso:9999:-1``).

    Only the elements the grammar names are dropped.  An <addition>
    (``:tech`` and what follows) names "a resource in its own right"
    extracted from or associated with the document, such as one schema of
    a standard of many (``urn:iso:std:iso:20022:tech:xsd:pain.001.001.03``),
    and a segment the grammar does not know (``urn:iso:std:iso:11073:10101``,
    the nomenclature of one part) may name one too: from either on, the
    NSS is kept, and the key is that of the resource, not the standard."""
    segments = nss.split(":")
    if len(segments) < 3 or segments[0] != "std" or not segments[1]:
        return None
    number_at = 2 if segments[2].isdigit() else 3
    if number_at >= len(segments) or not segments[number_at].isdigit():
        return None
    end = number_at + 1
    if end < len(segments) and segments[end].startswith("-"):
        end += 1
    kept = _iso_resource_at(segments, end)
    return join_key("iso", ":".join(segments[:end] + segments[kept:]))


#: RFC 5141 §2.4: status, edition, docversion and language, each one segment
_ISO_DOCUMENT_VERSION = re.compile(
    r"draft|cancelled|stage-[0-9]{2}\.[0-9]{2}(?:\.v[0-9]+)?|ed-[0-9]+|v[0-9][0-9a-z.-]*|[a-z]{2}(?:,[a-z]{2})*")
#: RFC 5141 §2.4: a supplement (suppltype ":" supplnumber) and a docelement
#: (its kind ":" elementnumbers), two segments each
_ISO_SUPPLEMENT = frozenset({"amd", "cor", "add"})
_ISO_DOCUMENT_ELEMENT = frozenset({"clause", "figure", "table", "term"})


def _iso_resource_at(segments: List[str], at: int) -> int:
    """Where, from ``at``, the segments of an ISO NSS stop being elements of
    the document's version, supplements and parts (RFC 5141 §2.4): the
    start of an addition or of a segment the grammar does not name, or
    their end."""
    while at < len(segments):
        segment = segments[at]
        if segment in _ISO_SUPPLEMENT and at + 1 < len(segments) and segments[at + 1].isdigit():
            at += 2
        elif segment in _ISO_DOCUMENT_ELEMENT and at + 1 < len(segments) and segments[at + 1]:
            at += 2
        elif not segment or _ISO_DOCUMENT_VERSION.fullmatch(segment):  # (an empty one: a stray ":")
            at += 1
        else:
            return at
    return at


# --- s1000d -----------------------------------------------------------------------

_S1000D_ISSUE_LANGUAGE = re.compile(
    r"(?:_I-[0-9]{3}(?:-[0-9]{2})?)?(?:_L-[A-Z]{2}(?:-[A-Z]{2})?)?\Z")


def s1000d_same_module(nss: str) -> Optional[str]:
    """RFC 4688 §2: dropping the ``_I-`` issue and ``_L-`` language parts
    gives a "same data module" key."""
    match = _S1000D_ISSUE_LANGUAGE.search(nss)
    if not match or match.start() == 0:
        return None
    return join_key("s1000d", nss[:match.start()])


# --- dev ----------------------------------------------------------------------------

_DEV_MAC = re.compile(r"(mac:)([0-9A-Fa-f]+)((?:_.*)?)", re.DOTALL)


def dev_mac_case(nss: str) -> Optional[str]:
    """RFC 9039 §3.2.1 compares the NSS case-sensitively but notes the same
    MAC address may be written in either case; lower case is RECOMMENDED."""
    match = _DEV_MAC.fullmatch(nss)
    if not match:
        return None
    return join_key("dev", match.group(1) + match.group(2).lower() + match.group(3))


# --- generic ------------------------------------------------------------------------


def trailing_slash(nss: str) -> Optional[str]:
    """A trailing "/" counts for RFC 8141 §3.2; in citations it is noise.
    Applies to every namespace; returns the stripped NSS (not a key)."""
    stripped = nss.rstrip("/")
    return stripped if stripped and stripped != nss else None


#: NID -> its heuristics, in the order they apply; each with its rule name.
NAMESPACE_HEURISTICS: Dict[str, Tuple[Tuple[str, Heuristic], ...]] = {
    "uuid": (("h:uuid-repair", uuid_repair),),
    "oid": (("h:oid-leading-zeros", oid_leading_zeros),),
    "ietf": (("h:ietf-leading-zeros", ietf_leading_zeros),),
    "doi": (("h:doi-rfc-to-ietf", doi_rfc_to_ietf),),
    "eidr": (("h:eidr-to-doi", eidr_to_doi),),
    "isbn": (("h:isbn-separators", isbn_separators),),
    "isni": (("h:isni-spaces", isni_spaces),),
    "lex": (("h:lex-transliterate", lex_transliterate),
            ("h:lex-work", lex_work)),
    "iso": (("h:iso-same-standard", iso_same_standard),),
    "s1000d": (("h:s1000d-same-module", s1000d_same_module),),
    "dev": (("h:dev-mac-case", dev_mac_case),),
}


def _renormalise(candidate: str, name: str, current: str,
                 applied: List[str]) -> str:
    """Re-apply the namespace rules to ``candidate``; record ``name`` (and
    the rules it triggered) only when the key really changes."""
    normalised, rules = rewrite_key(candidate)
    if normalised == current:
        return current
    applied.append(name)
    applied.extend(rules)
    return normalised


def _one_round(key: str, applied: List[str], parts: Optional[KeyParts] = None) -> str:
    """The trailing-slash rule, then the heuristics of the key's namespace,
    stopping early when one moves the key to another namespace.  ``parts``:
    the key already split, when the caller has it."""
    if parts is None:
        parts = split_key(key)
        if parts is None:
            return key
    nid = parts.nid
    heuristics = NAMESPACE_HEURISTICS.get(nid, ())
    if not heuristics and not parts.nss.endswith("/"):
        return key  # (the common case: nothing here applies)
    current = (key, parts)  # key and its split, split again only once key changes
    stripped = trailing_slash(parts.nss)
    if stripped is not None:
        key = _renormalise(join_key(nid, stripped), "h:trailing-slash", key, applied)
    for name, heuristic in heuristics:
        if current[0] != key:
            current = (key, split_key(key))
        if current[1].nid != nid:
            break
        candidate = heuristic(current[1].nss)
        # key is a fixed point of the namespace rules (ns_key is idempotent):
        # a heuristic that gives it back changes nothing
        if candidate is not None and candidate != key:
            key = _renormalise(candidate, name, key, applied)
    return key


def _apply_heuristics(key: str, applied: List[str], parts: Optional[KeyParts] = None) -> str:
    """Rounds until nothing changes, so the result is a fixed point (a hop
    eidr -> doi -> ietf, or a cut that exposes a trailing "/", gets another
    round).  Every rule shortens or canonicalises the key, so this ends well
    within the bound."""
    for _ in range(_MAX_ROUNDS):
        after = _one_round(key, applied, parts)
        if after == key:
            break
        key, parts = after, None
    return key


class NamespaceKeys(NamedTuple):
    """Both keys of one equivalence key and the rules that reached them."""

    ns_key: str
    ns_rules: Tuple[str, ...]
    dedup_key: str
    dedup_rules: Tuple[str, ...]


def namespace_keys(key: str) -> NamespaceKeys:
    """``ns_key``, ``ns_key_rules``, and ``dedup_key``'s key and rules, from
    one pass of the namespace rules over ``key``.  Never raises.

    >>> namespace_keys("urn:isbn:0-451-45052-3")  # doctest: +NORMALIZE_WHITESPACE
    NamespaceKeys(ns_key='urn:isbn:9780451450524', ns_rules=('isbn-hyphens', 'isbn-10-to-13'),
                  dedup_key='urn:isbn:9780451450524', dedup_rules=('isbn-hyphens', 'isbn-10-to-13'))
    """
    parts = split_key(key)
    if parts is None:
        return NamespaceKeys(key, (), key, ())
    return keys_of_parts(key, parts)


def keys_of_parts(key: str, parts: KeyParts) -> NamespaceKeys:
    """:func:`namespace_keys` of a key already split by ``split_key``."""
    nid, nss = parts.nid, parts.nss
    if nid not in NAMESPACE_RULES and nid not in NAMESPACE_HEURISTICS and not nss.endswith("/"):
        return _new(NamespaceKeys, (key, (), key, ()))  # no rule of any kind applies (most namespaces)
    normalised, rules = rewrite_parts(key, nid, nss)
    applied = list(rules)
    dedup = _apply_heuristics(normalised, applied, parts if normalised is key else None)
    return _new(NamespaceKeys, (normalised, rules, dedup, tuple(applied)))


_new = tuple.__new__  # a NamedTuple without its argument handling


def dedup_key(key: str) -> Tuple[str, Tuple[str, ...]]:
    """``(dedup key, rule names)`` for an RFC 8141 equivalence key.

    The key is ``ns_key(key)`` with the heuristic rules applied; the names
    list the normative rules of ``ns_key`` first, then every heuristic (with
    the ``h:`` prefix) and the normative rules it triggered.  Heuristic
    merges can be wrong; group by this key only where that is acceptable and
    keep the rule names for review.  Never raises.

    >>> dedup_key("urn:uuid:{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}")
    ('urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6', ('h:uuid-repair',))
    """
    keys = namespace_keys(key)
    return keys.dedup_key, keys.dedup_rules
